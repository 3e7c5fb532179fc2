/**
 * A shop's extension operations (declared by its published schema, not named by the spec) as check kinds of the
 * plan: `extension-route`, `extension-store-code` and `extension-access`, judged by lib/schema/judge.ts. The three
 * share one set of probes per operation (memoized on the session), sent exactly as `probesFor` allows: a write
 * only to callers its declared class must refuse unless the run says `--extensions-probe-writes`, none in
 * read-only mode.
 */
import type { Exchange } from '../results/exchange.ts'
import type { NotJudgedReason, Verdict } from '../results/verdict.ts'
import type { ExtensionOperation } from '../schema/extensions.ts'
import { judgeAccess, judgeRoute, judgeStoreCode, probesFor } from '../schema/judge.ts'
import type { ExtensionVerdict, ProbePlan, ProbeResult, TargetReading } from '../schema/judge.ts'
import { describeOutcome, unanswered } from '../shop/answer-text.ts'
import type { Session } from '../shop/session.ts'
import { ADMISSION, isRefusal } from '../spec/admission.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Check } from './types.ts'

import { EXTENSIONS_MODULE } from '../results/schema-block.ts'
import { endpointText } from '../spec/endpoint-id.ts'

export { EXTENSIONS_MODULE }

/**
 * An extension operation as a plan row. `access` is the declared class where the schema's views tell it
 * (`admin` as a stand-in where they cannot: no spec kind ever reads an extension row); the judges read `operation`.
 */
export interface ExtensionRow extends EndpointRow {
  origin: 'extension'
  operation: ExtensionOperation
}

export function extensionRow(operation: ExtensionOperation): ExtensionRow {
  return {
    method: operation.method,
    path: operation.path,
    module: EXTENSIONS_MODULE,
    access: operation.declaredAccess ?? 'admin',
    sections: [],
    origin: 'extension',
    operation,
    ...(operation.operationId !== undefined ? { purpose: `the shop's operation ${operation.operationId}` } : {}),
  }
}

function operationOf(row: EndpointRow): ExtensionOperation | undefined {
  return (row as Partial<ExtensionRow>).operation
}

/**
 * The request, without a token, to a path no shop serves: how the target answers it says whether it routes before
 * it checks access. Read-only mode sends no extension write, and a read's route is judged from the caller its
 * class admits: a GET there. `--dry-run` prints it.
 */
export function targetReadingRequest(readOnly: boolean): { method: 'GET' | 'POST'; path: string; body?: Record<string, never> } {
  const path = '/V1/shop-conformance-no-such-extension'
  return readOnly ? { method: 'GET', path } : { method: 'POST', path, body: {} }
}

/** Once per session: does a refusal show a route is there (judge.ts, TargetReading)? */
function targetReading(session: Session): Promise<TargetReading & { exchange: Exchange }> {
  return session.memo('extension target reading', async () => {
    const outcome = await session.send({ ...targetReadingRequest(session.seed.readOnly), store: session.seed.storeCode })
    return { refusalShowsRoute: outcome.answer !== undefined && !isRefusal(outcome.answer.status), exchange: outcome.exchange }
  })
}

interface Probed {
  plan: ProbePlan
  results: ProbeResult[]
  exchanges: Map<ProbeResult, Exchange>
  target: TargetReading & { exchange: Exchange }
}

/** The operation's probes, sent once per session whichever of its three checks asks first. */
function probed(session: Session, op: ExtensionOperation, probeWrites: boolean): Promise<Probed> {
  return session.memo(`extension ${endpointText(op)}`, async () => {
    const target = await targetReading(session)
    const planned = probesFor(op, { readOnly: session.seed.readOnly, probeWrites })
    // A caller the run has no token for (read-only mode registers no customer) is not sent as anyone else.
    // A write is never sent with the token of a customer the user configured: a customer of the run's own sends it.
    const tokenOf = (p: ProbePlan['probes'][number]) => session.tokenFor(p.caller, { write: p.method !== 'GET' })
    const tokenless = planned.probes.filter((p) => p.caller !== 'none' && tokenOf(p) === undefined)
    const sent = planned.probes.filter((p) => !tokenless.includes(p))
    // The store code is then tried by the last caller that is sent (the most privileged of ACCESS_CALLERS' order).
    const storeCaller = planned.probes.some((p) => p.store === 'second') && !sent.some((p) => p.store === 'second') ? sent[sent.length - 1] : undefined
    const plan: ProbePlan = {
      probes: [...sent, ...(storeCaller !== undefined ? [{ ...storeCaller, store: 'second' as const }] : [])],
      withheld: [...planned.withheld, ...[...new Set(tokenless.map((p) => p.caller))].map((caller) => ({ caller, why: `no ${caller} token in this run` }))],
    }
    const exchanges = new Map<ProbeResult, Exchange>()
    const { storeCode, secondStoreCode } = session.seed
    const results = await Promise.all(
      plan.probes.map(async (probe): Promise<ProbeResult> => {
        const token = tokenOf(probe)
        const refusalExpected = op.declaredAccess !== undefined && ADMISSION[op.declaredAccess][probe.caller] === 'refuse'
        const outcome = await session.send({
          method: probe.method,
          path: probe.path,
          store: probe.store === 'second' ? secondStoreCode : storeCode,
          ...(token !== undefined ? { token } : {}),
          ...(probe.body !== undefined ? { body: probe.body } : {}),
          refusalExpected,
        })
        const answer = outcome.answer
        const result: ProbeResult = {
          probe,
          ...(answer !== undefined ? { answer } : {}),
          quoted: describeOutcome(outcome),
          ...(answer === undefined ? { unanswered: unanswered(outcome).reason } : {}),
          noRoute: answer !== undefined && session.looksLikeNoRoute(answer, probe.path),
          unknownStore: answer !== undefined && session.looksLikeUnknownStore(answer, probe.path),
        }
        exchanges.set(result, outcome.exchange)
        return result
      }),
    )
    return { plan, results, exchanges, target }
  })
}

/** Why a verdict left its rule unjudged, as the reports count it. */
function reasonOf(v: ExtensionVerdict, p: Probed): NotJudgedReason {
  const unanswered = v.evidence.find((r) => r.unanswered !== undefined)?.unanswered
  if (unanswered !== undefined) return unanswered
  if (v.evidence.length > 0) return 'unusable-answer'
  if (p.plan.probes.length === 0 && p.plan.withheld.some((w) => w.why.startsWith('read-only'))) return 'read-only'
  return p.plan.probes.length === 0 && p.plan.withheld.length > 0 ? 'write-withheld' : 'unusable-answer'
}

function toVerdict(v: ExtensionVerdict, p: Probed): Verdict {
  // The route reading's exchange is evidence too wherever a refusal was read as "served" or left it unjudged.
  const reading = v.check !== 'access' && v.evidence.some((r) => r.answer !== undefined && isRefusal(r.answer.status)) ? [p.target.exchange] : []
  return {
    status: v.status === 'not judged' ? 'skipped' : v.status,
    message: v.message,
    exchanges: [...v.evidence.flatMap((r) => (p.exchanges.has(r) ? [p.exchanges.get(r)!] : [])), ...reading],
    rules: [...v.rules],
    details: { basis: v.basis, ...(p.plan.withheld.length > 0 ? { withheld: p.plan.withheld } : {}) },
    ...(v.status === 'not judged' ? { reason: reasonOf(v, p) } : {}),
  }
}

type Judge = (op: ExtensionOperation, plan: ProbePlan, results: readonly ProbeResult[], target: TargetReading) => ExtensionVerdict

function kind(name: string, description: string, spec: readonly string[], judge: Judge, probeWrites: boolean): Check & { origin: 'extension' } {
  return {
    name,
    description,
    spec,
    rules: [],
    origin: 'extension',
    appliesTo: (row) => (operationOf(row) !== undefined ? true : 'not an extension operation of the shop\'s schema'),
    async run(row, session) {
      const op = operationOf(row)
      if (op === undefined) throw new Error(`${name}: ${endpointText(row)} is not an extension operation`)
      const p = await probed(session, op, probeWrites)
      return toVerdict(judge(op, p.plan, p.results, p.target), p)
    },
  }
}

/** The three kinds, in the order they run and are reported; `probeWrites` is `--extensions-probe-writes`. */
export function extensionKinds(options: { probeWrites: boolean }): (Check & { origin: 'extension' })[] {
  const { probeWrites } = options
  return [
    kind('extension-route', 'An operation the shop\'s schema declares is served at its declared method and path (a refusal is not the no-route answer).', ['What the service does (payloads are JSON)'], judgeRoute, probeWrites),
    kind('extension-store-code', 'A declared operation is served under the run\'s second store code as under the configured one.', ['What the service does (a store code can replace `default`)'], judgeStoreCode, probeWrites),
    kind('extension-access', 'A declared operation admits and refuses callers as the access class its schema declares says.', ['Authentication 1–4'], (op, plan, results) => judgeAccess(op, plan, results), probeWrites),
  ]
}
