/**
 * A run stopped from outside through the process that started it (issue 31.13). CI runners and process managers
 * signal the process they started — npx, `npm exec` — rather than its process group. npm passes a SIGTERM to the shell
 * it runs the command in (`sh -c`), which ends and leaves the run orphaned; a SIGKILL ends npm alone. Before, the run
 * went on to its end unseen (6 minutes). Now it notices that the process that started it is gone and stops as on a
 * SIGTERM: cleanup, a partial report, 143.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { REFERENCE_ADMIN, startReferenceTarget } from '../../reference-target/index.ts'
import { spawnInTest } from '../../test-setup/child-processes.ts'
import type { Report } from '../report/model.ts'
import { alive, LOCK_FILE } from './report-dir-lock.ts'

const ROOT = resolve(import.meta.dirname, '../..')

/** What `probe` gives once it gives something, looked for every 100 ms for `ms`. */
async function until<T>(what: string, ms: number, probe: () => T | undefined): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const found = probe()
    if (found !== undefined) return found
  }
  throw new Error(`${what}: not within ${ms} ms`)
}

function readOr<T>(file: string, parse: (text: string) => T): T | undefined {
  try {
    return parse(readFileSync(file, 'utf8'))
  } catch {
    return undefined
  }
}

// One after the other: side by side (two npx runs stopped within seconds of each other, at load 10–13) the SIGTERM
// run hung after "SIGTERM received" in three of four tries and wrote no report in 3 min, while either alone stopped in
// 10–20 s. Why is not found yet (docs/testing.md, "On a busy machine").
describe.sequential('a run started through npx, stopped by a signal to npx alone', () => {
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`stops, cleans up and writes its partial report when npx gets ${signal}`, { timeout: 360_000 }, async () => {
      // Slow enough that the run would last minutes: some 2,300 requests, one at a time, 100 ms each.
      const target = await startReferenceTarget({ latencyMs: 100 })
      onTestFinished(() => target.close())
      const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-npx-'))
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        SHOP_ADMIN_USERNAME: REFERENCE_ADMIN.username,
        SHOP_ADMIN_PASSWORD: REFERENCE_ADMIN.password,
      }
      const reports = join(dir, 'reports')
      const npx = spawnInTest(
        'npx',
        [
          '--offline',
          'shop-conformance',
          'run',
          '--base-url',
          target.url,
          '--concurrency',
          '1',
          '--report-dir',
          reports,
        ],
        { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'ignore'] },
      )
      // The run's own process (its report directory's lock names it), once its checks are under way.
      const run = await until('the run under way', 120_000, () =>
        target.stats().requests >= 60
          ? readOr(join(reports, LOCK_FILE), (t) => (JSON.parse(t) as { pid: number }).pid)
          : undefined,
      )
      expect(run).not.toBe(npx.pid)
      // Before issue 31 it ran on: it is ended here whatever this test finds.
      onTestFinished(() => {
        if (alive(run)) process.kill(run, 'SIGKILL')
      })
      npx.kill(signal)
      // Its cleanup goes one request at a time at 100 ms: on a loaded machine (CI at load 6) more than a minute.
      const report = await until('the partial report', 180_000, () =>
        readOr(join(reports, 'report.json'), (t) => JSON.parse(t) as Report),
      )
      expect(report.partial).toEqual({ reason: 'SIGTERM' })
      expect(report.exit).toEqual({
        status: 143,
        reason: 'interrupted by SIGTERM: the results cover only what finished',
      })
      expect(report.notes).toContainEqual(
        expect.stringMatching(
          /^the process that started the run \(PID \d+: npx, npm or its shell\) ended: stopped as on SIGTERM$/,
        ),
      )
      // What it made is removed: its customers at least.
      expect(report.cleanup.removed).toBeGreaterThan(0)
      await until('the run gone', 30_000, () => (alive(run) ? undefined : true))
    })
  }
})
