import type { Result } from '../results/result.ts'
import type { Certification } from './certify.ts'
import type { PlanBlock } from '../results/plan-block.ts'
import type { DeadlinesUsed } from '../results/deadlines.ts'
import type { ExtensionsBlock, ExtensionsMode, SchemaBlock } from '../results/schema-block.ts'
import type { ServerErrorsBlock } from '../results/server-errors.ts'
import type { PassiveCoverage } from '../results/coverage.ts'
import { CATALOG, catalogPosition } from '../spec/catalog/index.ts'

export type ExitStatus = 0 | 1 | 2 | 124 | 130 | 143

export interface Exit {
  status: ExitStatus
  /** One line: why the run exits so, e.g. `1: 3 checks failed`. */
  reason: string
}

export interface BaselineEntry {
  /** A result id: `<METHOD> <path> › <check>` or `workflow <name> › <nn> <title>`. */
  id: string
  reason: string
  /** A profile's entry: the release that fails it. */
  release?: string
  /** A profile's entry: what kind of deviation it is, and why, as it was traced. */
  evidence?: DeviationEvidence
}

/**
 * `renamed`, `absent`, `behaviour`, `configuration` (known-deviations.tsv), or `untraced` for a proposal's first draft.
 */
interface DeviationEvidence {
  kind: string
  why: string
}

/** report.json: the one result model every other format is rendered from. */
export interface Report {
  /**
   * `passive`: judged from traffic the suite did not send (`judge --har FILE --passive`, `proxy`), never a
   * certification. `rejudged`: judged again by `judge --har` from a run's recorded exchanges, sending nothing
   * (`recording` names the run). Absent: a run's own report.
   */
  mode?: 'passive' | 'rejudged'
  /** A passive report's scope: the exchanges observed and the endpoints they touched (docs/passive.md). */
  passive?: PassiveCoverage
  suite: { name: string; version: string }
  spec: { version: string }
  /**
   * The recording a `rejudged` report was judged from: its file, the suite and spec that ran it, its run and target.
   */
  recording?: RecordingBlock
  target: {
    baseUrl: string
    /**
     * What implementation the target runs and its release (`--target-name`, `--target-version`; the bundled
     * reference target's own). Absent when not given, and in reports written before they were recorded.
     */
    name?: string
    version?: string
    storeCode: string
    secondStoreCode: string
    bundledReferenceTarget: boolean
    /** Present only when the user turned certificate verification off. */
    tlsVerification?: 'off (--insecure)'
  }
  run: {
    id: string
    /** Seed of the data builders: `--seed` repeats the run's data. */
    seed: number
    readOnly: boolean
    concurrency: number
    /**
     * `--max-rps`: no two requests of the run started closer than 1/N s apart, token and cleanup calls included. Absent
     * without a cap.
     */
    maxRps?: number
    /** How the run kept its requests in flight (`--pace`; absent in reports before issue 29: adaptive). */
    pace?: 'adaptive' | 'fixed'
    /** `--timeout-ms`: every request's deadline was at least this. */
    timeoutMs: number
    /** `--max-timeout-ms`: the longest a kind's deadline could grow to. Absent in reports written before issue 29. */
    maxTimeoutMs?: number
    /**
     * The longest deadline each kind of call (reads, writes, heavy writes) was given in the run: `timeoutMs`, or three
     * times the slowest answer of its kind when that was longer (docs/running.md). Absent in reports before issue 29
     * and where the run never got a token.
     */
    deadlines?: DeadlinesUsed
    modules: string[]
    checks: string[]
    /** `i/n` when this run is one shard of a split run (`report merge` joins them). */
    shard?: string
    /**
     * Present when this shard got none of the selection's suite files (more shards than the selection has files:
     * vitest splits by file): it judged nothing, sent nothing, and exits 0 saying so; `report merge` takes it.
     */
    emptyShard?: { suiteFiles: number }
    /**
     * A shard's split run: the same in every shard of one run (derived from the suite and spec versions, the
     * target, the seed and the settings), so `report merge` can tell shards of one run from anything else.
     */
    splitId?: string
    /** A merged report: the shards it joins (`i/n` and each shard's run id). */
    shards?: { shard: string; id: string }[]
    pathAliases: { from: string; to: string }[]
    /** Whether the extensions' failures change the exit status (absent: `gate`, a run before issue 12). */
    extensions?: ExtensionsMode
  }
  startedAt: string
  finishedAt: string
  durationMs: number
  /**
   * Present when the run was cut short: the results cover only what ran. `target-gone`: the target stopped
   * answering mid-run (an outage is a run error, never a verdict); `requests`: how many requests the run had sent
   * when the target stopped answering (absent where not counted, and in reports before issue 31).
   */
  partial?: { reason: 'SIGINT' | 'SIGTERM' | 'deadline' | 'target-gone'; requests?: number }
  summary: Summary
  /** The target's learned no-route and unknown-store answers, so a reader can judge the route verdicts. */
  calibration: { noRoute: string[]; unknownStore: string[] }
  /** Entities the run created on the target. */
  created: { kind: string; id: string; label: string }[]
  /** What the run removed of what it created, and what it could not remove (with why). */
  cleanup: { removed: number; leftovers: { kind: string; id: string; label: string; reason: string }[] }
  /** Problems of the run itself (not of the target). */
  runErrors: string[]
  /** What happened along the way that is neither a result nor an error (a token renewed mid-run). */
  notes?: string[]
  /** The check kinds, the suite's size and what this run selected of it: what certification counts from. */
  plan: PlanBlock
  /** The statement a vendor hands over: its scope, conformance of required checks, and a verdict per module. */
  certification: Certification
  /** The shop's own published schema against the spec: information, never the certification or the exit status. */
  schema?: SchemaBlock
  /** Results from outside the spec (extension operations, vendor checks), counted apart from the certification. */
  extensions?: ExtensionsBlock
  /**
   * Every 5xx answer the run met, each request once: information, never the certification or the exit status.
   * Absent in reports written before issue 29 (its JSON Schema: server-errors.schema.json).
   */
  serverErrors?: ServerErrorsBlock
  /**
   * The run's exchanges as HAR 1.2 beside the report (`evidence.har`, docs/reports.md): how many entries and bytes.
   * Absent with `--no-evidence`, in a merge, and in reports written before issue 30.
   */
  evidence?: EvidenceBlock
  /** The run's exit status and why: what every human-readable format states. */
  exit: Exit
  /** SHA-256 of the canonical report without this field: what `shop-conformance sign` signs. */
  signature?: { digest: string }
  /** What a `--baseline` file excused and what it no longer matches; `entries` is the file's content. */
  baseline?: {
    file: string
    allowStale: boolean
    entries: BaselineEntry[]
    newFailures: string[]
    baselinedFailures: string[]
    stale: string[]
    unjudged: string[]
    notInThisRun: string[]
  }
  results: Result[]
}

export interface RecordingBlock {
  file: string
  suite: { name: string; version: string }
  spec: { version: string }
  runId: string
  baseUrl: string
  /** The exchanges it holds. */
  entries: number
}

export interface EvidenceBlock {
  /** The file's name in the report directory. */
  file: string
  /** One per exchange the run sent: set-up, probes, workflows, cleanup. */
  entries: number
  bytes: number
}

export interface Summary {
  passed: number
  failed: number
  /** Checks whose code threw: the suite's errors, neither failed nor skipped (absent in reports before issue 22). */
  errors?: number
  skipped: number
  /** Of the skipped: rules that do not apply because the spec does not show what they would judge. */
  notApplicable: number
  total: number
  warnings: number
  endpointsInCatalog: number
  endpointsChecked: number
}

/**
 * Counts the spec's results only; an endpoint checked is a catalog row's (a workflow step on a set-up call is none).
 */
export function summarise(all: readonly Result[]): Summary {
  // The spec's results: an extension's or a vendor's are counted apart (the report's `extensions`).
  const results = all.filter((r) => r.extension !== true)
  const count = (s: Result['status']) => results.filter((r) => r.status === s).length
  return {
    passed: count('passed'),
    failed: count('failed'),
    errors: count('error'),
    skipped: count('skipped'),
    notApplicable: results.filter((r) => r.applicable === false).length,
    total: results.length,
    warnings: results.reduce((n, r) => n + (r.warnings?.length ?? 0), 0),
    endpointsInCatalog: CATALOG.length,
    endpointsChecked: new Set(
      results
        .filter((r) => r.applicable !== false)
        .map((r) => catalogPosition(r.endpoint))
        .filter((at) => at !== undefined),
    ).size,
  }
}

/**
 * Results in catalog order, then check order (the plan's kinds), workflows last (their ids keep the steps in
 * order): the same order in every run and every format.
 */
export function sortResults(results: Result[], plan: Pick<PlanBlock, 'kinds'>): Result[] {
  const checkOrder = plan.kinds.map((k) => k.name)
  const key = (r: Result) =>
    r.check === 'workflow' ? Number.MAX_SAFE_INTEGER : (catalogPosition(r.endpoint) ?? Number.MAX_SAFE_INTEGER - 1)
  return [...results].sort(
    (a, b) => key(a) - key(b) || checkOrder.indexOf(a.check) - checkOrder.indexOf(b.check) || a.id.localeCompare(b.id),
  )
}
