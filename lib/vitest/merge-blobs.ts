import type { TestModule } from 'vitest/node'
import { UsageError } from '../base/usage-error.ts'
import { mergeReports, type Merged } from '../report/merge.ts'
import type { Report } from '../report/model.ts'
import type { Result } from '../results/result.ts'
import { crashResult, moduleIdOf } from '../run/progress.ts'
import { applyAliases } from '../shop/aliases.ts'
import { notApplicableResults, PLAN, selectionOf, selectPlan } from '../plan/plan.ts'
import { readCarried, readRunHead, type RunHead } from './task-meta.ts'

/**
 * `vitest --merge-reports`: each shard's report rebuilt from its blob — the run-level facts on its modules'
 * meta (run-reporter.ts puts them there before the deferred blob is written), the results on its tests' meta
 * — then joined by the same merge as `shop-conformance report merge`. Undefined when no blob holds a run.
 * A blob whose run facts are not this version's cannot be merged (one line, exit 2); a result that cannot be
 * read is an error of its shard's run, as in the run that wrote it.
 */
export function mergeBlobs(modules: ReadonlyArray<TestModule>): Merged | undefined {
  const byRun = new Map<string, { head: RunHead; results: Result[]; runErrors: string[] }>()
  for (const m of modules) {
    const { head, problem } = readRunHead(m)
    if (problem !== undefined)
      throw new UsageError(
        `--merge-reports: the blob of ${moduleIdOf(m.moduleId)} holds run facts this version of shop-conformance cannot read (${problem}): merge blobs written by the same version`,
      )
    if (head === undefined) continue
    const shard = byRun.get(head.run.id) ?? { head, results: [], runErrors: [] }
    for (const t of m.children.allTests()) {
      const carried = readCarried(t)
      if (carried.problem !== undefined) {
        shard.runErrors.push(`${t.name}: ${carried.problem}`)
        shard.results.push(crashResult(t.name, moduleIdOf(m.moduleId), carried.problem))
      } else if (carried.result !== undefined) shard.results.push(carried.result)
    }
    byRun.set(head.run.id, shard)
  }
  if (byRun.size === 0) return undefined
  const reports = [...byRun.values()].map(({ head, results, runErrors }) => {
    const ran = selectPlan(PLAN, { ...selectionOf(head.run.modules, head.run.checks), modules: head.plan.modules })
    const na = notApplicableResults(ran, (p) => applyAliases(p, head.run.pathAliases))
    const report: Report = { ...head, runErrors: [...head.runErrors, ...runErrors], results: [...results, ...na] }
    return report
  })
  return mergeReports(
    reports,
    reports.map((r) => `shard ${r.run.shard ?? '1/1'} (run ${r.run.id})`),
  )
}
