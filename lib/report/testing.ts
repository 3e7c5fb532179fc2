/**
 * Test support for report and command tests (not a test itself): a whole sample report around given
 * results, and the result of one check at one catalog row as the runner records it.
 */
import { CHECKS } from '../checks/index.ts'
import type { Check, Status } from '../checks/types.ts'
import { toResult, type Result } from '../run/result.ts'
import { CATALOG, rowId } from '../spec/catalog/index.ts'
import type { EndpointRow } from '../spec/types.ts'
import { summarise, type Report } from './model.ts'

/** What a test sets of the sample report: any top-level key replaced, `target` and `run` merged one level deep. */
export type ReportPatch = Partial<Omit<Report, 'target' | 'run' | 'results'>> & {
  target?: Partial<Report['target']>
  run?: Partial<Report['run']>
}

/**
 * A complete report of `results`: a one-second run against `http://127.0.0.1:1`, nothing created, no run
 * errors, and the summary computed from the results over the catalog unless the patch gives one. Every call
 * returns fresh objects, so a test may change what it gets.
 */
export function reportOf(results: Result[], patch: ReportPatch = {}): Report {
  const { target, run, summary, ...rest } = patch
  return {
    suite: { name: 'shop-conformance', version: '0.1.0' },
    spec: { version: '2.4.9' },
    target: { baseUrl: 'http://127.0.0.1:1', storeCode: 'default', secondStoreCode: 'all', bundledReferenceTarget: false, ...target },
    run: { id: 'run1', seed: 1, readOnly: false, concurrency: 8, timeoutMs: 10000, modules: [], checks: [], pathAliases: [], ...run },
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
    durationMs: 1000,
    summary: summary ?? summarise(results, new Set(CATALOG.map(rowId))),
    calibration: { noRoute: [], unknownStore: [] },
    created: [],
    cleanup: { removed: 0, leftovers: [] },
    runErrors: [],
    results,
    ...rest,
  }
}

/** The result of `check` (the first check, `route`, unless given) at `row`, with no exchanges, taking 1 ms unless given. */
export function resultOf(row: EndpointRow, status: Status, message: string, options: { check?: Check; durationMs?: number } = {}): Result {
  return toResult(row, options.check ?? CHECKS[0]!, { status, message, exchanges: [] }, options.durationMs ?? 1)
}
