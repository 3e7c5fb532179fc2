/** `npm test`'s count of the own tests by layer (layer-summary.ts): tests, files and their time, layer by layer. */
import { describe, expect, it } from 'vitest'
import { layerLine } from './layer-summary.ts'

/** A test file of `project` with `tests` tests that took `ms`. */
const file = (project: string, tests: number, ms: number) => ({
  project: { name: project },
  children: { allTests: () => Array.from({ length: tests }) },
  diagnostic: () => ({ duration: ms }),
})

describe("the layers' line", () => {
  it("counts each layer's tests, files and time, unit first, and leaves out what is no layer", () => {
    const modules = [
      file('integration', 7, 12_000),
      file('unit', 30, 40),
      file('unit', 4, 20),
      file('browser', 9, 3_000),
      file('conformance', 2_391, 9_000),
    ]
    expect(layerLine(modules as never)).toBe(
      'Layers: unit 34 tests in 2 files (0.1 s), integration 7 tests in 1 file (12.0 s), browser 9 tests in 1 file (3.0 s)',
    )
  })

  it('is none when no test of a layer ran', () => {
    expect(layerLine([file('conformance', 3, 10)] as never)).toBeUndefined()
  })
})
