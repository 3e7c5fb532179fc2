import { describe, expect, it } from 'vitest'
import { terminalSummary } from './text.ts'
import { ACL_NOT_CONFIGURED_LINE, planResults, reportOf, withoutLimitedAdmin } from './testing.ts'

describe('the console summary', () => {
  it('says "not configured" for a rule no setting let it judge, and how to judge it; the verdict is incomplete', () => {
    const text = terminalSummary(reportOf(withoutLimitedAdmin()), 'reports')
    expect(text).toContain('\nNot judged: 15 not configured (a setting the run lacks)\n')
    expect(text).toContain(`\nNot configured: ${ACL_NOT_CONFIGURED_LINE}\n`)
    expect(text).toMatch(/\nVerdict: incomplete · [\d.]+% of \d+ required checks passed\n/)
    expect(terminalSummary(reportOf(planResults()), 'reports')).not.toContain('not configured')
  })

  it('says the deadlines the run used (issue 29), where the report records them', () => {
    const run = { timeoutMs: 10_000, maxTimeoutMs: 120_000, deadlines: { read: 10_000, write: 12_500, heavyWrite: 45_000 } }
    expect(terminalSummary(reportOf(planResults(), { run }), 'reports')).toContain('\nDeadlines used: reads 10 s, writes 12.5 s, heavy writes 45 s (at least --timeout-ms 10000, at most --max-timeout-ms 120000)\n')
    expect(terminalSummary(reportOf(planResults()), 'reports')).not.toContain('Deadlines')
  })
})
