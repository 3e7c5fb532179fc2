/**
 * `judge --har FILE --passive` as a user calls it (in-process, no target): every format written into --report-dir,
 * scoped as passive in each, the verdict printed; bad input one line and exit 2; a passive report never signed.
 */
import { generateKeyPairSync } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { harEntry } from '../results/har.ts'
import type { Exchange } from '../results/exchange.ts'
import type { Report } from '../report/model.ts'
import { main } from './main.ts'

const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-passive-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const BASE = 'http://shop.test'
const CUSTOMER = 'cust0mer-t0ken-passive-0001'

function entry(method: string, path: string, status: number, body: unknown, token?: string, sent?: unknown) {
  const x: Exchange = {
    request: {
      method,
      url: `${BASE}/rest/default${path}`,
      headers: token !== undefined ? { authorization: `Bearer ${token}` } : {},
      ...(sent !== undefined ? { body: sent } : {}),
    },
    response: { status, headers: { 'content-type': 'application/json' }, body },
    durationMs: 3,
  }
  // A browser's export: no suite tags.
  const { _runId, _caller, ...plain } = harEntry(x, {
    runId: '',
    caller: 'none',
    startedAt: Date.parse('2026-11-29T10:00:00Z'),
    json: true,
  })
  return plain
}

/**
 * A browser's capture: a customer signs in, reads, and calls an admin endpoint with its token, which lets it through.
 */
const har = join(dir, 'storefront.har')
writeFileSync(
  har,
  JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'browser', version: '1' },
      entries: [
        entry('POST', '/V1/integration/customer/token', 200, CUSTOMER, undefined, {
          username: 'c@example.com',
          password: 'Secret-Pass-1',
        }),
        entry('GET', '/V1/directory/currency', 200, { base_currency_code: 'USD' }),
        entry('GET', '/V1/products/types', 200, [{ name: 'simple', label: 'Simple Product' }], CUSTOMER),
      ],
    },
  }),
)

function io() {
  let out = ''
  let err = ''
  return {
    out: (t: string) => void (out += t),
    err: (t: string) => void (err += t),
    stdout: () => out,
    stderr: () => err,
  }
}

const where = { env: {}, cwd: dir }

describe('judge --har FILE --passive', () => {
  it('writes every format, scoped passive in each, and prints the verdict; the token is nowhere', async () => {
    const reports = join(dir, 'reports')
    const out = io()
    expect(await main(['judge', '--har', har, '--passive', '--report-dir', reports], out, where)).toBe(1)
    expect(out.stderr()).toBe('')
    expect(out.stdout()).toMatch(/^passive: not a certification · 1 failed, \d+ passed/)
    expect(out.stdout()).toMatch(/failed: GET \/V1\/products\/types › access — observed: customer token let through/)
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as Report
    expect(report).toMatchObject({
      mode: 'passive',
      target: { baseUrl: BASE, storeCode: 'default' },
      passive: { exchanges: 3, atEndpoints: 3 },
    })
    expect(readFileSync(join(reports, 'summary.md'), 'utf8')).toMatch(
      /\*\*Passive:\*\* 3 exchanges observed[\s\S]*## Coverage \(passive\)[\s\S]*`GET \/V1\/products\/types` \| admin \| 1 \| customer ×1/,
    )
    expect(readFileSync(join(reports, 'report.html'), 'utf8')).toContain('id="passive"')
    expect(readFileSync(join(reports, 'badge.svg'), 'utf8')).toContain('passive · 1 failed')
    for (const f of ['report.json', 'report.html', 'summary.md', 'junit.xml', 'report.sarif']) {
      const text = readFileSync(join(reports, f), 'utf8')
      expect(text, f).not.toContain(CUSTOMER)
      expect(text, f).not.toContain('Secret-Pass-1')
    }
  })

  it('is never signed: sign refuses a passive report in one line, exit 2, even with --allow-partial', async () => {
    const reports = join(dir, 'to-sign')
    await main(['judge', '--har', har, '--passive', '--report-dir', reports], io(), where)
    const key = join(dir, 'key.pem')
    writeFileSync(key, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }))
    const out = io()
    expect(await main(['sign', '--report', reports, '--key', key, '--allow-partial'], out, where)).toBe(2)
    expect(out.stderr()).toMatch(/^shop-conformance: sign: .* is a passive report .*never signed\n$/)
    expect(existsSync(join(reports, 'report.json.sig'))).toBe(false)
  })

  it('refuses bad input in one line, exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [['judge', '--passive'], /--har FILE is required/],
      [['judge', '--har', join(dir, 'none.har'), '--passive'], /HAR .*none\.har: cannot read it/],
      [
        ['judge', '--har', har, '--passive', '--token-class', 'abc=root'],
        /--token-class must be TOKEN-PREFIX=admin or TOKEN-PREFIX=customer/,
      ],
      [['proxy', '--har', join(dir, 'p.har')], /proxy: --target URL is required/],
      [['proxy', '--target', 'ftp://shop', '--har', join(dir, 'p.har')], /--target must be the shop's http\(s\) URL/],
      [['proxy', '--target', BASE, '--har', join(dir, 'p.har'), '--port', 'x'], /--port must be a port number/],
    ]
    for (const [argv, message] of cases) {
      const out = io()
      expect(await main(argv, out, where), argv.join(' ')).toBe(2)
      expect(out.stderr(), argv.join(' ')).toMatch(message)
      expect(out.stderr().trim().split('\n'), argv.join(' ')).toHaveLength(1)
    }
  })
})
