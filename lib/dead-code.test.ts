/**
 * No dead export, no unused file, no unused or unlisted dependency (issue 24.6): knip reads every import of the
 * tree from the entries in knip.json — the CLI and the run's .mjs files, the suite files, the tests and their
 * helpers, the Action, the example, and the two public faces a user imports (lib/extend/index.ts for a vendor's
 * checks, reference-target/index.ts for starting the reference target from code). An export nothing imports is
 * a name a reader must check for callers that do not exist: it is unexported (used in its file) or deleted.
 */
import { execFile } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
// Its package exports no path to its bin: the one npm ci installs.
const KNIP = join(ROOT, 'node_modules', 'knip', 'bin', 'knip.js')

it('finds no dead export, unused file or dependency', { timeout: 180_000 }, async () => {
  const run = await promisify(execFile)(process.execPath, [KNIP, '--no-progress', '--no-config-hints'], {
    cwd: ROOT,
    timeout: 170_000,
    killSignal: 'SIGKILL',
    maxBuffer: 1 << 24,
  }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (err: { code?: number; stdout?: string; stderr?: string }) => ({
      code: err.code ?? -1,
      stdout: `${err.stdout ?? ''}${err.stderr ?? ''}`,
    }),
  )
  expect(
    run.stdout.trim(),
    'knip: remove the `export` of what only its own file uses, and delete what nothing uses',
  ).toBe('')
  expect(run.code).toBe(0)
})
