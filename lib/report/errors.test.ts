/**
 * A check whose code throws (issue 22.2): a result of status `error` of its code's owner — the suite's own check
 * or a vendor's — never the shop's failure and never passed, and said as such in every format. A vendor's error
 * follows `--extensions` as any extension failure does; the suite's own is an error of the run (exit 1).
 */
import { describe, expect, it } from 'vitest'
import { CHECK_KINDS, CHECKS } from '../checks/index.ts'
import { vendorParts } from '../extend/load.ts'
import type { Check } from '../checks/types.ts'
import type { Result } from '../results/result.ts'
import { crashResult } from '../run/progress.ts'
import { Secrets } from '../shop/secrets.ts'
import type { Session } from '../shop/session.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import { judgeCheck } from '../run/judge-planned.ts'
import { step } from '../workflows/steps.ts'
import { scriptedContext } from '../workflows/testing.ts'
import { baselineFromReport } from './baseline.ts'
import { diffReports, diffText } from './diff.ts'
import { reportHtml } from './html.ts'
import { junitXml } from './junit.ts'
import { sarifLog } from './sarif.ts'
import { markdownSummary } from './summary-md.ts'
import { terminalSummary } from './text.ts'
import { planResults, reportOf } from './testing.ts'

const ROW = CATALOG.find((r) => r.method === 'GET' && r.path === '/V1/directory/countries')!
const secrets = new Secrets()
secrets.add('s3cret-token-value', 'admin token')
/** Enough of a session for a check that throws before it sends anything. */
const session = { targetPath: (p: string) => p, secrets } as unknown as Session

function bug(): never {
  const stock = undefined as unknown as { count: number }
  return stock.count as never
}

/** The bug met in async code: a promise that rejects with it. */
const rejectsWithBug = (): Promise<never> => Promise.resolve().then(bug)

const throwing: Check = { ...CHECKS[0]!, run: rejectsWithBug }
const vendorThrowing = { ...throwing, name: 'warehouse-stock', origin: 'vendor' as const }

describe('a check whose code throws', () => {
  it("is the suite's error when the check is the suite's own: status error, the stack's first line, no origin", async () => {
    const r = await judgeCheck(session, ROW, throwing)
    expect(r).toMatchObject({ id: 'GET /V1/directory/countries › route', status: 'error' })
    expect(r.origin).toBeUndefined()
    expect(r.message).toMatch(
      /^error of the suite \(a bug of the suite, not a finding about the shop\): the route check threw TypeError: Cannot read properties of undefined \(reading 'count'\) at bug \(.*errors\.test\.ts:\d+:\d+\)$/,
    )
  })

  it("is the vendor's error when the check is a vendor's", async () => {
    const r = await judgeCheck(session, ROW, vendorThrowing)
    expect(r.status).toBe('error')
    expect(r.message).toMatch(
      /^error of the vendor's check \(its code, not a finding about the shop\): warehouse-stock threw TypeError: Cannot read/,
    )
  })

  it("is the vendor's error when a vendor's check resolves to something that is no verdict", async () => {
    const config = {
      endpoints: [{ method: 'GET', path: '/V1/ref-example/warehouses', access: 'admin', module: 'vendor-warehouses' }],
      checks: [{ name: 'sloppy', description: 'd', run: () => Promise.resolve({ status: 'ok' }) }],
    }
    const parts = vendorParts(config, 'x.config.ts', CHECK_KINDS)
    const r = await judgeCheck(session, parts.rows[0]!, parts.kinds[0]!)
    expect(r).toMatchObject({
      status: 'error',
      message:
        "error of the vendor's check (its code, not a finding about the shop): sloppy threw Error: its run() resolved to {\"status\":\"ok\"}, not a verdict ({ status: 'passed' | 'failed' | 'skipped', message, exchanges })",
    })
  })

  it('never writes a secret its error names', async () => {
    const r = await judgeCheck(session, ROW, {
      ...throwing,
      run: () => Promise.reject(new Error('refused with Bearer s3cret-token-value')),
    })
    expect(r.message).not.toContain('s3cret-token-value')
    expect(r.message).toContain('[redacted admin token]')
  })

  it("in a workflow step, and a test that ended without a result: the suite's error too", async () => {
    const s = await step('b', undefined, rejectsWithBug).run(scriptedContext({}))
    expect(s.status).toBe('error')
    expect(s.message).toMatch(
      /^error of the suite \(a bug of the suite, not a finding about the shop\): the step threw TypeError: Cannot read/,
    )
    const crash = crashResult('GET /V1/directory/countries › route', 'directory', 'boom')
    expect(crash).toMatchObject({
      status: 'error',
      check: 'route',
      message:
        'error of the suite (a bug of the suite, not a finding about the shop): the check ended without a verdict: boom',
    })
  })
})

function errorOf(
  r: Result,
  message = 'error of the suite (a bug of the suite, not a finding about the shop): the route check threw TypeError: boom',
): Result {
  return { ...r, status: 'error', message }
}

const VENDOR: Result = {
  id: 'GET /V1/ref-example/warehouses › warehouse-stock',
  module: 'vendor-warehouses',
  endpoint: { method: 'GET', path: '/V1/ref-example/warehouses' },
  check: 'warehouse-stock',
  status: 'error',
  message:
    "error of the vendor's check (its code, not a finding about the shop): warehouse-stock threw TypeError: boom",
  durationMs: 1,
  spec: [],
  exchanges: [],
  origin: 'vendor',
  extension: true,
}

describe("the suite's error in a report", () => {
  const results = planResults().map((r, i) => (i === 0 ? errorOf(r) : r))
  const report = reportOf(results)
  const id = results[0]!.id

  it("is never the shop's failure and never passes: the run is incomplete, and exits 1 as an error of the run", () => {
    expect(report.certification).toMatchObject({
      verdict: 'incomplete',
      failed: 0,
      errors: 1,
      passed: results.length - 1,
    })
    expect(report.summary).toMatchObject({ failed: 0, errors: 1 })
    expect(report.exit).toEqual({
      status: 1,
      reason: '1 check errored (a bug of the suite, not a finding about the shop)',
    })
    expect(report.certification.modules[0]).toMatchObject({ verdict: 'incomplete', errors: 1, failed: 0 })
  })

  it('is an error in every format, never a failure', () => {
    const junit = junitXml(report)
    expect(junit).toContain(
      `<testcase classname="shop-conformance.${results[0]!.module}" name="${id.replace(/›/g, '›')}"`,
    )
    expect(junit).toMatch(/<error message="error of the suite[^"]*" type="suite error">/)
    expect(junit).not.toContain('<failure')
    const sarif = sarifLog(report).runs[0]!
    expect(sarif.results).toEqual([])
    expect(sarif.invocations[0]!.executionSuccessful).toBe(false)
    expect(sarif.invocations[0]!.toolExecutionNotifications).toContainEqual({
      level: 'error',
      message: { text: `${id}: ${results[0]!.message}` },
    })
    const md = markdownSummary(report)
    expect(md).toContain("## Errors (1): the suite's or a vendor check's code, not the shop")
    expect(md).toContain(`| \`${id}\` | error of the suite`)
    expect(md).not.toContain('## Failures')
    const text = terminalSummary(report, 'reports')
    expect(text).toContain(`0 failed, 1 error,`)
    expect(text).toContain(
      `Errors (the suite's or a vendor check's code, not the shop):\n  ! ${id} — error of the suite`,
    )
    const html = reportHtml(report)
    expect(html).toContain('<option value="error">error</option>')
  })

  it('is not baselined, and a diff says passed → error without calling it a failure', () => {
    expect(baselineFromReport(report, 'r').entries).toEqual([])
    const diff = diffReports(reportOf(planResults()), report)
    expect(diff.newlyFailing).toEqual([])
    expect(diff.changed).toEqual([
      expect.objectContaining({ id, before: 'passed', after: 'error', afterOutcome: 'error' }),
    ])
    expect(diffText(diff)).toContain(`~ ${id}: passed → error`)
  })
})

describe("a vendor check's error in a report", () => {
  it("is the vendor's, apart from the spec's verdict, and fails the run only as --extensions gates", () => {
    const gate = reportOf([...planResults(), VENDOR])
    expect(gate.certification).toMatchObject({ verdict: 'conforms', percent: 100, errors: 0 })
    expect(gate.exit).toEqual({
      status: 1,
      reason:
        "1 vendor check errored (its code, not a finding about the shop; not the spec's; --extensions report-only reports them without failing the run)",
    })
    expect(gate.extensions!.text).toMatch(/^Vendor checks: 1 operation, 0 checks passed, 1 error ·/)
    expect(junitXml(gate)).toMatch(/<error message="error of the vendor's check[^"]*" type="vendor check error">/)

    const only = reportOf([...planResults(), VENDOR], { run: { extensions: 'report-only' } })
    expect(only.exit).toEqual({
      status: 0,
      reason: 'no check failed; 1 vendor check errored, reported only (--extensions report-only)',
    })
    expect(junitXml(only)).toContain(
      '<skipped message="reported only (--extensions report-only): error of the vendor&apos;s check'.replace(
        '&apos;',
        "'",
      ),
    )
    expect(sarifLog(only).runs[0]!.invocations[0]!.toolExecutionNotifications).toContainEqual({
      level: 'warning',
      message: { text: `${VENDOR.id}: ${VENDOR.message}` },
    })
  })
})
