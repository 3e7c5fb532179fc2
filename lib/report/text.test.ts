import { describe, expect, it } from 'vitest'
import { terminalSummary } from './text.ts'
import { ACL_NOT_CONFIGURED_LINE, planResults, reportOf, sampleServerErrors, withoutLimitedAdmin } from './testing.ts'
import { serverErrorsBlock } from '../results/server-errors.ts'

describe('the console summary', () => {
  it('says "not configured" for a rule no setting let it judge, and how to judge it; the verdict is incomplete', () => {
    const text = terminalSummary(reportOf(withoutLimitedAdmin()), 'reports')
    expect(text).toContain('\nNot judged: 15 not configured (a setting the run lacks)\n')
    expect(text).toContain(`\nNot configured: ${ACL_NOT_CONFIGURED_LINE}\n`)
    expect(text).toMatch(/\nVerdict: incomplete · [\d.]+% of \d+ required checks passed\n/)
    expect(terminalSummary(reportOf(planResults()), 'reports')).not.toContain('not configured')
  })

  it("counts the server errors the run met in a line of their own, after the schema's, apart from the verdict; none, no line", () => {
    const schema = {
      status: 'off' as const,
      published: false,
      callers: [],
      notes: [],
      findings: [],
      notJudged: [],
      specEndpoints: 0,
      declaredSpecEndpoints: 0,
      extensionOperations: 0,
      text: "The shop's schema was not read (--target-schema off).",
    }
    const text = terminalSummary(reportOf(planResults(), { schema, serverErrors: sampleServerErrors() }), 'reports')
    expect(text).toContain(
      `${schema.text}\nServer errors: 3 (500 ×2, 503 ×1) at 2 operations — information only, never the verdict.\n`,
    )
    expect(text).toMatch(/\nVerdict: conforms · 100% of \d+ required checks passed\nExit 0: no check failed\n/)
    expect(
      terminalSummary(
        reportOf(planResults(), { serverErrors: serverErrorsBlock({ entries: [], unlisted: {} }) }),
        'reports',
      ),
    ).not.toContain('Server errors')
  })

  it('says the deadlines the run used (issue 29), where the report records them', () => {
    const run = {
      timeoutMs: 10_000,
      maxTimeoutMs: 120_000,
      deadlines: { read: 10_000, write: 12_500, heavyWrite: 45_000 },
    }
    expect(terminalSummary(reportOf(planResults(), { run }), 'reports')).toContain(
      '\nDeadlines used: reads 10 s, writes 12.5 s, heavy writes 45 s (at least --timeout-ms 10000, at most --max-timeout-ms 120000)\n',
    )
    expect(terminalSummary(reportOf(planResults()), 'reports')).not.toContain('Deadlines')
  })
})
