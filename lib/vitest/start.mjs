// `shop-conformance run` is vitest, started in the CLI's own process through its Node API (plain JavaScript: no
// tsx in the run's process — vite transforms the suite's TypeScript).
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

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
  // The config read through vite's module runner, not bundled: bundling it started rolldown's bundler in the
  // run's process, whose threads kept ~15 MB of native memory through the whole run (peak RSS of a c16 run).
  await startVitest('test', [], { root, config: join(root, 'vitest.config.ts'), project: ['conformance'], run: true, watch: false, configLoader: 'runner' })
  // Set by the run's reporter (0, 1, 2, 124); vitest's own 1 when the run never reached it.
  return typeof process.exitCode === 'number' ? process.exitCode : 1
}
