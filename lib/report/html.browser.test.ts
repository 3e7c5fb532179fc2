import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MODULES } from '../spec/modules.ts'
import type { Result } from '../run/result.ts'
import { reportHtml } from './html.ts'
import { summarise, type Report } from './model.ts'
import { reportOf } from './testing.ts'

/**
 * report.html in a real browser: Debian's chromium driven by playwright-core. CI installs chromium with
 * `apt-get install -y chromium`; without it this test fails (a skipped browser test could never fail).
 */
const CHROMIUM = process.env.SHOP_CHROMIUM ?? '/usr/bin/chromium'
const HOSTILE = '<img src=x onerror="window.pwned=1"></script><script>window.pwned=2</script>'

const CHECKS = ['route', 'store-code', 'access', 'body-keys', 'shape', 'batch-partial'] as const

/** About 2000 results over every module and check, with the failures, skips and warnings a real run has. */
function bigReport(): Report {
  const results: Result[] = []
  let n = 0
  for (const mod of MODULES) {
    for (let e = 0; e < 14; e++) {
      const path = `/V1/${mod.id}/things${e}/:id`
      for (const check of CHECKS) {
        n++
        const notShown = check === 'body-keys' || check === 'batch-partial' || (check === 'shape' && e % 3 !== 0)
        results.push({
          id: `GET ${path} › ${check}`,
          module: mod.id,
          endpoint: { method: 'GET', path },
          check,
          status: notShown ? 'skipped' : 'passed',
          ...(notShown ? { applicable: false as const } : {}),
          message: notShown ? 'not shown: the spec shows no answer body for this endpoint' : `served: answered 200 (#${n})`,
          durationMs: 3,
          spec: ['Endpoints', `Endpoints › Endpoint lists by module › ${mod.title}`],
          exchanges: [{ request: { method: 'GET', url: `http://127.0.0.1:1/rest/default${path.replace(':id', '7')}`, headers: { accept: 'application/json' } }, response: { status: 200, headers: {}, body: { id: 7 } }, durationMs: 1 }],
          ...(e === 5 && check === 'shape' ? { warnings: ['int sent as the digit string "2" (accepted)'] } : {}),
        })
      }
    }
  }
  const at = (id: string) => results.findIndex((r) => r.id === id)
  const admin = (caller: string, seen: string, ok: boolean) => ({ expected: caller === 'admin' ? 'accept' : 'refuse', seen, answer: seen === 'accepted' ? `200 ["Shop_Store",${JSON.stringify(HOSTILE)}]` : '401 "unauthorized"', ok })
  // Failure 1: an admin endpoint open to anyone (access), with a hostile answer body.
  results[at('GET /V1/analytics-async-backend/things2/:id › access')] = {
    id: 'GET /V1/modules › access',
    module: 'analytics-async-backend',
    endpoint: { method: 'GET', path: '/V1/modules' },
    check: 'access',
    status: 'failed',
    message: `admin endpoint: no token let through (200 ${HOSTILE}) where the spec says refuse`,
    durationMs: 20,
    spec: ['Authentication 1–4', 'Endpoints › Endpoint lists by module › Analytics, AsynchronousOperations, Backend'],
    exchanges: (['none', 'malformed', 'customer', 'admin'] as const).map((caller) => ({
      request: {
        method: 'GET',
        url: 'http://127.0.0.1:1/rest/default/V1/modules',
        headers: {
          accept: 'application/json',
          ...(caller === 'none' ? {} : { authorization: caller === 'malformed' ? 'Bearer shop-conformance-malformed-e481b2f649ba' : `Bearer [redacted ${caller} token]` }),
        },
      },
      response: { status: 200, headers: { 'content-type': 'text/html' }, body: `<b>${HOSTILE}</b>` },
      durationMs: 4,
    })),
    details: { accessClass: 'admin', matrix: { none: admin('none', 'accepted', false), malformed: admin('malformed', 'accepted', false), customer: admin('customer', 'accepted', false), admin: admin('admin', 'accepted', true) } },
  }
  // Failure 2: a missing route; its store-code and access checks are then not judged.
  const route = at('GET /V1/directory/things0/:id › route')
  results[route] = { ...results[route]!, status: 'failed', message: 'GET /V1/directory/things0/:id answered like the target\'s no-route answer (404): the endpoint is not served', spec: ['Endpoints', 'Endpoints › Endpoint lists by module › Directory'] }
  for (const check of ['store-code', 'access']) {
    const i = at(`GET /V1/directory/things0/:id › ${check}`)
    results[i] = { ...results[i]!, status: 'skipped', message: 'not judged: the target answered no-route to every caller (see the route check)' }
  }
  // Failure 3: a POST whose body quotes a name with ', on a URL with [ ].
  const post = at('GET /V1/quote/things3/:id › route')
  results[post] = {
    ...results[post]!,
    id: 'POST /V1/quote/things3 › route',
    endpoint: { method: 'POST', path: '/V1/quote/things3' },
    status: 'failed',
    message: 'POST /V1/quote/things3 answered like no-route',
    exchanges: [{ request: { method: 'POST', url: 'http://127.0.0.1:1/rest/default/V1/quote/things3?searchCriteria[pageSize]=5', headers: { accept: 'application/json', authorization: 'Bearer [redacted admin token]', 'content-type': 'application/json' }, body: { name: "O'Brien's cart" } }, response: { status: 404, headers: {}, body: { message: 'Request does not match any route.' } }, durationMs: 2 }],
  }
  // Workflows: steps in order, one failed.
  for (const [name, mod, steps] of [['guest-checkout', 'quote', 8], ['credit-memo', 'sales-tax-tfa', 12]] as const) {
    for (let s = 1; s <= steps; s++) {
      const failed = name === 'credit-memo' && s === 9
      results.push({
        id: `workflow ${name} › ${String(s).padStart(2, '0')} step ${s} of ${name}`,
        module: mod,
        endpoint: { method: 'POST', path: `/V1/${name}/${s}` },
        check: 'workflow',
        status: failed ? 'failed' : name === 'credit-memo' && s > 9 ? 'skipped' : 'passed',
        message: failed ? 'the credit memo read back has no items' : s > 9 && name === 'credit-memo' ? 'not judged: an earlier step failed' : 'done',
        durationMs: 5,
        spec: ['Workflows'],
        exchanges: [],
      })
    }
  }
  return reportOf(results, {
    target: { baseUrl: 'http://127.0.0.1:18080' },
    run: { id: 'mwr5s6b854c8', seed: 67716833 },
    startedAt: '2026-11-22T01:29:04.245Z',
    finishedAt: '2026-11-22T01:29:08.545Z',
    durationMs: 4300,
    // The made-up endpoints are no catalog rows: the catalog counts are the test's own.
    summary: { ...summarise(results, new Set()), endpointsInCatalog: 278, endpointsChecked: 278 },
    calibration: { noRoute: ['404 "Request does not match any route."'], unknownStore: ['400 "Specified request cannot be processed."'] },
    created: [{ kind: 'customer', id: '1', label: 'main customer' }],
    cleanup: { removed: 0, leftovers: [{ kind: 'customer', id: '1', label: 'main customer', reason: 'DELETE answered 403' }] },
  })
}

describe('report.html in a real browser', () => {
  const report = { ...bigReport(), signature: { digest: 'sha256:0f3a9c' } } as Report
  const failedIds = report.results.filter((r) => r.status === 'failed').map((r) => r.id)
  const dir = mkdtempSync(join(tmpdir(), 'shop-report-html-'))
  const file = join(dir, 'report.html')
  const fileUrl = pathToFileURL(file).href
  let context: BrowserContext
  let page: Page
  const consoleErrors: string[] = []
  const requests: string[] = []

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`Chromium is needed for the report.html browser test and is not at ${CHROMIUM}. Install it with \`apt-get install -y chromium\` (as CI does), or point SHOP_CHROMIUM at a Chromium binary.`)
    }
    writeFileSync(file, reportHtml(report))
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1400, height: 1000 },
    })
    page = context.pages()[0] ?? (await context.newPage())
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') consoleErrors.push(`${m.type()}: ${m.text()}`)
    })
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`))
    context.on('request', (r) => requests.push(r.url()))
    await page.goto(fileUrl)
    await page.waitForSelector('html[data-ready="true"]', { timeout: 10_000 })
  }, 30_000)

  afterAll(async () => {
    await context?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  /** Ids of the rows a reader sees (not hidden by a filter, nor inside a hidden workflow group). */
  const visibleIds = () => page.$$eval('.row', (rows) => rows.filter((r) => r.checkVisibility()).map((r) => r.getAttribute('data-id') ?? ''))
  const filter = async (f: { status?: string; module?: string; check?: string }) => {
    await page.selectOption('#f-status', f.status ?? '')
    await page.selectOption('#f-module', f.module ?? '')
    await page.selectOption('#f-check', f.check ?? '')
  }

  it('opens on the summary: counts, conformance % and verdict, run facts, module statements', async () => {
    const c = report.certification
    const card = (s: string) => page.textContent(`#cards [data-status="${s}"] .n`)
    expect(await card('passed')).toBe(String(report.results.filter((r) => r.status === 'passed').length))
    expect(await card('failed')).toBe('4')
    expect(await card('not-judged')).toBe(String(report.results.filter((r) => r.status === 'skipped' && r.applicable !== false).length))
    expect(await card('not-shown')).toBe(String(report.summary.notApplicable))
    expect(await card('warnings')).toBe(String(MODULES.length))
    expect(await page.textContent('#conformance-percent')).toBe(`${c.percent}%`)
    expect(await page.textContent('#overall-verdict')).toBe('does not conform')
    const meta = (await page.textContent('#meta')) ?? ''
    for (const fact of ['http://127.0.0.1:18080', 'default', '2.4.9', 'shop-conformance 0.1.0', '67716833', 'mwr5s6b854c8', '4.3 s']) expect(meta).toContain(fact)
    expect(await page.textContent('#signature-digest')).toBe('sha256:0f3a9c')
    expect(await page.textContent('#meta-created')).toContain('1 entity, 0 removed, 1 left over')
    expect(await page.textContent('#matrix tr[data-module="directory"] .stmt')).toContain('does not conform')
    expect(await page.textContent('#matrix tr[data-module="bundle"] .stmt')).toContain('conforms')
  })

  it('renders the module × check matrix coloured by status; a cell filters to its results', async () => {
    expect(await page.locator('#matrix tbody tr').count()).toBe(MODULES.length)
    const cell = page.locator('#matrix td[data-module="directory"][data-check="route"]')
    expect(await cell.getAttribute('class')).toContain('cell-failed')
    expect(await cell.textContent()).toBe('✗1✓13')
    expect(await page.locator('#matrix td[data-module="directory"][data-check="access"]').getAttribute('class')).toContain('cell-not-judged')
    expect(await page.locator('#matrix td[data-module="bundle"][data-check="route"]').getAttribute('class')).toContain('cell-passed')
    await cell.click()
    const ids = await visibleIds()
    expect(ids).toHaveLength(14)
    expect(ids.every((id) => id.startsWith('GET /V1/directory/') && id.endsWith('› route'))).toBe(true)
  })

  it('status=failed shows exactly the failed rows; module and check filters filter', async () => {
    await filter({ status: 'failed' })
    expect((await visibleIds()).sort()).toEqual([...failedIds].sort())
    expect(await page.textContent('#count')).toBe(`showing 4 of ${report.results.length}`)

    await filter({ module: 'quote' })
    const quote = await visibleIds()
    expect(quote.sort()).toEqual(report.results.filter((r) => r.module === 'quote').map((r) => r.id).sort())

    await filter({ check: 'access' })
    expect((await visibleIds()).sort()).toEqual(report.results.filter((r) => r.check === 'access').map((r) => r.id).sort())

    await filter({ module: 'directory', status: 'not-judged' })
    expect((await visibleIds()).sort()).toEqual(['GET /V1/directory/things0/:id › access', 'GET /V1/directory/things0/:id › store-code'])

    await filter({})
    await page.fill('#f-search', 'things13/:id › shape')
    await expect.poll(() => page.textContent('#count')).toBe(`showing ${MODULES.length} of ${report.results.length}`)
    expect((await visibleIds()).every((id) => id.endsWith('/things13/:id › shape'))).toBe(true)
    await page.fill('#f-search', '')
    await expect.poll(() => page.textContent('#count')).toBe(`showing ${report.results.length} of ${report.results.length}`)
  })

  it('groups workflow steps by workflow, in order', async () => {
    await filter({ check: 'workflow' })
    const groups = await page.$$eval('#list-workflows .wf', (gs) => gs.map((g) => ({ name: g.getAttribute('data-workflow'), steps: [...g.querySelectorAll('.row')].map((r) => r.getAttribute('data-id')) })))
    expect(groups.map((g) => g.name)).toEqual(['guest-checkout', 'credit-memo'])
    expect(groups[1]?.steps).toEqual(report.results.filter((r) => r.id.startsWith('workflow credit-memo ›')).map((r) => r.id))
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
    await expect.poll(async () => { const box = await first.boundingBox(); return box !== null && box.y >= 0 && box.y < viewport / 2 }).toBe(true)
    expect(await first.locator('.detail').isVisible()).toBe(true)
    expect(await page.inputValue('#f-status')).toBe('') // the filter that hid it was cleared
    await page.screenshot({ path: join(screenshotDir(), 'report-html-first-failure.png') })
    await page.click('#next')
    expect(await page.locator(`.row[data-id="${failedIds[1]}"]`).getAttribute('class')).toContain('current')
  })

  it('an opened failure shows its message, spec sections, access matrix, exchanges and a curl with $TOKEN, all as text', async () => {
    const row = page.locator('.row[data-id="GET /V1/modules › access"]')
    const detail = row.locator('.detail')
    if (!(await detail.isVisible())) await row.locator('.head').click()
    const text = (await detail.textContent()) ?? ''
    expect(text).toContain('admin endpoint: no token let through (200 <img src=x onerror="window.pwned=1"></script>')
    expect(await detail.locator('ul.spec li').allTextContents()).toEqual(['Authentication 1–4', 'Endpoints › Endpoint lists by module › Analytics, AsynchronousOperations, Backend'])
    expect(await detail.locator('table.access tbody tr').count()).toBe(4)
    expect(await detail.locator('table.access tbody tr.bad').count()).toBe(3)
    expect(await detail.locator('.exchange').count()).toBe(4)
    expect(text).toContain('GET http://127.0.0.1:1/rest/default/V1/modules')
    expect(text).toContain('authorization: Bearer [redacted customer token]')
    const curls = await detail.locator('pre.curl-cmd').allTextContents()
    expect(curls).toHaveLength(4)
    expect(curls[2]).toContain('-H "Authorization: Bearer $TOKEN"')
    expect(curls[1]).toContain("-H 'Authorization: Bearer shop-conformance-malformed-e481b2f649ba'")
    for (const curl of curls) expect(curl).not.toContain('[redacted')
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await detail.locator('.curl button').nth(2).click()
    await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(curls[2])
    // The target's markup stayed text: no element was made from it, nothing ran.
    expect(await page.locator('img').count()).toBe(0)
    expect(await page.evaluate('typeof window.pwned')).toBe('undefined')
    expect(await page.locator('script').count()).toBe(3)

    const post = page.locator('.row[data-id="POST /V1/quote/things3 › route"]')
    await post.locator('.head').click()
    const curl = (await post.locator('pre.curl-cmd').textContent()) ?? ''
    expect(curl).toContain('--globoff')
    expect(curl).toContain(`--data-raw '{"name":"O'\\''Brien'\\''s cart"}'`)
    expect(await post.locator('pre.body').first().textContent()).toBe('{\n  "name": "O\'Brien\'s cart"\n}')
  })

  it('renders a run that could not be made: no results, its run errors, not run', async () => {
    const empty: Report = { ...report, results: [], runErrors: ['the admin credentials were refused (401)'], partial: { reason: 'SIGINT' } }
    const emptyFile = join(dir, 'empty.html')
    writeFileSync(emptyFile, reportHtml(empty))
    const second = await context.newPage()
    const errors: string[] = []
    second.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()) })
    second.on('pageerror', (e) => errors.push(e.message))
    await second.goto(pathToFileURL(emptyFile).href)
    await second.waitForSelector('html[data-ready="true"]', { timeout: 10_000 })
    expect(await second.textContent('#overall-verdict')).toBe('not run')
    expect(await second.textContent('#run-errors')).toContain('the admin credentials were refused (401)')
    expect(await second.textContent('#partial')).toContain('SIGINT')
    expect(await second.isDisabled('#jump')).toBe(true)
    expect(await second.isVisible('#empty')).toBe(true)
    expect(errors).toEqual([])
    await second.close()
  })

  it('no console error, and no request leaves the page', async () => {
    await page.screenshot({ path: join(screenshotDir(), 'report-html-top.png') })
    expect(consoleErrors).toEqual([])
    // Only the report files themselves were ever loaded: no asset, no favicon, nothing over the network.
    expect(requests.filter((url) => url !== fileUrl && url !== pathToFileURL(join(dir, 'empty.html')).href)).toEqual([])
    expect(requests.filter((url) => url === fileUrl)).toEqual([fileUrl])
  })
})

function screenshotDir(): string {
  const dir = process.env.SHOP_SCREENSHOT_DIR ?? join(tmpdir(), 'shop-conformance-screenshots')
  mkdirSync(dir, { recursive: true })
  return dir
}
