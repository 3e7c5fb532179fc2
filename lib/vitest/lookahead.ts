/**
 * The worker's started work of the run, by test id (ids are unique across the plan), shared by the suite files:
 * vitest runs a worker's files one after another (collect, then run, per file), and a module's last chains
 * (workflow steps, calls that must follow one another) would leave the concurrency bound idle until the next
 * file's `beforeAll`. So a module's `beforeAll` also starts the planned work of the next module(s) of the run,
 * and their `beforeAll` takes it from here. Only when the main process said the next files' selection is
 * known before they are collected (`shopRun.lookahead`: whole modules, no `-t`, test ids or lines; see
 * lib/vitest/lookahead-order.ts). Work started ahead runs in its module's lane: its requests only take places in
 * the bound that the running modules' leave free (lib/shop/bound.ts), so a module's own results come as soon as
 * without it. A stop cuts off prefetched requests through the session (lib/shop/stop-channel.ts); prefetched
 * results whose file never ran are not reported: only a finished test carries a result.
 */
import type { Result } from '../results/result.ts'
import { Lane } from '../shop/bound.ts'

/**
 * How many modules past the running one are started ahead: two. One left the bound idle where a module's long
 * chain outlasted the next module's whole work (c16 at 20 ms: 5.75–5.93 s against the base's 5.23–5.30); all at
 * once was as fast, but then a stop finds most judged results in files that never ran, so they go unreported
 * (lib/run/safety.test.ts's Ctrl-C test: results from one module only).
 */
const LOOKAHEAD_MODULES = 2

let runOf: string | undefined
const started = new Map<string, Promise<Result>>()
const startedModules = new Set<string>()
const lanes = new Map<string, Lane>()

/** The started work of the run `runId` (a new run — watch mode, an editor's rerun — starts from nothing). */
function workOf(runId: string): Map<string, Promise<Result>> {
  if (runOf !== runId) {
    runOf = runId
    started.clear()
    startedModules.clear()
    lanes.clear()
  }
  return started
}

/** What has been started in the run `runId` (nothing when the run made none: refused, only collecting). */
export function startedIn(runId: string | undefined): ReadonlyMap<string, Promise<Result>> {
  return runId !== undefined && runId === runOf ? started : new Map()
}

/** Starts the test `id` unless already started (ahead, by an earlier module's `beforeAll`). */
export function startOnce(runId: string, id: string, start: () => Promise<Result>): void {
  const work = workOf(runId)
  if (!work.has(id)) work.set(id, quiet(start()))
}

/** Marks `module` started; returns the modules of `order` to start ahead of their files now. */
export function modulesAhead(runId: string, module: string, order: readonly string[]): string[] {
  workOf(runId)
  startedModules.add(module)
  const next = order.filter((m) => !startedModules.has(m)).slice(0, LOOKAHEAD_MODULES)
  for (const m of next) startedModules.add(m)
  return next
}

/** The lane of a module's work in the run `runId`: ahead until its file's `beforeAll` begins it. */
export function laneOf(runId: string, module: string): Lane {
  workOf(runId)
  let lane = lanes.get(module)
  if (lane === undefined) lanes.set(module, (lane = new Lane()))
  return lane
}

export function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {})
  return p
}
