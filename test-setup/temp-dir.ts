/**
 * The project's tests get a temporary directory of their own (TMPDIR, inherited by the workers and by the
 * processes they start), removed after the run: nothing of `npm test` stays in the system's temp directory.
 * What a test leaves in it fails the run, naming it: a test removes what it makes, so that a run of a few
 * files, or a crash, does not fill the disk either.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

/**
 * Caches of the tools the tests start (tsx compiles into TMPDIR/tsx-UID), the child runs' slots and the runs
 * several test files share (lib/cli/testing.ts, RUN_SLOTS_DIR and SHARED_RUNS_DIR: named here too, as the package
 * ships this file but not that helper), not leftovers of a test.
 */
const TOOL_CACHES = /^(tsx-\d+|child-run-slots|shared-runs)$/

export default function setup(project: TestProject): (() => void) | undefined {
  // The root's global set-up runs for every run, the conformance project's alone included: not the suite's business.
  if (project.vitest.projects.every((p) => p.name === 'conformance')) return undefined
  const system = tmpdir()
  const root = mkdtempSync(join(system, 'shop-conformance-tests-'))
  const screenshots = process.env.SHOP_SCREENSHOT_DIR
  process.env.TMPDIR = root
  // The HTML report's browser test keeps its screenshots: in this run's directory unless asked elsewhere.
  process.env.SHOP_SCREENSHOT_DIR = screenshots ?? join(root, 'screenshots')
  return () => {
    const left = readdirSync(root).filter(
      (entry) => !TOOL_CACHES.test(entry) && (screenshots !== undefined || entry !== 'screenshots'),
    )
    rmSync(root, { recursive: true, force: true })
    process.env.TMPDIR = system
    if (left.length === 0) return
    // Vitest reports an error thrown here but exits 0: the status is set instead.
    console.error(
      `\nFAIL the tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in the temporary directory (removed now; a test removes what it makes): ${left.join(', ')}\n`,
    )
    process.exitCode = 1
  }
}
