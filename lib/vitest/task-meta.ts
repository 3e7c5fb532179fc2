/**
 * Where a conformance run's facts travel in vitest's task meta, from the suite files (worker) to the run's
 * reporter (main process) and into blob files for `--merge-reports`. Meta is written to disk by the blob
 * reporter and shown by vitest's UI: it carries results (exchanges redacted when recorded), never a token.
 *
 * The one file that reads meta. What it reads has crossed a thread, maybe a blob file on disk written by
 * another version of the suite: vitest's types are told its fields are `unknown`, and each is checked here
 * before it is used. A meta that is not what this version writes is an error of the run, said as such — never
 * a crash of the reporter, never a verdict read from a malformed value.
 */
import type { RunnerTask } from 'vitest'
import type { TestCase, TestModule } from 'vitest/node'
import { isObject } from '../base/is-object.ts'
import type { Report } from '../report/model.ts'
import type { Result } from '../results/result.ts'
import type { RunDeadlines } from '../results/deadlines.ts'
import { NOT_JUDGED_REASONS } from '../results/verdict.ts'
import { crashResult, moduleIdOf } from '../run/progress.ts'
import type { ServerErrorList } from '../results/server-errors.ts'
import { CALLER_CLASSES } from '../results/exchange.ts'

declare module 'vitest' {
  interface TaskMeta {
    /** A test's result (`Result`). */
    shopResult?: unknown
    /** The session's notes (a renewed token) that came with a test's result. */
    shopNotes?: unknown
    /** The 5xx answers the worker met since the test before carried its own (`ServerErrorList`). */
    shopServerErrors?: unknown
    /**
     * The session's deadlines so far (`RunDeadlines`) that came with a test's result: what the report says the run
     * used.
     */
    shopDeadlines?: unknown
    /** Set on every test vitest selected to run (mode `run` when its module started): the run's scope. */
    shopSelected?: unknown
    /** On each test module: the report of its run without results (run-level facts for merging shards' blobs). */
    shopRun?: unknown
  }
}

/** A run's report without its results: what each of its test modules carries into a blob. */
export type RunHead = Omit<Report, 'results'>

/**
 * What a finished test carried: its result, the session's notes, the server errors, or why what it carried cannot be
 * used.
 */
interface Carried {
  result?: Result
  notes: string[]
  serverErrors?: ServerErrorList
  deadlines?: RunDeadlines
  problem?: string
  /** Why the server errors it carried cannot be used: dropped, an error of the run; the result stands. */
  listProblem?: string
}

// ---- written by the suite files, in the worker ----

export function markSelected(task: RunnerTask): void {
  task.meta.shopSelected = true
}

export function carryResult(
  task: RunnerTask,
  result: Result,
  notes: readonly string[],
  deadlines?: RunDeadlines,
): void {
  task.meta.shopResult = result
  if (notes.length > 0) task.meta.shopNotes = [...notes]
  if (deadlines !== undefined) task.meta.shopDeadlines = deadlines
}

/** Set on a test that finished with a result or without one (stopped): what the worker collected is never dropped. */
export function carryServerErrors(task: RunnerTask, list: ServerErrorList): void {
  if (list.entries.length > 0 || Object.keys(list.unlisted).length > 0) task.meta.shopServerErrors = list
}

// ---- written by the run's reporter, in the main process, before a blob is written ----

export function carryRunHead(module: TestModule, head: RunHead): void {
  module.meta().shopRun = head
}

// ---- read by the run's reporter and the merge of blobs ----

export function wasSelected(test: TestCase): boolean {
  return test.meta().shopSelected === true
}

/** The result, notes and server errors a finished test carried, each checked. */
export function readCarried(test: TestCase): Carried {
  const { shopResult, shopNotes, shopServerErrors, shopDeadlines } = test.meta()
  const notesOk = shopNotes === undefined || isStrings(shopNotes)
  const notes = isStrings(shopNotes) ? shopNotes : []
  const list = carriedList(shopServerErrors)
  const resultProblem = shopResult === undefined ? undefined : problemOfResult(shopResult, test.name)
  const deadlinesOk = shopDeadlines === undefined || isDeadlines(shopDeadlines)
  let problem: string | undefined
  if (resultProblem !== undefined) problem = `the result it carried cannot be read (${resultProblem})`
  else if (!notesOk) problem = 'the notes it carried are not lines of text'
  else if (!deadlinesOk) problem = 'the deadlines it carried are not milliseconds per kind of call'
  if (problem !== undefined) return { notes, ...list, problem }
  const deadlines = shopDeadlines !== undefined ? { deadlines: shopDeadlines as RunDeadlines } : {}
  return { ...(shopResult !== undefined ? { result: shopResult as Result } : {}), notes, ...list, ...deadlines }
}

/** The deadlines a test carried: the longest each kind was given, and the slowest answer of each kind, in ms. */
function isDeadlines(value: unknown): boolean {
  const ms = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0
  if (!isObject(value) || !isObject(value.used) || !isObject(value.slowestMs)) return false
  return (
    ['read', 'write', 'heavyWrite'].every((k) => ms((value.used as Record<string, unknown>)[k])) &&
    Object.values(value.slowestMs).every(ms)
  )
}

/**
 * What a finished test gives the run: its result, its notes, and an error of the run when what it carried cannot
 * be read. A test that ended without a result — a crash of the suite outside a check's own code, or a result
 * that cannot be read — is an error of the suite (status `error`), never a silent gap and never the shop's
 * failure; one filtered out (-t, shard) or cut short by a stop (`stopped`) gives none.
 */
export function outcomeOf(
  test: TestCase,
  stopped: boolean,
): Omit<Carried, 'problem' | 'listProblem'> & { runError?: string } {
  const { result, problem, listProblem, ...carried } = readCarried(test)
  const crashed = (why: string) => crashResult(test.name, moduleIdOf(test.module.moduleId), why)
  if (problem !== undefined) return { result: crashed(problem), ...carried, runError: `${test.name}: ${problem}` }
  const told = listProblem !== undefined ? { ...carried, runError: `${test.name}: ${listProblem}` } : carried
  if (result !== undefined) return { result, ...told }
  const state = test.result()
  if (state.state === 'skipped' || state.state === 'pending' || stopped) return told
  return { result: crashed(state.errors?.[0]?.message ?? 'the check ended without a verdict'), ...told }
}

/** The run a test module carries (undefined: none, a module of another project), or why it cannot be used. */
export function readRunHead(module: TestModule): { head?: RunHead; problem?: string } {
  const { shopRun } = module.meta()
  if (shopRun === undefined) return {}
  const problem = problemOfHead(shopRun)
  return problem !== undefined ? { problem } : { head: shopRun as RunHead }
}

const STATUSES: ReadonlySet<unknown> = new Set(['passed', 'failed', 'skipped', 'error'])
const ORIGINS: ReadonlySet<unknown> = new Set(['extension', 'vendor'])

/** Why `value` is not a result of the test named `name` as this version makes one; undefined when it is. */
export function problemOfResult(value: unknown, name: string): string | undefined {
  if (!isObject(value)) return 'not an object'
  for (const field of ['id', 'module', 'check', 'message'] as const)
    if (typeof value[field] !== 'string') return `no ${field}`
  if (value.id !== name) return `its id ${JSON.stringify(value.id)} is not the test's`
  const { endpoint } = value
  if (
    !isObject(endpoint) ||
    typeof endpoint.method !== 'string' ||
    typeof endpoint.path !== 'string' ||
    !optional(endpoint.alias, 'string')
  )
    return 'its endpoint is not a method and a path'
  if (!STATUSES.has(value.status))
    return `its status ${JSON.stringify(value.status)} is none of passed, failed, skipped, error`
  if (typeof value.durationMs !== 'number' || !Number.isFinite(value.durationMs)) return 'its duration is not a number'
  if (!isStrings(value.spec)) return 'its spec sections are not a list of text'
  if (!Array.isArray(value.exchanges) || !value.exchanges.every(isObject))
    return 'its exchanges are not a list of exchanges'
  if (value.rules !== undefined && (!Array.isArray(value.rules) || !value.rules.every(isObject)))
    return 'its rules are not a list of rules'
  if (value.details !== undefined && !isObject(value.details)) return 'its details are not an object'
  if (value.warnings !== undefined && !isStrings(value.warnings)) return 'its warnings are not a list of text'
  if (value.applicable !== undefined && value.applicable !== false) return 'its applicable is not false'
  if (
    value.reason !== undefined &&
    !(typeof value.reason === 'string' && Object.hasOwn(NOT_JUDGED_REASONS, value.reason))
  )
    return `its reason ${JSON.stringify(value.reason)} is not one of the reasons a rule is not judged`
  if (
    !(value.origin === undefined
      ? value.extension === undefined
      : ORIGINS.has(value.origin) && value.extension === true)
  )
    return "its origin is neither absent nor an extension's or a vendor's, with `extension: true`"
  return undefined
}

const CALLERS: ReadonlySet<unknown> = new Set(CALLER_CLASSES)

/** Why `value` is not a list of server errors as this version carries one; undefined when it is. */
export function problemOfServerErrors(value: unknown): string | undefined {
  if (!isObject(value) || !Array.isArray(value.entries)) return 'not an object with a list of entries'
  const { unlisted } = value
  if (!isObject(unlisted) || !Object.values(unlisted).every((n) => typeof n === 'number'))
    return 'its unlisted answers are not counts'
  for (const e of value.entries) {
    if (!isObject(e)) return 'an entry is not an object'
    const missing = (['method', 'path', 'store', 'message', 'firstAt', 'lastAt'] as const).find(
      (field) => typeof e[field] !== 'string',
    )
    if (missing !== undefined) return `an entry has no ${missing}`
    if (!CALLERS.has(e.caller))
      return `an entry's caller ${JSON.stringify(e.caller)} is none of ${CALLER_CLASSES.join(', ')}`
    if (typeof e.status !== 'number' || typeof e.count !== 'number' || !isStrings(e.steps))
      return 'an entry has no status, count or steps'
  }
  return undefined
}

/** The server errors a test carried, or why they cannot be used. */
function carriedList(value: unknown): Pick<Carried, 'serverErrors' | 'listProblem'> {
  if (value === undefined) return {}
  const problem = problemOfServerErrors(value)
  if (problem !== undefined) return { listProblem: `the server errors it carried cannot be read (${problem})` }
  return { serverErrors: value as ServerErrorList }
}

/**
 * Once the run holds them (its list is bounded), the server errors a test carried are dropped from its meta: vitest
 * keeps every test's meta to the end, and a shop answering 5xx to everything would fill it with each request.
 */
export function dropServerErrors(test: TestCase): void {
  delete test.meta().shopServerErrors
}

/** Why `value` is not a run's report without its results, in what the merge of blobs reads of it. */
function problemOfHead(value: unknown): string | undefined {
  if (!isObject(value)) return 'not an object'
  const { run, plan, spec, target } = value
  if (
    !isObject(run) ||
    typeof run.id !== 'string' ||
    !isStrings(run.modules) ||
    !isStrings(run.checks) ||
    !optional(run.shard, 'string')
  )
    return 'no run id, modules, checks or shard'
  if (
    !Array.isArray(run.pathAliases) ||
    !run.pathAliases.every((a) => isObject(a) && typeof a.from === 'string' && typeof a.to === 'string')
  )
    return 'its path aliases are not a list of aliases'
  if (!isObject(plan) || !isStrings(plan.modules)) return 'no plan block with its modules'
  if (!isObject(spec) || typeof spec.version !== 'string' || !isObject(target) || typeof target.baseUrl !== 'string')
    return 'no spec version or target'
  if (!isStrings(value.runErrors)) return 'its run errors are not a list of text'
  return undefined
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string')
}

function optional(value: unknown, type: 'string'): boolean {
  return value === undefined || typeof value === type
}
