import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { sharedCli } from '../cli/testing.ts'
import type { HarEntry } from '../results/har.ts'

/**
 * A whole run's evidence.har read by a standard HAR consumer (issue 30.1): the bundled Chromium, driven by
 * playwright-core, serves requests from the file (`routeFromHAR`, which matches entries by method, URL and headers)
 * as its network panel imports one. The run's target is gone by then (the bundled target ended with the run): every
 * answer the browser gets comes from the HAR, or the request is aborted.
 */
const CHROMIUM = inject('chromium')

describe('evidence.har in the bundled Chromium', () => {
  let browser: Browser | undefined
  let har: string
  let entries: HarEntry[]

  beforeAll(async () => {
    const run = await sharedCli(['run'])
    expect(run.status, run.stderr).toBe(0)
    har = join(run.dir, 'reports', 'evidence.har')
    entries = (JSON.parse(readFileSync(har, 'utf8')) as { log: { entries: HarEntry[] } }).log.entries
    browser = await chromium.launch({
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
  }, 600_000)

  afterAll(async () => {
    await browser?.close()
  })

  /** The first recorded answer of `endpoint` to `caller` with a JSON body: what the browser must be served. */
  const recorded = (endpoint: string, caller: HarEntry['_caller']) => {
    const entry = entries.find(
      (e) =>
        e._endpoint === endpoint &&
        e._caller === caller &&
        e.response.status === 200 &&
        e.response.content.text !== undefined,
    )
    if (entry === undefined) throw new Error(`no recorded 200 of ${endpoint} to ${caller}`)
    return entry
  }

  it('is served by the browser from the file alone: the recorded answer to an anonymous read, status and body', async () => {
    const context = await browser!.newContext()
    try {
      // Only from the HAR: a request it does not hold is aborted, never sent to the network.
      await context.routeFromHAR(har, { notFound: 'abort' })
      const page = await context.newPage()
      for (const endpoint of ['GET /V1/directory/currency', 'GET /V1/directory/countries']) {
        const entry = recorded(endpoint, 'none')
        const answer = await page.goto(entry.request.url)
        expect(answer?.status(), endpoint).toBe(entry.response.status)
        expect(JSON.parse((await answer!.text()) || 'null'), endpoint).toEqual(JSON.parse(entry.response.content.text!))
      }
      // A URL the run never sent is not in it: aborted, not answered.
      const never = new URL('/rest/default/V1/not-a-recorded-path', entries[0]!.request.url).href
      await expect(page.goto(never)).rejects.toThrow(/ERR_FAILED|aborted/i)
    } finally {
      await context.close()
    }
  })
})
