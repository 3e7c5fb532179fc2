/**
 * The deadlines a run used (lib/shop/deadlines.ts): the longest each kind of call was given, as report.json's
 * `run.deadlines` records them and every format that states the run's settings says them.
 */
/** Reads; writes; the heavy writes that hold a shop's worker for seconds (an order placed, a customer registered…). */
export type CallKind = 'read' | 'write' | 'heavy write'

/**
 * The slowest answer of each kind seen so far (a timeout as its deadline): what a later client of the run starts from.
 */
export type Slowest = Partial<Record<CallKind, number>>

/** What a part of the run (the worker's checks) tells the run of its deadlines: those it gave, and what it saw. */
export interface RunDeadlines {
  used: DeadlinesUsed
  slowestMs: Slowest
}

export interface DeadlinesUsed {
  read: number
  write: number
  heavyWrite: number
}

/** Two parts' deadlines (the preflight's and the checks', or shards') as one: the longest of each kind. */
export function longestDeadlines(a: DeadlinesUsed, b: DeadlinesUsed): DeadlinesUsed {
  return {
    read: Math.max(a.read, b.read),
    write: Math.max(a.write, b.write),
    heavyWrite: Math.max(a.heavyWrite, b.heavyWrite),
  }
}

/** `reads 10 s, writes 10 s, heavy writes 45 s`: how the console and summary.md say them (report.html alike). */
export function deadlinesText(used: DeadlinesUsed): string {
  const s = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`
  return `reads ${s(used.read)}, writes ${s(used.write)}, heavy writes ${s(used.heavyWrite)}`
}
