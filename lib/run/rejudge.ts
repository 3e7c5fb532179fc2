/**
 * A recorded run judged again (`shop-conformance judge --har`, issue 30.2): its evidence.har's entries, grouped by
 * the planned checks each served (`_checks`), read back as the answers the installed suite's judges take
 * (lib/checks/recorded-judges.ts), and the report a run would write of them — planned as the run planned (its
 * `_run` header: settings, selection, the shop's extension operations), with the installed suite's plan; the
 * workflows' steps run again on the recording (replay-workflows.ts). Nothing is sent, nothing is read but what it is
 * handed: the recording in, a report out.
 */
import { judgedFromRecording, judgeRecorded } from '../checks/recorded-judges.ts'
import type { RecordedEntry, RecordedRunFacts } from '../checks/recorded-entry.ts'
import type { ProbeSettings } from '../checks/probe.ts'
import type { Report } from '../report/model.ts'
import { summarise, sortResults } from '../report/model.ts'
import { completeReport, type ReportDraft } from '../report/complete.ts'
import {
  buildPlan,
  notApplicableResults,
  planBlock,
  rowOfPlanned,
  selectionOf,
  selectPlan,
  suiteWith,
  type Plan,
  type PlanKind,
  type PlanParts,
  type PlanRow,
} from '../plan/plan.ts'
import { exchangeOfEntry, type HarEntry } from '../results/har.ts'
import type { ExtensionsMode } from '../results/schema-block.ts'
import { toResult, type Result } from '../results/result.ts'
import type { ExtensionOperation } from '../schema/extensions.ts'
import { applyAliases } from '../shop/aliases.ts'
import { readingOf } from '../shop/recorded.ts'
import { SPEC_VERSION, SUITE } from '../spec/version.ts'
import type { RecordedSession } from '../shop/replay.ts'
import { notRecorded, replayWorkflows } from './replay-workflows.ts'
import { defined } from '../base/defined.ts'
import type { Verdict } from '../results/verdict.ts'
import type { PlanBlock } from '../results/plan-block.ts'

/**
 * A run's `_run` header as lib/run/evidence.ts writes it; what came after issue 30.2 is absent in earlier recordings.
 */
export interface RecordedRun {
  id: string
  startedAt: string
  suite: { name: string; version: string }
  spec: { version: string }
  target: Report['target']
  seed: number
  readOnly: boolean
  pathAliases: { from: string; to: string }[]
  calibration: { noRoute: string[]; unknownStore: string[] }
  operations: ExtensionOperation[]
  concurrency?: number
  timeoutMs?: number
  /** The modules and check kinds the run selected (`--module`, `--check`; empty: all). */
  modules?: string[]
  checks?: string[]
  extensions?: ExtensionsMode
  probeSettings?: ProbeSettings
  probeWrites?: boolean
  /** The ids of the checks the run planned: a check of the installed suite's plan not among them was added since. */
  planned?: string[]
  /**
   * What of its session the workflows run again with (lib/shop/replay.ts); absent in a recording before it was kept.
   */
  session?: RecordedSession
}

export interface Recording {
  /** The file it was read from, as the user named it. */
  file: string
  run: RecordedRun
  entries: readonly HarEntry[]
}

/**
 * A run's recording read from its evidence.har's parsed JSON: its `_run` header and entries. Throws, saying what it
 * lacks, for what is none: not HAR, a HAR of other traffic (no `_run`), entries a run does not write.
 */
export function recordingOf(data: unknown): Omit<Recording, 'file'> {
  const log = (data as { log?: { entries?: unknown; _run?: Partial<RecordedRun> } } | null)?.log
  if (typeof log !== 'object' || log === null || !Array.isArray(log.entries))
    throw new Error('not a HAR file (no log.entries list)')
  const run = log._run
  if (typeof run !== 'object' || run === null) {
    throw new Error(
      'a HAR file, but not the evidence of a shop-conformance run (no log._run header): judge --har judges the evidence.har a run writes',
    )
  }
  const lacking = (['id', 'suite', 'target', 'calibration', 'operations'] as const).filter(
    (k) => typeof run[k] !== 'object' && typeof run[k] !== 'string',
  )
  if (lacking.length > 0) throw new Error(`its _run header lacks ${lacking.join(', ')}`)
  const entries = log.entries as HarEntry[]
  const broken = entries.findIndex(
    (e) =>
      typeof e?.request?.url !== 'string' || typeof e.response?.status !== 'number' || typeof e._caller !== 'string',
  )
  if (broken >= 0)
    throw new Error(`entry ${broken + 1} is not an entry a run writes (no request URL, response status or _caller)`)
  return { run: run as RecordedRun, entries }
}

/** The report of the recording judged again by the installed suite, `mode: 'rejudged'`. */
export async function rejudge(recording: Recording, now = new Date()): Promise<Report> {
  const { run } = recording
  const parts = suiteWith({ operations: run.operations, probeWrites: run.probeWrites ?? false })
  const plan = buildPlan(parts)
  const selection = selectionOf(run.modules ?? [], run.checks ?? [])
  const selected = selectPlan(plan, selection)
  const planned = run.planned !== undefined ? new Set(run.planned) : undefined
  const since = `planned by this suite (${SUITE.version}), not by the recording's (${run.suite.version})`
  const addedSince = (id: string) => planned !== undefined && !planned.has(id)
  const alias = (p: string) => applyAliases(p, run.pathAliases)

  const results = judgedChecks(recording, parts, selected, { addedSince, since, alias })
  const selectedIds = new Set(selected.checks.filter((c) => c.kind === 'workflow').map((c) => c.id))
  results.push(
    ...(await replayWorkflows(parts.workflows, recording, {
      selected: selectedIds,
      since: (id) => (addedSince(id) ? since : undefined),
    })),
  )
  results.push(...notApplicableResults(selected, alias))

  const block = planBlock(plan, selection, [])
  return completeReport(rejudgedDraft(recording, results, block, now), { made: true })
}

/** How the selected checks are read against the recording: what its run did not plan, and its path aliases. */
interface Rejudging {
  /** Whether the installed suite planned the check since the recording was made (its run did not plan it). */
  addedSince: (id: string) => boolean
  /** Why a check added since is not judged. */
  since: string
  alias: (path: string) => string
}

/** The results of the selected checks but the workflows, each judged from the entries recorded for it. */
function judgedChecks(recording: Recording, parts: PlanParts, selected: Plan, rejudging: Rejudging): Result[] {
  const { run } = recording
  const facts: RecordedRunFacts = {
    // A recording before the settings were recorded: the settings a full run with a customer plans with.
    settings: run.probeSettings ?? { readOnly: run.readOnly, customer: { reads: true, writes: !run.readOnly } },
    reading: readingOf(run.calibration),
    stores: { first: run.target.storeCode, second: run.target.secondStoreCode },
  }
  const tagged = taggedEntries(recording.entries)
  const kinds = new Map<string, PlanKind>(parts.kinds.map((k) => [`${k.origin ?? 'spec'} ${k.name}`, k]))

  const results: Result[] = []
  for (const p of selected.checks) {
    if (p.kind === 'workflow') continue
    const row = defined(rowOfPlanned(p), 'the row of a planned check')
    const kind = defined(kinds.get(`${p.origin} ${p.kind}`), 'the kind of a planned check')
    const verdict = rejudging.addedSince(p.id)
      ? notRecorded(rejudging.since)
      : recordedVerdict(row, kind, tagged.get(p.id) ?? [], facts)
    const target = rejudging.alias(row.path)
    const result = toResult(row, kind, verdict, 0, target !== row.path ? target : undefined)
    results.push(p.origin === 'spec' ? result : { ...result, origin: p.origin, extension: true })
  }
  return results
}

/**
 * The verdict of a check judged from its recorded entries; not judged, saying why, when the recording holds no answer
 * to judge or the suite does not judge that kind from a recording.
 */
function recordedVerdict(
  row: PlanRow,
  kind: PlanKind,
  entries: readonly RecordedEntry[],
  facts: RecordedRunFacts,
): Verdict {
  return (
    judgeRecorded(row, kind, entries, facts) ??
    notRecorded(
      judgedFromRecording(kind)
        ? `the recording holds no answer to the call the ${kind.name} check judges`
        : `this suite does not yet judge the ${kind.name} check from a recording`,
    )
  )
}

/**
 * The draft of the rejudged report: the recording's run, target and calibration, what this suite judged, and nothing
 * made or removed.
 */
function rejudgedDraft(recording: Recording, results: Result[], block: PlanBlock, now: Date): ReportDraft {
  const { run } = recording
  const startedAt = new Date(run.startedAt)
  return {
    suite: { ...SUITE },
    spec: { version: SPEC_VERSION },
    mode: 'rejudged',
    recording: {
      file: recording.file,
      suite: run.suite,
      spec: run.spec,
      runId: run.id,
      baseUrl: run.target.baseUrl,
      entries: recording.entries.length,
    },
    target: run.target,
    run: {
      id: run.id,
      seed: run.seed,
      readOnly: run.readOnly,
      concurrency: run.concurrency ?? 0,
      timeoutMs: run.timeoutMs ?? 0,
      modules: run.modules ?? [],
      checks: run.checks ?? [],
      pathAliases: run.pathAliases,
      ...(run.extensions !== undefined ? { extensions: run.extensions } : {}),
    },
    startedAt: run.startedAt,
    finishedAt: now.toISOString(),
    durationMs: Number.isNaN(startedAt.getTime()) ? 0 : Math.max(0, now.getTime() - startedAt.getTime()),
    summary: summarise(results),
    calibration: run.calibration,
    // What the run made and removed is its ledger's and its report's, not the recording's.
    created: [],
    cleanup: { removed: 0, leftovers: [] },
    runErrors: [],
    notes: [
      `judged again by ${SUITE.name} ${SUITE.version} from ${recording.file}: the ${recording.entries.length} exchanges of run ${run.id} of ${run.suite.name} ${run.suite.version} against ${run.target.baseUrl}; nothing was sent`,
    ],
    plan: block,
    results: sortResults(results, block),
  }
}

/** Each planned check's recorded entries, by its result id, in the order sent. */
function taggedEntries(entries: readonly HarEntry[]): Map<string, RecordedEntry[]> {
  const tagged = new Map<string, RecordedEntry[]>()
  for (const e of entries) {
    if (e._checks === undefined) continue
    const recorded: RecordedEntry = {
      exchange: exchangeOfEntry(e),
      caller: e._caller,
      ...(e._probe !== undefined ? { probe: e._probe } : {}),
      ...(e._carries !== undefined ? { carries: e._carries } : {}),
      ...(e._observed !== undefined ? { observed: e._observed } : {}),
      ...(e._conflict !== undefined ? { conflict: e._conflict } : {}),
      ...(e._items !== undefined ? { items: e._items } : {}),
    }
    for (const id of e._checks) tagged.set(id, [...(tagged.get(id) ?? []), recorded])
  }
  return tagged
}
