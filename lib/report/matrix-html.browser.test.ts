/**
 * The matrix as the issue sets it (23.4): the suite run against the reference target three ways — clean (the
 * bundled one, which names itself), with the platform's own conforming quirks (`--variant platform-quirks`:
 * it must pass) and with three faults — beside the two real releases' shipped runs, and a later report of
 * 2.4.7-p7 with one result changed (its history). Built by `shop-conformance matrix` as a user runs it, then
 * matrix.html in a real browser (the Chromium of test-setup/chromium.ts): filters, a cell's evidence, a
 * column's transitions.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { FAULTS, startReferenceTarget, type FaultName, type ReferenceTarget } from '../../reference-target/index.ts'
import { limitedAdminEnv } from '../checks/testing.ts'
import { cli, sharedCli } from '../cli/testing.ts'
import { SUITE } from '../spec/version.ts'
import { completeReport } from './complete.ts'
import type { Matrix } from './matrix.ts'
import type { History } from './matrix-history.ts'
import { historyProblems, matrixProblems } from './matrix-schema.ts'
import type { Report } from './model.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const CHROMIUM = inject('chromium')
const REAL = resolve(import.meta.dirname, '../../fixtures/observations/real-runs')
const P7 = join(REAL, '2.4.7-p7/report-full.json.gz')
const P8 = join(REAL, '2.4.7-p8-regionpricing/report-full.json.gz')
const DEVIATIONS = readFileSync(join(REAL, '2.4.7-p7/known-deviations.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l !== '' && !l.startsWith('#'))
  .map((l) => l.split('\t')[0]!)
/** Faults of three check kinds at three endpoints that cannot meet (lib/cli/fault-groups.ts). */
const FAULTY: readonly FaultName[] = ['admin-open', 'route-missing', 'batch-whole-failure']
/** The result the later 2.4.7-p7 report passes: the route came back in a patch. */
const FIXED = 'POST /V1/customers/activate › route'
const COLUMNS = [
  'shop-conformance reference target',
  'reference target: platform-quirks',
  'reference target: 3 faults',
  'Platform 2.4.7-p7',
  'Platform 2.4.7-p8-regionpricing',
].map((n, i) => (i < 3 ? `${n} ${SUITE.version}` : n))

describe('the conformance matrix of the reference target and the real releases', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shop-matrix-html-'))
  const out = join(dir, 'matrix')
  const targets: ReferenceTarget[] = []
  const reports: Record<'clean' | 'quirks' | 'faults', Report> = {} as never
  let matrix: Matrix
  let history: History
  let stdout: string
  let context: BrowserContext
  let page: Page
  const errors: string[] = []
  const requests: string[] = []

  beforeAll(async () => {
    const quirks = await startReferenceTarget({ variants: ['platform-quirks'] })
    const faulty = await startReferenceTarget({ faults: FAULTY.map((name) => ({ name })) })
    targets.push(quirks, faulty)
    const against = (t: ReferenceTarget, name: string) =>
      cli(['run', '--base-url', t.url, '--target-name', name, '--target-version', SUITE.version], {
        SHOP_ADMIN_USERNAME: t.admin.username,
        SHOP_ADMIN_PASSWORD: t.admin.password,
        ...limitedAdminEnv(t),
      })
    // The clean run is lib/cli/cli.test.ts's too (it judges it): made once for both.
    const runs = await Promise.all([
      sharedCli(['run']),
      against(quirks, 'reference target: platform-quirks'),
      against(faulty, 'reference target: 3 faults'),
    ])
    ;(['clean', 'quirks', 'faults'] as const).forEach((k, i) => (reports[k] = runs[i]!.report!))
    // A later run of 2.4.7-p7 where one deviation is gone: the same implementation, its history.
    const p7 = JSON.parse(gunzipSync(readFileSync(P7)).toString('utf8')) as Report
    const { certification: _c, exit: _e, extensions: _x, baseline: _b, ...draft } = p7
    const later = completeReport(
      {
        ...draft,
        run: { ...draft.run, id: 'p7-later' },
        startedAt: '2026-11-27T09:00:00.000Z',
        results: draft.results.map((r) => (r.id === FIXED ? { ...r, status: 'passed', message: 'served' } : r)),
      },
      { made: true },
    )
    writeFileSync(join(dir, 'p7-later.json'), JSON.stringify(later))
    const files = [...runs.map((r) => join(r.dir, 'reports')), P7, join(dir, 'p7-later.json'), P8]
    const built = await cli([
      'matrix',
      ...files,
      '--as',
      `${P7}=Platform@2.4.7-p7`,
      '--as',
      `${join(dir, 'p7-later.json')}=Platform@2.4.7-p7`,
      '--as',
      `${P8}=Platform@2.4.7-p8-regionpricing`,
      '--out',
      out,
    ])
    expect(built.stderr).toBe('')
    expect(built.status).toBe(0)
    stdout = built.stdout
    matrix = JSON.parse(readFileSync(join(out, 'matrix.json'), 'utf8')) as Matrix
    history = JSON.parse(readFileSync(join(out, 'history.json'), 'utf8')) as History

    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM.executablePath,
      env: { ...process.env, ...CHROMIUM.env },
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      viewport: { width: 1400, height: 1100 },
    })
    page = context.pages()[0] ?? (await context.newPage())
    page.on(
      'console',
      (m) =>
        void (m.type() === 'error' || m.type() === 'warning' ? errors.push(`${m.type()}: ${m.text()}`) : undefined),
    )
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
    context.on('request', (r) => requests.push(r.url().split('#')[0]!))
    await page.goto(pathToFileURL(join(out, 'matrix.html')).href)
    await page.waitForSelector('html[data-ready="true"]', { timeout: 30_000 })
  }, 600_000)

  afterAll(async () => {
    await context?.close()
    for (const t of targets) await t.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const col = (label: string) => COLUMNS.indexOf(label)
  const row = (id: string) => matrix.rows.find((r) => r.id === id)!
  const outcomes = (id: string) => row(id).cells.map((c) => c.outcome)
  const visibleIds = () =>
    page.$$eval('#grid tr.mrow', (rows) => rows.filter((r) => !r.hidden).map((r) => r.getAttribute('data-id') ?? ''))

  it('builds the three files, each format as its schema says; every column named as its report or --as names it', () => {
    expect(matrixProblems(matrix)).toEqual([])
    expect(historyProblems(history)).toEqual([])
    expect(matrix.columns.map((c) => c.label)).toEqual(COLUMNS)
    expect(matrix.columns.map((c) => c.implementation.from)).toEqual(['report', 'report', 'report', '--as', '--as'])
    expect(stdout).toContain(`(also matrix.json, history.json): ${matrix.scope.text}\n`)
  })

  it("the platform's quirks break no rule: that run passes, and its column says what the clean one says", () => {
    expect(reports.quirks.exit).toEqual({ status: 0, reason: 'no check failed' })
    expect(reports.quirks.certification.verdict).toBe('conforms')
    expect(matrix.rows.filter((r) => r.cells[0]!.outcome !== r.cells[1]!.outcome)).toEqual([])
  })

  it('each fault is the cell that differs from the clean target, at its endpoint and nowhere else', () => {
    const endpoints = FAULTY.map((f) => `${FAULTS[f].defaultEndpoint.method} ${FAULTS[f].defaultEndpoint.path}`)
    const differ = matrix.rows.filter((r) => r.cells[2]!.outcome !== r.cells[0]!.outcome).map((r) => r.id)
    const endpointOf = new Map(reports.faults.results.map((r) => [r.id, endpointText(r.endpoint)]))
    expect(differ.filter((id) => !endpoints.includes(endpointOf.get(id)!))).toEqual([])
    for (const f of FAULTY)
      expect(outcomes(`${endpoints[FAULTY.indexOf(f)]} › ${FAULTS[f].breaks}`)[2], f).toBe('failed')
  })

  it("the real releases' columns show their 22 deviations side by side; the newer 2.4.7-p7 report is shown, its older one is history", () => {
    expect(DEVIATIONS).toHaveLength(22)
    for (const id of DEVIATIONS) expect(outcomes(id)[col('Platform 2.4.7-p8-regionpricing')], id).toBe('failed')
    for (const id of DEVIATIONS.filter((d) => d !== FIXED))
      expect(outcomes(id)[col('Platform 2.4.7-p7')], id).toBe('failed')
    expect(outcomes(FIXED).slice(3)).toEqual(['passed', 'failed'])
    expect(matrix.columns[col('Platform 2.4.7-p7')]).toMatchObject({ reports: 2, report: { runId: 'p7-later' } })
    // A second report of the implementation with one result changed: exactly one transition more.
    const p7 = history.implementations.find((h) => h.version === '2.4.7-p7')!
    expect(p7.runs.map((r) => r.runId)).toEqual(['mwxn949x3c58', 'p7-later'])
    expect(
      Object.values(p7.results)
        .flat()
        .filter((t) => t.runId === 'p7-later'),
    ).toEqual([{ date: '2026-11-27T09:00:00.000Z', status: 'passed', suiteVersion: '0.1.0', runId: 'p7-later' }])
  })

  it("shows each column's verdict and percentage, its reports' own, and a statement per module", async () => {
    const heads = await page.$$eval('#summary thead th.col', (ths) =>
      ths.map((th) => [
        th.querySelector('.colname')?.textContent,
        th.querySelector('.cpct')?.textContent,
        th.querySelector('.ctext')?.textContent,
      ]),
    )
    expect(heads).toEqual(matrix.columns.map((c) => [c.label, `${c.certification.percent}%`, c.certification.verdict]))
    expect(heads.map((h) => h[2])).toEqual([
      'conforms',
      'conforms',
      'does not conform',
      'does not conform',
      'does not conform',
    ])
    const directory = await page.$$eval('#summary tr[data-module="directory"] td.stmt', (tds) =>
      tds.map((td) => td.textContent),
    )
    expect(directory[col('reference target: 3 faults ' + SUITE.version)]).toMatch(
      /^does not conform 1 failure, 2 not judged/,
    )
    expect(await page.textContent('#scope-text')).toBe(matrix.scope.text)
  })

  it('filters: only where implementations differ (how it opens), by module, check and status', async () => {
    const all = matrix.rows.map((r) => r.id)
    expect(await page.isChecked('#f-differ')).toBe(true)
    expect(await visibleIds()).toEqual(matrix.rows.filter((r) => r.differs).map((r) => r.id))
    expect(await page.textContent('#count')).toBe(
      `showing ${matrix.scope.differing} of ${all.length} results (${matrix.scope.differing} differ)`,
    )
    await page.uncheck('#f-differ')
    expect(await visibleIds()).toEqual(all)
    await page.selectOption('#f-module', 'directory')
    await page.selectOption('#f-check', 'route')
    expect(await visibleIds()).toEqual(
      matrix.rows.filter((r) => r.module === 'directory' && r.check === 'route').map((r) => r.id),
    )
    expect(await page.evaluate('location.hash')).toBe('#differ=0&module=directory&check=route')
    await page.click('#clear')
    await page.selectOption('#f-status', 'failed')
    expect(await visibleIds()).toEqual(
      matrix.rows.filter((r) => r.cells.some((c) => c.outcome === 'failed')).map((r) => r.id),
    )
    // A module of the summary shows its rows.
    await page.click('#summary tr[data-module="catalog-prices"] th.mod')
    expect(await visibleIds()).toEqual(matrix.rows.filter((r) => r.module === 'catalog-prices').map((r) => r.id))
    await page.click('#clear')
  })

  it('a cell opens its evidence from its report: message, exchanges, a curl with $TOKEN, as report.html shows them', async () => {
    const id = 'GET /V1/modules › access'
    await page.check('#f-differ')
    await page.click(
      `#grid tr.mrow[data-id="${id}"] td.mc[data-col="${col(`reference target: 3 faults ${SUITE.version}`)}"]`,
    )
    const evidence = page.locator('#grid tr.evidence')
    expect(await evidence.count()).toBe(1)
    const text = (await evidence.textContent()) ?? ''
    const result = reports.faults.results.find((r) => r.id === id)!
    expect(text).toContain(result.message)
    expect(text).toContain('reference target: 3 faults')
    expect(await evidence.locator('.exchange').count()).toBe(result.exchanges.length)
    expect(await evidence.locator('table.access tbody tr.bad').count()).toBeGreaterThan(0)
    const curls = await evidence.locator('pre.curl-cmd').allTextContents()
    expect(curls.some((c) => c.includes('-H "Authorization: Bearer $TOKEN"'))).toBe(true)
    for (const c of curls) expect(c).not.toContain('[redacted')
    expect(decodeURIComponent(await page.evaluate('location.hash'))).toBe(`#cell=2~${id}`)
    await page.screenshot({ path: join(screenshotDir(), 'matrix-html-evidence.png') })
  })

  it("a column's transitions: on hover its title, on click each run and what changed; a change leads to its cell", async () => {
    const p7 = page.locator(`#summary th.col[data-col="${col('Platform 2.4.7-p7')}"] .colname`)
    expect(await p7.getAttribute('title')).toBe(
      'Platform 2.4.7-p7: 2 runs taken (2026-11-26 14:24 … 2026-11-27 09:00), 1 change since the first; click for them',
    )
    await p7.click()
    const panel = page.locator('#history')
    expect(await panel.isVisible()).toBe(true)
    expect(await panel.locator('li.run .rhead').allTextContents()).toEqual([
      '2026-11-27 09:00 · run p7-later · suite 0.1.0 · 1 change (shown)',
      '2026-11-26 14:24 · run mwxn949x3c58 · suite 0.1.0 · first run taken: 2277 results recorded',
    ])
    expect(await panel.locator('li.change').allTextContents()).toEqual([`${FIXED}: failed → passed`])
    await panel.locator('li.change button').click()
    const cell = page.locator(`#grid tr.mrow[data-id="${FIXED}"] td.mc[data-col="${col('Platform 2.4.7-p7')}"]`)
    expect(await cell.getAttribute('class')).toContain('selected')
    const evidence = (await page.locator(`#grid tr.mrow[data-id="${FIXED}"] + tr.evidence`).textContent()) ?? ''
    expect(evidence).toContain(
      'history herefailed (2026-11-26 14:24, run mwxn949x3c58) → passed (2026-11-27 09:00, run p7-later)',
    )
  })

  it("continued with --history, the other implementations' columns are carried; their cells point at their reports (issue 31.10)", async () => {
    const continued = join(dir, 'continued')
    const later = join(dir, 'p7-later.json')
    const built = await cli([
      'matrix',
      later,
      '--as',
      `${later}=Platform@2.4.7-p7`,
      '--history',
      join(out, 'history.json'),
      '--out',
      continued,
    ])
    expect([built.status, built.stderr]).toEqual([0, ''])
    const m = JSON.parse(readFileSync(join(continued, 'matrix.json'), 'utf8')) as Matrix
    expect(m.columns.map((c) => c.label)).toEqual(COLUMNS)
    expect(m.rows.find((r) => r.id === 'GET /V1/modules › access')!.cells.map((c) => c.outcome)).toEqual(
      outcomes('GET /V1/modules › access'),
    )
    const carried = await context.newPage()
    const pageErrors: string[] = []
    carried.on('pageerror', (e) => pageErrors.push(e.message))
    await carried.goto(pathToFileURL(join(continued, 'matrix.html')).href)
    await carried.waitForSelector('html[data-ready="true"]', { timeout: 30_000 })
    await carried.check('#f-differ')
    await carried.click(
      `#grid tr.mrow[data-id="GET /V1/modules › access"] td.mc[data-col="${col(`reference target: 3 faults ${SUITE.version}`)}"]`,
    )
    const text = (await carried.locator('#grid tr.evidence').textContent()) ?? ''
    const faults = matrix.columns[col(`reference target: 3 faults ${SUITE.version}`)]!
    expect(text).toContain(`carried from the earlier matrix (--history): the evidence is in ${faults.report.file}`)
    expect(pageErrors).toEqual([])
    await carried.close()
  })

  it('no console error, no request leaves the page; a picture of it for the README', async () => {
    // As it opens (no cell, no history), tall enough for the summary and the first rows where they differ:
    // the README's picture is this file (docs/matrix-html.png).
    await page.setViewportSize({ width: 1400, height: 1900 })
    await page.goto(pathToFileURL(join(out, 'matrix.html')).href)
    await page.waitForSelector('html[data-ready="true"]', { timeout: 30_000 })
    await page.screenshot({ path: join(screenshotDir(), 'matrix-html.png') })
    expect(errors).toEqual([])
    expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([])
  })
})

function screenshotDir(): string {
  const dir = process.env.SHOP_SCREENSHOT_DIR ?? join(tmpdir(), 'shop-conformance-screenshots')
  mkdirSync(dir, { recursive: true })
  return dir
}
