/**
 * Issue 31.4: a target that died mid-run was "incomplete · 9.7%" on the console, in report.json, report.html and on
 * the badge, but "not run" in summary.md's title, "run not made" in junit.xml, and `sign` / `baseline --from`
 * refused it as "a run that never started" (all of them read exit 2 as "never started"); only report.json and
 * report.html named its 150 leftovers. One story now (lib/report/outcome.ts's `runStory`), told by every output:
 * a run cut short after N requests, what it judged, its run error — and what it left on the shop, by kind.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { generateKeyPairSync } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { baselineCommand } from '../cli/baseline-commands.ts'
import { signCommand } from '../cli/commands.ts'
import type { CommandIo } from '../cli/command-io.ts'
import { CHECK_KINDS } from '../checks/index.ts'
import { PLAN, selectionOf } from '../plan/plan.ts'
import { draftReport, type RunRecord } from '../run/report-draft.ts'
import { loadConfig } from '../settings/config.ts'
import { ACL_RESOURCES } from '../spec/catalog/index.ts'
import { badgeSvg } from './badge.ts'
import { reportHtml } from './html.ts'
import { junitXml } from './junit.ts'
import type { Report } from './model.ts'
import { leftoverKinds, leftoversText, runStory } from './outcome.ts'
import { sarifLog } from './sarif.ts'
import { markdownSummary } from './summary-md.ts'
import { terminalSummary } from './text.ts'
import { planResults, reportOf, writtenReport } from './testing.ts'

const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-story-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const GONE =
  'not sent: the target stopped answering at 2026-01-01T00:00:05.000Z, after 412 requests (3 in a row got no answer; the last: ECONNREFUSED)'

/**
 * A whole run whose target stopped answering after its first 92 checks, leaving 20 customers, 7 products and a
 * category.
 */
function goneReport(): Report {
  const results = planResults().map((r, i) =>
    i < 92 ? r : { ...r, status: 'skipped' as const, reason: 'target-gone' as const, message: GONE },
  )
  const run: RunRecord = {
    id: 'gone',
    startedAt: new Date('2026-01-01T00:00:00.000Z'),
    config: loadConfig(['--seed', '7'], {}, {}, CHECK_KINDS, ACL_RESOURCES),
    baseline: undefined,
    target: { baseUrl: 'http://127.0.0.1:4000' },
    bundled: undefined,
    pre: { seed: { calibration: { noRoute: [], unknownStore: [], exchanges: [] } } },
    stopped: undefined,
    runErrors: [],
    notes: [],
    deadlines: undefined,
    plan: PLAN,
    schema: undefined,
    results: new Map(results.map((r) => [r.id, r])),
    serverErrors: { list: () => ({ entries: [], unlisted: {} }) },
  }
  const left = (kind: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      kind,
      id: `${kind}-${i}`,
      label: `${kind} ${i}`,
      reason: 'DELETE answered: no answer (ECONNREFUSED)',
    }))
  const leftovers = [...left('customer', 20), ...left('product', 7), ...left('category', 1)]
  return draftReport(
    run,
    [],
    { selection: selectionOf([], []), limits: [] },
    { removed: [], leftovers },
    new Date('2026-01-01T00:00:09.000Z'),
  )
}

const STORY =
  /^a run cut short after 412 requests by the target, which stopped answering; it judged \d+ of \d+ required checks; its run error: the target stopped answering at 2026-01-01T00:00:05.000Z, after 412 requests: /
const LEFT =
  '28 entities (20 customers, 7 products, 1 category): each listed with why in report.json (cleanup.leftovers) and report.html'

function io(): CommandIo & { stdout: () => string } {
  let out = ''
  return { out: (t) => (out += t), err: (t) => (out += t), stdout: () => out }
}

describe('a run whose target stopped answering mid-run: one story in every output', () => {
  const report = goneReport()
  const story = runStory(report)

  it('is a run cut short after N requests, with what it judged and its run error — never a run that never started', () => {
    expect(report.exit.status).toBe(2)
    expect(report.partial).toEqual({ reason: 'target-gone', requests: 412 })
    expect(story.kind).toBe('cut short')
    expect(story.kind === 'cut short' && story.text).toMatch(STORY)
    expect(report.certification.verdict).toBe('incomplete')
  })

  it('the console: the story, and the leftovers by kind beside the verdict', () => {
    const text = terminalSummary(report, 'reports')
    expect(text).toMatch(/\nRun: a run cut short after 412 requests by the target/)
    expect(text).toContain(`\nLeft on the shop: ${LEFT}\nVerdict: incomplete · `)
  })

  it('summary.md (and so the Action\'s job summary): the verdict in its title, not "not run"; the story and the leftovers marked', () => {
    const md = markdownSummary(report)
    expect(md.split('\n')[0]).toMatch(/^# Shop conformance: incomplete · [\d.]+% · exit 2: the run was cut short: /)
    expect(md).toMatch(/\n- \*\*Cut short:\*\* a run cut short after 412 requests by the target/)
    expect(md).toContain(`\n- **Left on the shop:** ${LEFT}.`)
  })

  it('junit.xml: its run error is of a run cut short, not "run not made"; the story and leftovers are properties', () => {
    const xml = junitXml(report)
    expect(xml).not.toContain('run not made')
    expect(xml).toContain('type="run cut short"')
    expect(xml).toContain(`<property name="leftovers" value="${LEFT}"/>`)
    expect(xml).toMatch(/<property name="run" value="a run cut short after 412 requests/)
  })

  it('the badge says it was cut short, and its title the story and the leftovers', () => {
    const svg = badgeSvg(report)
    expect(svg).toMatch(/aria-label="conformance: cut short · [\d.]+%"/)
    expect(svg).toContain(`left on the shop: ${LEFT}`)
  })

  it('report.sarif: the story and the leftovers as notifications', () => {
    const texts = sarifLog(report).runs[0]!.invocations[0]!.toolExecutionNotifications.map((n) => n.message.text)
    expect(texts.some((t) => STORY.test(t))).toBe(true)
    expect(texts).toContain(`Left on the shop: ${LEFT}`)
  })

  it('report.html: the story and the leftovers, decided where every format decides them', () => {
    const view = JSON.parse(
      /<script id="report-view" type="application\/json">(.*?)<\/script>/s.exec(reportHtml(report))![1]!,
    ) as { story: { kind: string }; leftovers: string }
    expect(view.story).toEqual(story)
    expect(view.leftovers).toBe(LEFT)
  })

  it('`sign` refuses it as cut short (signed with --allow-partial, the statement says so), never as a run that never started', async () => {
    const file = writtenReport(dir, 'gone', report)
    const { privateKey } = generateKeyPairSync('ed25519')
    const key = join(dir, 'key.pem')
    writeFileSync(key, privateKey.export({ type: 'pkcs8', format: 'pem' }))
    await expect(signCommand(['--report', file, '--key', key], io())).rejects.toThrow(
      /^sign: .*report\.json is the report of a run cut short after 412 requests .*: pass --allow-partial to sign it as it is$/,
    )
    expect(await signCommand(['--report', file, '--key', key, '--allow-partial'], io())).toBe(0)
    const sig = JSON.parse(readFileSync(`${file}.sig`, 'utf8')) as { statement: string }
    expect(sig.statement).toMatch(/^http:\/\/127\.0\.0\.1:4000: incomplete · .*; a run cut short after 412 requests/)
  })

  it('`baseline --from` lists its failures and says what the list covers', async () => {
    const file = writtenReport(dir, 'gone-baseline', report)
    const t = io()
    expect(await baselineCommand(['--from', file, '--out', join(dir, 'baseline.json')], t)).toBe(0)
    expect(t.stdout()).toMatch(/ listed \(a run cut short after 412 requests .*: only what it judged is listed\)\n$/)
  })
})

describe('a run that never started keeps its own story', () => {
  const never = reportOf([], { runErrors: ['the admin could not sign in (401)'] }, { made: false })
  it('is "not made" in every format', () => {
    expect(runStory(never).kind).toBe('not made')
    expect(markdownSummary(never).split('\n')[0]).toBe(
      '# Shop conformance: not run · exit 2: the run could not be made: the admin could not sign in (401)',
    )
    expect(junitXml(never)).toContain('type="run not made"')
  })
})

describe('the leftovers by kind', () => {
  it("counts each kind, the most first, as the console's one line of a run that never started says them too", () => {
    const left = ['product', 'customer', 'category', 'customer', 'category'].map((kind) => ({ kind }))
    expect(leftoverKinds(left)).toBe('2 categories, 2 customers, 1 product')
    expect(leftoverKinds([])).toBe('')
  })

  it('says that what is left on the bundled reference target ended with the run', () => {
    const report = reportOf([], {
      target: { bundledReferenceTarget: true },
      cleanup: {
        removed: 0,
        leftovers: [
          { kind: 'order', id: '1', label: 'order 1', reason: 'the interface has no call that removes an order' },
        ],
      },
    })
    expect(leftoversText(report)).toBe(
      '1 entity (1 order), on the bundled reference target, which ended with the run: each listed with why in report.json (cleanup.leftovers) and report.html',
    )
  })
})
