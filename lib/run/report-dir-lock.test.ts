/**
 * One run per report directory: a second run is refused at start (exit 2, naming the directory and the first
 * run's PID) before it touches anything there; a lock left by a process that is gone is taken over.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REFERENCE_ADMIN, startReferenceTarget, type ReferenceTarget } from '../../reference-target/index.ts'
import { UsageError } from '../base/usage-error.ts'
import { cli } from '../cli/testing.ts'
import { LOCK_FILE, lockReportDir } from './report-dir-lock.ts'

const dirs: string[] = []
const closers: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const c of closers) await c()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'report-dir-lock-'))
  dirs.push(dir)
  return dir
}

/** A PID whose process has ended. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid
}

/** A node process that runs until the test file ends: another run, as far as the lock can tell. */
function liveNode(): number {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' })
  closers.push(() => {
    child.kill()
    return Promise.resolve()
  })
  return child.pid!
}

function holdAs(dir: string, pid: number, host = hostname()): void {
  writeFileSync(
    join(dir, LOCK_FILE),
    JSON.stringify({ pid, host, what: 'a conformance run', since: '2026-01-01T00:00:00.000Z' }),
  )
}

const SETTING = '--report-dir / SHOP_REPORT_DIR'

describe('the report directory lock', () => {
  it('is refused while another live process holds it, naming the directory and its PID', () => {
    const dir = tempDir()
    const pid = liveNode()
    holdAs(dir, pid)
    expect(() => lockReportDir(dir, SETTING, 'a conformance run')).toThrow(
      new UsageError(
        `${SETTING}: "${dir}" is in use by another run (PID ${pid}: a conformance run, started 2026-01-01T00:00:00.000Z): wait for it to end, or give this run a directory of its own`,
      ),
    )
  })

  it('is taken over from a process that is gone, and released by its holder only', () => {
    const dir = tempDir()
    holdAs(dir, deadPid())
    const lock = lockReportDir(dir, SETTING, 'a conformance run')
    const held = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))
    expect(held).toMatchObject({ pid: process.pid, host: hostname(), what: 'a conformance run' })
    // Taken over by another since (this process had died, as far as that one knew): not this one's to remove.
    holdAs(dir, liveNode())
    lock.release()
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true)
  })

  it('that is no lock of a run (not its JSON) does not block the directory', () => {
    const dir = tempDir()
    writeFileSync(join(dir, LOCK_FILE), 'garbage')
    lockReportDir(dir, SETTING, 'a conformance run').release()
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)
  })

  it("is released, and the same process may take it again (vitest's watch mode runs again)", () => {
    const dir = tempDir()
    const first = lockReportDir(dir, SETTING, 'a conformance run')
    lockReportDir(dir, SETTING, 'a conformance run')
    first.release() // the second holder's: left as it is
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true)
    const again = lockReportDir(dir, SETTING, 'a conformance run')
    again.release()
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)
  })

  it('held on another machine (a shared disk) cannot be checked: refused, saying which file to remove if that run is gone', () => {
    const dir = tempDir()
    holdAs(dir, 4242, 'ci-runner-7')
    expect(() => lockReportDir(dir, SETTING, 'a conformance run')).toThrow(
      `(PID 4242 on ci-runner-7: a conformance run, started 2026-01-01T00:00:00.000Z): wait for it to end, or give this run a directory of its own; if that run is gone, remove ${join(dir, LOCK_FILE)}`,
    )
  })
})

describe('two runs with one --report-dir', { timeout: 120_000 }, () => {
  const env = { SHOP_ADMIN_USERNAME: REFERENCE_ADMIN.username, SHOP_ADMIN_PASSWORD: REFERENCE_ADMIN.password }
  async function target(options: Parameters<typeof startReferenceTarget>[0]): Promise<ReferenceTarget> {
    const t = await startReferenceTarget(options)
    closers.push(() => t.close())
    return t
  }

  it("the second is refused at start, exit 2, naming the directory and the first run's PID; the first run's report and ledger are its own", async () => {
    // The first run fails (a fault) and is slow enough for the second to start beside it.
    const slow = await target({ latencyMs: 150, faults: [{ name: 'route-missing' }] })
    const fast = await target({})
    const dir = join(tempDir(), 'reports')
    const lock = join(dir, LOCK_FILE)
    const first = cli(['run', '--base-url', slow.url, '--module', 'directory', '--report-dir', dir, '--seed', '1'], env)
    // The first run has started once its ledger is there.
    while (!existsSync(join(dir, 'ledger.jsonl'))) await new Promise((r) => setTimeout(r, 50))
    const second = await cli(
      ['run', '--base-url', fast.url, '--module', 'directory', '--report-dir', dir, '--seed', '2'],
      env,
      { slot: false },
    )
    expect(second.status).toBe(2)
    const holder = JSON.parse(readFileSync(lock, 'utf8')) as { pid: number; since: string }
    expect(second.stderr).toBe(
      `shop-conformance: ${SETTING}: "${dir}" is in use by another run (PID ${holder.pid}: a conformance run, started ${holder.since}): wait for it to end, or give this run a directory of its own\n`,
    )
    expect(fast.stats().requests).toBe(0)
    const done = await first
    expect(done.status).toBe(1)
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'))
    expect(report.exit.status).toBe(1)
    expect(report.target.baseUrl).toBe(slow.url)
    // The ledger, whose entities the report lists as created, is the first run's alone: its id is in every
    // name the run gives (the second run, had it started, would have emptied it and written its own).
    const ledger = readFileSync(join(dir, 'ledger.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { key?: string })
    expect(report.created.length).toBeGreaterThan(0)
    expect(ledger.filter((l) => l.key !== undefined).length).toBeGreaterThan(0)
    for (const l of ledger) if (l.key !== undefined) expect(l.key).toContain(report.run.id)
    // Released at its end: the next run may have the directory.
    expect(existsSync(lock)).toBe(false)
  })
})
