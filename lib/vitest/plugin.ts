/**
 * The conformance project's vitest plugin. `configureVitest` runs only when the project is part of the run,
 * before vitest creates its reporters: it adds the run's reporter (run-reporter.ts) to `vitest.config.reporters`
 * — so the report is written whatever `--reporter` was given — and defers a `blob` reporter behind the run, so
 * its blob holds the run-level facts. It imports nothing of the suite: vite bundles vitest.config.ts with what
 * it imports, and `npm test` must not pay for the suite. The reporters are loaded only when this project runs,
 * each as one cached bundle of plain JavaScript (lib/base/bundled-import.mjs): vitest's module runner (what a
 * reporter named by path goes through) held a second transformed, source-mapped copy of the suite's code in the
 * main process, ~75 MB of peak RSS of a c16 run (bench: 362–372 MB against 290 MB), and tsx's scoped import a
 * loader thread of its own (~10 MB, 0.3 s of CPU per run on Node 20).
 */
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
import type { Reporter, VitestPluginContext } from 'vitest/node'

const RUN_REPORTER = fileURLToPath(new URL('./run-reporter.ts', import.meta.url))
/**
 * What the suite files import (module-suite.ts, extension-suite.ts), in one module: the worker's bundle of the suite.
 */
const SUITE_ENTRY = fileURLToPath(new URL('./suite-entry.ts', import.meta.url))
const SUITE_FACES = new Set(
  ['module-suite.ts', 'extension-suite.ts'].map((f) => fileURLToPath(new URL(`./${f}`, import.meta.url))),
)
const SUITE_MODULE = '\0virtual:shop-conformance-suite'
const SUITE_FILE = /[\\/]suites[\\/][^\\/]+\.conformance\.ts$/
const DEFERRED_BLOB = fileURLToPath(new URL('./deferred-blob.ts', import.meta.url))
/**
 * Node's own loader, through `require` (of an ES module without top-level await: Node ≥ 20.19): `shop-conformance
 * run` reads this config through vite's module runner (bin.mjs), which rewrites every `import()` of this file
 * into a call to itself, and is closed once the config is read.
 */
const nativeRequire = createRequire(import.meta.url)

/**
 * vite's Plugin, but with `configureVitest` returning the promise it does: vitest's type has the hook return void,
 * yet vitest awaits what each returns (Promise.all over the hooks, in Vitest#_setServer of vitest 4.1), so the
 * reporters are in place before it reads them.
 */
interface ConformancePlugin extends Omit<Plugin, 'configureVitest'> {
  configureVitest(context: VitestPluginContext): Promise<void>
}

export function conformance(): ConformancePlugin {
  return {
    name: 'shop-conformance',
    // Before vite's own resolver, which would resolve the suite files' imports first.
    enforce: 'pre',
    /**
     * The suite files' imports of the suite (module-suite.ts, extension-suite.ts) are one module, whose code is the
     * suite as one bundle of plain JavaScript (lib/base/bundled-import.mjs) that the worker's Node loads itself, as a
     * package's file: through vite's module runner each of its some 300 modules was transformed, held by vite in
     * the main process, and run in the worker behind the runner's import bindings — a seventh of the run's CPU
     * (docs/performance.md). One module, so the worker has one session, one client, one lookahead.
     */
    async resolveId(source, importer) {
      if (importer === undefined || !SUITE_FILE.test(importer)) return null
      const resolved = await this.resolve(source, importer, { skipSelf: true })
      return resolved !== null && SUITE_FACES.has(resolved.id) ? SUITE_MODULE : null
    },
    async load(id) {
      if (id !== SUITE_MODULE) return null
      const { bundled } = nativeRequire('../base/bundled-import.mjs') as {
        bundled: (entry: string) => Promise<{ file: string; inputs: string[] }>
      }
      try {
        const { file, inputs } = await bundled(SUITE_ENTRY)
        // A change to any of its files (watch mode) makes the module, and the suite files, anew.
        for (const input of inputs) this.addWatchFile(input)
        return `export * from ${JSON.stringify(file)}\n`
      } catch {
        // No bundle to be had (a read-only install without one): the suite's TypeScript through the module runner.
        return `export * from ${JSON.stringify(SUITE_ENTRY)}\n`
      }
    },
    configureVitest: addRunReporter,
  }
}

/** The run's reporter put first among vitest's, a `blob` reporter deferred behind it. */
async function addRunReporter({ vitest }: VitestPluginContext): Promise<void> {
  const { bundledImport } = nativeRequire('../base/bundled-import.mjs') as {
    bundledImport: (entry: string) => Promise<unknown>
  }
  // Instances: vitest takes them as they are, where a path would be loaded through its module runner.
  const { default: RunReporter } = (await bundledImport(RUN_REPORTER)) as {
    default: new () => Reporter & { finished: Promise<void> }
  }
  const run = new RunReporter()
  const reporters = vitest.config.reporters
  for (const [i, entry] of reporters.entries()) {
    if (!Array.isArray(entry) || entry[0] !== 'blob') continue
    const { default: DeferredBlob } = (await bundledImport(DEFERRED_BLOB)) as {
      default: new (run: { finished: Promise<void> }, options: object) => Reporter
    }
    reporters[i] = new DeferredBlob(run, entry[1])
  }
  // Started by `shop-conformance run`: the run prints its own progress and summary; a line per test is noise.
  if (process.env.SHOP_RUN_FLAGS !== undefined) reporters.length = 0
  reporters.unshift(run)
}
