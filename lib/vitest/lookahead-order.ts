import type { TestProject, TestSpecification, Vitest } from 'vitest/node'
import { MODULES } from '../spec/modules.ts'
import { moduleIdOf } from '../run/progress.ts'

/**
 * The run's modules in the order vitest will give their files to the worker — or undefined when some file will
 * not run its whole module (`-t`, tags, an editor's test ids or lines): a module's work may then be started only
 * by its own `beforeAll`, from the tests vitest selected (lib/vitest/lookahead.ts). `onTestRunStart` comes before
 * vitest shards and sorts the files, so this does the same with vitest's own sequencer; an order that still
 * differs (the sequencer's cache changed meanwhile) only starts the work of a module sooner or later.
 */
export async function lookaheadOrder(
  vitest: Vitest,
  specs: ReadonlyArray<TestSpecification>,
  project: TestProject,
): Promise<string[] | undefined> {
  if (vitest.config.testNamePattern !== undefined || (vitest.config.tagsFilter?.length ?? 0) > 0) return undefined
  if (
    specs.some(
      (s) =>
        (s.testLines?.length ?? 0) > 0 ||
        (s.testIds?.length ?? 0) > 0 ||
        s.testNamePattern !== undefined ||
        (s.testTagsFilter?.length ?? 0) > 0,
    )
  )
    return undefined
  const Sequencer = vitest.config.sequence.sequencer
  const sequencer = new Sequencer(vitest)
  // Sharded over every project's files, as vitest does, before keeping this project's.
  const shard = vitest.config.shard !== undefined ? await sequencer.shard([...specs]) : [...specs]
  const sorted = await sequencer.sort(shard.filter((s) => s.project.name === project.name))
  return sorted.map((s) => moduleIdOf(s.moduleId)).filter((id) => MODULES.some((m) => m.id === id))
}
