import { describe, expect, it } from 'vitest'
import { CHECKS } from '../checks/index.ts'
import { NOT_JUDGED_REASONS } from '../results/verdict.ts'
import { toResult, type Result } from '../results/result.ts'
import { notApplicableResults, PLAN } from '../plan/plan.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import { markdownSummary, MAX_FAILURES } from './summary-md.ts'
import { ACL_NOT_CONFIGURED_LINE, planResults, reportOf, sampleServerErrors, withoutLimitedAdmin } from './testing.ts'
import { serverErrorsBlock } from '../results/server-errors.ts'

const notApplicable = notApplicableResults(PLAN, (p) => p)

/**
 * The whole suite: `failing` failures (the last of them a workflow step), 3 unjudged checks with reasons, 2 warnings.
 */
function suiteReport(
  failing: number,
  patch: Parameters<typeof reportOf>[1] = {},
  judging?: Parameters<typeof reportOf>[2],
) {
  const plan = planResults()
  const workflowAt = plan.findIndex((p) => p.check === 'workflow')
  const results: Result[] = plan.map((r, i) => {
    if (i < failing - 1 || (failing > 0 && i === workflowAt))
      return { ...r, status: 'failed', message: `broke ${i}`, spec: ['Errors 1–3'] }
    if (i === workflowAt + 1)
      return { ...r, status: 'skipped', message: 'not judged: set-up step "x" answered 500', reason: 'setup-failed' }
    if (i === workflowAt + 2 || i === workflowAt + 3)
      return { ...r, status: 'skipped', message: 'not judged: read-only mode', reason: 'read-only' }
    if (i === failing + 5 || i === failing + 6) return { ...r, warnings: ['unlisted field "foo"'] }
    return r
  })
  return reportOf([...results, ...notApplicable], patch, judging)
}

describe('summary.md', () => {
  it('is titled with the verdict, the percentage and the exit reason', () => {
    const md = markdownSummary(suiteReport(3))
    const c = suiteReport(3).certification
    expect(md.split('\n')[0]).toBe(`# Shop conformance: does not conform · ${c.percent}% · exit 1: 3 checks failed`)
    expect(markdownSummary(suiteReport(0)).split('\n')[0]).toMatch(
      /^# Shop conformance: incomplete · \d+(\.\d)?% · exit 0: no check failed$/,
    )
    const clean = reportOf([...planResults(), ...notApplicable])
    expect(markdownSummary(clean).split('\n')[0]).toBe('# Shop conformance: conforms · 100% · exit 0: no check failed')
  })

  it("says the deadlines the run used among the run's facts (issue 29), as the console does", () => {
    const run = { maxTimeoutMs: 120_000, deadlines: { read: 10_000, write: 10_000, heavyWrite: 45_000 } }
    expect(markdownSummary(suiteReport(0, { run }))).toContain(
      '; seed 1; deadlines used: reads 10 s, writes 10 s, heavy writes 45 s.',
    )
    expect(markdownSummary(suiteReport(0))).not.toContain('deadlines used')
  })

  it('says "not configured" for a rule no setting let it judge: a mark with how to judge it, and its own reason among the unjudged', () => {
    const md = markdownSummary(reportOf([...withoutLimitedAdmin(), ...notApplicable]))
    expect(md.split('\n')[0]).toMatch(/^# Shop conformance: incomplete · [\d.]+% · exit 0: no check failed$/)
    expect(md).toContain(`\n- **Not configured:** ${ACL_NOT_CONFIGURED_LINE}\n`)
    expect(md).toMatch(/\n\| not configured \(a setting the run lacks\) \| 15 \| `\S+ \S+ › acl` \|\n/)
    expect(md).not.toMatch(/\bpassed\b.*› acl|› acl.*\bfailed\b/)
  })

  it('says in one line why a run could not be made, never "0 failed"', () => {
    const md = markdownSummary(
      reportOf(
        [],
        {
          runErrors: [
            'target unreachable: admin token request to http://127.0.0.1:9 failed (connection failed: ECONNREFUSED)',
          ],
        },
        { made: false },
      ),
    )
    const lines = md.split('\n')
    expect(lines[0]).toBe(
      '# Shop conformance: not run · exit 2: the run could not be made: target unreachable: admin token request to http://127.0.0.1:9 failed (connection failed: ECONNREFUSED)',
    )
    expect(lines[2]).toBe(
      '**Run error:** target unreachable: admin token request to http://127.0.0.1:9 failed (connection failed: ECONNREFUSED)',
    )
    expect(md).not.toMatch(/0 failed/)
  })

  it('marks a run judged again from its recording (judge --har): which run, and that nothing was sent', () => {
    const recording = {
      file: 'reports/evidence.har',
      suite: { name: 'shop-conformance', version: '0.1.0' },
      spec: { version: '2.4.9' },
      runId: 'run7',
      baseUrl: 'https://shop.example',
      entries: 12,
    }
    const md = markdownSummary({ ...reportOf(planResults({ modules: ['directory'] })), mode: 'rejudged', recording })
    expect(md).toContain(
      '\n- **Judged again** from reports/evidence.har (run run7 of shop-conformance 0.1.0 against https://shop.example): nothing was sent.\n',
    )
    expect(markdownSummary(reportOf(planResults({ modules: ['directory'] })))).not.toContain('Judged again')
  })

  it('marks a partial, read-only or baselined run', () => {
    const slice = reportOf(planResults({ modules: ['directory'] }), { run: { modules: ['directory'], readOnly: true } })
    const md = markdownSummary(slice)
    expect(md.split('\n')[0]).toBe('# Shop conformance: partial · 100% · exit 0: no check failed')
    const selected = `${slice.certification.scope.selected} of ${slice.certification.scope.suite} checks selected (--module directory)`
    expect(md).toContain(`\n- **Scope:** ${selected} — not a statement about the whole suite.\n`)
    expect(md).toContain(`\n100% of ${slice.certification.scope.selected} required checks passed.\n`)
    // Said once: the verdict in the title, the selection in its mark.
    expect(md.match(/partial/gi)).toHaveLength(1)
    // A slice that fails is not "partial" by its verdict: its mark says it is.
    const brokenSlice = markdownSummary(
      reportOf(
        planResults({ modules: ['directory'] }, (_, i) => (i === 0 ? 'failed' : 'passed')),
        { run: { modules: ['directory'] } },
      ),
    )
    expect(brokenSlice.split('\n')[0]).toMatch(/^# Shop conformance: does not conform · /)
    expect(brokenSlice).toContain(`\n- **Partial:** ${selected} — not a statement about the whole suite.\n`)
    expect(brokenSlice.match(/partial/gi)).toHaveLength(1)
    expect(md).toContain('- **Read-only:** only token calls and GET requests were sent')
    const failing = suiteReport(3)
    const failed = failing.results.filter((r) => r.status === 'failed')
    const passing = failing.results.find((r) => r.status === 'passed')!
    const baseline = {
      version: 1 as const,
      entries: [
        ...failed.map((r) => ({ id: r.id, reason: 'ticket SHOP-9' })),
        { id: passing.id, reason: 'fixed in 2.4.8' },
      ],
    }
    const baselined = markdownSummary(
      suiteReport(3, {}, { made: true, baseline: { file: 'known.json', baseline, allowStale: false } }),
    )
    expect(baselined.split('\n')[0]).toBe(
      '# Shop conformance: incomplete · ' +
        `${suiteReport(3).certification.percent}% · exit 1: 1 stale baseline entry (now passing: remove it or pass --allow-stale)`,
    )
    expect(baselined).toContain('- **Baseline** `known.json`: 0 new failures, 3 baselined, 1 stale,')
    expect(baselined).toContain(`| \`${failed[0]!.id}\` | **baselined**: ticket SHOP-9 — broke 0 |`)
    expect(baselined).toContain('## Stale baseline entries (1)')
    expect(baselined).toContain(`| \`${passing.id}\` | fixed in 2.4.8 |`)
  })

  it('splits skipped results into not judged, counted per reason, and not applicable, per check and why', () => {
    const md = markdownSummary(suiteReport(3))
    expect(md).toContain('## Not judged (3)')
    expect(md).toMatch(new RegExp(`\\| ${NOT_JUDGED_REASONS['read-only'].replace(/[()]/g, '\\$&')} \\| 2 \\|`))
    expect(md).toMatch(new RegExp(`\\| ${NOT_JUDGED_REASONS['setup-failed']} \\| 1 \\|`))
    expect(md).toContain(`## Not applicable (${notApplicable.length})`)
    expect(md).toMatch(/\| batch-partial: not a batch price operation \| \d+ \|/)
    expect(md).not.toContain('not shown by the spec')
  })

  it('counts and names the warnings', () => {
    expect(markdownSummary(suiteReport(3))).toContain('## Warnings (2)')
    expect(markdownSummary(suiteReport(3))).toMatch(/\| unlisted field "foo" \| 2 \| `[^`]+` \|/)
  })

  it('lists at most 50 failures, workflow steps by their id, each spec section once, and points to report.html', () => {
    const many = suiteReport(120)
    const md = markdownSummary(many)
    const rows = md.split('\n').filter((l) => /^\| `.*` \| .* \| .* \|$/.test(l) && /broke \d+/.test(l))
    expect(rows).toHaveLength(MAX_FAILURES)
    expect(md).toContain(`… and ${120 - MAX_FAILURES} more failures: open report.html`)
    expect(Buffer.byteLength(md)).toBeLessThan(30_000)
    const wf = markdownSummary(suiteReport(1))
    expect(wf).toMatch(/\| `workflow [a-z-]+ › 01 [^`]+` \| broke \d+ \| Errors 1–3 \|/)
    // A check's sections and its row's name the same one: it is cited once.
    const row = CATALOG.find((r) => r.module === 'catalog-prices' && r.method === 'POST')!
    const check = CHECKS.find((c) => c.name === 'batch-partial')!
    const r = toResult(
      { ...row, sections: [...check.spec] },
      check,
      { status: 'failed', message: 'x', exchanges: [] },
      1,
    )
    expect(r.spec).toEqual([...check.spec])
  })
})

// Issue 21: the exit line said "27 checks failed, 2 extension checks failed" and summary.md "Failures (29)".
describe('the failures, counted alike in every human-readable output', () => {
  it("the spec's apart from the extensions', in summary.md, the console and the exit line", async () => {
    const { terminalSummary } = await import('./text.ts')
    const results = planResults({}, (_p, i) => (i < 2 ? 'failed' : 'passed'))
    const extension: Result = {
      ...results[0]!,
      id: 'GET /V1/ext/x › extension-access',
      check: 'extension-access',
      module: 'extensions',
      origin: 'extension',
      extension: true,
      status: 'failed',
    }
    const report = reportOf([...results, extension])
    const md = markdownSummary(report)
    expect(md).toContain('## Failures (2)')
    expect(md).toContain("## Extension check failures (1, not the spec's)")
    const text = terminalSummary(report, 'reports')
    expect(text).toContain('\nFailures (2):\n')
    expect(text).toContain("\nExtension check failures (1, not the spec's):\n")
    expect(report.exit.reason).toMatch(/^2 checks failed, 1 extension check failed/)
  })

  it('lists the server errors the run met in a section of its own, each with what a vendor needs to repeat it; the title is untouched', () => {
    const md = markdownSummary(reportOf([...planResults(), ...notApplicable], { serverErrors: sampleServerErrors() }))
    expect(md.split('\n')[0]).toBe('# Shop conformance: conforms · 100% · exit 0: no check failed')
    const section = md.slice(md.indexOf('\n## Server errors (3)\n'))
    expect(section).toContain(
      '\nServer errors: 3 (500 ×2, 503 ×1) at 2 operations — information only, never the verdict.\n',
    )
    expect(section).toContain(
      "| operation | caller | status | the shop's message | report id | the body's keys | documented by the shop's schema | times |",
    )
    expect(section).toContain(
      "| 'POST /V1/inventory/source-selection-algorithm-result' | admin | 500 | Missing required argument $stockId of Magento\\InventorySourceSelectionApi\\Model\\InventoryRequest. | 'webapi-6b0bb8931408b' | 'inventoryRequest.stock_id', 'inventoryRequest.items[].sku', 'inventoryRequest.items[].qty', 'algorithmCode' | yes | 2 |".replace(
        /'/g,
        '`',
      ),
    )
    expect(section).toContain('| `GET /V1/inventory/sources` | admin | 503 | Service Unavailable | — | — | — | 1 |')
    // None met: no section.
    expect(
      markdownSummary(suiteReport(0, { serverErrors: serverErrorsBlock({ entries: [], unlisted: {} }) })),
    ).not.toContain('Server errors')
  })
})
