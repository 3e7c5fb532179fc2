/**
 * `shop-conformance judge --har` end to end (issue 30.2): a whole run against the reference target (and a read-only
 * one), and runs with faults of nine checks and a workflow, each judged again from its evidence.har alone — result by
 * result (id, status, reason) the live report's, the workflows' steps run again on the recording — while the target,
 * still up, counts no request: nothing is sent. Bad input is one line and exit 2. The judging on a recorded
 * run, no target: lib/run/rejudge.test.ts.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startReferenceTarget, type FaultName } from '../../reference-target/index.ts'
import { limitedAdminEnv } from '../checks/testing.ts'
import type { Report } from '../report/model.ts'
import { cli } from './testing.ts'
import { suitesOfGroup } from './fault-groups.ts'

/** Where the judged-again report differs from the live one: id, status, reason. */
function differences(live: Report, again: Report): string[] {
  const judged = new Map(again.results.map((r) => [r.id, r]))
  const out: string[] = []
  for (const r of live.results) {
    const a = judged.get(r.id)
    if (a === undefined) out.push(`${r.id}: not in the judged-again report`)
    else if (a.status !== r.status || a.reason !== r.reason)
      out.push(`${r.id}: live ${r.status} ${r.reason ?? ''}, again ${a.status} ${a.reason ?? ''}: ${a.message}`)
  }
  for (const id of judged.keys())
    if (!live.results.some((r) => r.id === id)) out.push(`${id}: only in the judged-again report`)
  return out
}

describe('shop-conformance judge --har', { timeout: 600_000 }, () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const c of closers) await c()
  })

  /**
   * A run against the reference target with `faults` (only the modules they touch), then judge --har of its evidence.
   */
  async function liveAndAgain(faults: FaultName[], flags: string[] = []) {
    const target = await startReferenceTarget({ faults: faults.map((name) => ({ name })) })
    closers.push(() => target.close())
    const modules = faults.length === 0 ? [] : ['--module', [...suitesOfGroup(faults)].join(',')]
    const run = await cli(['run', '--base-url', target.url, ...modules, ...flags], {
      SHOP_ADMIN_USERNAME: target.admin.username,
      SHOP_ADMIN_PASSWORD: target.admin.password,
      ...limitedAdminEnv(target),
    })
    const sent = target.stats().requests
    const again = await cli(['judge', '--har', join(run.dir, 'reports', 'evidence.har'), '--report-dir', 'reports'])
    // The target still up counted no request of the judging.
    expect(target.stats().requests).toBe(sent)
    return { live: run.report!, run, again }
  }

  it('judges a whole clean run again as it was judged, sending nothing, into every format, marked rejudged', async () => {
    const { live, run, again } = await liveAndAgain([])
    expect(live.certification.verdict).toBe('conforms')
    expect(again.status, again.stderr).toBe(0)
    const report = again.report!
    expect(differences(live, report)).toEqual([])
    expect(report).toMatchObject({
      mode: 'rejudged',
      recording: {
        suite: live.suite,
        runId: live.run.id,
        baseUrl: live.target.baseUrl,
        entries: live.evidence!.entries,
      },
      run: { id: live.run.id },
    })
    expect(report.results.filter((r) => r.reason === 'not-recorded')).toEqual([])
    expect(report.results.filter((r) => r.check === 'workflow' && r.status === 'passed').length).toBe(
      live.results.filter((r) => r.check === 'workflow').length,
    )
    expect(again.stdout).toMatch(
      /^Report: .*report\.json \(also report\.html, junit\.xml, report\.sarif, summary\.md, badge\.svg\)$/m,
    )
    expect(again.stdout).toContain(`from ${join(run.dir, 'reports', 'evidence.har')}`)
  })

  it('judges a read-only run again as it was judged: what it did not send not judged for the same reasons', async () => {
    const { live, again } = await liveAndAgain([], ['--read-only'])
    expect(live.run.readOnly).toBe(true)
    expect(again.status, again.stderr).toBe(0)
    expect(differences(live, again.report!)).toEqual([])
    expect(again.report!.results.filter((r) => r.reason === 'read-only').length).toBeGreaterThan(100)
  })

  // Faults of eight checks: each fails live at its endpoint, and again from the recording.
  const faults: FaultName[] = [
    'route-missing',
    'store-code-ignored',
    'admin-open',
    'acl-ignored',
    'wrong-return-type',
    'required-key-optional',
    'token-wrong-password',
    'batch-valid-not-applied',
    'information-accepts-unknown-sku',
    // A workflow's step, between two customers whose tokens the recording redacts alike.
    'mine-leaks-cart',
  ]
  for (const fault of faults) {
    it(`judges a run with the ${fault} fault again as it was judged: the same failure`, async () => {
      const { live, again } = await liveAndAgain([fault])
      expect(live.summary.failed).toBeGreaterThan(0)
      expect(again.status, again.stderr).toBe(1)
      expect(differences(live, again.report!)).toEqual([])
    })
  }

  it("refuses what is not a run's evidence in one line, exit 2", async () => {
    const bad = await cli(['judge', '--har', 'missing.har'])
    expect(bad).toMatchObject({ status: 2, stdout: '' })
    expect(bad.stderr).toMatch(/^shop-conformance: judge: --har missing\.har: cannot read it \(ENOENT\)\n$/)
    const files: [string, string, RegExp][] = [
      ['text.har', 'not json', /not JSON/],
      ['other.json', '{"entries": []}', /not a HAR file \(no log\.entries list\)/],
      [
        'browser.har',
        JSON.stringify({ log: { version: '1.2', creator: { name: 'Chromium', version: '1' }, entries: [] } }),
        /not the evidence of a shop-conformance run \(no log\._run header\)/,
      ],
    ]
    for (const [name, text, message] of files) {
      const file = join(bad.dir, name)
      writeFileSync(file, text)
      const refused = await cli(['judge', '--har', file])
      expect(refused.status, name).toBe(2)
      expect(refused.stderr, name).toMatch(message)
      expect(refused.stderr.trim().split('\n'), name).toHaveLength(1)
    }
    expect((await cli(['judge'])).stderr).toBe('shop-conformance: judge: --har FILE is required\n')
    // With --passive the file is judged as traffic the suite did not send: the passive judgement's own refusal.
    expect((await cli(['judge', '--har', 'x.har', '--passive'])).stderr).toBe(
      'shop-conformance: HAR x.har: cannot read it (ENOENT)\n',
    )
    // The passive judgement's hints are not the re-judge's.
    expect((await cli(['judge', '--har', 'x.har', '--token-class', 'abc=admin'])).stderr).toMatch(
      /^shop-conformance: judge: Unknown option '--token-class'\n$/,
    )
  })
})
