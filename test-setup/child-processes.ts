/**
 * The processes the tests start (CLI runs, targets, vitest, npm), each in a process group of its own and ended
 * with it — SIGKILL to the group, so that what it started goes too, and a run that takes its time over SIGTERM
 * does not — when the test that started it ends: passed, failed or timed out. A test that times out leaves its
 * function running, and its run used to go on after `npm test` had exited (issue 22). Started outside a test
 * (a `beforeAll`), a process ends with its test file. The integration project's set-up file (per-file.ts)
 * registers the hooks; a worker that is stopped or exits ends every group it started.
 *
 * Which test started a process is told by an AsyncLocalStorage that each test, with its hooks, runs in (an
 * `aroundEach` of per-file.ts calls `asTest`), and the file's own hooks in the file's (`asFile`, its `aroundAll`):
 * vitest's "current test" is only the last one to have started, and the function of a test of a
 * `describe.concurrent` that waited for a free place (maxConcurrency) is called from the end of another test's.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { AsyncLocalStorage } from 'node:async_hooks'

/** Whose processes these are: a test (its task), or the file when none runs. */
type Owner = object
const FILE: Owner = {}

const owner = new AsyncLocalStorage<Owner>()
const started = new Map<Owner, Set<ChildProcess>>()

/** `spawn`, in a process group of its own that ends with the test (or file) that started it. */
export function spawnInTest(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true })
  const by = owner.getStore() ?? FILE
  const children = started.get(by) ?? new Set()
  started.set(by, children.add(child))
  child.on('exit', () => children.delete(child))
  return child
}

/** `spawnInTest` run to its end: its exit status (null after a signal) and its whole output. */
export function runInTest(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawnInTest(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (d) => (stdout += d))
    child.stderr!.on('data', (d) => (stderr += d))
    child.on('error', fail)
    child.on('close', (status) => done({ status, stdout, stderr }))
  })
}

/** The processes a test started that are still running (for the test of this module). */
export function runningOf(test: Owner): ChildProcess[] {
  return [...(started.get(test) ?? [])]
}

/** Runs a test, its `beforeEach`/`afterEach` hooks included, as its own: what it starts ends with it. */
export function asTest<R>(test: Owner, run: () => R): R {
  return owner.run(test, run)
}

/** Runs a file's `beforeAll`/`afterAll` hooks and its tests as the file's, unless a test claims them (asTest). */
export function asFile<R>(run: () => R): R {
  return owner.run(FILE, run)
}

/** afterEach: ends what the test started. */
export function leaveTest(test: Owner): void {
  endGroups(started.get(test))
  started.delete(test)
}

/** afterAll of each file, and a worker's exit: ends every group still running. */
export function endAll(): void {
  for (const children of started.values()) endGroups(children)
  started.clear()
}

function endGroups(children: Set<ChildProcess> | undefined): void {
  for (const child of children ?? []) {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      // The group has ended already.
    }
  }
}

/**
 * A worker that vitest stops (SIGTERM, then SIGKILL after 500 ms) or that Ctrl-C reaches ends its groups first:
 * they are not in its process group, so no signal of the terminal's reaches them. Then the signal does what
 * it would have done (the handler is gone once it has run). Once per worker: this module is loaded once in a
 * worker (isolate off), where per-file.ts runs for every file.
 */
process.on('exit', endAll)
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    endAll()
    process.kill(process.pid, signal)
  })
}
