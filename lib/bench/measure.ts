/**
 * Measuring processes from outside: the reference target's CPU time from /proc, the suite run as a child process
 * (wall time from spawn to exit; its own CPU, RSS and request phase from the stats file it writes at exit).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { defined } from '../base/defined.ts'
import type { RunStats } from './hooks.ts'
import { readRequestLog, type LoggedRequest } from './request-log.ts'

export interface Spread {
  median: number
  min: number
  max: number
}

/** Median (mean of the middle two for an even count), min and max; null for no values. */
export function spread(values: readonly number[]): Spread | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  const at = (i: number) => defined(sorted[i], 'a value inside the sorted list')
  const median = sorted.length % 2 === 1 ? at(mid) : (at(mid - 1) + at(mid)) / 2
  return { median, min: at(0), max: at(sorted.length - 1) }
}

let ticks: number | undefined
/** Clock ticks per second of /proc times (USER_HZ; 100 almost everywhere). */
function clockTicks(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
    } catch {
      ticks = 100
    }
  }
  return ticks
}

/**
 * utime + stime of a process in ms, from the text of /proc/<pid>/stat. The command name (field 2) is in
 * parentheses and may hold spaces, so fields are counted from the last ')'.
 */
export function cpuMsFromStat(stat: string, ticksPerSecond: number): number {
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // rest[0] is field 3 (state); utime and stime are fields 14 and 15.
  const utime = Number(rest[11])
  const stime = Number(rest[12])
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error('unreadable /proc stat')
  return ((utime + stime) * 1000) / ticksPerSecond
}

export function processCpuMs(pid: number): number {
  return cpuMsFromStat(readFileSync(`/proc/${pid}/stat`, 'utf8'), clockTicks())
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

interface StartedTarget {
  url: string
  pid: number
  stop(): Promise<void>
}

/** The reference target as a process of its own (`shop-conformance target`), ready when it prints its URL. */
export async function startTarget(
  root: string,
  latencyMs: number,
  extra: readonly string[] = [],
): Promise<StartedTarget> {
  const port = await freePort()
  const args = [
    join(root, 'lib/cli/bin.mjs'),
    'target',
    '--port',
    String(port),
    ...(latencyMs > 0 ? ['--latency-ms', String(latencyMs)] : []),
    ...extra,
  ]
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: cleanEnv() })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    let err = ''
    const timer = setTimeout(
      () => reject(new Error(`reference target did not start within 30 s: ${err || out}`)),
      30_000,
    )
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /listening on (http:\/\/\S+)/.exec(out)
      if (m !== null) {
        clearTimeout(timer)
        resolve(defined(m[1], 'the URL group of the listening line'))
      }
    })
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`reference target exited (${code}) before listening: ${err.trim() || out.trim()}`))
    })
  })
  return { url, pid: defined(child.pid, 'the pid of a target that has printed its URL'), stop: () => stopChild(child) }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

/** The environment without any SHOP_* setting of the caller's: the bench decides every setting itself. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SHOP_')) env[k] = v
  return { ...env, ...extra }
}

interface SuiteRun {
  exitCode: number | null
  /** Spawn → exit, measured by the bench. */
  wallMs: number
  stats: RunStats
  log: LoggedRequest[]
  stderr: string
}

/**
 * One full run of the suite as a child process (`shop-conformance run`), with the request log and the stats file
 * switched on. `dir` receives the log, the stats and the reports.
 */
export async function runSuite(
  root: string,
  options: {
    baseUrl: string
    concurrency: number
    admin: { username: string; password: string }
    dir: string
    nodeArgs?: string[]
    runArgs?: string[]
  },
): Promise<SuiteRun> {
  const log = join(options.dir, 'requests.jsonl')
  const statsFile = join(options.dir, 'stats.json')
  const env = cleanEnv({
    SHOP_ADMIN_USERNAME: options.admin.username,
    SHOP_ADMIN_PASSWORD: options.admin.password,
    SHOP_REQUEST_LOG: log,
    SHOP_BENCH_STATS: statsFile,
    // The bench's hooks, injected into every thread of the run (preload.mjs): the run itself knows nothing of them.
    NODE_OPTIONS: [
      process.env.NODE_OPTIONS ?? '',
      `--import=${pathToFileURL(join(root, 'lib/bench/preload.mjs')).href}`,
    ]
      .join(' ')
      .trim(),
  })
  // Node flags (e.g. --cpu-prof, which NODE_OPTIONS refuses) go before the script; the worker thread inherits them.
  const args = [
    ...(options.nodeArgs ?? []),
    join(root, 'lib/cli/bin.mjs'),
    'run',
    '--base-url',
    options.baseUrl,
    '--concurrency',
    String(options.concurrency),
    '--report-dir',
    join(options.dir, 'report'),
    ...(options.runArgs ?? []),
  ]
  const started = performance.now()
  const child = spawn(process.execPath, args, { cwd: options.dir, stdio: ['ignore', 'ignore', 'pipe'], env })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => resolve(code))
  })
  const wallMs = performance.now() - started
  let stats: RunStats
  try {
    stats = JSON.parse(readFileSync(statsFile, 'utf8')) as RunStats
  } catch {
    throw new Error(
      `the suite run wrote no stats (exit ${exitCode}): ${stderr.trim().split('\n').slice(-3).join(' / ')}`,
    )
  }
  return { exitCode, wallMs, stats, log: readRequestLog(readFileSync(log, 'utf8')), stderr }
}

export interface Phases {
  /**
   * The main process's requests before the worker's first (tokens, customers, calibration): first start → last answer.
   */
  preflightMs: number
  /** Last preflight answer → the worker's first request: vitest starting, the suites loading. */
  suiteStartMs: number
  /** The worker's first request → its last answer. */
  checksMs: number
  /** The main process's requests after the worker's last (cleanup): first start → last answer; 0 without. */
  cleanupMs: number
}

/** The phases of a run, from its request log (null without worker requests). */
export function phases(log: readonly LoggedRequest[]): Phases | null {
  const worker = log.filter((r) => r.thread === 'worker')
  if (worker.length === 0) return null
  const workerStart = Math.min(...worker.map((r) => r.startMs))
  const workerEnd = Math.max(...worker.map((r) => r.endMs))
  const main = log.filter((r) => r.thread === 'main')
  const before = main.filter((r) => r.startMs < workerStart)
  const after = main.filter((r) => r.startMs > workerEnd)
  const span = (rs: LoggedRequest[]) =>
    rs.length === 0 ? 0 : Math.max(...rs.map((r) => r.endMs)) - Math.min(...rs.map((r) => r.startMs))
  const preflightEnd = before.length === 0 ? workerStart : Math.max(...before.map((r) => r.endMs))
  return {
    preflightMs: span(before),
    suiteStartMs: Math.max(0, workerStart - preflightEnd),
    checksMs: workerEnd - workerStart,
    cleanupMs: span(after),
  }
}
