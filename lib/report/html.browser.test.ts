import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Result } from '../results/result.ts'
import { notApplicableResults, PLAN } from '../plan/plan.ts'
import { MODULES } from '../spec/modules.ts'
import { reportHtml } from './html.ts'
import type { Report } from './model.ts'
import { ACL_NOT_CONFIGURED_LINE, planResults, reportOf, sampleServerErrors, withoutLimitedAdmin } from './testing.ts'
import { schemaFacts } from '../schema/block.ts'

/**
 * report.html in a real browser, driven by playwright-core: the Chromium that npm ci installs, or the one
 * SHOP_CHROMIUM names (test-setup/chromium.ts finds it before any test, and fails the run without one).
 */
const CHROMIUM = inject('chromium')
const HOSTILE = '<img src=x onerror="window.pwned=1"></script><script>window.pwned=2</script>'

/** Where the made-up exchanges go: a concrete URL of the row's path. */
const urlOf = (path: string) => `http://127.0.0.1:1/rest/default${path.replace(/:\w+/g, '7')}`

/**
 * A whole run's results (the suite's plan, ~1,700 with the checks that do not apply), with the failures,
 * unjudged checks, warnings and baseline a real run has: an admin endpoint open to anyone (a hostile answer
 * body), a missing route whose other checks are then not judged, a baselined POST failure, a failed workflow
 * step and the steps after it, and a stale baseline entry.
 */
function bigReport(): Report {
  const results: Result[] = [...planResults(), ...notApplicableResults(PLAN, (p) => p)].map((r, n) =>
    r.endpoint.method === '-' || r.applicable === false
      ? r
      : {
          ...r,
          message: `served: answered 200 (#${n})`,
          exchanges: [
            {
              request: {
                method: r.endpoint.method,
                url: urlOf(r.endpoint.path),
                headers: { accept: 'application/json' },
              },
              response: { status: 200, headers: {}, body: { id: 7 } },
              durationMs: 1,
            },
          ],
        },
  )
  const at = (id: string) => {
    const i = results.findIndex((r) => r.id === id)
    if (i < 0) throw new Error(`no result ${id}`)
    return i
  }
  const set = (id: string, patch: Partial<Result>) => (results[at(id)] = { ...results[at(id)]!, ...patch })
  const admin = (caller: string, seen: string, ok: boolean) => ({
    expected: caller === 'admin' ? 'accept' : 'refuse',
    seen,
    answer: seen === 'accepted' ? `200 ["Shop_Store",${JSON.stringify(HOSTILE)}]` : '401 "unauthorized"',
    ok,
  })
  set('GET /V1/modules › access', {
    status: 'failed',
    message: `admin endpoint: no token let through (200 ${HOSTILE}) where the spec says refuse`,
    spec: ['Authentication 1–4', 'Endpoints › Endpoint lists by module › Analytics, AsynchronousOperations, Backend'],
    exchanges: (['none', 'malformed', 'customer', 'admin'] as const).map((caller) => ({
      request: {
        method: 'GET',
        url: 'http://127.0.0.1:1/rest/default/V1/modules',
        headers: {
          accept: 'application/json',
          ...(caller === 'none'
            ? {}
            : {
                authorization:
                  caller === 'malformed'
                    ? 'Bearer shop-conformance-malformed-e481b2f649ba'
                    : `Bearer [redacted ${caller} token]`,
              }),
        },
      },
      response: { status: 200, headers: { 'content-type': 'text/html' }, body: `<b>${HOSTILE}</b>` },
      durationMs: 4,
    })),
    details: {
      accessClass: 'admin',
      matrix: {
        none: admin('none', 'accepted', false),
        malformed: admin('malformed', 'accepted', false),
        customer: admin('customer', 'accepted', false),
        admin: admin('admin', 'accepted', true),
      },
    },
  })
  set('GET /V1/directory/countries › route', {
    status: 'failed',
    message: "GET /V1/directory/countries answered like the target's no-route answer (404): the endpoint is not served",
  })
  for (const check of ['store-code', 'access'])
    set(`GET /V1/directory/countries › ${check}`, {
      status: 'skipped',
      reason: 'route-missing',
      message: 'not judged: the target answered no-route to every caller (see the route check)',
    })
  set(BASELINED, {
    status: 'failed',
    message: 'POST /V1/carts/mine answered like no-route',
    exchanges: [
      {
        request: {
          method: 'POST',
          url: 'http://127.0.0.1:1/rest/default/V1/carts/mine?searchCriteria[pageSize]=5',
          headers: {
            accept: 'application/json',
            authorization: 'Bearer [redacted admin token]',
            'content-type': 'application/json',
          },
          body: { name: "O'Brien's cart" },
        },
        response: { status: 404, headers: {}, body: { message: 'Request does not match any route.' } },
        durationMs: 2,
      },
    ],
  })
  const memo = results.filter((r) => r.id.startsWith('workflow credit-memo ›'))
  memo.forEach((r, i) => {
    if (i === 8) set(r.id, { status: 'failed', message: 'the credit memo read back has no items' })
    if (i > 8) set(r.id, { status: 'skipped', reason: 'earlier-step', message: 'not run: step 09 failed' })
  })
  results
    .filter((r) => r.check === 'shape' && r.applicable !== false)
    .slice(0, 3)
    .forEach((r) => set(r.id, { warnings: ['int sent as the digit string "2" (accepted)'] }))
  const baseline = {
    version: 1 as const,
    entries: [
      { id: BASELINED, reason: 'SHOP-42: mine carts are a plugin here' },
      { id: STALE, reason: 'fixed in 2.4.8' },
    ],
  }
  return reportOf(
    results,
    {
      target: { baseUrl: 'http://127.0.0.1:18080', name: 'Platform', version: '2.4.7-p7' },
      run: {
        id: 'mwr5s6b854c8',
        seed: 67716833,
        maxTimeoutMs: 120_000,
        deadlines: { read: 10_000, write: 10_000, heavyWrite: 45_000 },
      },
      startedAt: '2026-11-22T01:29:04.245Z',
      finishedAt: '2026-11-22T01:29:08.545Z',
      durationMs: 4300,
      calibration: {
        noRoute: ['404 "Request does not match any route."'],
        unknownStore: ['400 "Specified request cannot be processed."'],
      },
      created: [{ kind: 'customer', id: '1', label: 'main customer' }],
      cleanup: {
        removed: 0,
        leftovers: [{ kind: 'customer', id: '1', label: 'main customer', reason: 'DELETE answered 403' }],
      },
    },
    { made: true, baseline: { file: 'known-failures.json', baseline, allowStale: false } },
  )
}
const BASELINED = 'POST /V1/carts/mine › route'
const STALE = 'GET /V1/directory/currency › route'

describe('report.html in a real browser', () => {
  const report = { ...bigReport(), signature: { digest: 'sha256:0f3a9c' } } as Report
  const failedIds = report.results.filter((r) => r.status === 'failed' && r.id !== BASELINED).map((r) => r.id)
  const attention = report.results
    .filter((r) => (r.status === 'failed' && r.id !== BASELINED) || (r.status === 'skipped' && r.applicable !== false))
    .map((r) => r.id)
  const dir = mkdtempSync(join(tmpdir(), 'shop-report-html-'))
  const file = join(dir, 'report.html')
  const fileUrl = pathToFileURL(file).href
  let context: BrowserContext
  let page: Page
  const consoleErrors: string[] = []
  const requests: string[] = []
  const pages: string[] = []

  beforeAll(async () => {
    writeFileSync(file, reportHtml(report))
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
      viewport: { width: 1400, height: 1000 },
    })
    page = context.pages()[0] ?? (await context.newPage())
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') consoleErrors.push(`${m.type()}: ${m.text()}`)
    })
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`))
    context.on('request', (r) => requests.push(r.url().split('#')[0]!))
    await page.goto(fileUrl)
    await page.waitForSelector('html[data-ready="true"]', { timeout: 10_000 })
  }, 30_000)

  afterAll(async () => {
    await context?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  /** A second page of the same context opened on `url`, ready. */
  async function open(url: string): Promise<Page> {
    pages.push(url.split('#')[0]!)
    const p = await context.newPage()
    p.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`))
    await p.goto(url)
    await p.waitForSelector('html[data-ready="true"]', { timeout: 10_000 })
    return p
  }
  /** Ids of the rows a reader sees (not hidden by a filter, nor inside a hidden workflow group). */
  const visibleIds = (p: Page = page) =>
    p.$$eval('.row', (rows) => rows.filter((r) => r.checkVisibility()).map((r) => r.getAttribute('data-id') ?? ''))
  const filter = async (f: { status?: string; module?: string; check?: string }) => {
    await page.selectOption('#f-status', f.status ?? '')
    await page.selectOption('#f-module', f.module ?? '')
    await page.selectOption('#f-check', f.check ?? '')
  }

  it('opens on what needs a look: the failures and the unjudged checks, not every row', async () => {
    expect(report.results.length).toBeGreaterThan(1500)
    expect((await visibleIds()).sort()).toEqual([...attention].sort())
    expect(await page.inputValue('#f-status')).toBe('attention')
    expect(await page.textContent('#count')).toBe(`showing ${attention.length} of ${report.results.length}`)
    expect(await page.evaluate('location.hash')).toBe('#status=attention')
  })

  it("shows the report's own verdict, percentage, exit reason, counts and module statements", async () => {
    const c = report.certification
    const card = (s: string) => page.textContent(`#cards [data-status="${s}"] .n`)
    expect(await card('passed')).toBe(String(report.results.filter((r) => r.status === 'passed').length))
    expect(await card('failed')).toBe('3')
    expect(await card('baselined')).toBe('1')
    expect(await card('not-judged')).toBe(String(c.notJudged))
    expect(await card('not-applicable')).toBe(String(report.summary.notApplicable))
    expect(await card('warnings')).toBe('3')
    expect(await page.textContent('#conformance-percent')).toBe(`${c.percent}%`)
    expect(await page.textContent('#overall-verdict')).toBe('does not conform')
    expect(await page.textContent('#exit-reason')).toBe(`exit 1: ${report.exit.reason}`)
    expect(report.exit.reason).toMatch(/^3 new failures \(not in the baseline\), 1 stale baseline entry/)
    expect(await page.isVisible('#scope')).toBe(false)
    expect(await page.textContent('#not-judged')).toContain(`${c.notJudged} required checks not judged, by reason`)
    expect(await page.textContent('#not-judged')).toContain('2 × the route is missing (see the route check)')
    expect(await page.textContent('#stale')).toContain(`${STALE} — fixed in 2.4.8`)
    // The remedy and the baseline's state in the words every format uses (lib/report/baseline.ts).
    expect(await page.textContent('#stale')).toContain(
      '1 stale baseline entry: its check now passes; remove it or pass --allow-stale',
    )
    expect(await page.textContent('#meta-baseline')).toContain(
      'known-failures.json: 3 new failures, 1 baselined, 1 stale, ',
    )
    const meta = (await page.textContent('#meta')) ?? ''
    expect(await page.textContent('#sub')).toMatch(
      /^Target Platform 2\.4\.7-p7 at http:\/\/127\.0\.0\.1:18080 · spec 2\.4\.9/,
    )
    expect(await page.textContent('#meta-target')).toBe('Platform 2.4.7-p7 at http://127.0.0.1:18080')
    for (const fact of [
      'http://127.0.0.1:18080',
      'default',
      '2.4.9',
      'shop-conformance 0.1.0',
      '67716833',
      'mwr5s6b854c8',
      '4.3 s',
      'the whole suite',
      'known-failures.json',
    ])
      expect(meta).toContain(fact)
    expect(await page.textContent('#signature-digest')).toBe('sha256:0f3a9c')
    expect(await page.textContent('#meta-created')).toContain('1 entity, 0 removed, 1 left over')
    // The deadlines the run used (issue 29), in the words the console and summary.md use.
    expect(await page.textContent('#meta-deadlines')).toBe('reads 10 s, writes 10 s, heavy writes 45 s')
    expect(meta).toContain('timeout 10000 ms (growing to 120000 ms at most)')
    expect(await page.textContent('#matrix tr[data-module="directory"] .stmt')).toContain('does not conform')
    expect(await page.textContent('#matrix tr[data-module="bundle"] .stmt')).toContain('conforms')
  })

  it('renders the module × check matrix coloured by status; a cell filters to its results', async () => {
    expect(await page.locator('#matrix tbody tr').count()).toBe(MODULES.length)
    const cell = page.locator('#matrix td[data-module="directory"][data-check="route"]')
    expect(await cell.getAttribute('class')).toContain('cell-failed')
    expect(await cell.textContent()).toBe('✗1✓2')
    expect(
      await page.locator('#matrix td[data-module="directory"][data-check="access"]').getAttribute('class'),
    ).toContain('cell-not-judged')
    expect(await page.locator('#matrix td[data-module="quote"][data-check="route"]').textContent()).toMatch(/⊘1/)
    await cell.click()
    const ids = await visibleIds()
    expect(ids.sort()).toEqual(
      report.results
        .filter((r) => r.module === 'directory' && r.check === 'route')
        .map((r) => r.id)
        .sort(),
    )
  })

  it('status, module, check and search filters filter; a baselined failure is tagged, not failed', async () => {
    await filter({ status: 'failed' })
    expect((await visibleIds()).sort()).toEqual([...failedIds].sort())
    await filter({ status: 'baselined' })
    expect(await visibleIds()).toEqual([BASELINED])
    const tagged = page.locator(`.row[data-id="${BASELINED}"]`)
    expect(await tagged.getAttribute('data-status')).toBe('baselined')
    expect(await tagged.locator('.msg').textContent()).toMatch(/^baselined \(SHOP-42: mine carts are a plugin here\): /)
    await filter({ module: 'quote' })
    expect((await visibleIds()).sort()).toEqual(
      report.results
        .filter((r) => r.module === 'quote')
        .map((r) => r.id)
        .sort(),
    )
    await filter({ module: 'directory', status: 'not-judged' })
    expect((await visibleIds()).sort()).toEqual([
      'GET /V1/directory/countries › access',
      'GET /V1/directory/countries › store-code',
    ])
    await filter({})
    await page.fill('#f-search', '/V1/modules › access')
    await expect.poll(() => visibleIds()).toEqual(['GET /V1/modules › access'])
    await page.fill('#f-search', '')
    await expect
      .poll(() => page.textContent('#count'))
      .toBe(`showing ${report.results.length} of ${report.results.length}`)
  })

  it('deep links: the address names a filter or one result, and opening a result puts it in the address', async () => {
    await filter({ status: 'failed', module: 'analytics-async-backend' })
    expect(await page.evaluate('location.hash')).toBe('#status=failed&module=analytics-async-backend')
    const shared = await open(`${fileUrl}#status=failed&module=analytics-async-backend`)
    expect(await visibleIds(shared)).toEqual(['GET /V1/modules › access'])
    expect(await shared.inputValue('#f-module')).toBe('analytics-async-backend')
    await shared.close()

    const id = 'GET /V1/directory/countries › route'
    await filter({})
    await page.locator(`.row[data-id="${id}"] .head`).click()
    const link = await page.evaluate<string>('location.href')
    expect(link).toBe(`${fileUrl}#result=${encodeURIComponent(id)}`)
    const one = await open(link)
    const row = one.locator(`.row[data-id="${id}"]`)
    expect(await row.getAttribute('class')).toContain('current')
    expect(await row.locator('.detail').isVisible()).toBe(true)
    const viewport = one.viewportSize()?.height ?? 0
    await expect
      .poll(async () => {
        const box = await row.boundingBox()
        return box !== null && box.y >= 0 && box.y < viewport / 2
      })
      .toBe(true)
    expect(await row.locator('.detail a').getAttribute('href')).toBe(`#result=${encodeURIComponent(id)}`)
    await one.close()
  })

  it('groups workflow steps by workflow, in order', async () => {
    await filter({ check: 'workflow' })
    const groups = await page.$$eval('#list-workflows .wf', (gs) =>
      gs.map((g) => ({
        name: g.getAttribute('data-workflow'),
        steps: [...g.querySelectorAll('.row')].map((r) => r.getAttribute('data-id')),
      })),
    )
    expect(groups.map((g) => g.name)).toContain('credit-memo')
    expect(groups.find((g) => g.name === 'credit-memo')?.steps).toEqual(
      report.results.filter((r) => r.id.startsWith('workflow credit-memo ›')).map((r) => r.id),
    )
    expect(await page.isVisible('#h-endpoints')).toBe(false)
    await filter({})
  })

  it('"jump to first failure" scrolls to, highlights and opens the first failure', async () => {
    await filter({ status: 'passed' })
    await page.evaluate('window.scrollTo(0, 0)')
    expect(await page.locator(`.row[data-id="${failedIds[0]}"]`).isVisible()).toBe(false)
    await page.click('#jump')
    const first = page.locator(`.row[data-id="${failedIds[0]}"]`)
    expect(await first.getAttribute('class')).toContain('current')
    const viewport = page.viewportSize()?.height ?? 0
    await expect
      .poll(async () => {
        const box = await first.boundingBox()
        return box !== null && box.y >= 0 && box.y < viewport / 2
      })
      .toBe(true)
    expect(await first.locator('.detail').isVisible()).toBe(true)
    expect(await page.inputValue('#f-status')).toBe('') // the filter that hid it was cleared
    await page.screenshot({ path: join(screenshotDir(), 'report-html-first-failure.png') })
    await page.click('#next')
    expect(await page.locator(`.row[data-id="${failedIds[1]}"]`).getAttribute('class')).toContain('current')
  })

  it('an opened failure shows its message, spec sections, access matrix, exchanges and a curl with $TOKEN and how to get it, all as text', async () => {
    await filter({})
    const row = page.locator('.row[data-id="GET /V1/modules › access"]')
    const detail = row.locator('.detail')
    if (!(await detail.isVisible())) await row.locator('.head').click()
    const text = (await detail.textContent()) ?? ''
    expect(text).toContain('admin endpoint: no token let through (200 <img src=x onerror="window.pwned=1"></script>')
    expect(await detail.locator('ul.spec li').allTextContents()).toEqual([
      'Authentication 1–4',
      'Endpoints › Endpoint lists by module › Analytics, AsynchronousOperations, Backend',
    ])
    expect(await detail.locator('table.access tbody tr').count()).toBe(4)
    expect(await detail.locator('table.access tbody tr.bad').count()).toBe(3)
    expect(await detail.locator('.exchange').count()).toBe(4)
    expect(text).toContain('authorization: Bearer [redacted customer token]')
    const curls = await detail.locator('pre.curl-cmd').allTextContents()
    expect(curls).toHaveLength(4)
    expect(curls[2]).toContain('-H "Authorization: Bearer $TOKEN"')
    expect(curls[2]).toContain(
      "#   TOKEN=$(curl --silent --request POST 'http://127.0.0.1:1/rest/default/V1/integration/customer/token'",
    )
    expect(curls[3]).toContain(
      '--data-raw "{\\"username\\":\\"$ADMIN_USERNAME\\",\\"password\\":\\"$ADMIN_PASSWORD\\"}"',
    )
    expect(curls[1]).toContain("-H 'Authorization: Bearer shop-conformance-malformed-e481b2f649ba'")
    for (const curl of curls) expect(curl).not.toContain('[redacted')
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await detail.locator('.curl button').nth(2).click()
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(curls[2])
    // The target's markup stayed text: no element was made from it, nothing ran.
    expect(await page.locator('img').count()).toBe(0)
    expect(await page.evaluate('typeof window.pwned')).toBe('undefined')
    expect(await page.locator('script').count()).toBe(3)

    const post = page.locator(`.row[data-id="${BASELINED}"]`)
    await post.locator('.head').click()
    expect(await post.locator('.detail').textContent()).toContain(
      'listed in the baseline (SHOP-42: mine carts are a plugin here)',
    )
    const curl = (await post.locator('pre.curl-cmd').textContent()) ?? ''
    expect(curl).toContain('--globoff')
    expect(curl).toContain(`--data-raw '{"name":"O'\\''Brien'\\''s cart"}'`)
    expect(await post.locator('pre.body').first().textContent()).toBe('{\n  "name": "O\'Brien\'s cart"\n}')
  })

  it('renders a slice as partial, and a run that could not be made as not run with its run error', async () => {
    const sliceFile = join(dir, 'slice.html')
    writeFileSync(
      sliceFile,
      reportHtml(reportOf(planResults({ modules: ['directory'] }), { run: { modules: ['directory'] } })),
    )
    const slice = await open(pathToFileURL(sliceFile).href)
    expect(await slice.textContent('#overall-verdict')).toBe('partial')
    expect(await slice.textContent('#scope')).toMatch(/^partial: 9 of \d+ checks selected \(--module directory\)$/)
    expect(await slice.locator('#matrix tbody tr').count()).toBe(1)
    await slice.close()

    const emptyFile = join(dir, 'empty.html')
    writeFileSync(
      emptyFile,
      reportHtml(reportOf([], { runErrors: ['the admin credentials were refused (401)'] }, { made: false })),
    )
    const empty = await open(pathToFileURL(emptyFile).href)
    expect(await empty.textContent('#overall-verdict')).toBe('not run')
    expect(await empty.textContent('#exit-reason')).toBe(
      'exit 2: the run could not be made: the admin credentials were refused (401)',
    )
    expect(await empty.textContent('#run-errors')).toContain('the admin credentials were refused (401)')
    expect(await empty.isDisabled('#jump')).toBe(true)
    // It opens on its reason: no filter (least of all "passed"), and where the results would be, why there are none.
    expect(await empty.inputValue('#f-status')).toBe('')
    expect(await empty.evaluate('location.hash')).toBe('')
    expect(await empty.textContent('#empty')).toBe(
      'No result: the run never started (the admin credentials were refused (401)).',
    )
    await empty.close()
  })

  // Issue 31.12: the module × check table was wider than 1,400 px, the width the page is read at here: its statements,
  // module titles and headers now wrap. A whole run with the shop's extension kinds and a vendor's check as columns.
  it('fits its module × check table in 1,400 px, extension and vendor columns included', async () => {
    const spec = planResults()
    const outside = ['extension-route', 'extension-access', 'extension-store-code', 'warehouse-stock'].map(
      (check, i): Result => ({
        ...spec[i]!,
        id: `GET /V1/ref-ext/op${i} › ${check}`,
        module: i === 3 ? 'acme-warehouse' : 'extensions',
        check,
        status: 'failed',
        origin: i === 3 ? 'vendor' : 'extension',
        extension: true,
      }),
    )
    const wide = reportOf([
      ...bigReport().results.map((r, i) =>
        i % 7 === 0 && r.applicable !== false ? { ...r, status: 'skipped' as const, reason: 'timeout' as const } : r,
      ),
      ...outside,
    ])
    const file = join(dir, 'wide.html')
    writeFileSync(file, reportHtml(wide))
    const p = await open(pathToFileURL(file).href)
    expect(p.viewportSize()?.width).toBe(1400)
    const widths = await p.$eval('.matrix-wrap', (w) => ({
      scroll: w.scrollWidth,
      client: w.clientWidth,
      table: w.querySelector('table')!.getBoundingClientRect().width,
    }))
    expect(widths.table).toBeLessThanOrEqual(1400)
    expect(widths.scroll).toBeLessThanOrEqual(widths.client)
    await p.close()
  })

  // Issue 31.9: an interrupted report (exit 130) whose reached checks all passed opened on "passed" and lost the
  // workflow column; issue 31.4: a run cut short says so in its verdict box, with what it left on the shop.
  it("opens a run cut short on what needs a look, those it never reached counted, with a whole run's columns and its story", async () => {
    const whole = reportOf(planResults())
    const reached = planResults()
      .filter((r) => r.check !== 'workflow')
      .slice(0, 120)
    const leftovers = [{ kind: 'customer', id: '7', label: 'customer 7', reason: 'the cleanup was cut off' }]
    const cut = reportOf(reached, {
      partial: { reason: 'SIGINT' },
      runErrors: ['the run was interrupted (SIGINT)'],
      cleanup: { removed: 0, leftovers },
    })
    const file = join(dir, 'interrupted.html')
    writeFileSync(file, reportHtml(cut))
    const p = await open(pathToFileURL(file).href)
    expect(await p.inputValue('#f-status')).toBe('attention')
    expect(await p.evaluate('location.hash')).toBe('#status=attention')
    const unreached = planResults().length - 120
    expect(await p.textContent('#empty')).toBe(
      `No result matches these filters. ${unreached} required checks have no result: the run ended before them (not judged; see "not judged, by reason" above).`,
    )
    const wholeFile = join(dir, 'whole-columns.html')
    writeFileSync(wholeFile, reportHtml(whole))
    const w = await open(pathToFileURL(wholeFile).href)
    const columns = (page: Page) => page.locator('#matrix thead th').allTextContents()
    expect(await columns(p)).toEqual(await columns(w))
    expect((await columns(p)).at(-1)).toBe('workflow')
    expect(await p.textContent('#run-story')).toMatch(
      /^a run cut short by SIGINT; it judged 120 of \d+ required checks$/,
    )
    expect(await p.textContent('#leftovers')).toBe(
      'Left on the shop: 1 entity (1 customer): each listed with why in report.json (cleanup.leftovers) and report.html',
    )
    await p.close()
    await w.close()
  })

  it("counts the spec's checks in its cards, as the verdict box does; the extensions' results apart", async () => {
    const spec = planResults()
    const extension = (i: number, status: 'passed' | 'failed'): Result => ({
      ...spec[i]!,
      id: `GET /V1/ref-ext/op${i} › extension-route`,
      module: 'extensions',
      check: 'extension-route',
      status,
      origin: 'extension',
      extension: true,
    })
    const withExtensions = reportOf([...spec, extension(0, 'passed'), extension(1, 'passed'), extension(2, 'failed')])
    const extFile = join(dir, 'extensions.html')
    writeFileSync(extFile, reportHtml(withExtensions))
    const p = await open(pathToFileURL(extFile).href)
    const c = withExtensions.certification
    expect(await p.textContent('#cards [data-status="passed"] .n')).toBe(String(c.passed))
    expect(await p.textContent('.vnote')).toBe(`${c.passed} of ${c.required} required checks passed`)
    expect(await p.textContent('#cards [data-status="passed"] .ext')).toBe('+2 of extensions')
    expect(await p.textContent('#cards [data-status="failed"] .n')).toBe('0')
    expect(await p.textContent('#cards [data-status="failed"] .ext')).toBe('+1 of extensions')
    await p.close()
  })

  it('shows a check whose code threw as an error of its own — pill, card, filter — and opens on it; never as a failure', async () => {
    const spec = planResults()
    const errored: Result = {
      ...spec[0]!,
      status: 'error',
      message:
        'error of the suite (a bug of the suite, not a finding about the shop): the route check threw TypeError: boom',
    }
    const file = join(dir, 'error.html')
    writeFileSync(file, reportHtml(reportOf([errored, ...spec.slice(1)])))
    const p = await open(pathToFileURL(file).href)
    expect(await p.textContent('#overall-verdict')).toBe('incomplete')
    expect(await p.textContent('#cards [data-status="error"] .n')).toBe('1')
    expect(await p.textContent('#cards [data-status="failed"] .n')).toBe('0')
    expect(await visibleIds(p)).toEqual([errored.id])
    expect(await p.textContent(`[data-id="${errored.id}"] .pill`)).toBe('error')
    await p.close()
  })

  it("says the shop's extension endpoints went unchecked where its schema endpoint is broken", async () => {
    const { block } = schemaFacts({
      status: 'broken',
      source: 'GET http://127.0.0.1:8082/rest/default/schema?services=all under each caller',
      reason: 'answered 500 "Internal Error." under every caller',
    })
    const file = join(dir, 'schema-broken.html')
    writeFileSync(file, reportHtml(reportOf(planResults(), { schema: block })))
    const p = await open(pathToFileURL(file).href)
    expect(await p.textContent('#extensions')).toContain("Not checked: the shop's schema endpoint is broken")
    expect(await p.textContent('#schema')).toContain(block.text)
    await p.close()
  })

  it("lists the server errors in a box of their own, each with its request, what the shop's schema says and a curl; a result opens from it", async () => {
    const listed = reportOf(planResults(), { serverErrors: sampleServerErrors() })
    const file = join(dir, 'server-errors.html')
    writeFileSync(file, reportHtml(listed))
    const p = await open(pathToFileURL(file).href)
    const box = p.locator('#server-errors')
    expect(await box.locator('h2').textContent()).toBe(
      'Server errors (information: never the certification or the exit status)',
    )
    expect(await box.textContent()).toContain(listed.serverErrors!.text)
    expect(await p.textContent('#overall-verdict')).toBe('conforms')
    const selection = box.locator('details[data-operation="POST /V1/inventory/source-selection-algorithm-result"]')
    await selection.locator('summary').click()
    const text = await selection.textContent()
    expect(text).toContain('POST /rest/default/V1/inventory/source-selection-algorithm-result')
    expect(text).toContain('webapi-6b0bb8931408b')
    expect(text).toContain('2 times, from 2026-01-01T00:00:00.500Z to 2026-01-01T00:00:00.700Z')
    expect(text).toContain('inventoryRequest.stock_id, inventoryRequest.items[].sku')
    expect(text).toContain('with a body of every key sent')
    expect(await selection.locator('.curl-cmd').textContent()).toContain(
      '--data-raw \'{"inventoryRequest":{"stock_id":1,',
    )
    expect(await selection.locator('.curl-cmd').textContent()).toContain('"Authorization: Bearer $TOKEN"')
    await box.locator('details[data-operation="GET /V1/inventory/sources"] summary').click()
    expect(await box.locator('details[data-operation="GET /V1/inventory/sources"]').textContent()).toContain(
      'Sent byfind source main',
    )
    await p.screenshot({
      path: join(screenshotDir(), 'report-html-server-errors.png'),
      fullPage: false,
      clip: (await box.boundingBox())!,
    })
    // A result in whose evidence it is opens from it.
    await selection
      .getByRole('button', { name: 'POST /V1/inventory/source-selection-algorithm-result › route' })
      .click()
    expect(
      await p
        .locator('.row[data-id="POST /V1/inventory/source-selection-algorithm-result › route"] .detail')
        .isVisible(),
    ).toBe(true)
    await p.close()
  })

  it('says "not configured" for a rule no setting let it judge: its pill, card, filter and matrix cell, and how to judge it', async () => {
    const ncFile = join(dir, 'not-configured.html')
    const nc = reportOf(withoutLimitedAdmin())
    writeFileSync(ncFile, reportHtml(nc))
    const p = await open(pathToFileURL(ncFile).href)
    const aclIds = nc.results
      .filter((r) => r.check === 'acl')
      .map((r) => r.id)
      .sort()
    expect(await p.textContent('#overall-verdict')).toBe('incomplete')
    expect(await p.textContent('#cards [data-status="not-configured"] .n')).toBe('15')
    expect(await p.textContent('#cards [data-status="not-judged"] .n')).toBe('0')
    expect(await p.textContent('#not-configured')).toContain(ACL_NOT_CONFIGURED_LINE)
    expect((await visibleIds(p)).sort()).toEqual(aclIds) // it opens on them: they need a look
    await p.selectOption('#f-status', 'not-configured')
    expect((await visibleIds(p)).sort()).toEqual(aclIds)
    const row = p.locator('.row[data-id="GET /V1/taxRates/:rateId › acl"]')
    expect(await row.locator('.pill').textContent()).toBe('not configured')
    await row.locator('.head').click()
    expect(await row.locator('.detail').textContent()).toContain(
      'not configured: a required check not judged, as the run lacks a setting it needs',
    )
    expect(
      await p.locator('#matrix td[data-module="sales-tax-tfa"][data-check="acl"]').getAttribute('class'),
    ).toContain('cell-not-configured')
    await p.close()
  })

  it('no console error, and no request leaves the page', async () => {
    await page.evaluate('window.scrollTo(0, 0)')
    await page.screenshot({ path: join(screenshotDir(), 'report-html-top.png') })
    expect(consoleErrors).toEqual([])
    // Only the report files themselves were ever loaded: no asset, no favicon, nothing over the network.
    expect(requests.filter((url) => url !== fileUrl && !pages.includes(url))).toEqual([])
    expect(requests.filter((url) => url === fileUrl)).toHaveLength(1 + pages.filter((u) => u === fileUrl).length)
  })
})

function screenshotDir(): string {
  const dir = process.env.SHOP_SCREENSHOT_DIR ?? join(tmpdir(), 'shop-conformance-screenshots')
  mkdirSync(dir, { recursive: true })
  return dir
}
