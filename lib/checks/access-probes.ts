/**
 * The access probes of a restricted endpoint (admin, self): one valid request (lib/setup/requests) — a request the
 * caller its class admits gets a success for — sent as every caller, so that an endpoint that lets a caller
 * through cannot hide behind a 404 about a placeholder id or a 400 about an empty body. Sent once per session; the
 * access and acl checks judge the same answers (lib/spec/admission.ts, `judgeAccess`).
 *
 * The callers its class refuses go first, then the limited admin (at an endpoint the detail table names an ACL
 * resource for), then the admitted caller, whose success is the witness the others are read against. A request
 * that a success uses up (a removal, an order placed, a unique creation) is prepared afresh for the next caller
 * after any success. In read-only mode only GETs are sent.
 */
import { SetupError, provisionerOf, toId } from '../setup/provision.ts'
import { NO_VALID_REQUEST, recipeOf, type RequestRecipe } from '../setup/requests/index.ts'
import { ownCustomer } from '../setup/requests/shared.ts'
import type { PreparedCall } from '../setup/families/index.ts'
import { fillTemplate } from '../spec/paths.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Exchange } from '../results/exchange.ts'
import type { NotJudgedReason } from '../results/verdict.ts'
import type { Session } from '../shop/session.ts'
import { probe, type Probe } from './probe.ts'
import { ACCESS_CALLERS } from '../spec/admission.ts'
import type { ProbeCaller } from '../shop/session.ts'
import { rowId } from '../spec/catalog/index.ts'

/** Who an access probe is sent as: the spec's four callers, the limited admin, or a customer who does not own what the path names. */
export type AccessProbeCaller = 'none' | 'malformed' | 'customer' | 'admin' | 'limited admin' | 'other customer'

export interface AccessProbes {
  /**
   * Set when no valid request could be made (why, the reason code, the set-up's exchanges): the callers were then
   * sent placeholder values (probe.ts), whose answers only a 401/403 can be read from.
   */
  unbuilt?: { message: string; reason: NotJudgedReason; exchanges: Exchange[] }
  /** Each caller's answer, in the order sent (a caller with no token in this run is absent). */
  probes: Map<AccessProbeCaller, Probe>
  /** The caller whose success the others are read against. */
  witness: AccessProbeCaller
}

/**
 * A path names something a customer owns by id (an item of the caller's cart): another customer naming it must not be
 * let through. A guest cart's masked id names nobody's cart — any customer who holds it may claim it — so not there.
 */
const NAMES_OWNED = /^\/V1\/(?!guest-carts\/).*:(itemId|cartId|id)\b/

/**
 * The admitted caller's answer under the configured store code: a restricted endpoint's witness (its valid request,
 * or the placeholder call where none could be built), an anonymous one's placeholder call without a token. The route
 * and store-code checks read it too: a success with real data shows the endpoint is served as well as any answer can,
 * and the run sends one call the fewer.
 */
export async function witnessProbe(session: Session, row: EndpointRow): Promise<Probe> {
  if (row.access === 'anon') return probe(session, row, 'none', session.seed.storeCode)
  const p = await accessProbes(session, row)
  return p.probes.get(p.witness) ?? probe(session, row, probeCaller(p.witness), session.seed.storeCode)
}

/** The endpoint's access probes, sent once per session whichever check asks first. */
export function accessProbes(session: Session, row: EndpointRow): Promise<AccessProbes> {
  return session.memo(`access probes ${rowId(row)}`, () => send(session, row))
}

async function send(session: Session, row: EndpointRow): Promise<AccessProbes> {
  const witness: AccessProbeCaller = row.access === 'self' ? 'customer' : 'admin'
  const probes = new Map<AccessProbeCaller, Probe>()
  const unbuilt = (message: string, reason: NotJudgedReason, exchanges: Exchange[] = []) => ({ message, reason, exchanges })
  if (session.seed.readOnly && row.method !== 'GET') return placeholders(session, row, witness, unbuilt(`read-only mode sends no ${row.method} requests`, 'read-only'))
  const recipe = recipeOf(row)
  if (recipe === undefined) return placeholders(session, row, witness, unbuilt(`no valid request can be built: ${NO_VALID_REQUEST[rowId(row)] ?? 'none is known for this endpoint'}`, 'no-valid-request'))
  const fx = provisionerOf(session)
  let attempt = 0
  const prepare = async (): Promise<PreparedCall | AccessProbes['unbuilt']> => {
    try {
      return await recipe.prepare(fx, `${rowId(row)} access${attempt++ === 0 ? '' : ` ${attempt}`}`)
    } catch (err) {
      if (!(err instanceof SetupError)) throw err
      // Read-only mode makes nothing: what it could not find on the shop leaves the request without a valid form.
      const reason = session.seed.readOnly && err.reason === 'setup-failed' ? 'no-valid-request' : err.reason
      return unbuilt(`no valid request could be made: ${err.message}`, reason, err.exchanges)
    }
  }
  let prepared = await prepare()
  if (prepared === undefined || !('actor' in prepared)) return placeholders(session, row, witness, prepared!)

  const refused: AccessProbeCaller[] = row.access === 'self' ? ['none', 'malformed'] : ['none', 'malformed', 'customer']
  const tokens = await callerTokens(session, row, prepared)
  if (row.access === 'self' && NAMES_OWNED.test(row.path) && tokens.has('other customer')) refused.push('other customer')
  const groups: AccessProbeCaller[][] = [refused, ...(tokens.has('limited admin') && row.acl !== undefined ? [['limited admin' as const]] : []), [witness]]
  const again = recipe.again ?? (row.method === 'GET' ? 'reuse' : 'fresh')
  // A caller the run has no token for is not sent as anyone else (read-only mode registers no customer).
  for (const caller of refused) {
    if (caller !== 'none' && tokens.get(caller) === undefined) {
      probes.set(caller, { caller: probeCaller(caller), store: session.seed.storeCode, path: '', unavailable: 'no customer token (read-only mode registers no customer: configure SHOP_CUSTOMER_EMAIL and SHOP_CUSTOMER_PASSWORD)', unavailableReason: 'no-customer-token' })
    }
  }
  for (const [i, all] of groups.entries()) {
    const group = all.filter((caller) => !probes.has(caller))
    const sent = await Promise.all(group.map((caller) => sendAs(session, row, recipe, prepared as PreparedCall, caller, tokens.get(caller), caller !== witness)))
    sent.forEach((p, j) => probes.set(group[j]!, p))
    const last = i === groups.length - 1
    if (!last && again === 'fresh' && sent.some(succeeded)) {
      const next = await prepare()
      if (next === undefined || !('actor' in next)) {
        // The witness cannot be asked: the verdict says why (its cell is not sent).
        for (const caller of groups.slice(i + 1).flat()) probes.set(caller, { caller: probeCaller(caller), store: session.seed.storeCode, path: '', unavailable: next!.message, unavailableReason: next!.reason })
        break
      }
      prepared = next
      // The witness's token comes with its request (a self endpoint's customer may be a new one).
      const fresh = await callerTokens(session, row, prepared)
      tokens.set(witness, fresh.get(witness))
    }
  }
  return { probes, witness }
}

/** Without a valid request: every caller the placeholder probe (probe.ts, shared with the route and store-code checks). */
async function placeholders(session: Session, row: EndpointRow, witness: AccessProbeCaller, why: NonNullable<AccessProbes['unbuilt']>): Promise<AccessProbes> {
  // An admin's placeholder write to a self endpoint (`{}` on a `mine` path) may make a cart nobody owns: not sent.
  const callers: ProbeCaller[] = [...ACCESS_CALLERS.filter((c) => !(c === 'admin' && row.access === 'self' && row.method !== 'GET')), ...(row.acl !== undefined && session.tokenFor('limited admin') !== undefined ? ['limited admin' as const] : [])]
  const sent = await Promise.all(callers.map((caller) => probe(session, row, caller, session.seed.storeCode)))
  return { unbuilt: why, probes: new Map(callers.map((c, i) => [c, sent[i]!])), witness }
}

function succeeded(p: Probe): boolean {
  return p.answer !== undefined && p.answer.status >= 200 && p.answer.status < 300
}

/** The Probe's caller field: the probe types know the four callers and the limited admin. */
function probeCaller(caller: AccessProbeCaller): Probe['caller'] {
  return caller === 'other customer' ? 'customer' : caller
}

/**
 * The token each caller sends: none; a Bearer value no target issued; the witness's own (the run's admin, or the
 * customer of the run's own the request belongs to); a customer of the run's own at an admin endpoint (never the
 * configured customer's for a write: that account is the user's); another customer of the run's own; the limited
 * admin's. A caller the run has no token for is left out.
 */
async function callerTokens(session: Session, row: EndpointRow, prepared: PreparedCall): Promise<Map<AccessProbeCaller, string | undefined>> {
  const fx = provisionerOf(session)
  const tokens = new Map<AccessProbeCaller, string | undefined>([
    ['none', undefined],
    ['malformed', session.seed.malformedToken],
  ])
  const actor = prepared.actor
  const own = typeof actor === 'object' ? actor.token : actor === 'guest' ? undefined : session.tokenFor(actor)
  tokens.set(row.access === 'self' ? 'customer' : 'admin', own)
  if (row.access === 'admin') {
    const customer = session.seed.readOnly ? session.tokenFor('customer') : (await ownCustomer(fx).catch(() => undefined))?.token
    if (customer !== undefined) tokens.set('customer', customer)
    if (session.tokenFor('limited admin') !== undefined) tokens.set('limited admin', session.tokenFor('limited admin'))
  } else if (!session.seed.readOnly) {
    const other = await session.memo('valid request: other customer', () => fx.customer('other customer')).catch(() => undefined)
    if (other !== undefined) tokens.set('other customer', other.token)
  }
  return tokens
}

/** Sends the prepared request as one caller (in the ledger first when a success creates something). */
async function sendAs(session: Session, row: EndpointRow, recipe: RequestRecipe, prepared: PreparedCall, caller: AccessProbeCaller, token: string | undefined, refusalExpected: boolean): Promise<Probe> {
  const store = session.seed.storeCode
  const path = session.targetPath(
    fillTemplate(row.path, (name) => {
      const v = prepared.path[name]
      if (v === undefined) throw new Error(`the valid request of ${rowId(row)} gives no value for :${name}`)
      return String(v)
    }),
  )
  const creates = recipe.creates
  const keyOf = creates?.keyOf !== undefined && prepared.body !== undefined ? creates.keyOf(prepared.body) : undefined
  const ticket = creates === undefined ? undefined : provisionerOf(session).ledger.request({ kind: creates.kind, label: `${creates.kind} made by the ${caller} probe of ${rowId(row)}`, ...(keyOf !== undefined ? { key: keyOf } : {}) })
  let outcome = await session.send({
    method: row.method,
    path,
    store,
    ...(token !== undefined ? { token } : {}),
    ...(prepared.body !== undefined ? { body: prepared.body } : {}),
    ...(prepared.query !== undefined ? { query: prepared.query } : {}),
    // A token sent where it should be refused: a 401 then says nothing about whether the token expired.
    ...(refusalExpected ? { refusalExpected } : {}),
  })
  let answer = outcome.answer
  // The witness's customer of the run's own may have seen its token expire (tokens live an hour, or less): renewed once.
  if (!refusalExpected && answer?.status === 401 && token !== undefined) {
    const current = await session.liveOwnToken(token)
    if (current !== token) {
      const again = await session.send({ method: row.method, path, store, token: current, ...(prepared.body !== undefined ? { body: prepared.body } : {}), ...(prepared.query !== undefined ? { query: prepared.query } : {}) })
      outcome = again
      answer = again.answer
    }
  }
  ticket?.settle(outcome, answer !== undefined && answer.status >= 200 && answer.status < 300 ? (creates!.idOf(answer.body) ?? (toId(answer.body) !== undefined ? String(toId(answer.body)) : undefined)) : undefined)
  return { caller: probeCaller(caller), store, path, ...outcome }
}
