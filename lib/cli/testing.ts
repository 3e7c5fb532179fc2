/** Test support: the CLI run as a user runs it (not a test itself). */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Report } from '../report/model.ts'

const BIN = resolve(import.meta.dirname, 'bin.mjs')

export interface CliRun {
  status: number | null
  stdout: string
  stderr: string
  dir: string
  report?: Report
}

/**
 * Runs the CLI as a user would, in an empty directory (no .env), with only the given environment. `signal`
 * is sent after `afterMs`, or as soon as `when()` holds (checked every 50 ms): a run is interrupted at a
 * point of its progress rather than of a machine's speed.
 */
export function cli(args: string[], env: Record<string, string> = {}, options: { signal?: { name: NodeJS.Signals; afterMs?: number; when?: () => boolean } } = {}): Promise<CliRun> {
  const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-'))
  return new Promise((done) => {
    const reportDir = args[0] === 'run' ? ['--report-dir', join(dir, 'reports')] : []
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
  })
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

