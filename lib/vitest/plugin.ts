/**
 * The conformance project's vitest plugin. `configureVitest` runs only when the project is part of the run,
 * before vitest creates its reporters: it adds the run's reporter (run-reporter.ts) to `vitest.config.reporters`
 * — so the report is written whatever `--reporter` was given — and defers a `blob` reporter behind the run, so
 * its blob holds the run-level facts. It imports nothing of the suite: vite bundles vitest.config.ts with what
 * it imports, and `npm test` must not pay for the suite. The run's reporter is loaded only when this project runs,
 * as one cached bundle of plain JavaScript (lib/base/bundled-import.mjs): vitest's module runner (what a reporter
 * named by path goes through) held a second transformed, source-mapped copy of the suite's code in the main
 * process, ~75 MB of peak RSS of a c16 run (bench: 362–372 MB against 290 MB), and tsx's scoped import a loader
 * thread of its own (~10 MB, 0.3 s of CPU per run on Node 20).
 */
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'

const RUN_REPORTER = fileURLToPath(new URL('./run-reporter.ts', import.meta.url))
/**
 * Node's own import: `shop-conformance run` reads this config through vite's module runner (bin.mjs), which
 * rewrites every `import()` of this file into a call to itself and is closed once the config is read. A
 * function made from text is not rewritten.
 */
const nativeImport = new Function('url', 'return import(url)') as (url: string) => Promise<unknown>
const DEFERRED_BLOB = fileURLToPath(new URL('./deferred-blob.ts', import.meta.url))

export function conformance(): Plugin {
  return {
    name: 'shop-conformance',
    async configureVitest({ vitest }) {
      // Resolved entries are `[name, options]` tuples or reporter instances (vitest's createReporters).
      const reporters = vitest.config.reporters as unknown as unknown[]
      for (const [i, entry] of reporters.entries()) if (Array.isArray(entry) && entry[0] === 'blob') reporters[i] = [DEFERRED_BLOB, entry[1] ?? {}]
      // Started by `shop-conformance run`: the run prints its own progress and summary; a line per test is noise.
      if (process.env.SHOP_RUN_FLAGS !== undefined) reporters.length = 0
      const { bundledImport } = (await nativeImport(new URL('../base/bundled-import.mjs', import.meta.url).href)) as { bundledImport: (entry: string) => Promise<unknown> }
      // An instance: vitest takes it as it is, where a path would be loaded through its module runner.
      const { default: Reporter } = (await bundledImport(RUN_REPORTER)) as { default: new () => unknown }
      reporters.unshift(new Reporter())
    },
  }
}
