/**
 * The access probes of a restricted endpoint (admin, self): one valid request (lib/setup/requests) — a request the
 * caller its class admits gets a success for — sent as every caller, so that an endpoint that lets a caller
 * through cannot hide behind a 404 about a placeholder id or a 400 about an empty body. Sent once per session; the
 * access and acl checks judge the same answers (lib/spec/admission.ts, `judgeAccess`), the route and store-code
 * checks read the witness's.
 *
 * `accessSequence` is the plan, as data (`--dry-run` prints it): the callers its class refuses go first, then the
 * limited admin (at an endpoint the detail table names an ACL resource for), then the admitted caller, whose
 * success is the witness the others are read against. A request that a success uses up (a removal, an order
 * placed, a unique creation) is prepared afresh for the next caller after any success. In read-only mode only GETs
 * are sent. `sequenceHooks` makes the request (set-up) for the sender (lib/shop/sender.ts).
 */
import { SetupError, provisionerOf, toId } from '../setup/provision.ts'
import { NO_VALID_REQUEST, recipeOf, type RequestRecipe } from '../setup/requests/index.ts'
import { ownCustomer } from '../setup/requests/shared.ts'
import type { PreparedCall } from '../setup/families/index.ts'
import { ACCESS_CALLERS } from '../spec/admission.ts'
import { fillTemplate } from '../spec/paths.ts'
import type { EndpointRow } from '../spec/types.ts'
import { rowId } from '../spec/catalog/index.ts'
import type { Session } from '../shop/session.ts'
import type { Probe, ProbeAnswers, SequenceCaller, SequencePlan, Unbuilt } from '../shop/probe.ts'
import type { PreparedProbe, SendHooks } from '../shop/sender.ts'
import { answerTo } from '../shop/probe.ts'
import { concretePath, placeholder, type ProbeSettings } from './probe.ts'

/**
 * A path names something a customer owns by id (an item of the caller's cart): another customer naming it must not be
 * let through. A guest cart's masked id names nobody's cart — any customer who holds it may claim it — so not there.
 */
const NAMES_OWNED = /^\/V1\/(?!guest-carts\/).*:(itemId|cartId|id)\b/

/** The caller a restricted endpoint's class admits: the witness of its valid request. */
function witnessOf(row: EndpointRow): SequenceCaller {
  return row.access === 'self' ? 'customer' : 'admin'
}

/** Why the valid request of a restricted endpoint is not sent (undefined: it is). */
function unbuildableOf(row: EndpointRow, settings: ProbeSettings, hasRecipe: boolean): SequencePlan['unbuildable'] {
  if (settings.readOnly && row.method !== 'GET')
    return { message: `read-only mode sends no ${row.method} requests`, reason: 'read-only' }
  if (hasRecipe) return undefined
  return {
    message: `no valid request can be built: ${NO_VALID_REQUEST[rowId(row)] ?? 'none is known for this endpoint'}`,
    reason: 'no-valid-request',
  }
}

/**
 * The plan of a restricted endpoint's access probes (undefined for an anonymous one: placeholder calls are its probes).
 */
export function accessSequence(row: EndpointRow, settings: ProbeSettings): SequencePlan | undefined {
  if (row.access === 'anon') return undefined
  const recipe = recipeOf(row)
  const refused: SequenceCaller[] = row.access === 'self' ? ['none', 'malformed'] : ['none', 'malformed', 'customer']
  if (row.access === 'self' && NAMES_OWNED.test(row.path) && !settings.readOnly) refused.push('other customer')
  const limited = row.access === 'admin' && row.acl !== undefined && settings.limitedAdmin !== undefined
  // An admin's placeholder write to a self endpoint (`{}` on a `mine` path) may make a cart nobody owns: not sent.
  const fallback = [
    ...ACCESS_CALLERS.filter((c) => !(c === 'admin' && row.access === 'self' && row.method !== 'GET')),
    ...(row.acl !== undefined && settings.limitedAdmin !== undefined ? (['limited admin'] as const) : []),
  ]
  const unbuildable = unbuildableOf(row, settings, recipe !== undefined)
  return {
    method: row.method,
    template: row.path,
    groups: [refused, ...(limited ? [['limited admin' as const]] : []), [witnessOf(row)]],
    witness: witnessOf(row),
    again: recipe?.again ?? (row.method === 'GET' ? 'reuse' : 'fresh'),
    optional: ['other customer', 'limited admin'],
    ...(recipe?.lane !== undefined ? { lane: recipe.lane } : {}),
    ...(unbuildable !== undefined ? { unbuildable } : {}),
    fallback: fallback.map((caller) => placeholder(row, caller)),
  }
}

/**
 * The admitted caller's answer under the configured store code: a restricted endpoint's witness (its valid request,
 * or the placeholder call where none could be built), an anonymous one's placeholder call without a token. The route
 * and store-code checks read it too: a success with real data shows the endpoint is served as well as any answer can,
 * and the run sends one call the fewer.
 */
export function witnessAnswer(row: EndpointRow, answers: ProbeAnswers): Probe | undefined {
  if (row.access === 'anon') return answerTo(answers, row.method, concretePath(row), { caller: 'none', store: 'first' })
  const s = answers.sequence
  return s?.probes.get(s.witness)
}

/** What makes a restricted endpoint's valid request for the sender: its set-up, the callers' tokens, the ledger. */
export function sequenceHooks(session: Session, row: EndpointRow): Pick<SendHooks, 'prepare'> {
  const recipe = recipeOf(row)
  if (recipe === undefined) return {}
  const fx = provisionerOf(session)
  let attempt = 0
  return {
    async prepare(): Promise<PreparedProbe | Unbuilt> {
      let prepared: PreparedCall
      try {
        prepared = await recipe.prepare(fx, `${rowId(row)} access${attempt++ === 0 ? '' : ` ${attempt}`}`)
      } catch (err) {
        if (!(err instanceof SetupError)) throw err
        // Read-only mode makes nothing: what it could not find on the shop leaves the request without a valid form.
        const reason = session.seed.readOnly && err.reason === 'setup-failed' ? 'no-valid-request' : err.reason
        return { message: `no valid request could be made: ${err.message}`, reason, exchanges: err.exchanges }
      }
      return {
        path: fillTemplate(row.path, (name) => {
          const v = prepared.path[name]
          if (v === undefined) throw new Error(`the valid request of ${rowId(row)} gives no value for :${name}`)
          return String(v)
        }),
        ...(prepared.body !== undefined ? { body: prepared.body } : {}),
        ...(prepared.query !== undefined ? { query: prepared.query } : {}),
        tokens: await callerTokens(session, row, prepared),
        record: (caller) => record(session, row, recipe, prepared, caller),
      }
    },
  }
}

/** In the ledger before it is sent where a success creates something; settled with the id the answer names. */
function record(
  session: Session,
  row: EndpointRow,
  recipe: RequestRecipe,
  prepared: PreparedCall,
  caller: SequenceCaller,
): ReturnType<NonNullable<PreparedProbe['record']>> {
  const creates = recipe.creates
  if (creates === undefined) return undefined
  const keyOf = creates.keyOf !== undefined && prepared.body !== undefined ? creates.keyOf(prepared.body) : undefined
  const ticket = provisionerOf(session).ledger.request({
    kind: creates.kind,
    label: `${creates.kind} made by the ${caller} probe of ${rowId(row)}`,
    ...(keyOf !== undefined ? { key: keyOf } : {}),
  })
  return {
    sent: () => ticket.sent(),
    settle(outcome) {
      const answer = outcome.answer
      const made =
        answer !== undefined && answer.status >= 200 && answer.status < 300
          ? (creates.idOf(answer.body) ?? (toId(answer.body) !== undefined ? String(toId(answer.body)) : undefined))
          : undefined
      ticket.settle(outcome, made)
    },
  }
}

/** The token a valid request's actor sends: its own, the run's for a caller it names, none for a guest. */
function actorToken(session: Session, actor: PreparedCall['actor']): string | undefined {
  if (typeof actor === 'object') return actor.token
  return actor === 'guest' ? undefined : session.tokenFor(actor)
}

/**
 * The token each caller sends: none; a Bearer value no target issued; the witness's own (the run's admin, or the
 * customer of the run's own the request belongs to); a customer of the run's own at an admin endpoint (never the
 * configured customer's for a write: that account is the user's); another customer of the run's own; the limited
 * admin's. A caller the run has no token for is left out.
 */
async function callerTokens(
  session: Session,
  row: EndpointRow,
  prepared: PreparedCall,
): Promise<Map<SequenceCaller, string | undefined>> {
  const fx = provisionerOf(session)
  const tokens = new Map<SequenceCaller, string | undefined>([
    ['none', undefined],
    ['malformed', session.seed.malformedToken],
  ])
  tokens.set(witnessOf(row), actorToken(session, prepared.actor))
  if (row.access === 'admin') {
    const customer = session.seed.readOnly
      ? session.tokenFor('customer')
      : (await ownCustomer(fx).catch(() => undefined))?.token
    if (customer !== undefined) tokens.set('customer', customer)
    if (session.tokenFor('limited admin') !== undefined) tokens.set('limited admin', session.tokenFor('limited admin'))
  } else if (!session.seed.readOnly) {
    const other = await session
      .memo('valid request: other customer', () => fx.customer('other customer'))
      .catch(() => undefined)
    if (other !== undefined) tokens.set('other customer', other.token)
  }
  return tokens
}
