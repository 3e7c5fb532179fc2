// `shop-conformance run` is vitest, started in the CLI's own process through its Node API (plain JavaScript: no
// tsx in the run's process — vite transforms the suite's TypeScript).
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * The suite under vitest: the flags go to the run's reporter as one JSON variable, parsed there by the
 * settings parser exactly as before (flags over environment over `.env` of this directory); `--module` and
 * `--shard` become vitest's own file selection and sharding there. vitest is resolved relative to this
 * package, not the user's directory, and its signal handlers stay (the run's 'exit' path cleans up).
 * Resolves to the run's exit status.
 */
export async function runUnderVitest(flags) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
  process.env.SHOP_RUN_FLAGS = JSON.stringify(flags)
  const { startVitest } = await import('vitest/node')
  const options = { root, project: ['conformance'], run: true, watch: false }
  const configFile = join(root, 'vitest.config.ts')
  const config = await bundledConfig(configFile)
  if (config !== undefined) await startVitest('test', [], { ...options, config: false }, config)
  // Where no bundle can be had (a read-only install): the file read by vite's own loader, the default — it starts a
  // bundler whose threads keep ~15 MB of native memory, but vite 8.4 deprecates the `runner` loader with a warning
  // on every run (issue 31.3), and Node 20 cannot load a TypeScript config natively.
  else await startVitest('test', [], { ...options, config: configFile })
  // Set by the run's reporter (0, 1, 2, 124); vitest's own 1 when the run never reached it.
  return typeof process.exitCode === 'number' ? process.exitCode : 1
}

/**
 * vitest.config.ts as the object it exports, from its plain-JS bundle (lib/base/bundled-import.mjs), handed to vitest
 * inline: read by vite's module runner (and by vite's native loader too), a config file made Node register module
 * hooks, which on Node 20 run in a thread of their own — an isolate more for the whole run, and every later import of
 * the process, the worker's too, went through it (12–18 MB of peak RSS, 0.4–0.9 s of CPU: docs/performance.md).
 * Undefined where no bundle can be had: the file is read as before.
 */
async function bundledConfig(file) {
  const { bundled } = await import('../base/bundled-import.mjs')
  try {
    return (await import(pathToFileURL((await bundled(file)).file).href)).default
  } catch {
    return undefined
  }
}
