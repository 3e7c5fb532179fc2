/**
 * SIGINT and SIGTERM in a process that runs vitest — `shop-conformance run` or plain `npx vitest run`: vitest's
 * own handlers (left as they are) end the process 1 ms after the signal, so no asynchronous cleanup can run.
 * The process's 'exit' event still runs synchronously: there the cleanup is done by a short-lived process of
 * its own that this one waits for (spawnSync), bounded by the run's printed end, and the partial report —
 * every result finished before the signal — is written synchronously. Exit 130 / 143.
 */
import { spawnSync } from 'node:child_process'
import { theRunTakesTheSignals } from '../base/signals-before-the-run.mjs'
import { fileURLToPath } from 'node:url'
import { Ledger } from '../setup/ledger.ts'
import type { CleanupOutcome } from '../setup/cleanup.ts'
import { terminalSummary } from '../report/text.ts'
import { nextStartMs } from '../shop/pace.ts'
import { writeReportsSync } from '../report/write.ts'
import type { RunScope } from './report-draft.ts'
import { leftWith, type Run } from './run.ts'
import type { Stop } from './stopping.ts'
import type { CleanupOrder } from './cleanup-process.ts'
import type { ServerErrorList } from '../results/server-errors.ts'
import { watchParents } from '../../reference-target/parent-watch.ts'
import { defined } from '../base/defined.ts'

const CLEANUP_PROCESS = fileURLToPath(new URL('./cleanup-process.ts', import.meta.url))
/** The cleanup process loads its TypeScript as the run does (a cached bundle): it starts within the stop's budget. */
const START_CLEANUP = `import { bundledImport } from ${JSON.stringify(new URL('../base/bundled-import.mjs', import.meta.url).href)}\nawait bundledImport(${JSON.stringify(CLEANUP_PROCESS)})\n`
/** Where the process runs (the user's directory may hold anything). */
const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url))
const EXIT_STATUS = { SIGINT: 130, SIGTERM: 143 } as const
/** How often the process that started the run is looked for. */
const PARENT_WATCH_MS = 500

/**
 * Listens for the signals (told to `onSignal`) and the exit; returns what detaches the listeners. A run started by
 * npx or `npm exec` runs under `sh -c` under npm: a SIGTERM sent to npm alone ends the shell and leaves the run
 * orphaned, a SIGKILL ends npm and leaves both. So the process that started it is watched through its shells
 * (reference-target/parent-watch.ts), and its end stops the run as a SIGTERM does (the same cleanup, report and 143).
 */
export function onInterrupt(run: Run, scope: () => RunScope, onSignal: (why: Stop) => void): () => void {
  let signal: 'SIGINT' | 'SIGTERM' | undefined
  const onSigint = () => ((signal = 'SIGINT'), onSignal('SIGINT'))
  const onSigterm = () => ((signal = 'SIGTERM'), onSignal('SIGTERM'))
  const onExit = () => {
    // Written whatever the signal interrupted, the preflight included: its ledger may already name a customer.
    if (signal === undefined || run.written) return
    run.budgetWriting()
    const report = run.report(scope(), cleanUpNow(run))
    const written = writeReportsSync(run.config.reportDir, report, run.secrets)
    run.written = true
    run.releaseDir()
    process.stdout.write(run.secrets.redactText(terminalSummary(written, run.config.reportDir)))
    // Not vitest's 1 when a test had failed before the signal: an interrupted run says "we do not know".
    process.exitCode = EXIT_STATUS[signal]
  }
  // From here a signal's report says what it interrupted: bin.mjs's one line before the run is no longer said.
  theRunTakesTheSignals()
  process.on('SIGINT', onSigint)
  process.on('SIGTERM', onSigterm)
  process.on('exit', onExit)
  const unwatch = watchParents(
    (pid) => {
      const why = `the process that started the run (PID ${pid}: npx, npm or its shell) ended: stopped as on SIGTERM`
      run.notes.push(why)
      process.stderr.write(`shop-conformance: ${why}\n`)
      // The signal itself: vitest's own handlers and these end the run exactly as a SIGTERM sent to it would.
      process.kill(process.pid, 'SIGTERM')
    },
    PARENT_WATCH_MS,
    { throughShell: true },
  )
  return () => {
    process.off('SIGINT', onSigint)
    process.off('SIGTERM', onSigterm)
    process.off('exit', onExit)
    unwatch()
  }
}

/**
 * The cleanup, synchronously: the order (with the admin token) goes on the cleanup process's stdin, never in
 * argv or the environment. The bundled target lives in this process, whose event loop is stopped: its data
 * ends with the process. A second Ctrl-C reaches the cleanup process too: the report then lists what is left.
 */
function cleanUpNow(run: Run): CleanupOutcome {
  const lines = Ledger.read(run.ledgerFile)
  if (run.bundled !== undefined || run.config.readOnly || lines.length === 0) return { removed: [], leftovers: [] }
  const adminToken = run.pre?.seed.tokens.admin ?? run.adminToken
  if (adminToken === undefined)
    return leftWith(lines, 'not removed: the run was interrupted before it had an admin token to remove it with')
  const cleanupEvidence = run.evidencePart('cleanup')
  const order: CleanupOrder = {
    baseUrl: defined(run.target, 'the target, up before the admin token').baseUrl,
    store: run.config.storeCode,
    timeoutMs: run.config.timeoutMs,
    maxTimeoutMs: run.config.maxTimeoutMs,
    ...(run.deadlines !== undefined ? { slowestMs: run.deadlines.slowestMs } : {}),
    concurrency: run.config.concurrency,
    insecure: run.config.insecure,
    adminToken,
    runId: run.id,
    ledgerFile: run.ledgerFile,
    cutOffAt: run.cleanupBy,
    writesInFlight: run.writesInFlight(),
    ...(cleanupEvidence !== undefined ? { evidenceFile: cleanupEvidence } : {}),
    ...(run.rate !== undefined ? { rate: { maxRps: run.rate.maxRps, fromMs: nextStartMs(run.rate) } } : {}),
  }
  const child = spawnSync(process.execPath, ['--input-type=module', '--eval', START_CLEANUP], {
    cwd: PACKAGE_ROOT,
    input: JSON.stringify(order),
    timeout: Math.max(1_000, run.cleanupBy - Date.now() + 500),
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'ignore'],
  })
  try {
    const { serverErrors, ...outcome } = JSON.parse(child.stdout) as CleanupOutcome & { serverErrors?: ServerErrorList }
    if (serverErrors !== undefined) run.serverErrors.add(serverErrors)
    return outcome
  } catch {
    return leftWith(
      lines,
      `not removed: the cleanup after the interrupt did not finish (${child.error?.message ?? `exit ${child.status ?? child.signal}`})`,
    )
  }
}
