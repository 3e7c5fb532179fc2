/**
 * Test support for report and command tests (not a test itself): a whole sample report around given
 * results, and the result of one check at one catalog row as the runner records it.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ACL_NOT_CONFIGURED } from '../checks/acl.ts'
import { CHECKS } from '../checks/index.ts'
import type { Status } from '../results/verdict.ts'
import type { Check } from '../checks/types.ts'
import {
  flagLimits,
  PLAN,
  planBlock,
  selectionOf,
  selectPlan,
  type PlannedCheck,
  type Selection,
} from '../plan/plan.ts'
import { toResult, type Result } from '../results/result.ts'
import { CATALOG, rowOf } from '../spec/catalog/index.ts'
import type { EndpointRow } from '../spec/types.ts'
import { completeReport, type Judging } from './complete.ts'
import { summarise, type Report } from './model.ts'
import { Ajv, type ValidateFunction } from 'ajv'
import SERVER_ERRORS_SCHEMA from './server-errors.schema.json' with { type: 'json' }
import HAR_SCHEMA from './har.schema.json' with { type: 'json' }
import { serverErrorsBlock, type ServerErrorsBlock } from '../results/server-errors.ts'

/**
 * What a test sets of the sample report: any top-level key replaced, `target` and `run` merged one level deep.
 * `certification` and `exit` are judged from the rest (as a run does) unless given.
 */
type ReportPatch = Partial<Omit<Report, 'target' | 'run' | 'results' | 'baseline'>> & {
  target?: Partial<Report['target']>
  run?: Partial<Report['run']>
}

/**
 * A complete report of `results`: a one-second run against `http://127.0.0.1:1`, nothing created, no run
 * errors, and the summary computed from the results over the catalog unless the patch gives one; a baseline
 * goes in `judging`, as a run hands it over. Every call
 * returns fresh objects, so a test may change what it gets.
 */
export function reportOf(results: Result[], patch: ReportPatch = {}, judging: Judging = { made: true }): Report {
  const { target, run, summary, certification, exit, plan, ...rest } = patch
  const modules = run?.modules ?? []
  const checks = run?.checks ?? []
  const judged = completeReport(
    {
      suite: { name: 'shop-conformance', version: '0.1.0' },
      spec: { version: '2.4.9' },
      target: {
        baseUrl: 'http://127.0.0.1:1',
        storeCode: 'default',
        secondStoreCode: 'all',
        bundledReferenceTarget: false,
        ...target,
      },
      run: {
        id: 'run1',
        seed: 1,
        readOnly: false,
        concurrency: 8,
        timeoutMs: 10000,
        modules: [],
        checks: [],
        pathAliases: [],
        ...run,
      },
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:01.000Z',
      durationMs: 1000,
      summary: summary ?? summarise(results),
      calibration: { noRoute: [], unknownStore: [] },
      created: [],
      cleanup: { removed: 0, leftovers: [] },
      runErrors: [],
      plan: plan ?? sampleBlock(modules, checks),
      results,
      ...rest,
    },
    judging,
  )
  return {
    ...judged,
    ...(certification !== undefined ? { certification } : {}),
    ...(exit !== undefined ? { exit } : {}),
  }
}

/**
 * The result of `check` (the first check, `route`, unless given) at `row`, with no exchanges, taking 1 ms unless given.
 */
export function resultOf(
  row: EndpointRow,
  status: Status,
  message: string,
  options: { check?: Check; durationMs?: number } = {},
): Result {
  return toResult(row, options.check ?? CHECKS[0]!, { status, message, exchanges: [] }, options.durationMs ?? 1)
}

/**
 * The plan block a run of `--module`/`--check` (empty: all) records, with `extra` limits (`shard 1/2`) and modules
 * narrowed to `modulesRun`.
 */
export function sampleBlock(
  modules: readonly string[],
  checks: readonly string[],
  extra: { modulesRun?: readonly string[]; limits?: readonly string[] } = {},
): Report['plan'] {
  const selection = {
    ...selectionOf(modules, checks),
    ...(extra.modulesRun !== undefined ? { modules: extra.modulesRun } : {}),
  }
  return planBlock(PLAN, selection, [...flagLimits(PLAN, modules, checks), ...(extra.limits ?? [])])
}

/**
 * A result for every check of the plan of `selection` (lib/plan/), with the status `statusOf` gives (passed
 * unless told): the results a run of that selection records, without exchanges.
 */
export function planResults(
  selection: Selection = {},
  statusOf: (planned: PlannedCheck, index: number) => Status = () => 'passed',
): Result[] {
  return selectPlan(PLAN, selection).checks.map((p, i) => {
    const row = p.endpoint === undefined ? undefined : rowOf(p.endpoint)
    const status = statusOf(p, i)
    return {
      id: p.id,
      module: p.module,
      endpoint: row !== undefined ? { method: row.method, path: row.path } : { method: '-', path: '(workflow)' },
      check: p.kind,
      status,
      message: `${status} ${i}`,
      durationMs: 1,
      spec: [],
      exchanges: [],
    }
  })
}

/** The whole plan's results as a run without a limited admin records them: every `acl` check not configured. */
export function withoutLimitedAdmin(results: Result[] = planResults()): Result[] {
  return results.map((r) =>
    r.check === 'acl' && r.applicable !== false
      ? { ...r, status: 'skipped', reason: 'not-configured', message: ACL_NOT_CONFIGURED }
      : r,
  )
}

/** The line every format shows for the acl check of such a run (certification.notConfigured). */
export const ACL_NOT_CONFIGURED_LINE = `acl — 15 checks not judged: ${ACL_NOT_CONFIGURED.replace(/^not configured: /, '')}`

/**
 * `runId`'s report: result `i` is the route check of catalog row `i`, with `statuses[i]` (what diff and baseline
 * compare).
 */
export function reportOfStatuses(runId: string, statuses: Status[]): Report {
  return reportOf(
    statuses.map((status, i) => resultOf(CATALOG[i]!, status, `${status} ${i}`)),
    { run: { id: runId } },
  )
}

/**
 * Writes a report as `run` does (indented) into a directory `name` of its own under `dir`; returns the report.json
 * path.
 */
export function writtenReport(dir: string, name: string, r: Report): string {
  mkdirSync(join(dir, name), { recursive: true })
  const path = join(dir, name, 'report.json')
  writeFileSync(path, `${JSON.stringify(r, null, 2)}\n`)
  return path
}

/**
 * A run's server errors as report.json holds them: the source-selection request the shop's schema documents, answered
 * 500 twice to the admin (in the route check's evidence), and a set-up read answered 503 once.
 */
export function sampleServerErrors(): ServerErrorsBlock {
  const SELECTION = 'POST /V1/inventory/source-selection-algorithm-result'
  const at = '2026-01-01T00:00:00.500Z'
  return serverErrorsBlock({
    entries: [
      {
        method: 'POST',
        endpoint: SELECTION,
        origin: 'spec',
        path: SELECTION.slice('POST '.length),
        store: 'default',
        caller: 'admin',
        body: { inventoryRequest: { stock_id: 1, items: [{ sku: 'sc-1', qty: 1 }] }, algorithmCode: 'priority' },
        status: 500,
        message: 'Missing required argument $stockId of Magento\\InventorySourceSelectionApi\\Model\\InventoryRequest.',
        reportId: 'webapi-6b0bb8931408b',
        firstAt: at,
        lastAt: '2026-01-01T00:00:00.700Z',
        count: 2,
        steps: [],
        results: [`${SELECTION} › route`],
        bodyKeys: [
          'inventoryRequest.stock_id',
          'inventoryRequest.items[].sku',
          'inventoryRequest.items[].qty',
          'algorithmCode',
        ],
        schemaDocumentsBody: true,
        schemaSays: `the shop's schema declares ${SELECTION} with a body of every key sent, and none it requires is missing`,
      },
      {
        ...{ method: 'GET', endpoint: 'GET /V1/inventory/sources', origin: 'spec', path: '/V1/inventory/sources' },
        ...{
          query: 'searchCriteria%5BpageSize%5D=50',
          store: 'default',
          caller: 'admin',
          status: 503,
          message: 'Service Unavailable',
        },
        ...{ firstAt: at, lastAt: at, count: 1, steps: ['find source main'] },
      },
    ],
    unlisted: {},
  })
}

let validateServerErrors: ValidateFunction | undefined

/**
 * What is wrong with `block` as report.json's `serverErrors` (lib/report/server-errors.schema.json); empty when
 * nothing.
 */
export function serverErrorsProblems(block: unknown): string[] {
  if (validateServerErrors === undefined) {
    const ajv = new Ajv({ allErrors: true, strict: true })
    ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/)
    validateServerErrors = ajv.compile(SERVER_ERRORS_SCHEMA)
  }
  if (validateServerErrors(block)) return []
  return (validateServerErrors.errors ?? []).map((e) => `${e.instancePath || '(top)'} ${e.message ?? e.keyword}`)
}

let validateHar: ValidateFunction | undefined

/** What is wrong with `har` as HAR 1.2 (lib/report/har.schema.json: a run's evidence.har); empty when nothing. */
export function harProblems(har: unknown): string[] {
  if (validateHar === undefined) {
    const ajv = new Ajv({ allErrors: true, strict: true })
    ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/)
    ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:\/\/\S+$/i)
    validateHar = ajv.compile(HAR_SCHEMA)
  }
  if (validateHar(har)) return []
  return (validateHar.errors ?? []).map((e) => `${e.instancePath || '(top)'} ${e.message ?? e.keyword}`)
}
