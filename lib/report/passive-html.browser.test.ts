/**
 * A passive report's page in a real browser (issue 30.3): it opens on `passive: not a certification`, and its
 * coverage box names each endpoint the traffic touched, its exchanges and callers — with no error on the page.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { afterAll, expect, inject, it } from 'vitest'
import { judgePassively, type ObservedEntry } from '../checks/passive.ts'
import { passiveReport } from '../run/passive-report.ts'
import { reportHtml } from './html.ts'

const CHROMIUM = inject('chromium')
const dir = mkdtempSync(join(tmpdir(), 'shop-passive-html-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function exchange(method: string, path: string, status: number, body: unknown, token?: string): ObservedEntry {
  const headers: Record<string, string> = token !== undefined ? { authorization: `Bearer ${token}` } : {}
  const x = {
    request: { method, url: `http://shop.test/rest/default${path}`, headers },
    response: { status, headers: { 'content-type': 'application/json' }, body },
    durationMs: 2,
  }
  return { exchange: x, startedDateTime: '2026-11-29T10:00:00.000Z', bodyKept: true }
}

it('opens on the passive verdict and shows the coverage of the traffic', async () => {
  const judgement = judgePassively(
    [
      exchange('POST', '/V1/integration/customer/token', 200, 'tok-customer-0001'),
      exchange('GET', '/V1/products/types', 200, [], 'tok-customer-0001'),
      exchange('GET', '/V1/modules', 401, { message: 'no' }),
    ],
    { base: 'http://shop.test' },
  )
  const report = passiveReport(judgement, {
    har: 'capture.har',
    baseUrl: 'http://shop.test',
    pathAliases: [],
    calibration: { noRoute: [], unknownStore: [] },
    startedAt: new Date(),
    finishedAt: new Date(),
  })
  const file = join(dir, 'report.html')
  writeFileSync(file, reportHtml(report))
  const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM.executablePath,
    env: { ...process.env, ...CHROMIUM.env },
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
  try {
    const page = context.pages()[0] ?? (await context.newPage())
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(pathToFileURL(file).href)
    await page.waitForSelector('html[data-ready="true"]', { timeout: 10_000 })
    expect(await page.textContent('#overall-verdict')).toBe('passive: not a certification')
    expect(await page.$('#conformance-percent')).toBeNull()
    expect(await page.textContent('#verdict')).toMatch(/1 failed, \d+ passed from the traffic; \d+ not observed/)
    expect(await page.title()).toMatch(/^Shop conformance: passive: not a certification – /)
    const box = await page.textContent('#passive')
    expect(box).toMatch(
      /Passive: judged from traffic the suite did not send, not a certification — 3 exchanges observed/,
    )
    expect(box).toMatch(/GET \/V1\/products\/types \(admin\) — 1 exchange: customer ×1/)
    expect(errors).toEqual([])
  } finally {
    await context.close()
  }
}, 60_000)
