/** Test support: the CLI run as a user runs it (not a test itself). */
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import type { Report } from '../report/model.ts'
import { alive } from '../run/report-dir-lock.ts'
import { runInTest, spawnInTest } from '../../test-setup/child-processes.ts'
import { madeRunDir } from '../../test-setup/run-dirs.ts'

const BIN = resolve(import.meta.dirname, 'bin.mjs')

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
export function cli(args: string[], env: Record<string, string> = {}, options: CliOptions = {}): Promise<CliRun> {
  const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-'))
  madeRunDir(dir)
  return cliIn(dir, args, env, options)
}

interface CliOptions {
  signal?: { name: NodeJS.Signals; afterMs?: number; when?: () => boolean }
  dotenv?: string
  /**
   * `false`: a run that must start now (beside another run of the test), and that is refused at once. `'waiting'`:
   * a run that spends most of its time waiting on its target (late answers, deadlines, a busy shop's heavy writes),
   * bounded apart from the busy ones (inRunSlot).
   */
  slot?: false | 'waiting'
}

/**
 * `shop-conformance ARGS` as `cli` runs it with no environment of its own, made once for the whole test run and
 * shared by the test files that make the same run (the clean run against the bundled target: cli.test.ts judges
 * it, the matrix's browser test builds a column of it), whichever workers they run in: the first file to ask makes
 * it, the others wait for it and read the same output and reports. Its directory is the test run's (in TMPDIR,
 * removed with it: test-setup/temp-dir.ts); no test may write into it.
 */
export async function sharedCli(args: string[]): Promise<CliRun> {
  const dir = join(
    tmpdir(),
    SHARED_RUNS_DIR,
    createHash('sha256').update(JSON.stringify(args)).digest('hex').slice(0, 16),
  )
  mkdirSync(dir, { recursive: true })
  const done = join(dir, 'run.json')
  for (;;) {
    const ran = readOr(done, '')
    if (ran !== '') return { ...(JSON.parse(ran) as Omit<CliRun, 'dir' | 'report'>), dir, report: reportOf(dir) }
    // Claimed as a run slot is (its owner's pid in it): a worker that died before it finished frees it.
    if (taken(join(dir, 'claim'))) {
      let run: CliRun | undefined
      try {
        run = await cliIn(dir, args, {}, {})
        return run
      } finally {
        // Written whatever became of the run (its process ended with a failed test: status null), so that nobody waits
        // for ever.
        const { status = null, stdout = '', stderr = '' } = run ?? {}
        writeFileSync(`${done}.part`, JSON.stringify({ status, stdout, stderr }))
        renameSync(`${done}.part`, done)
      }
    }
    await delay(100)
  }
}

/** Where the shared runs live in the test run's TMPDIR (named again in test-setup/temp-dir.ts, as RUN_SLOTS_DIR is). */
const SHARED_RUNS_DIR = 'shared-runs'

function reportOf(dir: string): Report | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')) as Report
  } catch {
    return undefined
  }
}

function cliIn(dir: string, args: string[], env: Record<string, string>, options: CliOptions): Promise<CliRun> {
  if (options.dotenv !== undefined) writeFileSync(join(dir, '.env'), options.dotenv)
  // A slot bounds the runs; the other commands (report merge, baseline, matrix, a target) start at once: a merge
  // is a fraction of a second of CPU, and one after another in a test each waited behind every queued run.
  const direct = options.slot === false || args[0] !== 'run'
  const slotted = direct
    ? <T>(work: () => Promise<T>) => work()
    : <T>(work: () => Promise<T>) => inRunSlot(work, options.slot === 'waiting' ? 'waiting' : 'busy')
  return slotted(
    () =>
      new Promise<CliRun>((done) => {
        // A test that timed out while its run queued for a slot has removed its directory: nothing to start there (a
        // spawn in it failed as an uncaught ENOENT, reported against whichever test ran next).
        if (!existsSync(dir))
          return done({
            status: null,
            stdout: '',
            stderr: `the test ended before its run had a slot (${dir} is gone)`,
            dir,
            report: undefined,
          })
        const reportDir =
          args[0] === 'run' && !args.includes('--report-dir') ? ['--report-dir', join(dir, 'reports')] : []
        // Ended with the test that started it, however that test ends (test-setup/child-processes.ts).
        const child = spawnInTest(process.execPath, [BIN, ...args, ...reportDir], {
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
        child.stdout!.on('data', (d) => (stdout += d))
        child.stderr!.on('data', (d) => (stderr += d))
        child.on('error', (err) =>
          done({ status: null, stdout, stderr: `${stderr}${err.message}\n`, dir, report: undefined }),
        )
        child.on('close', (status) => done({ status, stdout, stderr, dir, report: reportOf(dir) }))
      }),
  )
}

/**
 * A child run is CPU-bound: too many at once on two cores starve each other, and a run whose answers come
 * later than its --timeout-ms reports failures that are not the target's. The test files run in three worker
 * processes, so the bound is the machine's, not a worker's: a slot is a file in the test run's TMPDIR
 * (created exclusively), holding its owner's pid so that a worker that died frees it. Three slots: a run that
 * mostly waits (an interrupt at a point of progress, a target that stopped answering) leaves room for a busy one.
 * The runs that wait most of their time by design (a busy shop's, a hanging endpoint's, a slow target's: tens of
 * seconds each, little CPU) have slots of their own (`waiting`), six: in the busy ones, three of them at once held
 * every slot while the cores idled; and three of their own filled with the longest (a minute each), and the short
 * ones, first in their files' chains, waited behind them.
 */
const RUN_SLOTS = { busy: 3, waiting: 6 }

export async function inRunSlot<T>(work: () => Promise<T>, kind: 'busy' | 'waiting' = 'busy'): Promise<T> {
  const dir = join(tmpdir(), RUN_SLOTS_DIR)
  mkdirSync(dir, { recursive: true })
  for (;;) {
    for (let i = 0; i < RUN_SLOTS[kind]; i++) {
      const slot = join(dir, `${kind === 'busy' ? 'slot' : 'waiting'}-${i}`)
      if (!taken(slot)) continue
      try {
        return await work()
      } finally {
        rmSync(slot, { force: true })
      }
    }
    await delay(50)
  }
}

/**
 * Where the slots live in the test run's TMPDIR. test-setup/temp-dir.ts names it again rather than importing it:
 * the package ships that set-up file (vitest.config.ts names it) but not this test helper.
 */
const RUN_SLOTS_DIR = 'child-run-slots'

function taken(slot: string): boolean {
  try {
    writeFileSync(slot, String(process.pid), { flag: 'wx' })
    return true
  } catch {
    const owner = Number(readOr(slot, ''))
    if (owner > 0 && !alive(owner)) rmSync(slot, { force: true })
    return false
  }
}

function readOr(file: string, otherwise: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return otherwise
  }
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
 * Runs the CLI as `shop-conformance ARGS | slow-reader` in a shell: its stdout on a real pipe (64 KiB of buffer, unlike
 * the socket pairs of child_process) whose reader starts reading only after `pauseMs`, as `| jq` or `| less` may
 * (`reader` replaces `cat`, e.g. `head -c 100`). Whatever reaches the reader is returned, with the CLI's own exit
 * status.
 */
export async function throughSlowReader(
  args: string[],
  cwd: string,
  pauseMs = 500,
  reader = 'cat',
): Promise<{ status: number; stdout: string; stderr: string }> {
  const statusFile = join(cwd, `status-${process.pid}-${Math.random().toString(36).slice(2)}`)
  const script = `{ "$0" "$@"; echo $? > "${statusFile}"; } | { sleep ${pauseMs / 1000}; ${reader}; }`
  const { stdout, stderr } = await runInTest('/bin/sh', ['-c', script, process.execPath, BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd },
  })
  const status = Number(readFileSync(statusFile, 'utf8'))
  rmSync(statusFile)
  return { status, stdout, stderr }
}
