/**
 * The server errors a run met (report.json `serverErrors`): every 5xx answer, to any request of the run — preflight,
 * set-up, probes, checks, workflows, cleanup —, each distinct request once with how many times it was answered so.
 * Like the shop's schema block, information for the shop's team, never the certification or the exit status: the
 * spec says nothing of server errors ("HTTP status code per error case: not shown"), and a 5xx to a request it does
 * not define may be the suite's own stale call. Collected where the requests are sent (lib/shop/server-errors.ts),
 * joined from the worker into the run (and from shards into a merge) here, completed by the run
 * (lib/run/server-errors.ts) with what only it knows: the endpoint, the results, the shop's schema.
 */
import { endpointText } from '../spec/endpoint-id.ts'
import { plural } from '../base/text.ts'
import type { CallerClass } from './exchange.ts'

/** One distinct request the shop answered with a 5xx, and how often: as collected, then completed for the report. */
export interface ServerErrorEntry {
  method: string
  /** The spec endpoint (a catalog row's id) or the shop's extension operation the path is of, `METHOD /V1/template`. */
  endpoint?: string
  /** `extension`: an operation of the shop's schema the spec does not name. */
  origin?: 'spec' | 'extension'
  /** The concrete path below `/rest/{store}`, as sent (after the path aliases), and its query (encoded, no `?`). */
  path: string
  query?: string
  store: string
  /** Who sent the request, as a class: never its token (`unknown`: traffic judged passively that did not show it). */
  caller: CallerClass | 'unknown'
  /** The body sent, secrets redacted; absent when none was sent, or when it was too long to keep (`bodyChars`). */
  body?: unknown
  /** The length of a body sent that was too long to keep. */
  bodyChars?: number
  status: number
  /** The shop's message (its placeholders filled), or the start of its answer when it has none. */
  message: string
  /** The platform's `Report ID: webapi-…` of the first answer: the entry in the shop's exception log. */
  reportId?: string
  firstAt: string
  lastAt: string
  /** How many times the shop answered this request so. */
  count: number
  /** Where in the run it was sent when not a check's own request: a set-up step's name, `preflight`, `cleanup`, …. */
  steps: string[]
  /** The results whose exchanges include it (the first MAX_RESULT_IDS), and how many more. */
  results?: string[]
  moreResults?: number
  /** Every key the body sent, as paths: `inventoryRequest.stock_id`, `inventoryRequest.items[].sku`. */
  bodyKeys?: string[]
  /**
   * Whether the shop's own published schema declares the operation with a body whose keys include every key sent:
   * then the failing body is the one its schema documents. Absent when no body was sent or the schema was not read.
   */
  schemaDocumentsBody?: boolean
  /** What the shop's schema says of the body, in one line (why `schemaDocumentsBody` is what it is). */
  schemaSays?: string
}

/**
 * The entries as collected and carried (worker → main, shard → merge): at most MAX_LISTED, the rest counted by status.
 */
export interface ServerErrorList {
  entries: ServerErrorEntry[]
  /** Answers not listed, by status: a runaway shop answering 5xx to everything is counted, not kept. */
  unlisted: Record<string, number>
}

export interface ServerErrorsBlock extends ServerErrorList {
  /** Every 5xx answer the run met, listed or not. */
  answers: number
  /** Those answers by status. */
  statuses: Record<string, number>
  /** Distinct operations the listed entries are of (their endpoint, else method and path). */
  operations: number
  /** One line every format shows: `Server errors: 2 (500 ×2) at 2 operations — information only, never the verdict`. */
  text: string
}

/** Distinct requests kept in a list; more are counted (`unlisted`), not kept: the list's memory is bounded. */
export const MAX_LISTED = 100
/** Result ids kept per entry: a set-up call every check depends on is in hundreds of results' evidence. */
export const MAX_RESULT_IDS = 20

type RequestOf = Pick<
  ServerErrorEntry,
  'method' | 'store' | 'path' | 'query' | 'caller' | 'status' | 'body' | 'bodyChars'
>

/** One request: the same request answered 5xx again is the same entry. */
export function entryKey(e: RequestOf): string {
  return JSON.stringify([
    e.method,
    e.store,
    e.path,
    e.query ?? '',
    e.caller,
    e.status,
    e.body ?? null,
    e.bodyChars ?? 0,
  ])
}

/**
 * Lists joined, each request once (counts added, the first and last times kept, steps and results joined), at most
 * `max` entries: a request beyond them is counted by its status. A pure function: the worker's lists into the run's,
 * the shards' into a merge.
 */
export function joinLists(lists: readonly ServerErrorList[], max = MAX_LISTED): ServerErrorList {
  const byKey = new Map<string, ServerErrorEntry>()
  const unlisted: Record<string, number> = {}
  const count = (status: number | string, n: number) => (unlisted[status] = (unlisted[status] ?? 0) + n)
  for (const list of lists) {
    for (const [status, n] of Object.entries(list.unlisted)) count(status, n)
    for (const entry of list.entries) {
      const key = entryKey(entry)
      const known = byKey.get(key)
      if (known !== undefined) byKey.set(key, joined(known, entry))
      else if (byKey.size < max) byKey.set(key, entry)
      else count(entry.status, entry.count)
    }
  }
  return { entries: [...byKey.values()], unlisted }
}

function joined(a: ServerErrorEntry, b: ServerErrorEntry): ServerErrorEntry {
  const first = a.firstAt <= b.firstAt ? a : b
  const results = [...new Set([...(a.results ?? []), ...(b.results ?? [])])]
  const more = (a.moreResults ?? 0) + (b.moreResults ?? 0) + Math.max(0, results.length - MAX_RESULT_IDS)
  return {
    ...first,
    lastAt: a.lastAt >= b.lastAt ? a.lastAt : b.lastAt,
    count: a.count + b.count,
    steps: [...new Set([...a.steps, ...b.steps])],
    ...(results.length > 0 ? { results: results.slice(0, MAX_RESULT_IDS) } : {}),
    ...(more > 0 ? { moreResults: more } : {}),
  }
}

/** The report's block of a joined list, counted, with its one line. */
export function serverErrorsBlock(list: ServerErrorList): ServerErrorsBlock {
  const statuses: Record<string, number> = {}
  const add = (status: number | string, n: number) => (statuses[status] = (statuses[status] ?? 0) + n)
  for (const e of list.entries) add(e.status, e.count)
  for (const [status, n] of Object.entries(list.unlisted)) add(status, n)
  const answers = Object.values(statuses).reduce((a, b) => a + b, 0)
  const operations = new Set(list.entries.map(operationOf)).size
  // The same order in every run and merge: by operation, then path, caller, status.
  const entries = [...list.entries].sort(
    (a, b) => operationOf(a).localeCompare(operationOf(b)) || a.path.localeCompare(b.path) || later(a, b),
  )
  const block = { entries, unlisted: list.unlisted, answers, statuses, operations }
  return { ...block, text: serverErrorsText(block) }
}

/** Of two requests at one path: by caller, status, then time. */
function later(a: ServerErrorEntry, b: ServerErrorEntry): number {
  return a.caller.localeCompare(b.caller) || a.status - b.status || a.firstAt.localeCompare(b.firstAt)
}

/** How a format names an entry's operation: its endpoint, else its method and concrete path. */
export function operationOf(e: Pick<ServerErrorEntry, 'endpoint' | 'method' | 'path'>): string {
  return e.endpoint ?? endpointText(e)
}

function serverErrorsText(b: Omit<ServerErrorsBlock, 'text'>): string {
  if (b.answers === 0) return 'Server errors: none (no request of the run was answered 5xx).'
  const byStatus = Object.entries(b.statuses)
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([status, n]) => `${status} ×${n}`)
    .join(', ')
  const unlisted = Object.values(b.unlisted).reduce((a, n) => a + n, 0)
  const more = unlisted > 0 ? `; ${unlisted} of them not listed (the list keeps ${MAX_LISTED} distinct requests)` : ''
  return `Server errors: ${b.answers} (${byStatus}) at ${plural(b.operations, 'operation')}${more} — information only, never the verdict.`
}

/** The URL an entry's request was sent to, on the target at `baseUrl` (as the client makes it: lib/shop/client.ts). */
export function entryUrl(baseUrl: string, e: Pick<ServerErrorEntry, 'store' | 'path' | 'query'>): string {
  const base = new URL(baseUrl)
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}/rest/${e.store}${e.path}${e.query !== undefined ? `?${e.query}` : ''}`
}
