/** Test support: the CLI run as a user runs it (not a test itself). */
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import pLimit from 'p-limit'
import { afterAll } from 'vitest'
import type { Report } from '../report/model.ts'

const BIN = resolve(import.meta.dirname, 'bin.mjs')

// Each run's directory lives until the end of the test file that made it (its tests read the reports).
const made: string[] = []
// A run is CPU-bound: more than two at a time on two cores starve each other, and a run whose answers come
// later than its --timeout-ms reports failures that are not the target's. Concurrent tests queue here.
const twoRunsAtATime = pLimit(2)
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

export interface CliRun {
  status: number | null
  stdout: string
  stderr: string
  dir: string
  report?: Report
}

/**
 * Runs the CLI as a user would, in an empty directory (holding `.env` only when given), with only the given
 * environment; `run` writes into `reports` there unless the arguments name a report directory. `signal` is
 * sent after `afterMs`, or as soon as `when()` holds (checked every 50 ms): a run is interrupted at a point of
 * its progress rather than of a machine's speed.
 */
export function cli(args: string[], env: Record<string, string> = {}, options: { signal?: { name: NodeJS.Signals; afterMs?: number; when?: () => boolean }; dotenv?: string } = {}): Promise<CliRun> {
  const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-'))
  made.push(dir)
  if (options.dotenv !== undefined) writeFileSync(join(dir, '.env'), options.dotenv)
  return twoRunsAtATime(() => new Promise<CliRun>((done) => {
    const reportDir = args[0] === 'run' && !args.includes('--report-dir') ? ['--report-dir', join(dir, 'reports')] : []
    const child = spawn(process.execPath, [BIN, ...args, ...reportDir], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
    })
    let stdout = ''
    let stderr = ''
    if (options.signal !== undefined) {
      const { name, afterMs, when } = options.signal
      if (afterMs !== undefined) setTimeout(() => child.kill(name), afterMs)
      if (when !== undefined) {
        const poll = setInterval(() => {
          if (!when()) return
          clearInterval(poll)
          child.kill(name)
        }, 50)
        child.on('close', () => clearInterval(poll))
      }
    }
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('close', (status) => {
      let report: Report | undefined
      try {
        report = JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')) as Report
      } catch {
        report = undefined
      }
      done({ status, stdout, stderr, dir, report })
    })
  }))
}

export function everythingWritten(run: CliRun): string {
  const files = (() => {
    try {
      return readdirSync(join(run.dir, 'reports')).map((f) => readFileSync(join(run.dir, 'reports', f), 'utf8'))
    } catch {
      return []
    }
  })()
  return [run.stdout, run.stderr, ...files].join('\n')
}


/**
 * Runs the CLI as `shop-conformance ARGS | slow-reader` in a shell: its stdout on a real pipe (64 KiB of buffer,
 * unlike the socket pairs of child_process) whose reader starts reading only after `pauseMs`, as `| jq` or
 * `| less` may (`reader` replaces `cat`, e.g. `head -c 100`). Whatever reaches the reader is returned, with the CLI's own exit status.
 */
export function throughSlowReader(args: string[], cwd: string, pauseMs = 500, reader = 'cat'): Promise<{ status: number; stdout: string; stderr: string }> {
  const statusFile = join(cwd, `status-${process.pid}-${Math.random().toString(36).slice(2)}`)
  const script = `{ "$0" "$@"; echo $? > "${statusFile}"; } | { sleep ${pauseMs / 1000}; ${reader}; }`
  return new Promise((done) => {
    execFile('/bin/sh', ['-c', script, process.execPath, BIN, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd }, maxBuffer: 64 * 1024 * 1024 }, (_err, stdout, stderr) => {
      const status = Number(readFileSync(statusFile, 'utf8'))
      rmSync(statusFile)
      done({ status, stdout, stderr })
    })
  })
}
