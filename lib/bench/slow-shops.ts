/**
 * The slow shops the bench measures (`--config busy-shop`, `--config slow-tenants`): a run there is bounded by the
 * shop's heavy writes, not by the suite, so it is judged against a bound of the shop's own rather than a replay.
 *
 * - The busy shop's heavy writes share its two cores (each takes the longer the more run at once, busy-shop.ts): no
 *   run can do them faster than their time over the two cores. (If its 8 workers each wrote at once, as a shop with
 *   a core per worker could, it would be a quarter of that: a bound the variant's two cores never allow.)
 * - A shop slowed by its other tenants takes as long for a heavy write however many are in flight: its bound is the
 *   best of the same shop measured with the run's bound fixed (`--pace fixed` at 4, 8, 16), in the same bench run.
 *
 * Pure: the figures come from the request log and the report each run wrote; tested.
 */
import type { BenchConfiguration } from './args.ts'
import type { LoggedRequest } from './request-log.ts'
import type { ConfigurationResult } from './figures.ts'
import { holdsWorker } from '../../reference-target/index.ts'

/** The heavy writes the shop answered below 400: those it held a worker (and a core) for, as its variant reads them. */
export function heavyAnswered(log: readonly LoggedRequest[]): number {
  return log.filter((q) => holdsWorker(q.method, q.path) && q.status !== undefined && q.status < 400).length
}

/** The results a run's report left not judged for a timeout (what "no timeout" is counted by). */
export function timeoutsOf(report: { results?: readonly { status?: string; reason?: string }[] }): number {
  return (report.results ?? []).filter((r) => r.status === 'skipped' && r.reason === 'timeout').length
}

/**
 * The shop's own bound for one run: its heavy writes over its two cores (busy shop), or over its 8 workers (tenants).
 */
export function shopBoundMs(config: Pick<BenchConfiguration, 'heavyMs' | 'group'>, heavy: number): number {
  const perWrite = config.heavyMs ?? 0
  return config.group === undefined ? (heavy * perWrite) / 2 : (heavy * perWrite) / 8
}

/** A slow shop's configuration as the table names it. */
function label(r: ConfigurationResult): string {
  const shop = r.name.startsWith('busy-shop') ? 'busy shop' : 'slow tenants'
  return `${shop}, c${r.concurrency}, ${r.pace === 'fixed' ? 'fixed' : 'adaptive'}`
}

/**
 * The slow shops' table: each configuration's wall time against its bound — the two cores' for the busy shop, the best
 * fixed bound's wall time in the same bench run for the adaptive run on the slowed shop.
 */
export function slowShopCells(results: readonly ConfigurationResult[]): { header: string[]; rows: string[][] } {
  const header = [
    'configuration',
    'requests',
    'heavy writes',
    'wall s',
    'bound s',
    'wall / bound',
    'not judged: timeout',
    'exit',
  ]
  const sec = (n: number) => (n / 1000).toFixed(1)
  /**
   * What a configuration's wall time is held against: its floor, or the best fixed run of its group for an adaptive
   * one.
   */
  const boundOf = (r: ConfigurationResult): number | undefined => {
    if (r.group === undefined) return r.floorWallMs?.median
    if (r.pace === 'fixed') return undefined
    const fixedWalls = results.flatMap((o) =>
      o.group === r.group && o.pace === 'fixed' && o.suiteWallMs !== null ? [o.suiteWallMs.median] : [],
    )
    return Math.min(...fixedWalls)
  }
  const rows = results.map((r) => {
    const wall = r.suiteWallMs?.median
    const bound = boundOf(r)
    const usable = bound !== undefined && Number.isFinite(bound) && bound > 0
    return [
      label(r),
      r.requests === null ? '—' : String(Math.round(r.requests.median)),
      r.heavyAnswered === null ? '—' : String(Math.round(r.heavyAnswered.median)),
      wall === undefined ? '—' : sec(wall),
      usable ? sec(bound) : '—',
      usable && wall !== undefined ? (wall / bound).toFixed(2) : '—',
      r.timeouts === null ? '—' : String(Math.round(r.timeouts.median)),
      [...new Set(r.perRun.map((p) => String(p.exitCode)))].join(', '),
    ]
  })
  return { header, rows }
}

/** What the slow shops' columns mean. */
export function slowShopNotes(runs: number, loadAverage: readonly number[], cpus: number): string {
  return (
    `Medians over ${runs} run${runs > 1 ? 's' : ''} per configuration; load average at start ${loadAverage.join(' ')} on ${cpus} CPUs.\n` +
    `heavy writes = orders placed, invoices, refunds, shipments, credit memos and products saved that the shop answered below 400 (it held a worker for each);\n` +
    `bound: busy shop = those heavy writes' time over its two cores (each takes the longer the more run at once: no run is faster; its 8 workers writing at once would need a core each); ` +
    `slow tenants, adaptive = the best wall time of the same shop with the run's bound fixed (\`--pace fixed\`), measured in the same bench run;\n` +
    `not judged: timeout = results the report left not judged for want of an answer within the request's deadline.\n`
  )
}
