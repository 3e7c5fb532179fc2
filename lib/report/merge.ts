import { CHECK_KINDS } from '../checks/index.ts'
import type { Result } from '../run/result.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import { ConfigError } from '../target/config.ts'
import { completeReport, type ReportDraft } from './complete.ts'
import { sortResults, summarise, type Report } from './model.ts'

/**
 * One report from the reports of a sharded run (`--shard i/n`: each shard ran disjoint suite files against
 * the same target). Results are united and put in report order, the summary is recomputed, the time span is
 * the shards' wall time. Reports of different targets, spec or suite versions are refused; so is a result
 * two reports judged differently. `names` label the inputs in error messages (default: `report 1`, …).
 */
export function mergeReports(reports: readonly Report[], names: readonly string[] = reports.map((_, i) => `report ${i + 1}`)): Report {
  const first = reports[0]
  if (first === undefined) throw new ConfigError('report merge: no reports given')
  const name = (i: number) => names[i] ?? `report ${i + 1}`
  reports.forEach((r, i) => {
    if (i === 0) return
    const differs = (what: string, x: string, y: string) => {
      if (x !== y) throw new ConfigError(`report merge: ${name(i)} is of ${what} ${y}, ${name(0)} of ${x}; only shards of one run can be merged`)
    }
    differs('spec version', first.spec.version, r.spec.version)
    differs('suite version', first.suite.version, r.suite.version)
    differs('target', targetKey(first), targetKey(r))
  })

  const byId = new Map<string, { result: Result; from: number }>()
  reports.forEach((r, i) => {
    for (const result of r.results) {
      const seen = byId.get(result.id)
      if (seen === undefined) byId.set(result.id, { result, from: i })
      else if (seen.result.status !== result.status) {
        throw new ConfigError(`report merge: "${result.id}" is ${seen.result.status} in ${name(seen.from)} and ${result.status} in ${name(i)}`)
      }
    }
  })
  const results = [...byId.values()].map((x) => x.result)

  const startedAt = new Date(Math.min(...reports.map((r) => Date.parse(r.startedAt))))
  const finishedAt = new Date(Math.max(...reports.map((r) => Date.parse(r.finishedAt))))
  const all = <T>(pick: (r: Report) => T[]): T[] => reports.flatMap(pick)
  const unique = <T>(items: T[]): T[] => [...new Map(items.map((x) => [JSON.stringify(x), x])).values()]
  // An empty selection means "all"; a shard that ran all of them makes the merged selection all too.
  const selection = (pick: (r: Report) => string[]) => (reports.some((r) => pick(r).length === 0) ? [] : unique(all(pick)))
  const rowOrder = new Map(CATALOG.map((r, i) => [`${r.method} ${r.path}`, i]))
  const merged: ReportDraft = {
    suite: first.suite,
    spec: first.spec,
    target: first.target,
    run: {
      id: unique(reports.map((r) => r.run.id)).join('+'),
      seed: first.run.seed,
      // Read-only only when every shard was.
      readOnly: reports.every((r) => r.run.readOnly === true),
      concurrency: Math.max(...reports.map((r) => r.run.concurrency)),
      timeoutMs: Math.max(...reports.map((r) => r.run.timeoutMs)),
      modules: selection((r) => r.run.modules),
      checks: selection((r) => r.run.checks),
      pathAliases: unique(all((r) => r.run.pathAliases)),
    },
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    // One shard cut short makes the whole partial.
    ...(reports.some((r) => r.partial !== undefined) ? { partial: reports.find((r) => r.partial !== undefined)!.partial! } : {}),
    summary: summarise(results, new Set(rowOrder.keys())),
    calibration: {
      noRoute: unique(all((r) => r.calibration.noRoute)),
      unknownStore: unique(all((r) => r.calibration.unknownStore)),
    },
    created: all((r) => r.created),
    cleanup: {
      removed: reports.reduce((n, r) => n + (r.cleanup?.removed ?? 0), 0),
      leftovers: all((r) => r.cleanup?.leftovers ?? []),
    },
    runErrors: all((r) => r.runErrors),
    results: sortResults(results, rowOrder, CHECK_KINDS),
  }
  // Judged from the merged results, as a run judges its own (the shards' modules are all the selected ones).
  return completeReport(merged, { made: true })
}

/** The bundled reference target listens on a new port each run: shards against it are one target. */
function targetKey(r: Report): string {
  const t = r.target
  return `${t.bundledReferenceTarget ? '(bundled reference target)' : t.baseUrl}, store ${t.storeCode}, second store ${t.secondStoreCode}`
}
