import { relative } from 'node:path'
import type { TestModule, TestProject, TestSpecification, Vitest } from 'vitest/node'
import type { RunConfig } from '../settings/config.ts'
import { wasSelected } from './task-meta.ts'
import { MODULES } from '../spec/modules.ts'
import { PLAN, selectionOf, selectPlan } from '../plan/plan.ts'
import { moduleIdOf } from '../run/progress.ts'
import type { RunScope } from '../run/report-draft.ts'

/**
 * What of the suite this run covered, from vitest's own selection: the modules whose suite files it ran (a
 * shard's share, file filters, `--module`), and within them the planned checks whose tests it selected (`-t`,
 * an editor's test ids) — so a run of `-t base-prices` says "partial: 8 of N checks selected", never that the
 * rest of the suite was not judged. Each module's `beforeAll` marks the tests it started; a module that never
 * started (a stop came first) counts its planned checks that `-t` matches, as vitest would have run them.
 */
export function scopeOf(vitest: Vitest, modules: ReadonlyArray<TestModule>, config: RunConfig): RunScope {
  const flags = selectionOf(config.modules, config.checks)
  const pattern = vitest.config.testNamePattern
  const files = commandLineFiles(vitest)
  const shard = vitest.config.shard
  const selected = new Set<string>()
  for (const m of modules) {
    const marked = [...m.children.allTests()].filter(wasSelected).map((t) => t.name)
    if (marked.length > 0) for (const id of marked) selected.add(id)
    else {
      const title = MODULES.find((x) => x.id === moduleIdOf(m.moduleId))?.title ?? ''
      for (const p of selectPlan(PLAN, { ...flags, modules: [moduleIdOf(m.moduleId)] }).checks)
        if (pattern === undefined || pattern.test(`${title} ${p.id}`)) selected.add(p.id)
    }
  }
  const limits = [
    ...(shard !== undefined ? [`shard ${shard.index}/${shard.count}`] : []),
    ...(files.length > 0 ? [`files ${files.map((f) => relative(process.cwd(), f) || f).join(' ')}`] : []),
    ...(pattern !== undefined ? [`-t ${String(pattern)}`] : []),
  ]
  // Narrowed by vitest, the plan's selection is what it ran; else the flags' (a run cut short keeps its whole
  // denominator).
  const selection =
    limits.length === 0 ? flags : { ...flags, modules: modules.map((m) => moduleIdOf(m.moduleId)), ids: selected }
  return { selection, limits, ...(shard !== undefined ? { shard } : {}) }
}

/**
 * The file filters of the command line: on a field vitest keeps internal (set by `start(filters)`), so checked before
 * use.
 */
function commandLineFiles(vitest: Vitest): string[] {
  const { filenamePattern } = vitest as unknown as { filenamePattern?: unknown }
  return Array.isArray(filenamePattern) && filenamePattern.every((f) => typeof f === 'string') ? filenamePattern : []
}

/**
 * A shard's share of the run's suite files, as vitest will split them (its own sequencer's `shard`: by file), known
 * before the run sends anything: how many this shard runs of how many the selection has. Undefined unsharded.
 */
export async function shardShare(
  vitest: Vitest,
  specs: ReadonlyArray<TestSpecification>,
  project: TestProject,
): Promise<{ shard: string; runs: number; of: number } | undefined> {
  const shard = vitest.config.shard
  if (shard === undefined) return undefined
  const Sequencer = vitest.config.sequence.sequencer
  const share = await new Sequencer(vitest).shard([...specs])
  const suiteFiles = (list: readonly TestSpecification[]) => list.filter((s) => s.project.name === project.name).length
  return { shard: `${shard.index}/${shard.count}`, runs: suiteFiles(share), of: suiteFiles(specs) }
}
