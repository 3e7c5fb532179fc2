/**
 * A run's report, drafted from what the run knows — its settings, its target, the preflight's calibration, the
 * results so far, the ledger, the cleanup's outcome and the scope the runner selected — by a pure function of
 * those facts: no runner, no target, no file. The run's end, an interrupted run's 'exit' path and a test call
 * it alike. What is judged of the draft (baseline, certification, exit) is the report's (lib/report/complete.ts).
 */
import { applyAliases } from '../shop/aliases.ts'
import type { SessionSeed } from '../shop/session.ts'
import type { DeadlinesUsed } from '../results/deadlines.ts'
import { describeFingerprint } from '../shop/fingerprint.ts'
import { SPEC_VERSION, SUITE } from '../spec/version.ts'
import type { RunConfig } from '../settings/config.ts'
import { ledgerEntities, type LedgerEntry } from '../setup/ledger.ts'
import type { CleanupOutcome } from '../setup/cleanup.ts'
import { summarise, sortResults, type Report } from '../report/model.ts'
import type { Baseline } from '../report/baseline.ts'
import { completeReport, type Judging, type ReportDraft } from '../report/complete.ts'
import { splitIdOf } from '../report/merge.ts'
import type { Result } from '../results/result.ts'
import {
  flagLimits,
  notApplicableResults,
  PLAN,
  planBlock,
  selectPlan,
  type Plan,
  type Selection,
} from '../plan/plan.ts'
import type { SchemaFacts } from '../schema/block.ts'
import type { Stop } from './stopping.ts'
import type { ServerErrorList } from '../results/server-errors.ts'
import { completedServerErrors } from './server-errors.ts'
import { defined } from '../base/defined.ts'

/** What of the plan a run (or a shard of it) covered, as the runner selected it (lib/vitest/scope.ts). */
export interface RunScope {
  /**
   * The plan's selection: `--module`/`--check`, narrowed to the modules the runner ran and the checks it selected
   * (shard, files, `-t`).
   */
  selection: Selection
  /** What narrowed the selection besides --module/--check: `shard 1/2`, `-t /base-prices/`. */
  limits: readonly string[]
  shard?: { index: number; count: number }
}

/** What a run knows when its report is drafted (lib/run/run.ts's Run is one). */
export interface RunRecord {
  readonly id: string
  readonly startedAt: Date
  readonly config: RunConfig
  readonly baseline: Baseline | undefined
  /** Where the run sent its requests; undefined when it never got that far. */
  readonly target: { baseUrl: string } | undefined
  /** The bundled reference target, when the run started it: it names itself. */
  readonly bundled: { name: string } | undefined
  /** The preflight's outcome; undefined when the target was refused (or the run stopped before). */
  readonly pre: { seed: Pick<SessionSeed, 'calibration'> } | undefined
  readonly stopped: Stop | undefined
  /** A shard that got none of the selection's suite files: it ran and sent nothing, and passes saying so. */
  readonly emptyShard?: { suiteFiles: number } | undefined
  readonly runErrors: readonly string[]
  readonly notes: readonly string[]
  /** The deadlines the run's clients gave (the preflight's and the checks'); undefined before the preflight ended. */
  readonly deadlines: { used: DeadlinesUsed } | undefined
  /** The spec's suite with what this run added (the shop's extension operations, a vendor's set). */
  readonly plan: Plan
  readonly schema: Pick<SchemaFacts, 'block' | 'operations' | 'bodies'> | undefined
  /** The results so far, by id. */
  readonly results: ReadonlyMap<string, Result>
  /** The 5xx answers the run met so far (lib/shop/server-errors.ts). */
  readonly serverErrors: { list(): ServerErrorList }
}

/**
 * The report of `run` as of `finishedAt`: its results, what the ledger says it created, the cleanup's outcome, the
 * scope.
 */
export function draftReport(
  run: RunRecord,
  ledger: readonly LedgerEntry[],
  scope: RunScope,
  cleanup: CleanupOutcome,
  finishedAt = new Date(),
): Report {
  const config = run.config
  const runErrors = [...run.runErrors]
  if (run.stopped !== undefined) runErrors.push(stoppedError(run.stopped, config))
  const plan = planBlock(run.plan, scope.selection, [
    ...flagLimits(PLAN, config.modules, config.checks),
    ...scope.limits,
  ])
  const results = resultsOf(run, scope)
  // A target that stopped answering mid-run: an outage, a run error, never a verdict (the results it left are not
  // judged).
  const gone = run.stopped === undefined ? results.find((r) => r.reason === 'target-gone') : undefined
  const goneAt = gone !== undefined ? /at (\S+), after (\d+) requests/.exec(gone.message) : null
  if (gone !== undefined) runErrors.push(targetGoneError(goneAt))
  const partial = partialRun(run.stopped, gone !== undefined, goneAt)
  const draft: ReportDraft = {
    suite: { ...SUITE },
    spec: { version: SPEC_VERSION },
    target: targetBlock(run),
    run: runBlock(run, scope),
    startedAt: run.startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - run.startedAt.getTime(),
    ...(partial !== undefined ? { partial } : {}),
    summary: summarise(results),
    calibration: calibrationBlock(run),
    created: createdBy(ledger),
    cleanup: { removed: cleanup.removed.length, leftovers: cleanup.leftovers },
    runErrors,
    ...(run.notes.length > 0 ? { notes: [...new Set(run.notes)] } : {}),
    plan,
    ...(run.schema !== undefined ? { schema: run.schema.block } : {}),
    // Information, like the schema's block: never the certification or the exit status (complete.ts reads neither).
    serverErrors: completedServerErrors(run.serverErrors.list(), {
      baseUrl: run.target?.baseUrl,
      pathAliases: config.pathAliases,
      results: run.results.values(),
      schema: run.schema,
    }),
    results: sortResults(results, plan),
  }
  const report = completeReport(draft, completion(run))
  // Shards are separate processes: what they share (settings, seed, target) is what names their run.
  if (scope.shard !== undefined) report.run.splitId = splitIdOf(report)
  return report
}

/** The run error a stopped run reports: its deadline (which includes cleanup and reports) or the signal. */
function stoppedError(stopped: Stop, config: RunConfig): string {
  return stopped === 'deadline'
    ? `the run reached its deadline (${config.runTimeoutMs} ms, cleanup and reports included) and was cut short`
    : `the run was interrupted (${stopped})`
}

/** The run error of a target that stopped answering, saying where and after how many requests when it was told. */
function targetGoneError(goneAt: RegExpExecArray | null): string {
  return `the target stopped answering${goneAt !== null ? ` ${goneAt[0]}` : ''}: the requests after that were not sent, and what they would have judged is not judged`
}

/**
 * The run's results and the checks that do not apply to the modules it ran; none when the preflight never ended.
 */
function resultsOf(run: RunRecord, scope: RunScope): Result[] {
  if (run.pre === undefined) return []
  // What does not apply is judged per module run, whatever `-t` picked within it.
  const { ids: _ids, ...modulesRun } = scope.selection
  const alias = (p: string) => applyAliases(p, run.config.pathAliases)
  return [...run.results.values(), ...notApplicableResults(selectPlan(run.plan, modulesRun), alias)]
}

/** The preflight's calibration answers, described; none when the preflight never ended. */
function calibrationBlock(run: RunRecord): ReportDraft['calibration'] {
  return {
    noRoute: run.pre?.seed.calibration.noRoute.map(describeFingerprint) ?? [],
    unknownStore: run.pre?.seed.calibration.unknownStore.map(describeFingerprint) ?? [],
  }
}

/** The entities the ledger holds in the state 'created', as the report lists them. */
function createdBy(ledger: readonly LedgerEntry[]): ReportDraft['created'] {
  return ledgerEntities(ledger).flatMap(({ kind, id, label, state }) =>
    state === 'created' ? [{ kind, id, label }] : [],
  )
}

/** The report's target block: where the run sent its requests, what names the target, its stores and TLS. */
function targetBlock(run: RunRecord): ReportDraft['target'] {
  const config = run.config
  return {
    baseUrl: run.target?.baseUrl ?? config.baseUrl ?? '',
    // The bundled reference target names itself; what the user names wins.
    ...identity(
      config.targetName ?? run.bundled?.name,
      config.targetVersion ?? (run.bundled !== undefined ? SUITE.version : undefined),
    ),
    storeCode: config.storeCode,
    secondStoreCode: config.secondStoreCode,
    bundledReferenceTarget: run.bundled !== undefined,
    ...(config.insecure ? { tlsVerification: 'off (--insecure)' as const } : {}),
  }
}

/** The report's run block: the settings the run ran with, its deadlines and its shard. */
function runBlock(run: RunRecord, scope: RunScope): ReportDraft['run'] {
  const config = run.config
  return {
    id: run.id,
    seed: config.seed,
    readOnly: config.readOnly,
    concurrency: config.concurrency,
    ...(config.maxRps !== undefined ? { maxRps: config.maxRps } : {}),
    pace: config.pace,
    timeoutMs: config.timeoutMs,
    maxTimeoutMs: config.maxTimeoutMs,
    ...(run.deadlines !== undefined ? { deadlines: run.deadlines.used } : {}),
    modules: config.modules,
    checks: config.checks,
    ...(scope.shard !== undefined ? { shard: `${scope.shard.index}/${scope.shard.count}` } : {}),
    ...(run.emptyShard !== undefined ? { emptyShard: run.emptyShard } : {}),
    pathAliases: config.pathAliases,
    extensions: config.extensions,
  }
}

/** What completeReport judges the draft with besides itself: whether the run was made, and its baseline. */
function completion(run: RunRecord): Judging {
  return {
    // A deadline or a signal during the start cuts the run short (124, 130, 143): it is not a run that could not be
    // made. An empty shard is made: it had nothing to send.
    made:
      run.pre !== undefined ||
      run.emptyShard !== undefined ||
      (run.stopped !== undefined && run.runErrors.length === 0),
    ...(run.baseline !== undefined
      ? {
          baseline: {
            file: defined(run.config.baseline, 'the file of the baseline read'),
            baseline: run.baseline,
            allowStale: run.config.allowStale,
          },
        }
      : {}),
  }
}

function identity(name: string | undefined, version: string | undefined): { name?: string; version?: string } {
  return { ...(name !== undefined ? { name } : {}), ...(version !== undefined ? { version } : {}) }
}

/**
 * Why the report is partial, if it is: the run was stopped, or the target stopped answering (after how many requests,
 * when it said).
 */
function partialRun(
  stopped: Stop | undefined,
  targetGone: boolean,
  goneAt: RegExpExecArray | null,
): ReportDraft['partial'] {
  if (stopped !== undefined) return { reason: stopped }
  if (!targetGone) return undefined
  return { reason: 'target-gone', ...(goneAt !== null ? { requests: Number(goneAt[2]) } : {}) }
}
