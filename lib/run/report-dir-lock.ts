/**
 * One run per report directory. Two runs writing into one directory mix silently: the ledger interleaves, the
 * report's `created` lists the other run's entities as its own, and the last writer's report wins (a passing
 * run's over one that exited 1). So a run takes its directory with a lock file naming its process, and a second
 * run is refused at start (exit 2), naming the directory and the holder's PID. A lock whose process is gone (a
 * `kill -9`, a crash, a machine restarted) is taken over: it must not block the directory forever.
 */
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { UsageError } from '../base/usage-error.ts'

export const LOCK_FILE = '.shop-conformance.lock'

/** What the lock file holds: who writes into the directory. */
interface LockHolder {
  pid: number
  host: string
  /** What holds it: `shop-conformance run`, `report merge`. */
  what: string
  since: string
  /** Tells two takings of one process apart (a release removes its own only). */
  token?: string
}

export interface ReportDirLock {
  /** Removes the lock, if it is still this one's; safe to call more than once. */
  release(): void
}

/**
 * Takes `dir` (which exists) for `what`; throws a one-line UsageError naming `setting` when another live process
 * holds it. The same process may take it again (vitest's watch mode starts a run after the last).
 */
export function lockReportDir(dir: string, setting: string, what: string): ReportDirLock {
  const file = join(dir, LOCK_FILE)
  const mine: LockHolder = {
    pid: process.pid,
    host: hostname(),
    what,
    since: new Date().toISOString(),
    token: randomBytes(6).toString('hex'),
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    if (create(file, mine)) return { release: () => releaseIfMine(file, mine) }
    // Unreadable: released a moment ago, or no lock of a run (every run's is written whole): taken over.
    const holder = readHolder(file)
    if (holder !== undefined && holding(holder)) {
      const elsewhere = holder.host !== mine.host
      throw new UsageError(
        `${setting}: "${dir}" is in use by another run (PID ${holder.pid}${elsewhere ? ` on ${holder.host}` : ''}: ${holder.what}, started ${holder.since}): ` +
          `wait for it to end, or give this run a directory of its own${elsewhere ? `; if that run is gone, remove ${file}` : ''}`,
      )
    }
    takeOver(file, holder)
  }
  throw new UsageError(`${setting}: "${dir}": its lock ${file} keeps changing hands: another run is starting there`)
}

/**
 * Removes the lock of a process that is gone. Moved aside first, under a name of this process: if another run
 * took it over in between, what was moved is that run's live lock, and it is put back.
 */
function takeOver(file: string, stale: LockHolder | undefined): void {
  const aside = `${file}.stale.${process.pid}`
  try {
    renameSync(file, aside)
  } catch {
    return // already gone
  }
  const moved = readHolder(aside)
  if (moved !== undefined && (stale === undefined || !same(moved, stale))) {
    try {
      linkSync(aside, file)
    } catch {
      // A third run has taken it since: that one holds the directory now.
    }
  }
  rmSync(aside, { force: true })
}

/**
 * Written whole under a name of this process, then linked into place: the link fails when the lock exists, and
 * a lock that exists always has its whole content (a reader never sees a half-written holder).
 */
function create(file: string, holder: LockHolder): boolean {
  const draft = `${file}.${holder.pid}`
  writeFileSync(draft, `${JSON.stringify(holder)}\n`)
  try {
    linkSync(draft, file)
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw new UsageError(
      `the report directory's lock ${file} cannot be made (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    )
  } finally {
    rmSync(draft, { force: true })
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockHolder>
    if (typeof holder.pid !== 'number' || typeof holder.host !== 'string') return undefined
    return {
      pid: holder.pid,
      host: holder.host,
      what: String(holder.what ?? 'a run'),
      since: String(holder.since ?? 'an unknown time'),
      ...(typeof holder.token === 'string' ? { token: holder.token } : {}),
    }
  } catch {
    // Gone since (released), or not a lock of ours: nothing holds the directory.
    return undefined
  }
}

/** Whether the holder is another process that still runs. A holder on another machine cannot be asked: it holds. */
function holding(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true
  if (holder.pid === process.pid) return false
  return alive(holder.pid) && mayBeNode(holder.pid)
}

/**
 * A PID is reused once its process is gone: where the system says what a process runs (Linux's /proc), one that
 * is not node is not the run that took the lock.
 */
function mayBeNode(pid: number): boolean {
  try {
    return /node/i.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))
  } catch {
    return true
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function releaseIfMine(file: string, mine: LockHolder): void {
  const holder = readHolder(file)
  if (holder !== undefined && same(holder, mine)) rmSync(file, { force: true })
}

function same(a: LockHolder, b: LockHolder): boolean {
  return a.pid === b.pid && a.host === b.host && a.since === b.since && a.token === b.token
}
