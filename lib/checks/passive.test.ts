/**
 * Traffic judged passively (lib/checks/passive.ts), on HAR entries and exchanges with no target running: callers
 * followed from the capture's token calls or a hint (else unknown: no access judged), each rule only where an
 * exchange shows it, never a failure on a guess — and, on a real 2.4.7-p7 shop's recorded exchanges, no failure the
 * live run did not find.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Exchange } from '../results/exchange.ts'
import { harEntry } from '../results/har.ts'
import { passiveReport } from '../run/passive-report.ts'
import { readHar } from '../cli/passive-command.ts'
import { judgePassively, type ObservedEntry, type PassiveVerdict } from './passive.ts'
import { readRealRun } from './testing-real-runs.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const BASE = 'https://shop.example'
const ADMIN = 'adm1n-t0ken-aaaaaaaaaaaaaaaa'
const CUSTOMER = 'cust0mer-t0ken-bbbbbbbbbbbbbb'
const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' }

function x(method: string, path: string, status: number, body: unknown, token?: string, sent?: unknown): ObservedEntry {
  const exchange: Exchange = {
    request: {
      method,
      url: `${BASE}/rest/${path}`,
      headers: token !== undefined ? { Authorization: `Bearer ${token}` } : {},
      ...(sent !== undefined ? { body: sent } : {}),
    },
    response: { status, headers: JSON_TYPE, body },
    durationMs: 5,
  }
  return { exchange, startedDateTime: '2026-11-29T10:00:00.000Z', bodyKept: true }
}

const TOKEN_CALLS = [
  x('POST', 'V1/integration/admin/token', 200, ADMIN, undefined, { username: 'admin', password: 'secret-pass' }),
  x('POST', 'default/V1/integration/customer/token', 200, CUSTOMER, undefined, {
    username: 'c@example.com',
    password: 'secret-pass',
  }),
]
const UNAUTHORIZED = {
  message: "The consumer isn't authorized to access %resources.",
  parameters: { resources: 'Shop_Catalog::products' },
}
const NO_ROUTE = { message: 'Request does not match any route.' }

const of = (verdicts: readonly PassiveVerdict[], id: string) =>
  verdicts.find((v) => `${endpointText(v.row)} › ${v.check}` === id)?.verdict

describe('judgePassively', () => {
  it("follows the capture's token calls to each caller: a customer let through at an admin endpoint fails, the exchange its evidence", () => {
    const j = judgePassively(
      [
        ...TOKEN_CALLS,
        x('GET', 'default/V1/products/types', 200, [{ name: 'simple', label: 'Simple Product' }], CUSTOMER),
        x('GET', 'default/V1/modules', 401, UNAUTHORIZED),
      ],
      { base: BASE },
    )
    expect(of(j.verdicts, 'GET /V1/products/types › access')).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/^observed: customer token let through \(200/),
    })
    expect(of(j.verdicts, 'GET /V1/products/types › access')?.exchanges).toHaveLength(1)
    expect(of(j.verdicts, 'GET /V1/modules › access')).toMatchObject({
      status: 'passed',
      message: 'observed: no token refused (401)',
    })
    // A success of any caller shows the route; the token calls answered their token.
    expect(of(j.verdicts, 'GET /V1/products/types › route')?.status).toBe('passed')
    expect(of(j.verdicts, 'POST /V1/integration/admin/token › route')?.status).toBe('passed')
    expect(j.tokens).toEqual(
      new Map([
        [ADMIN, 'admin'],
        [CUSTOMER, 'customer'],
      ]),
    )
    expect(j.coverage).toMatchObject({ exchanges: 4, atEndpoints: 4, outside: 0, unknownCallers: 0 })
    expect(j.coverage.endpoints.map((e) => e.endpoint)).toContain('GET /V1/products/types')
  })

  it('judges no access from a token the capture never saw issued, unless a --token-class hint names its class', () => {
    const seen = [x('GET', 'default/V1/products/types', 200, [], 'integration-xyz-0001')]
    const unknown = judgePassively(seen, { base: BASE })
    expect(of(unknown.verdicts, 'GET /V1/products/types › access')).toMatchObject({
      status: 'skipped',
      reason: 'not-observed',
    })
    expect(unknown.coverage.unknownCallers).toBe(1)
    const hinted = judgePassively(seen, { base: BASE, hints: [{ prefix: 'integration-', caller: 'customer' }] })
    expect(of(hinted.verdicts, 'GET /V1/products/types › access')?.status).toBe('failed')
    expect(
      of(
        judgePassively(seen, { base: BASE, hints: [{ prefix: 'integration-', caller: 'admin' }] }).verdicts,
        'GET /V1/products/types › access',
      )?.status,
    ).toBe('skipped')
  })

  it('reads the class a redacted capture labels a token with, and the class a suite HAR tags an entry with', () => {
    const labelled = x('GET', 'default/V1/modules', 200, [], '[redacted customer token]')
    expect(of(judgePassively([labelled], { base: BASE }).verdicts, 'GET /V1/modules › access')?.status).toBe('failed')
    const unlabelled = x('GET', 'default/V1/modules', 200, [], '[redacted token]')
    expect(of(judgePassively([unlabelled], { base: BASE }).verdicts, 'GET /V1/modules › access')?.status).toBe(
      'skipped',
    )
    expect(
      of(judgePassively([{ ...unlabelled, caller: 'admin' }], { base: BASE }).verdicts, 'GET /V1/modules › access')
        ?.status,
    ).toBe('skipped')
  })

  it('lists a 5xx and never fails it: neither access nor route', () => {
    const j = judgePassively(
      [
        ...TOKEN_CALLS,
        x('GET', 'default/V1/modules', 500, { message: 'Internal Error. Report ID: webapi-1' }, CUSTOMER),
      ],
      { base: BASE },
    )
    expect(of(j.verdicts, 'GET /V1/modules › access')).toMatchObject({ status: 'skipped', reason: 'not-observed' })
    expect(j.verdicts.filter((v) => v.verdict.status === 'failed')).toEqual([])
    expect(j.serverErrors.entries).toMatchObject([
      {
        method: 'GET',
        endpoint: 'GET /V1/modules',
        store: 'default',
        caller: 'customer',
        status: 500,
        reportId: 'webapi-1',
      },
    ])
  })

  it('fails a route on the no-route answer only under a store code another answer showed to exist', () => {
    const missing = x('GET', 'default/V1/modules', 404, NO_ROUTE, ADMIN)
    const j = judgePassively(
      [TOKEN_CALLS[0]!, missing, x('GET', 'default/V1/directory/currency', 200, { base_currency_code: 'USD' })],
      { base: BASE },
    )
    expect(of(j.verdicts, 'GET /V1/modules › route')).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/no-route answer/),
    })
    const unknownStore = judgePassively(
      [
        TOKEN_CALLS[0]!,
        {
          ...missing,
          exchange: {
            ...missing.exchange,
            request: { ...missing.exchange.request, url: `${BASE}/rest/nostore/V1/modules` },
          },
        },
      ],
      { base: BASE },
    )
    expect(of(unknownStore.verdicts, 'GET /V1/modules › route')).toMatchObject({
      status: 'skipped',
      reason: 'not-observed',
    })
  })

  it("judges a tabled answer's shape, but not one narrowed by fields= or whose body the capture did not keep", () => {
    const group = (status: number, body: unknown, query = '') =>
      x('GET', `default/V1/customerGroups/default${query}`, status, body, ADMIN)
    const wrong = judgePassively([TOKEN_CALLS[0]!, group(200, [{ id: 1, code: 'General' }])], { base: BASE })
    expect(of(wrong.verdicts, 'GET /V1/customerGroups/default › shape')?.status).toBe('failed')
    const narrowed = judgePassively([TOKEN_CALLS[0]!, group(200, { id: 'one', code: 7 }, '?fields=id')], { base: BASE })
    expect(of(narrowed.verdicts, 'GET /V1/customerGroups/default › shape')).toMatchObject({
      status: 'skipped',
      reason: 'not-observed',
    })
    const notKept = judgePassively([TOKEN_CALLS[0]!, { ...group(200, ''), bodyKept: false }], { base: BASE })
    expect(of(notKept.verdicts, 'GET /V1/customerGroups/default › shape')?.status).toBe('skipped')
    expect(of(notKept.verdicts, 'GET /V1/customerGroups/default › route')?.status).toBe('skipped')
  })

  it('passes a batch price answer that names items of its call, and judges nothing of one that names none', () => {
    const prices = [
      { sku: 'ok-1', price: 10, store_id: 0 },
      { sku: 'ok-2', price: -7.13, store_id: 0 },
    ]
    const named = x(
      'POST',
      'default/V1/products/base-prices',
      200,
      [{ message: 'Invalid attribute %fieldName = %fieldValue.', parameters: ['Price', '-7.13'] }],
      ADMIN,
      { prices },
    )
    expect(
      of(
        judgePassively([TOKEN_CALLS[0]!, named], { base: BASE }).verdicts,
        'POST /V1/products/base-prices › batch-partial',
      ),
    ).toMatchObject({ status: 'passed', message: expect.stringMatching(/names item 1 of the 2 sent/) })
    const empty = x('POST', 'default/V1/products/base-prices', 200, [], ADMIN, { prices })
    expect(
      of(
        judgePassively([TOKEN_CALLS[0]!, empty], { base: BASE }).verdicts,
        'POST /V1/products/base-prices › batch-partial',
      ),
    ).toMatchObject({ status: 'skipped', reason: 'not-observed' })
  })
})

describe('a passive report', () => {
  it('judges every planned check: observed, else not-observed; mode passive, not a certification, its coverage', () => {
    const j = judgePassively([...TOKEN_CALLS, x('GET', 'default/V1/products/types', 200, [], CUSTOMER)], { base: BASE })
    const report = passiveReport(j, {
      har: 'capture.har',
      baseUrl: BASE,
      pathAliases: [],
      calibration: { noRoute: [], unknownStore: [] },
      startedAt: new Date(),
      finishedAt: new Date(),
    })
    expect(report.mode).toBe('passive')
    expect(report.certification).toMatchObject({
      verdict: 'passive: not a certification',
      failed: 1,
      scope: { whole: false },
    })
    expect(report.certification.modules.every((m) => m.verdict === 'passive: not a certification')).toBe(true)
    expect(report.exit.status).toBe(1)
    expect(report.passive?.exchanges).toBe(3)
    const skipped = report.results.filter((r) => r.status === 'skipped' && r.applicable !== false)
    expect(skipped.length).toBeGreaterThan(800)
    expect(skipped.every((r) => r.reason === 'not-observed')).toBe(true)
    expect(report.results.find((r) => r.id === 'GET /V1/products/types › store-code')).toMatchObject({
      status: 'skipped',
      message: expect.stringMatching(/never judged from traffic/),
    })
  })
})

describe('a HAR file read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-har-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("reads a suite's or a browser's HAR, and a proxy's cut before its end", () => {
    const entry = harEntry(TOKEN_CALLS[0]!.exchange, { runId: 'r', caller: 'none', startedAt: 0, json: true })
    const whole = join(dir, 'whole.har')
    writeFileSync(
      whole,
      JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [entry] } }),
    )
    expect(readHar(whole).entries).toMatchObject([
      { caller: 'none', bodyKept: true, exchange: { response: { status: 200, body: ADMIN } } },
    ])
    const cut = join(dir, 'cut.har')
    writeFileSync(
      cut,
      `{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"_proxy":{"target":{"baseUrl":"${BASE}"}},"entries":[\n${JSON.stringify(entry)},\n${JSON.stringify(entry)}`,
    )
    expect(readHar(cut)).toMatchObject({ entries: [{}, {}], run: { target: { baseUrl: BASE } } })
    // A body a browser exported base64-encoded is read as its text.
    const encoded = {
      ...entry,
      response: {
        ...entry.response,
        content: {
          ...entry.response.content,
          text: Buffer.from(JSON.stringify(ADMIN)).toString('base64'),
          encoding: 'base64',
        },
      },
    }
    writeFileSync(
      join(dir, 'base64.har'),
      JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [encoded] } }),
    )
    expect(readHar(join(dir, 'base64.har')).entries[0]?.exchange.response?.body).toBe(ADMIN)
    writeFileSync(join(dir, 'bad.har'), '{"log":{}}')
    expect(() => readHar(join(dir, 'bad.har'))).toThrow(/no log.entries list/)
  })
})

describe("a real 2.4.7-p7 shop's exchanges, judged passively", () => {
  it('fail nothing the live run did not fail: access, route and shape', () => {
    const run = readRealRun('2.4.7-p7/report-full-valid-probes.json')
    const { startedAt, target } = run as unknown as { startedAt: string; target: { baseUrl: string } }
    const seen = new Set<string>()
    const entries: ObservedEntry[] = []
    for (const r of run.results) {
      for (const e of r.exchanges) {
        const key = JSON.stringify([e.request.method, e.request.url, e.request.headers, e.response?.status])
        if (seen.has(key)) continue
        seen.add(key)
        entries.push({ exchange: e, startedDateTime: startedAt, bodyKept: true })
      }
    }
    const j = judgePassively(entries, { base: target.baseUrl, calibration: run.calibration })
    const failedLive = new Set(run.results.filter((r) => r.status === 'failed').map((r) => r.id))
    const failed = j.verdicts
      .filter((v) => v.verdict.status === 'failed')
      .map((v) => `${endpointText(v.row)} › ${v.check}`)
    expect(failed.filter((id) => !failedLive.has(id))).toEqual([])
    // The traffic judges much: every endpoint the run reached, its access where a refused caller was seen.
    expect(j.verdicts.filter((v) => v.check === 'access' && v.verdict.status === 'passed').length).toBeGreaterThan(150)
  })
})
