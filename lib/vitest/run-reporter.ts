/**
 * The run's life, as the vitest reporter the conformance project's plugin adds (plugin.ts):
 *
 *   onInit           settings (flags of `shop-conformance run`, environment, `.env`); `--check` provided to collection
 *   onTestRunStart   report dir, ledger, bundled target, preflight, the run's facts provided to the suite files,
 *                    deadline
 *   onTestCaseResult each finished test's result (its meta) and progress
 *   onTestRunEnd     cleanup (so its leftovers are in the report), the report in every format, the exit status
 *
 * Not a global set-up: vitest runs global set-ups also for `vitest list` and an editor's test discovery, which
 * must not register customers on a shop for a listing; and it runs global teardown after `onTestRunEnd`, too late
 * for the report to hold the cleanup. `onTestRunStart` is called for runs only (and `--merge-reports`, merged here).
 */
import type { CancelReason } from 'vitest'
import type {
  Reporter,
  TestCase,
  TestModule,
  TestProject,
  TestRunEndReason,
  TestSpecification,
  Vitest,
} from 'vitest/node'
import { inspect } from 'node:util'
import { defined } from '../base/defined.ts'
import { ensureWritableDir } from '../base/output-dir.ts'
import { lockReportDir, type ReportDirLock } from '../run/report-dir-lock.ts'
import { stopIfTheDirectoryWent } from '../base/working-directory.mjs'
import { UsageError } from '../base/usage-error.ts'
import { carryRunHead, dropServerErrors, outcomeOf } from './task-meta.ts'
import type { Result } from '../results/result.ts'
import { terminalSummary } from '../report/text.ts'
import { leftoverKinds, runStory } from '../report/outcome.ts'
import { Secrets } from '../shop/secrets.ts'
import { writeReports } from '../report/write.ts'
import { emptyShardWords } from '../report/outcome.ts'
import { onInterrupt } from '../run/interrupted.ts'
import { mergeBlobs } from './merge-blobs.ts'
import { failureLine, moduleIdOf, moduleLine } from '../run/progress.ts'
import { extensionFacts, Run } from '../run/run.ts'
import { runSettings, type RunSettings } from '../run/run-settings.ts'
import { scopeOf, shardShare } from './scope.ts'
import { lookaheadOrder } from './lookahead-order.ts'
import { announceStop } from '../shop/stop-channel.ts'
import { BUDGET_EVERY_MS, BUDGET_WITHIN_MS, type Stop } from '../run/stopping.ts'
import { vendorModulesGiven } from '../settings/config.ts'

/** The suite files of the modules `--module` selected: a vendor's module's checks are in the extensions' file. */
function suiteFilesOf(modules: readonly string[]): string[] {
  const vendors = vendorModulesGiven(modules)
  const specFiles = modules.filter((m) => !vendors.includes(m)).map((m) => `suites/${m}.conformance.ts`)
  return vendors.length > 0 ? [...specFiles, 'suites/extensions.conformance.ts'] : specFiles
}

/** Progress says something at least this often (under CI too). */
const HEARTBEAT_MS = 60_000
const REPORT_DIR_SETTING = '--report-dir / SHOP_REPORT_DIR'

/** How long vitest has to cancel at the deadline before the run reports what it has. */
const STOP_ACK_MS = 1_500

/** How long a run cut short leaves its vitest to close after its reports are written, before its process ends. */
const CUT_SHORT_EXIT_MS = 500

export default class RunReporter implements Reporter {
  #settings!: RunSettings
  /**
   * A setting refused in a native vitest run: said once a suite file is to run (or blobs merged), not when only
   * the other projects' files are (`npx vitest run lib/report/badge.test.ts` reads no setting of a run).
   */
  #refused: Error | undefined
  #vitest!: Vitest
  #project!: TestProject
  #run: Run | undefined
  #deadline: NodeJS.Timeout | undefined
  #detach: (() => void) | undefined
  readonly #byModule = new Map<string, Result[]>()
  #finish: () => void = () => {}
  #ending: Promise<void> | undefined
  /** The run's exit status, once its report is written. */
  #status: number | undefined
  /** Settles when this run's report is written: a blob reporter deferred behind the run waits for it. */
  finished: Promise<void> = Promise.resolve()

  onInit(vitest: Vitest): void {
    this.#vitest = vitest
    this.#project = vitest.getProjectByName('conformance')
    try {
      this.#settings = settingsOrExit()
    } catch (err) {
      // The settings throw Errors (a UsageError for bad input); anything else is kept as the cause of one.
      this.#refused = err instanceof Error ? err : new Error(`the run's settings threw ${inspect(err)}`, { cause: err })
      return
    }
    const { config } = this.#settings
    this.#project.provide('shopChecks', config.checks)
    // `--module` and `--shard` of `shop-conformance run` are vitest's own file selection and sharding.
    if (config.modules.length > 0) this.#project.config.include = suiteFilesOf(config.modules)
    // A vendor's module selected: its checks alone, of the extensions' file (extension-suite.ts).
    this.#project.provide('shopModules', config.modules)
    if (config.shard !== undefined) vitest.config.shard = config.shard
    // A shard may get none of the selection's suite files (more shards than files): an empty shard (#start), not
    // vitest's error after the preflight.
    if (vitest.config.shard !== undefined) vitest.config.passWithNoTests = true
    // Native sharding too: the shards' shared seed is what names them as one run for merging.
    if (vitest.config.shard !== undefined && !config.seedGiven && !isMerge(vitest))
      fail(
        new UsageError(
          '--shard: needs --seed N (or SHOP_SEED), the same in every shard, so that the shards can be merged',
        ),
        this.#settings.underCli,
      )
  }

  // A working directory removed under the run (the ledger's write fails first): its one line, not a stack trace.
  async onTestRunStart(specs: ReadonlyArray<TestSpecification>): Promise<void> {
    await this.#start(specs).catch(async (err: unknown) => {
      await stopIfTheDirectoryWent(err)
      throw err
    })
  }

  async #start(specs: ReadonlyArray<TestSpecification>): Promise<void> {
    this.finished = new Promise((resolve) => (this.#finish = resolve))
    this.#ending = undefined
    this.#status = undefined
    this.#run = undefined
    // No suite file among the files vitest runs (`npx vitest run lib/report/badge.test.ts` selects files of the
    // other projects only): no run — nothing sent to a shop, and the last report left as it is.
    const suiteFiles = specs.some((s) => s.project.name === this.#project.name)
    if (this.#refused !== undefined && (suiteFiles || isMerge(this.#vitest))) throw this.#refused
    if (isMerge(this.#vitest) || !suiteFiles) return
    this.#byModule.clear()
    const { config, baseline, underCli } = this.#settings
    // Made only now: \`vitest list\` reads the settings too, and must leave nothing behind. Taken before the
    // ledger is started: another run writing there is refused, not mixed with this one.
    let lock: ReportDirLock
    try {
      ensureWritableDir(config.reportDir, REPORT_DIR_SETTING, { create: true })
      lock = lockReportDir(config.reportDir, REPORT_DIR_SETTING, 'a conformance run')
    } catch (err) {
      fail(err, underCli)
    }
    const run = new Run(config, baseline, lock)
    this.#run = run
    // A vendor's config that cannot be used stops the run before any request (exit 2 under the CLI).
    try {
      await run.loadVendor()
    } catch (err) {
      run.releaseDir()
      fail(err, underCli)
    }
    process.stdout.write(run.headline())
    if (run.keptLedger !== undefined) process.stdout.write(`shop-conformance: ${run.keptLedger}\n`)
    this.#beat(run)
    this.#armDeadline(run)
    this.#detach = onInterrupt(
      run,
      () => this.#scope(),
      (why) => this.#stop(why),
    )
    // Known before the first request: a shard with no suite file of the selection sends nothing and passes, saying so.
    const share = await shardShare(this.#vitest, specs, this.#project)
    if (share !== undefined && share.runs === 0) {
      await run.startEmpty(share.of)
      process.stdout.write(`${emptyShardWords(share.shard, share.of)}\n`)
      return
    }
    // Refused: the suite files still load (one worker takes them all at once), and their tests are skipped.
    const started = await run.start()
    // Which callers signed in with a token the user gave: said as the run starts (and noted in the report).
    if (run.pre?.signedIn !== undefined) process.stdout.write(`${run.pre.signedIn}\n`)
    // Before the suite files are collected: the extensions' file registers a test per operation from these.
    this.#project.provide('shopExtensions', extensionFacts(run))
    const lookahead = started ? await lookaheadOrder(this.#vitest, specs, this.#project) : undefined
    this.#project.provide(
      'shopRun',
      started
        ? {
            seed: defined(run.pre, 'the preflight of a run that started').seed,
            ...(lookahead !== undefined ? { lookahead } : {}),
          }
        : { refused: defined(run.runErrors[0], 'the error of a run that could not start') },
    )
  }

  /**
   * The deadline's stop, at `run.stopAt`: far from the end, one timer; near it, the reports' time is measured again
   * every few seconds (lib/run/stopping.ts), and the stop comes earlier when they need more than was kept.
   */
  #armDeadline(run: Run): void {
    run.budgetWriting()
    const left = run.stopAt - Date.now()
    if (left <= 0) return this.#stop('deadline')
    const untilBudgeting = run.endsAt - BUDGET_WITHIN_MS - Date.now()
    this.#deadline = setTimeout(
      () => this.#armDeadline(run),
      Math.min(left, untilBudgeting > 0 ? untilBudgeting : BUDGET_EVERY_MS),
    )
  }

  /**
   * The deadline or a signal: vitest cancels (the tests' signals stop the worker's requests), then onTestRunEnd
   * reports.
   */
  #stop(why: Stop): void {
    if (this.#run?.stop(why) !== true) return
    // The worker's requests stop now, also those of work started ahead of its test (lookahead).
    if (this.#run.pre !== undefined) announceStop(this.#run.pre.seed.runId)
    const endsAt = new Date(this.#run.endsAt).toISOString()
    process.stderr.write(
      `shop-conformance: ${why === 'deadline' ? `the run's deadline is near (it ends by ${endsAt})` : `${why} received`}: stopping, cleaning up and writing a partial report\n`,
    )
    if (why !== 'deadline') return
    void this.#vitest.cancelCurrentRun(why as CancelReason)
    setTimeout(() => void this.#end(), STOP_ACK_MS).unref()
  }

  onTestCaseResult(testCase: TestCase): void {
    const run = this.#run
    if (run === undefined || testCase.project.name !== this.#project.name) return
    const { result, notes, serverErrors, deadlines, runError } = outcomeOf(testCase, run.stopped !== undefined)
    run.notes.push(...notes)
    if (serverErrors !== undefined) {
      run.serverErrors.add(serverErrors)
      dropServerErrors(testCase)
    }
    if (deadlines !== undefined) run.tellDeadlines(deadlines)
    // A result this version did not write (a bug, a meta tampered with): an error of the run, never a verdict.
    if (runError !== undefined) run.runErrors.push(runError)
    if (result === undefined) return
    run.results.set(result.id, result)
    const list = this.#byModule.get(testCase.module.moduleId) ?? []
    list.push(result)
    this.#byModule.set(testCase.module.moduleId, list)
    if (this.#progress === 'failures' && (result.status === 'failed' || result.status === 'error'))
      this.#say(failureLine(result))
  }

  onTestModuleEnd(testModule: TestModule): void {
    if (this.#run === undefined || testModule.project.name !== this.#project.name || this.#progress === 'off') return
    const results = this.#byModule.get(testModule.moduleId)
    if (results !== undefined) this.#say(moduleLine(moduleIdOf(testModule.moduleId), results))
  }

  get #progress(): RunSettings['config']['progress'] {
    return this.#settings.underCli ? this.#settings.config.progress : 'off'
  }

  /** When progress last said something: a minute of silence gets a line of its own (#heartbeat). */
  #saidAt = 0
  #heartbeat: NodeJS.Timeout | undefined

  #say(line: string): void {
    this.#saidAt = Date.now()
    process.stderr.write(line)
  }

  /** At least one line a minute while the run lasts: a CI job that prints nothing for minutes looks hung. */
  #beat(run: Run): void {
    if (this.#progress === 'off') return
    this.#saidAt = Date.now()
    this.#heartbeat = setInterval(() => {
      if (Date.now() - this.#saidAt < HEARTBEAT_MS - 1_000 || run.written) return
      const modules = [...this.#byModule.keys()].length
      this.#say(
        `  … still running: ${run.results.size} results so far, ${modules} module${modules === 1 ? '' : 's'} under way or done (${Math.round((Date.now() - run.startedAt.getTime()) / 1000)} s)\n`,
      )
    }, HEARTBEAT_MS)
    this.#heartbeat.unref()
  }

  async onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    unhandled: ReadonlyArray<{ message?: string }>,
    reason: TestRunEndReason,
  ): Promise<void> {
    await this.#ended(modules, unhandled, reason).catch(async (err: unknown) => {
      await stopIfTheDirectoryWent(err)
      throw err
    })
  }

  async #ended(
    modules: ReadonlyArray<TestModule>,
    unhandled: ReadonlyArray<{ message?: string }>,
    _reason: TestRunEndReason,
  ): Promise<void> {
    const own = modules.filter((m) => m.project.name === this.#project.name)
    if (isMerge(this.#vitest)) {
      try {
        return await this.#merge(own)
      } finally {
        this.#finish()
      }
    }
    // An error without a message is shown as what it holds, not as "[object Object]".
    for (const e of unhandled) this.#run?.runErrors.push(e.message ?? inspect(e, { breakLength: Infinity }))
    await this.#end(own)
    // Again when the report was written before vitest ended the run (a deadline): vitest has set its own 1 since.
    if (this.#status !== undefined) process.exitCode = this.#status
  }

  /**
   * Cleanup, the report, the exit status — once: when vitest ends the run, or, after a deadline, once vitest has
   * had STOP_ACK_MS to cancel (on a loaded machine it may take longer than the reserve the deadline keeps).
   */
  #end(modules?: ReadonlyArray<TestModule>): Promise<void> {
    this.#ending ??= this.#write(modules).finally(() => {
      this.#detach?.()
      this.#finish()
    })
    return this.#ending
  }

  async #write(modules?: ReadonlyArray<TestModule>): Promise<void> {
    const run = this.#run
    if (run === undefined) return
    try {
      clearTimeout(this.#deadline)
      clearInterval(this.#heartbeat)
      const own = modules ?? this.#vitest.state.getTestModules().filter((m) => m.project.name === this.#project.name)
      // A suite file that failed to load, or a module's beforeAll that threw: errors of the run, never "not run".
      for (const m of own) {
        for (const e of m.errors()) run.runErrors.push(`${moduleIdOf(m.moduleId)}: ${e.message}`)
        for (const s of m.children.allSuites())
          for (const e of s.errors()) run.runErrors.push(`${moduleIdOf(m.moduleId)} › ${s.name}: ${e.message}`)
      }
      // The reports' time kept first: the cleanup is cut off before it.
      run.budgetWriting()
      const cleanup = await run.cleanUp()
      if (run.written) return // the process is exiting on a signal, and the 'exit' path wrote the report
      const report = run.report(this.#scope(own), cleanup)
      // The run-level facts ride on each module's meta: a blob written after this holds them for --merge-reports.
      const { results: _results, ...head } = report
      for (const m of own) carryRunHead(m, run.secrets.redact(head))
      const written = await writeReports(run.config.reportDir, report, run.secrets)
      run.written = true
      // A run that could not be made says why in one line, with what it had made by then (the report lists each).
      if (runStory(report).kind === 'not made')
        process.stderr.write(
          `shop-conformance: ${run.secrets.redactText(run.runErrors[0] ?? report.exit.reason)}${cleanupNote(cleanup)}\n`,
        )
      else process.stdout.write(run.secrets.redactText(terminalSummary(written, run.config.reportDir)))
      // After vitest's own (1 when a test failed): the run's status, e.g. 0 when a baseline excuses every failure.
      const status = (this.#status = report.exit.status)
      process.exitCode = status
      // The printed end is the end of everything: a vitest that has not closed by then (a loaded machine) is left
      // behind. A run cut short has nothing left to do once its reports are written: its vitest, still cancelling a
      // worker that loads the suite files, is left a moment, not the time to the end (at load 13 a run stopped in its
      // preflight ended 5.6 s past the end it printed).
      const left = run.endsAt - Date.now()
      setTimeout(
        () => process.exit(status),
        Math.max(0, report.partial !== undefined ? Math.min(CUT_SHORT_EXIT_MS, left) : left),
      ).unref()
    } finally {
      run.releaseDir()
      await run.close()
    }
  }

  #scope(modules?: ReadonlyArray<TestModule>) {
    const own = modules ?? this.#vitest.state.getTestModules().filter((m) => m.project.name === this.#project.name)
    return scopeOf(this.#vitest, own, this.#settings.config)
  }

  async #merge(own: ReadonlyArray<TestModule>): Promise<void> {
    if (this.#refused !== undefined) throw this.#refused
    const { config } = this.#settings
    const report = mergeBlobs(own)
    if (report === undefined)
      throw new UsageError(
        '--merge-reports: no conformance run in these blobs (written by `--reporter=blob` of the conformance project)',
      )
    ensureWritableDir(config.reportDir, REPORT_DIR_SETTING, { create: true })
    // Not into a directory a run is writing: the last writer's report would win.
    const lock = lockReportDir(config.reportDir, REPORT_DIR_SETTING, 'vitest --merge-reports')
    let written
    try {
      written = await writeReports(config.reportDir, report.report, new Secrets())
    } finally {
      lock.release()
    }
    process.stdout.write(terminalSummary(written, config.reportDir))
    if (report.missing.length > 0) process.stdout.write(`missing shards: ${report.missing.join(', ')}\n`)
    process.exitCode = written.exit.status
  }
}

/** What a run that never started had made, and what of it is left (the report lists each). */
function cleanupNote(cleanup: { removed: unknown[]; leftovers: { kind: string }[] }): string {
  if (cleanup.removed.length + cleanup.leftovers.length === 0) return ''
  const left = cleanup.leftovers.length > 0 ? ` (${leftoverKinds(cleanup.leftovers)}), listed in report.json` : ''
  return ` (before it stopped, the run had made ${cleanup.removed.length + cleanup.leftovers.length} entities: removed ${cleanup.removed.length}, left ${cleanup.leftovers.length}${left})`
}

function isMerge(vitest: Vitest): boolean {
  return vitest.config.mergeReports !== undefined && vitest.config.mergeReports !== ''
}

/**
 * Under `shop-conformance run`: one line and exit 2, before any request. Natively: thrown (the reporter says it once a
 * suite file runs).
 */
function settingsOrExit(): RunSettings {
  try {
    const settings = runSettings()
    for (const warning of settings.config.warnings) process.stderr.write(`shop-conformance: warning: ${warning}\n`)
    return settings
  } catch (err) {
    return fail(err, process.env.SHOP_RUN_FLAGS !== undefined)
  }
}

function fail(err: unknown, underCli: boolean): never {
  if (!(err instanceof UsageError) || !underCli) throw err
  process.stderr.write(`shop-conformance: ${err.message}\n`)
  process.exit(2)
}
