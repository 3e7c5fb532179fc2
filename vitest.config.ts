import { relative } from 'node:path'
import { configDefaults, defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
// Imports nothing of the suite (vite bundles this config with what it imports, and `npm test` loads it too).
import { conformance } from './lib/vitest/plugin.ts'

// Four projects: the project's own tests by layer (`unit`, `integration`, `browser`: what `npm test` runs) and
// the conformance suite itself (`conformance`: suites/*.conformance.ts against the configured target, or the
// bundled one). Plain `npx vitest run` runs all four.
const TESTS = ['lib/**/*.test.ts', 'reference-target/**/*.test.ts', 'fixtures/**/*.test.ts', 'test-setup/*.test.ts']
const BROWSER_TESTS = ['lib/**/*.browser.test.ts']
/**
 * The integration layer: test files that start a reference target, a CLI run, vitest, a browser or any other
 * process, or open a socket. Every other test file is of the unit layer, where each of those fails at once
 * (test-setup/unit-layer.ts): a new file that needs one is listed here.
 */
const INTEGRATION_TESTS = [
  'fixtures/observed-target/observed-target.test.ts',
  'lib/base/bundled-import.test.ts',
  'lib/vitest/{plugin,start}.test.ts',
  'lib/dead-code.test.ts',
  'lib/bench/{preload,replay-send}.test.ts',
  'lib/checks/{access,access-route-missing,acl,batch-partial,body-keys,route,shape,store-code,tokens,variants}.test.ts',
  'lib/cli/{certificate,child-processes,cli,cleanup,commands-bin,dry-run-log,evidence,extensions,judge,pipes,proxy,server-errors,settings,usage-bin}.test.ts',
  'lib/extend/load.test.ts',
  'lib/package/{action,pack}.test.ts',
  'lib/report/{curl,merge,sign-openssl}.test.ts',
  'lib/run/{given-tokens,native,preflight-stop,real-shop,report-dir-lock,safety,shop-schema,stopped-from-outside}.test.ts',
  'lib/schema/schema-e2e.test.ts',
  'lib/setup/{builders,cleanup,platform-calls,registrar}.test.ts',
  'lib/shop/{client,preflight,store-codes}.test.ts',
  'lib/workflows/workflows.test.ts',
  'reference-target/{accounts,behaviour-faults,cart-calls,catalog,cli,composite-inventory,faults,prices,product-parts,quote,real-shop,sales,schema,search,shapes,snapshot,target,tax-rules,testing,transport,variants}.test.ts',
  'test-setup/{chromium,deadlines}.test.ts',
]
/**
 * The own tests' files that take longest, started first in this order (then the others, in vitest's order). Most
 * of their time is spent waiting — on child runs, a busy shop's heavy writes, late answers' deadlines — so the
 * other files fill the cores beside them; started last, they ended the run alone. Without a cache of durations
 * (a clean clone, CI) vitest starts the largest files first, and these are not the largest. Only the order:
 * a file missing here, or one too many, costs time, never a test.
 */
const LONGEST_FIRST = [
  'lib/cli/cli.test.ts',
  'lib/run/real-shop.test.ts',
  'lib/run/safety.test.ts',
  'lib/run/native.test.ts',
  'lib/report/matrix-html.browser.test.ts',
  'lib/checks/variants.test.ts',
  'lib/cli/extensions.test.ts',
  'lib/checks/access.test.ts',
  'lib/dead-code.test.ts',
  'reference-target/faults.test.ts',
  'lib/report/html.browser.test.ts',
]

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(relative(file.project.config.root, file.moduleId))
      return i === -1 ? LONGEST_FIRST.length : i
    }
    // A stable sort: the other files keep vitest's order (each project's group first, so the suite's order too).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}

const timeouts = { testTimeout: 60_000, hookTimeout: 60_000 }
// The own tests' projects run together (one group, so one number of workers: why three, at the integration project).
const OWN_TEST_WORKERS = 3
// A worker imports the suite's modules once for all its files (one import per file cost a fifth of the CPU);
// what must happen after each file is in a set-up file, not in a helper's module-level hook.
const SHARED_WORKERS = { isolate: false, maxWorkers: OWN_TEST_WORKERS, sequence: { groupOrder: 0 } }

export default defineConfig({
  test: {
    ...timeouts,
    // The own tests' temporary directory (the root's global set-up runs for every run: it does nothing for the suite
    // alone).
    globalSetup: ['test-setup/temp-dir.ts'],
    sequence: { sequencer: LongestFirst },
    projects: [
      // Beside the other layers (same group: its one file need not hold the other core idle); its global set-up,
      // like every project's, runs before any test, so a missing browser is still said at once.
      // Its tests may run the CLI too (the matrix's runs): the per-file set-up ends their processes.
      {
        test: {
          name: 'browser',
          include: BROWSER_TESTS,
          globalSetup: ['test-setup/chromium.ts'],
          setupFiles: ['test-setup/per-file.ts'],
          sequence: { groupOrder: 0 },
          maxWorkers: OWN_TEST_WORKERS,
          ...timeouts,
        },
      },
      {
        test: {
          name: 'unit',
          include: TESTS,
          exclude: [...configDefaults.exclude, ...BROWSER_TESTS, ...INTEGRATION_TESTS],
          // No target, no process, no network (unit-layer.ts throws at each): milliseconds a file.
          setupFiles: ['test-setup/unit-layer.ts'],
          ...SHARED_WORKERS,
          // Threads: nothing to isolate in a process of its own, and they start sooner (the layer alone: 8.5 s
          // against 11.8 s in forks, on the loaded machine).
          pool: 'threads',
          ...timeouts,
        },
      },
      {
        test: {
          name: 'integration',
          include: INTEGRATION_TESTS,
          // Three workers on two cores (vitest's default there is one): many files wait on child runs, targets'
          // latencies and timeouts, and fewer workers left a core idle through them (one: 309 s, two: 140 s, three:
          // 131 s on two cores). The child runs share one bound for the machine (lib/cli/testing.ts, inRunSlot).
          ...SHARED_WORKERS,
          // The processes a test starts end with it (child-processes.ts), the run directories with its file.
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
          // The run's deadline (SHOP_RUN_TIMEOUT_MS) stops a stuck run, not a test timeout: a test may wait long behind
          // others.
          testTimeout: 86_400_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 2 },
          // No experimental fsModuleCache: the suite is one bundle the worker's Node loads (lib/vitest/plugin.ts), and
          // a suite file's transform kept on disk would keep the bundle it resolved to then, whatever changed since.
        },
      },
    ],
  },
})
