import type { TestModule } from 'vitest/node'
import { mergeReports, type Merged } from '../report/merge.ts'
import type { Report } from '../report/model.ts'
import { RESULT_META, RUN_META } from './task-meta.ts'
import type { Result } from '../results/result.ts'
import { applyAliases } from '../shop/aliases.ts'
import { notApplicableResults, PLAN, selectionOf, selectPlan } from '../plan/plan.ts'

/**
 * `vitest --merge-reports`: each shard's report rebuilt from its blob — the run-level facts on its modules'
 * meta (run-reporter.ts puts them there before the deferred blob is written), the results on its tests' meta
 * — then joined by the same merge as `shop-conformance report merge`. Undefined when no blob holds a run.
 */
export function mergeBlobs(modules: ReadonlyArray<TestModule>): Merged | undefined {
  const byRun = new Map<string, { head: Omit<Report, 'results'>; results: Result[] }>()
  for (const m of modules) {
    const head = (m.meta() as Record<string, unknown>)[RUN_META] as Omit<Report, 'results'> | undefined
    if (head === undefined) continue
    const shard = byRun.get(head.run.id) ?? { head, results: [] }
    for (const t of m.children.allTests()) {
      const r = (t.meta() as Record<string, unknown>)[RESULT_META] as Result | undefined
      if (r !== undefined) shard.results.push(r)
    }
    byRun.set(head.run.id, shard)
  }
  if (byRun.size === 0) return undefined
  const reports = [...byRun.values()].map(({ head, results }) => {
    const ran = selectPlan(PLAN, { ...selectionOf(head.run.modules, head.run.checks), modules: head.plan.modules })
    const na = notApplicableResults(ran, (p) => applyAliases(p, head.run.pathAliases))
    return { ...head, results: [...results, ...na] } as Report
  })
  return mergeReports(reports, reports.map((r) => `shard ${r.run.shard ?? '1/1'} (run ${r.run.id})`))
}
