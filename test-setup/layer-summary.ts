/**
 * `npm test`'s last line before the type check's: the project's own tests counted by layer — `unit` (no
 * target, no process, no network; test-setup/unit-layer.ts), `integration` and `browser` — with the time
 * their files took, so that the balance between the layers stays in sight (issue 24: the unit layer is to
 * outnumber the integration layer). A vitest reporter, added by test-setup/npm-test.mjs.
 */
import type { Reporter, TestModule } from 'vitest/node'
import { plural } from '../lib/base/text.ts'

const LAYERS = ['unit', 'integration', 'browser']

export default class LayerSummary implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const line = layerLine(modules)
    if (line !== undefined) process.stdout.write(`\n${line}\n`)
  }
}

/**
 * `Layers: unit 640 tests in 52 files (4.1 s), integration 402 tests in 66 files (92.3 s), …`; undefined when none ran.
 */
export function layerLine(
  modules: ReadonlyArray<Pick<TestModule, 'project' | 'children' | 'diagnostic'>>,
): string | undefined {
  const parts = LAYERS.flatMap((layer) => {
    const files = modules.filter((m) => m.project.name === layer)
    if (files.length === 0) return []
    const tests = files.reduce((n, m) => n + [...m.children.allTests()].length, 0)
    const seconds = files.reduce((s, m) => s + m.diagnostic().duration, 0) / 1000
    return [`${layer} ${plural(tests, 'test')} in ${plural(files.length, 'file')} (${seconds.toFixed(1)} s)`]
  })
  return parts.length > 0 ? `Layers: ${parts.join(', ')}` : undefined
}
