import { configDefaults, defineConfig } from 'vitest/config'
// Imports nothing of the suite (vite bundles this config with what it imports, and `npm test` loads it too).
import { conformance } from './lib/vitest/plugin.ts'

// Three projects: the project's own tests (`browser`, `node`: what `npm test` runs) and the conformance suite
// itself (`conformance`: suites/*.conformance.ts against the configured target, or the bundled one). Plain
// `npx vitest run` runs all three.
const TESTS = ['lib/**/*.test.ts', 'reference-target/**/*.test.ts', 'fixtures/**/*.test.ts', 'test-setup/*.test.ts']
const BROWSER_TESTS = ['lib/**/*.browser.test.ts']
const timeouts = { testTimeout: 60_000, hookTimeout: 60_000 }
// The own tests' two projects run together (one group), so they share one number of workers (node project: why three).
const OWN_TEST_WORKERS = 3

export default defineConfig({
  test: {
    ...timeouts,
    // The own tests' temporary directory (the root's global set-up runs for every run: it does nothing for the suite alone).
    globalSetup: ['test-setup/temp-dir.ts'],
    projects: [
      // Beside the node project (same group: its one file need not hold the other core idle); its global set-up,
      // like every project's, runs before any test, so a missing browser is still said at once.
      // Its tests may run the CLI too (the matrix's runs): the node project's per-file set-up ends their processes.
      { test: { name: 'browser', include: BROWSER_TESTS, globalSetup: ['test-setup/chromium.ts'], setupFiles: ['test-setup/per-file.ts'], sequence: { groupOrder: 0 }, maxWorkers: OWN_TEST_WORKERS, ...timeouts } },
      {
        test: {
          name: 'node',
          include: TESTS,
          exclude: [...configDefaults.exclude, ...BROWSER_TESTS],
          sequence: { groupOrder: 0 },
          // Three workers on two cores (vitest's default there is one): many files wait on child runs, targets'
          // latencies and timeouts, and fewer workers left a core idle through them (one: 309 s, two: 140 s, three:
          // 131 s on two cores). The child runs share one bound for the machine (lib/cli/testing.ts, inRunSlot).
          maxWorkers: OWN_TEST_WORKERS,
          // A worker imports the suite's modules once for all its files (one import per file cost a fifth of the
          // CPU); what must happen after each file is in the set-up file, not in a helper's module-level hook.
          isolate: false,
          setupFiles: ['test-setup/per-file.ts'],
          ...timeouts,
        },
      },
      {
        plugins: [conformance()],
        test: {
          name: 'conformance',
          include: ['suites/*.conformance.ts'],
          // One worker for every suite file: one client, one concurrency bound, one probe memo.
          pool: 'threads',
          maxWorkers: 1,
          isolate: false,
          // Every selected test awaits a verdict already under way (module-suite.ts): none may wait for a slot.
          maxConcurrency: 100_000,
          // The run's deadline (SHOP_RUN_TIMEOUT_MS) stops a stuck run, not a test timeout: a test may wait long behind others.
          testTimeout: 86_400_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 2 },
          // Transformed suite and lib modules cached on disk: a warm start skips vite's transforms.
          experimental: { fsModuleCache: true },
        },
      },
    ],
  },
})
