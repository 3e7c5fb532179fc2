/**
 * The shop's schema and the results from outside the spec in every format: a section of their own, never in
 * the certification; an extension's failure fails the run unless `--extensions report-only`; a schema finding
 * never does.
 */
import { describe, expect, it } from 'vitest'
import type { Result } from '../results/result.ts'
import { schemaText, type SchemaBlock } from '../results/schema-block.ts'
import { schemaFacts } from '../schema/block.ts'
import { junitXml } from './junit.ts'
import { reportHtml } from './html.ts'
import { sarifLog } from './sarif.ts'
import { markdownSummary } from './summary-md.ts'
import { terminalSummary } from './text.ts'
import { planResults, reportOf } from './testing.ts'

function extensionResult(
  check: string,
  status: Result['status'],
  path = '/V1/ref-ext/audit-log',
  origin: 'extension' | 'vendor' = 'extension',
): Result {
  return {
    id: `GET ${path} › ${check}`,
    module: origin === 'extension' ? 'extensions' : 'vendor-example',
    endpoint: { method: 'GET', path },
    check,
    status,
    message: `${check} ${status}`,
    durationMs: 1,
    spec: [],
    exchanges: [],
    origin,
    extension: true,
  }
}

const FINDING = {
  kind: 'access-class-differs',
  operation: 'GET /V1/directory/countries',
  declared: 'admin',
  spec: 'anon',
  section: 'Authentication',
  specWords: ['anon'],
  message: 'declared admin, the spec says anon',
}

function schemaBlock(findings = [FINDING]): SchemaBlock {
  const b = {
    status: 'read' as const,
    published: true,
    source: 'GET http://127.0.0.1:1/rest/default/schema?services=all under each caller',
    callers: ['anon', 'customer', 'admin'],
    notes: [],
    findings,
    notJudged: [],
    specEndpoints: 278,
    declaredSpecEndpoints: 278,
    extensionOperations: 17,
  }
  return { ...b, text: schemaText(b) }
}

const extensions = [
  extensionResult('extension-route', 'passed'),
  extensionResult('extension-store-code', 'passed'),
  extensionResult('extension-access', 'failed'),
  extensionResult('extension-access', 'passed', '/V1/ref-ext/ping'),
]

describe('a run whose spec checks all pass, with a failing extension and a schema finding', () => {
  const report = reportOf([...planResults(), ...extensions], { schema: schemaBlock() })

  it('conforms to the spec: the extension and the finding are counted apart', () => {
    expect(report.certification.verdict).toBe('conforms')
    expect(report.certification.percent).toBe(100)
    expect(report.extensions).toEqual({
      mode: 'gate',
      tallies: [
        {
          origin: 'extension',
          operations: 2,
          results: 4,
          passed: 3,
          failed: 1,
          errors: 0,
          notJudged: 0,
          failedByCheck: { 'extension-access': 1 },
        },
      ],
      text: expect.stringMatching(
        /^Extensions: 2 operations, 1 fails access · not the spec's: never in its verdict; their failures fail the run/,
      ),
    })
  })

  it('exits 1 for the extension, and says so', () => {
    expect(report.exit).toEqual({
      status: 1,
      reason:
        "1 extension check failed (not the spec's; --extensions report-only reports them without failing the run)",
    })
  })

  it('exits 0 under --extensions report-only, and says what it reported', () => {
    const only = reportOf([...planResults(), ...extensions], {
      schema: schemaBlock(),
      run: { extensions: 'report-only' },
    })
    expect(only.exit).toEqual({
      status: 0,
      reason: 'no check failed; 1 extension check failed, reported only (--extensions report-only)',
    })
    expect(junitXml(only)).toContain(
      '<skipped message="reported only (--extensions report-only): extension-access failed"/>',
    )
    expect(sarifLog(only).runs[0]!.results.find((r) => r.ruleId === 'extension-access')!.level).toBe('warning')
  })

  it('shows both sections in the console, summary.md and report.html', () => {
    const text = terminalSummary(report, 'reports')
    expect(text).toContain(`${report.schema!.text}\n${report.extensions!.text}`)
    expect(text).toContain('✗ GET /V1/ref-ext/audit-log › extension-access [extension] — extension-access failed')
    const md = markdownSummary(report)
    expect(md).toContain('## Extensions')
    expect(md).toContain("## The shop's schema")
    expect(md).toContain('| `GET /V1/directory/countries` | access-class-differs | admin | anon (Authentication) |')
    expect(md).toContain("**extension** (not the spec's)")
    const html = reportHtml(report)
    expect(html).toContain('<section class="notes" id="schema" hidden></section>')
    expect(html).toContain('"title":"extensions (extension, not the spec\'s)"')
  })

  it('gives the findings SARIF rules of their own, never at level error; JUnit only a property', () => {
    const sarif = sarifLog(report).runs[0]!
    const finding = sarif.results.find((r) => r.ruleId === 'schema/access-class-differs')!
    expect(finding.level).toBe('warning')
    expect(sarif.tool.driver.rules[finding.ruleIndex]!.id).toBe('schema/access-class-differs')
    const fieldType = sarifLog(
      reportOf(planResults(), { schema: schemaBlock([{ ...FINDING, kind: 'field-type-contradicts' }]) }),
    ).runs[0]!.results
    expect(fieldType.map((r) => r.level)).toEqual(['note'])
    const junit = junitXml(report)
    expect(junit).toContain('<property name="schema" value="The shop&apos;s schema'.replace('&apos;', "'"))
    expect(junit).not.toContain('access-class-differs')
  })
})

describe('the schema alone', () => {
  it('never changes the exit status or the verdict', () => {
    const report = reportOf(planResults(), { schema: schemaBlock() })
    expect(report.exit.status).toBe(0)
    expect(report.certification.verdict).toBe('conforms')
    expect(report.extensions).toBeUndefined()
  })

  it('not published: one line', () => {
    const b = {
      status: 'unpublished' as const,
      published: false,
      source: 'GET x',
      reason: 'with no token, answered 404 "Request does not match any route."',
      callers: [],
      notes: [],
      findings: [],
      notJudged: [],
      specEndpoints: 0,
      declaredSpecEndpoints: 0,
      extensionOperations: 0,
    }
    expect(schemaText(b)).toBe(
      'The shop publishes no schema: with no token, answered 404 "Request does not match any route.".',
    )
  })
})

describe("a shop whose schema endpoint is broken (a 500 for every caller, as a real shop's was)", () => {
  const reason =
    'answered 500 "Internal Error. Details are available in Magento log file. Report ID: webapi-6b084a486e3d7" under every caller'
  const { block } = schemaFacts({
    status: 'broken',
    source: 'GET http://127.0.0.1:8082/rest/default/schema?services=all under each caller',
    reason,
  })
  const report = reportOf(planResults(), { schema: block })
  const unchecked =
    "The shop's extension endpoints were not checked: the schema lists them. To check them anyway, give a schema saved where it generates (a copy of the shop with the failing module's interface fixed, say) as --target-schema FILE, or declare them, with checks of your own, in a config (--config)"

  it("is a finding of its own, worded for the shop's team, with what went unchecked and how to check it anyway", () => {
    expect(block.text).toBe(
      `The shop's schema endpoint is broken: GET http://127.0.0.1:8082/rest/default/schema?services=all ${reason}. ${unchecked}. Information only: never in the certification, never the exit status.`,
    )
    expect(block.notes[0]).toMatch(
      /^a server error at the schema URL usually means the platform could not generate the schema/,
    )
    // Information, as every schema finding: the spec's verdict and the exit are the spec's.
    expect(report.certification.verdict).toBe('conforms')
    expect(report.exit).toEqual({ status: 0, reason: 'no check failed' })
  })

  it('is said in every format', () => {
    expect(terminalSummary(report, 'reports')).toContain(`\n${block.text}\n`)
    const md = markdownSummary(report)
    expect(md).toContain(
      '\n- **Not checked:** the shop\'s extension endpoints — its schema endpoint is broken (see "The shop\'s schema" below for what it answered and how to check them anyway).\n',
    )
    expect(md).toContain(`## The shop's schema\n\n${block.text.replace(/`/g, "'")}\n- a server error at the schema URL`)
    expect(junitXml(report)).toMatch(
      /<testsuite name="extensions" tests="1" failures="0" errors="0" skipped="1"[^>]*>[^]*<testcase classname="shop-conformance\.extensions" name="extension endpoints › not checked" time="0\.000">\n {6}<skipped message="The shop's schema endpoint is broken/,
    )
    const sarif = sarifLog(report).runs[0]!
    const finding = sarif.results.find((r) => r.ruleId === 'schema/endpoint-broken')!
    expect(finding).toMatchObject({ level: 'warning', message: { text: block.text } })
    expect(sarif.tool.driver.rules[finding.ruleIndex]!.id).toBe('schema/endpoint-broken')
    expect(reportHtml(report)).toContain('"status":"broken"')
  })
})
