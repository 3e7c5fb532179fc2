import type { Report } from './model.ts'
import { outcomeLabel, type OutcomeLabel } from './tallies.ts'

/** What a cell says: the result as every format names it, or `not run` when the column's report has no such result. */
export type CellOutcome = OutcomeLabel | 'not run'
/**
 * Every outcome a cell can have, worst first (the grid's and the summary's order): a new one fails to compile until it
 * is placed.
 */
const OUTCOME_RANK: Record<CellOutcome, number> = {
  failed: 0,
  error: 1,
  'not judged': 2,
  'not configured': 3,
  passed: 4,
  'not applicable': 5,
  'not run': 6,
}
export const CELL_OUTCOMES: readonly CellOutcome[] = (Object.keys(OUTCOME_RANK) as CellOutcome[]).sort(
  (a, b) => OUTCOME_RANK[a] - OUTCOME_RANK[b],
)

/**
 * history.json (format `shop-conformance-history` version 1; its JSON Schema is history.schema.json beside this
 * file): per implementation and result of the spec's checks, only the transitions — the run where the result
 * first had an outcome, and each run where it changed (`not run`: a later run did not have it) — with the date,
 * the outcome, the suite version and the run id. Every run taken is listed too, so the history is the whole
 * sequence of outcomes, written short: a later matrix continues it (`--history`) and gets the same transitions
 * as from every report at once. A baseline is not the implementation's: a baselined failure is `failed` here.
 */
export const HISTORY_FORMAT = 'shop-conformance-history'
export const HISTORY_VERSION = 1

interface HistoryRun {
  runId: string
  /** When the run started (report.json `startedAt`). */
  date: string
  suiteVersion: string
  specVersion: string
}

export interface Transition {
  date: string
  status: CellOutcome
  suiteVersion: string
  runId: string
}

export interface ImplementationHistory {
  name: string
  version?: string
  /** Every run taken, oldest first. */
  runs: HistoryRun[]
  /** By result id: its transitions, oldest first. */
  results: Record<string, Transition[]>
}

export interface History {
  format: typeof HISTORY_FORMAT
  version: typeof HISTORY_VERSION
  implementations: ImplementationHistory[]
}

/** One implementation's reports, oldest first. */
interface ImplementationRuns {
  name: string
  version?: string
  reports: readonly Report[]
}

/** The history of these implementations' reports, continuing `previous` (its runs kept, a run it has taken once). */
export function historyOf(implementations: readonly ImplementationRuns[], previous?: History): History {
  const kept = (previous?.implementations ?? []).map((h) => ({ name: h.name, version: h.version, runs: decode(h) }))
  for (const given of implementations) {
    let h = kept.find((k) => k.name === given.name && k.version === given.version)
    if (h === undefined) kept.push((h = { name: given.name, version: given.version, runs: [] }))
    for (const report of given.reports) {
      if (h.runs.some((r) => r.run.runId === report.run.id)) continue
      const outcomes = new Map(
        report.results.filter((r) => r.extension !== true).map((r) => [r.id, outcomeLabel(r) as CellOutcome]),
      )
      h.runs.push({
        run: {
          runId: report.run.id,
          date: report.startedAt,
          suiteVersion: report.suite.version,
          specVersion: report.spec.version,
        },
        outcomes,
      })
    }
  }
  return {
    format: HISTORY_FORMAT,
    version: HISTORY_VERSION,
    implementations: kept.map((h) => encode(h.name, h.version, h.runs)),
  }
}

interface DecodedRun {
  run: HistoryRun
  /** Each result's outcome in this run; `not run` for one an earlier run had. */
  outcomes: Map<string, CellOutcome>
}

/** The transitions written out again as every run's outcomes. */
function decode(h: ImplementationHistory): DecodedRun[] {
  const at = new Map<string, [string, Transition][]>()
  for (const [id, transitions] of Object.entries(h.results))
    for (const t of transitions) at.set(t.runId, [...(at.get(t.runId) ?? []), [id, t]])
  const current = new Map<string, CellOutcome>()
  return h.runs.map((run) => {
    for (const [id, t] of at.get(run.runId) ?? []) current.set(id, t.status)
    return { run, outcomes: new Map(current) }
  })
}

/** Every run's outcomes, oldest first, as the transitions between them. */
function encode(name: string, version: string | undefined, runs: DecodedRun[]): ImplementationHistory {
  const ordered = [...runs].sort(
    (a, b) => Date.parse(a.run.date) - Date.parse(b.run.date) || a.run.runId.localeCompare(b.run.runId),
  )
  const results: Record<string, Transition[]> = {}
  const last = new Map<string, CellOutcome>()
  for (const { run, outcomes } of ordered) {
    for (const id of new Set([...last.keys(), ...outcomes.keys()])) {
      const now = outcomes.get(id) ?? 'not run'
      if (last.get(id) === now) continue
      last.set(id, now)
      ;(results[id] ??= []).push({ date: run.date, status: now, suiteVersion: run.suiteVersion, runId: run.runId })
    }
  }
  return { name, ...(version !== undefined ? { version } : {}), runs: ordered.map((r) => r.run), results }
}

/** How many transitions a history holds: what the command's line counts. */
export function transitionCount(history: History): number {
  return history.implementations.reduce((n, h) => n + Object.values(h.results).reduce((m, ts) => m + ts.length, 0), 0)
}

/** One run of an implementation's history as a reader sees it: what changed there, from what. */
interface RunChanges extends HistoryRun {
  /** The first run taken: every result was recorded, none changed. */
  first: boolean
  /** Results recorded in the first run. */
  recorded: number
  changes: { id: string; from: CellOutcome | null; to: CellOutcome }[]
}

/**
 * An implementation's runs, oldest first, each with the transitions it made (a result new in a later run: from null).
 */
export function runChanges(h: ImplementationHistory): RunChanges[] {
  const byRun = new Map<string, RunChanges['changes']>()
  for (const [id, transitions] of Object.entries(h.results)) {
    // The first transition is the result new (from null); each later one from the status before it.
    let from: RunChanges['changes'][number]['from'] = null
    for (const t of transitions) {
      byRun.set(t.runId, [...(byRun.get(t.runId) ?? []), { id, from, to: t.status }])
      from = t.status
    }
  }
  return h.runs.map((run, i) => {
    const all = byRun.get(run.runId) ?? []
    return { ...run, first: i === 0, recorded: i === 0 ? all.length : 0, changes: i === 0 ? [] : all }
  })
}
