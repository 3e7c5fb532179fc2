/**
 * Test support (not a test itself): the reference target's faults in groups that can share one target and one
 * run of the suites they touch, so that a full run per fault (29 of them, the bulk of `npm test`) becomes a few
 * smaller ones (the other suites would only judge a clean target again, as the clean run does). Faults share a run
 * only when they cannot hide or cause each other's failures: they sit at different endpoints, in suites that
 * do not meet (the endpoint's module, and the module of every workflow whose steps call it), and at most one of
 * them leaves requests unanswered (many unanswered requests in a row make the client stop sending). Each
 * fault still proves its check fails at its endpoint; that it fails nowhere else is proven per check over the
 * catalog in-process (lib/checks/*.test.ts) and, here, by no failure outside the group's endpoints.
 */
import { FAULTS, type FaultName } from '../../reference-target/index.ts'
import { CHECKS } from '../checks/index.ts'
import { CATALOG, findRow, rowId } from '../spec/catalog/index.ts'
import { WORKFLOWS } from '../workflows/index.ts'
import { endpointText } from '../spec/endpoint-id.ts'

/** Faults whose endpoint gets no answer in time. */
const UNANSWERED: readonly FaultName[] = ['hang', 'reset', 'slow']

/** `METHOD /V1/path` of the fault's default endpoint (a catalog row's, or one of the target's extension operations). */
export function endpointOf(fault: FaultName): string {
  return endpointText(FAULTS[fault].defaultEndpoint)
}

/**
 * The suites a fault at its default endpoint can touch: the endpoint's module, the modules of the workflows
 * through it, and those of the rows of checks that also call it (the tokens check reads `GET /V1/customers/me`).
 */
function suitesOf(fault: FaultName): Set<string> {
  const { method, path } = FAULTS[fault].defaultEndpoint
  const row = findRow(method, path)
  if (row === undefined) throw new Error(`fault ${fault}: ${endpointOf(fault)} is not a catalog endpoint`)
  const endpoint = rowId(row)
  const callers = CHECKS.filter((c) => c.alsoCalls?.includes(endpoint)).flatMap((c) =>
    CATALOG.filter((r) => c.appliesTo(r) === true).map((r) => r.module),
  )
  return new Set([
    row.module,
    ...WORKFLOWS.filter((w) => w.steps.some((s) => s.endpoint === endpoint)).map((w) => w.module),
    ...callers,
  ])
}

/** The suites a group's faults can touch, together. */
export function suitesOfGroup(group: readonly FaultName[]): Set<string> {
  return new Set(group.flatMap((fault) => [...suitesOf(fault)]))
}

/**
 * The faults no check of the spec's can see: they change only the target's published schema and its own
 * extension operations (judged by lib/schema, never part of the spec's verdict).
 */
export const BEYOND_SPEC: readonly FaultName[] = (Object.keys(FAULTS) as FaultName[]).filter(
  (f) => FAULTS[f].breaks === 'schema' || FAULTS[f].breaks === 'extensions',
)

/**
 * Every fault a run of the spec suite can see (or those given), in groups (greedily, in FAULTS order) whose members do
 * not meet.
 */
export function faultGroups(
  faults: readonly FaultName[] = (Object.keys(FAULTS) as FaultName[]).filter((f) => !BEYOND_SPEC.includes(f)),
): FaultName[][] {
  const groups: { faults: FaultName[]; suites: Set<string>; endpoints: Set<string> }[] = []
  for (const fault of faults) {
    const suites = suitesOf(fault)
    const fits = (g: (typeof groups)[number]) =>
      !g.endpoints.has(endpointOf(fault)) &&
      ![...suites].some((s) => g.suites.has(s)) &&
      !(UNANSWERED.includes(fault) && g.faults.some((f) => UNANSWERED.includes(f)))
    let group = groups.find(fits)
    if (group === undefined) groups.push((group = { faults: [], suites: new Set(), endpoints: new Set() }))
    group.faults.push(fault)
    group.endpoints.add(endpointOf(fault))
    for (const s of suites) group.suites.add(s)
  }
  return groups.map((g) => g.faults)
}
