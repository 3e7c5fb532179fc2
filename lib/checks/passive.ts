/**
 * Traffic the suite did not send, judged passively (`judge --har FILE --passive`, `proxy`): each exchange read as
 * what it is (lib/shop/exchange-identity.ts: the store code, the spec endpoint, the caller's class followed from the
 * capture's token calls or a hint), then each rule judged only where an observed exchange can show it, by the same
 * pure judges a run's probes reach: the route is served (`judgeRoute`), a caller the spec refuses was let through or
 * refused (`judgeAccess`, one observation per class), a tabled answer's shape (`judgeShapeAnswer`), a batch price
 * answer that names its items (`attributeEntries`). Never a failure on a guess: a caller of unknown class judges no
 * access, a no-route answer under a store code nothing else showed is no missing route, a body the capture did not
 * keep is no shape, a 5xx is listed (never failed). Pure: a capture's exchanges in, verdicts and its coverage out.
 */
import { CATALOG, rowId } from '../spec/catalog/index.ts'
import { ADMISSION, admittedCaller, judgeAccess, type AccessCell, type Admission } from '../spec/admission.ts'
import type { EndpointRow } from '../spec/types.ts'
import { ACCESS_RULES, BATCH_RULES } from '../spec/rules.ts'
import type { CallerClass, Exchange } from '../results/exchange.ts'
import type { NotJudgedReason, Verdict } from '../results/verdict.ts'
import type { CoverageRow, PassiveCoverage } from '../results/coverage.ts'
import { joinLists, type ServerErrorEntry, type ServerErrorList } from '../results/server-errors.ts'
import {
  endpointMatcher,
  identify,
  observedCallers,
  type ObservedCaller,
  type TokenHint,
} from '../shop/exchange-identity.ts'
import { readingOf, recordedProbe } from '../shop/recorded.ts'
import { callKey, type Probe, type ProbeAnswers, type ProbeCaller } from '../shop/probe.ts'
import { shopSaid } from '../shop/server-errors.ts'
import type { PathAlias } from '../settings/config.ts'
import { isObject } from '../base/is-object.ts'
import { plural } from '../base/text.ts'
import { cellOf } from './access.ts'
import { attributeEntries, type BatchItem } from './batch-attribution.ts'
import { placeholder } from './probe.ts'
import { judgeRoute } from './route.ts'
import { judgeShapeAnswer } from './shape.ts'
import { expectationFor } from './judge-shape.ts'

/**
 * One exchange of the capture: as recorded, the class a suite's HAR tagged it with, when it was sent, whether its body
 * was kept.
 */
export interface ObservedEntry {
  exchange: Exchange
  caller?: CallerClass
  startedDateTime: string
  /** False when the capture holds no text of an answer that had one (a browser's HAR leaves large bodies out). */
  bodyKept: boolean
}

interface PassiveOptions {
  /** The target's URL below which `/rest/{store}` is (else inferred: the first `/rest/` of each path). */
  base?: string
  hints?: readonly TokenHint[]
  pathAliases?: readonly PathAlias[]
  /**
   * The target's no-route answers as a run's calibration recorded them; else the platform's (`404 "Request does not
   * match any route."`).
   */
  calibration?: { noRoute: readonly string[]; unknownStore: readonly string[] }
}

/** A rule judged from the traffic: the catalog row, the check kind, the verdict. */
export interface PassiveVerdict {
  row: EndpointRow
  check: 'route' | 'access' | 'shape' | 'batch-partial'
  verdict: Verdict
}

export interface PassiveJudgement {
  verdicts: PassiveVerdict[]
  coverage: PassiveCoverage
  serverErrors: ServerErrorList
  /** The token values the capture holds, each with its class: what the written report redacts. */
  tokens: ReadonlyMap<string, ObservedCaller>
}

/**
 * The platform's no-route answer (platform conventions, Errors): the one a passive judgement knows without a run's
 * calibration.
 */
const PLATFORM_NO_ROUTE = { noRoute: ['404 "Request does not match any route."'], unknownStore: [] }

/** The words every passive result's message ends with where it judged nothing. */
export const NOT_OBSERVED = 'not observed'

/** An exchange read: its probe (answer, no-route), its caller's class, store, endpoint row. */
interface Observation {
  entry: ObservedEntry
  probe: Probe
  caller: ObservedCaller
  store: string
  row: EndpointRow
  query?: string
}

const ROWS = new Map<string, EndpointRow>(CATALOG.map((row) => [rowId(row), row]))

export function judgePassively(entries: readonly ObservedEntry[], options: PassiveOptions = {}): PassiveJudgement {
  const endpointOf = endpointMatcher(options.pathAliases ?? [])
  const reading = readingOf(options.calibration ?? PLATFORM_NO_ROUTE)
  const callers = observedCallers(
    entries.map((e) => ({ ...e.exchange, ...(e.caller !== undefined ? { caller: e.caller } : {}) })),
    options.hints,
  )
  const observations: Observation[] = []
  let outside = 0
  const serverErrors: ServerErrorEntry[] = []
  for (const entry of entries) {
    const x = entry.exchange
    const caller = callers.callerOf({ ...x, ...(entry.caller !== undefined ? { caller: entry.caller } : {}) })
    const id = identify(x.request, { endpointOf, ...(options.base !== undefined ? { base: options.base } : {}) })
    const row = id.origin === 'spec' && id.endpoint !== undefined ? ROWS.get(id.endpoint) : undefined
    if (x.response !== undefined && x.response.status >= 500)
      serverErrors.push(serverErrorEntry(entry, x.response, caller, id))
    if (row === undefined || id.store === undefined) {
      outside++
      continue
    }
    const probe = recordedProbe(x, reading)
    const seenAs = { ...probe.probe, ...(isProbeCaller(caller) ? { caller } : {}) }
    observations.push({
      entry,
      probe: seenAs,
      caller,
      store: id.store,
      row,
      ...(id.query !== undefined ? { query: id.query } : {}),
    })
  }
  const byRow = new Map<EndpointRow, Observation[]>()
  for (const o of observations) byRow.set(o.row, [...(byRow.get(o.row) ?? []), o])
  // A store code is shown to exist by any answer under it that is not the no-route answer.
  const storesShown = new Set(
    observations.filter((o) => o.probe.answer !== undefined && o.probe.noRoute !== true).map((o) => o.store),
  )
  const verdicts: PassiveVerdict[] = []
  for (const [row, seen] of byRow) {
    const judged = [
      routeVerdict(row, seen, storesShown),
      accessVerdict(row, seen),
      shapeVerdict(row, seen),
      batchVerdict(row, seen),
    ]
    for (const v of judged) if (v !== undefined) verdicts.push(v)
  }
  return {
    verdicts,
    coverage: coverageOf(entries.length, byRow, outside),
    serverErrors: joinLists([{ entries: serverErrors, unlisted: {} }]),
    tokens: callers.tokens,
  }
}

function isSuccess(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300
}

function isProbeCaller(c: ObservedCaller): c is ProbeCaller {
  return c === 'none' || c === 'malformed' || c === 'customer' || c === 'admin' || c === 'limited admin'
}

/** A rule the traffic shows nothing of: the observations at the endpoint are named, none judged. */
function notObserved(what: string): Pick<Verdict, 'status' | 'message' | 'reason' | 'exchanges'> {
  return {
    status: 'skipped',
    message: `${NOT_OBSERVED}: ${what}`,
    reason: 'not-observed' satisfies NotJudgedReason,
    exchanges: [],
  }
}

/**
 * The route: the answer of a caller the endpoint's class admits (a success of any caller's too) that is not the
 * no-route answer shows it served; the no-route answer to every call shows it missing, but only under a store code
 * another answer showed to exist (the platform answers an unknown store code alike). A refusal of a caller the class
 * refuses shows nothing here: a target may refuse before it routes.
 */
function routeVerdict(
  row: EndpointRow,
  seen: readonly Observation[],
  storesShown: ReadonlySet<string>,
): PassiveVerdict {
  const admitted = admittedCaller(row.access)
  const answered = seen.flatMap(withStatus).filter(({ o, status }) => o.entry.bodyKept || status === 204)
  const served =
    answered.find(({ o, status }) => o.probe.noRoute !== true && status >= 200 && status < 300) ??
    answered.find(
      ({ o, status }) => o.probe.noRoute !== true && o.caller === admitted && status !== 401 && status !== 403,
    )
  const missing = answered.filter(({ o }) => o.probe.noRoute === true)
  const witness =
    served?.o ?? (missing.length === answered.length ? missing.find(({ o }) => storesShown.has(o.store))?.o : undefined)
  if (witness === undefined) {
    const who = admitted === 'none' ? 'no token' : `${admitted} token`
    const why =
      missing.length > 0
        ? 'every call here got the no-route answer, under a store code no other answer showed to exist'
        : `no answer of a caller the spec admits (${who}) nor a success among ${plural(seen.length, 'exchange')}`
    return { row, check: 'route', verdict: notObserved(why) }
  }
  return { row, check: 'route', verdict: judgeRoute(row, witnessAnswers(row, witness.probe)) }
}

/**
 * One observed probe as the answers judgeRoute reads: the admitted caller's (an anonymous endpoint's placeholder call).
 */
function witnessAnswers(row: EndpointRow, probe: Probe): ProbeAnswers {
  if (row.access === 'anon') {
    const call = placeholder(row, 'none')
    return { plan: { calls: [call] }, calls: new Map([[callKey(call), probe]]) }
  }
  const witness = admittedCaller(row.access)
  return { plan: { calls: [] }, calls: new Map(), sequence: { witness, probes: new Map([[witness, probe]]) } }
}

/**
 * What the spec's class says a caller of a class gets: another customer (a suite's HAR) is refused where a customer
 * must own what the path names.
 */
function expectedOf(row: EndpointRow, caller: ObservedCaller): Admission {
  if (caller === 'unknown' || caller === 'limited admin') return 'not stated'
  if (caller === 'other customer') return row.access === 'anon' ? 'not stated' : 'refuse'
  return ADMISSION[row.access][caller]
}

/** An observation that got an answer, with the answer's status; none without one. */
function withStatus(o: Observation): { o: Observation; status: number }[] {
  return o.probe.answer === undefined ? [] : [{ o, status: o.probe.answer.status }]
}

/**
 * Access: each class the spec refuses at this endpoint that the traffic shows, one observation each — a success
 * (let through: failed), else a refusal (passed); an answer that is neither (another 4xx, a 5xx, the no-route
 * answer) decides nothing without the admitted caller's success to the same request, so it is left out.
 */
function accessVerdict(row: EndpointRow, seen: readonly Observation[]): PassiveVerdict {
  const cells: AccessCell[] = []
  const probes: Probe[] = []
  const classes = [...new Set(seen.map((o) => o.caller))].filter((c) => expectedOf(row, c) === 'refuse')
  for (const c of classes) {
    const ofClass = seen.filter((o) => o.caller === c && o.probe.noRoute !== true).flatMap(withStatus)
    const o = (
      ofClass.find(({ status }) => status >= 200 && status < 300) ??
      ofClass.find(({ status }) => status === 401 || status === 403)
    )?.o
    if (o === undefined) continue
    cells.push(cellOf(c, 'refuse', o.probe))
    probes.push(o.probe)
  }
  const rules = [ACCESS_RULES[row.access]]
  if (cells.length === 0) {
    const why =
      classes.length === 0
        ? `no call of a caller the spec refuses at this ${row.access} endpoint (${describeClasses(seen)})`
        : `the calls of ${classes.join(', ')} got neither a success nor a refusal`
    return { row, check: 'access', verdict: { ...notObserved(why), rules } }
  }
  const judged = judgeAccess(cells, admittedCaller(row.access))
  const matrix = Object.fromEntries(
    judged.cells.map((c) => [c.caller, { expected: c.expected, seen: c.seen, answer: c.answer, ok: c.ok }]),
  )
  const exchanges = probes.flatMap((p) => (p.exchange !== undefined ? [p.exchange] : []))
  const details = { accessClass: row.access, observed: countBy(seen.map((o) => o.caller)), matrix }
  if (judged.status === 'not judged') {
    return {
      row,
      check: 'access',
      verdict: { status: 'skipped', message: judged.message, exchanges, details, rules, reason: 'not-observed' },
    }
  }
  return {
    row,
    check: 'access',
    verdict: { status: judged.status, message: `observed: ${judged.message}`, exchanges, details, rules },
  }
}

/**
 * The shape of a tabled answer: each success whose body the capture kept, not narrowed by a `fields` parameter (the
 * platform then answers only the fields asked for); the first that breaks the shape fails it, else the first passes.
 */
function shapeVerdict(row: EndpointRow, seen: readonly Observation[]): PassiveVerdict | undefined {
  if (expectationFor(row).kind === 'not-shown') return undefined
  const judged = seen
    .filter((o) => o.entry.bodyKept && o.probe.noRoute !== true && isSuccess(o.probe.answer?.status))
    .filter((o) => !/(^|&)fields=/.test(o.query ?? ''))
    .map((o) => ({ o, v: judgeShapeAnswer(row, { answer: o.probe.answer }) }))
  const pick = judged.find((j) => j.v.status === 'failed') ?? judged.find((j) => j.v.status === 'passed')
  if (pick === undefined) {
    return {
      row,
      check: 'shape',
      verdict: notObserved(`no success with its whole body among ${plural(seen.length, 'exchange')} here`),
    }
  }
  const exchanges = pick.o.probe.exchange !== undefined ? [pick.o.probe.exchange] : []
  return { row, check: 'shape', verdict: { ...pick.v, message: `observed: ${pick.v.message}`, exchanges } }
}

/**
 * A batch price call's answer names its items (spec, Errors 1): a success listing result entries each of which names
 * one item of the call by its values. Which items were invalid the traffic does not say, so a miss is not a failure:
 * an answer that names no item, or `[]`, judges nothing.
 */
function batchVerdict(row: EndpointRow, seen: readonly Observation[]): PassiveVerdict | undefined {
  const op = row.batch?.op
  if (op === undefined || op === 'information' || op === 'cost-delete') return undefined
  for (const o of seen) {
    const answer = o.probe.answer
    const items = itemsOf(o.entry.exchange.request.body)
    if (
      answer === undefined ||
      !isSuccess(answer.status) ||
      items === undefined ||
      !Array.isArray(answer.body) ||
      answer.body.length === 0
    )
      continue
    const attribution = attributeEntries(items, answer.body)
    if (attribution.unattributed.length > 0) continue
    const named = [...attribution.byItem].filter(([, es]) => es.length > 0).map(([i]) => i)
    const entries =
      answer.body.length === 1
        ? "the answer's result entry names"
        : `the answer's ${answer.body.length} result entries name`
    const message =
      `observed: ${entries} item${named.length === 1 ? '' : 's'} ${named.join(', ')} of the ${items.length} sent, each by its values ` +
      '(which items were invalid the traffic does not say: only that the answer names them)'
    return {
      row,
      check: 'batch-partial',
      verdict: { status: 'passed', message, exchanges: [o.entry.exchange], rules: [BATCH_RULES.perItem] },
    }
  }
  return { row, check: 'batch-partial', verdict: notObserved('no success naming the items of its call') }
}

/** The items of a batch price call's body (`{prices: [...]}`), each with its plain values. */
function itemsOf(body: unknown): BatchItem[] | undefined {
  const prices = isObject(body) ? body.prices : undefined
  if (!Array.isArray(prices) || prices.length === 0) return undefined
  return prices.map((p, index) => ({ index, valid: false, fields: isObject(p) ? plainFields(p) : {} }))
}

function plainFields(o: Record<string, unknown>): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(o).filter(
      (e): e is [string, string | number] => typeof e[1] === 'string' || typeof e[1] === 'number',
    ),
  )
}

function countBy(values: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const v of values) out[v] = (out[v] ?? 0) + 1
  return out
}

function describeClasses(seen: readonly Observation[]): string {
  return Object.entries(countBy(seen.map((o) => o.caller)))
    .map(([c, n]) => `${c} ×${n}`)
    .join(', ')
}

/** Which endpoints the traffic touched, how many exchanges, which callers; in catalog order. */
function coverageOf(
  total: number,
  byRow: ReadonlyMap<EndpointRow, readonly Observation[]>,
  outside: number,
): PassiveCoverage {
  // In catalog order: every observed row is the catalog's own (ROWS).
  const endpoints: CoverageRow[] = CATALOG.flatMap((row) => {
    const seen = byRow.get(row)
    if (seen === undefined) return []
    return [
      {
        endpoint: rowId(row),
        module: row.module,
        access: row.access,
        exchanges: seen.length,
        callers: countBy(seen.map((o) => o.caller)),
        stores: [...new Set(seen.map((o) => o.store))],
      },
    ]
  })
  const unknown = [...byRow.values()].flat().filter((o) => o.caller === 'unknown').length
  const atEndpoints = total - outside
  return {
    exchanges: total,
    atEndpoints,
    outside,
    unknownCallers: unknown,
    endpoints,
    text:
      `${plural(total, 'exchange')} observed: ${atEndpoints} at ${endpoints.length} of the spec's ${CATALOG.length} endpoints, ${outside} elsewhere` +
      (unknown > 0 ? `; ${unknown} of an unknown caller (no access judged from them: --token-class)` : ''),
  }
}

/** A 5xx of the traffic as the run lists its own: information, never a failure. */
function serverErrorEntry(
  entry: ObservedEntry,
  response: NonNullable<ObservedEntry['exchange']['response']>,
  caller: ObservedCaller,
  id: ReturnType<typeof identify>,
): ServerErrorEntry {
  const { request } = entry.exchange
  // identify() gives an endpoint with its origin, or neither.
  return {
    method: request.method,
    ...(id.endpoint !== undefined && id.origin !== undefined ? { endpoint: id.endpoint, origin: id.origin } : {}),
    path: id.path ?? request.url,
    ...(id.query !== undefined ? { query: id.query } : {}),
    store: id.store ?? '',
    caller,
    ...(request.body !== undefined ? { body: request.body } : {}),
    status: response.status,
    ...shopSaid(response.body),
    firstAt: entry.startedDateTime,
    lastAt: entry.startedDateTime,
    count: 1,
    steps: [],
  }
}
