/**
 * The run's evidence (issue 30, point 1): each finished request a HAR entry written as it finishes
 * (lib/shop/evidence.ts, lib/results/har.ts), the parts of a run's threads joined into evidence.har (evidence.ts) —
 * valid HAR 1.2, in the order sent, each entry tagged with its run, caller's class, step or probe, endpoint, store and
 * the checks it served — and no secret anywhere in it: not the tokens (also one a token call has just issued, before
 * its caller registers it), not the passwords, not one learnt only at the end. A whole run's: lib/cli/evidence.test.ts.
 */
import diagnostics_channel from 'node:diagnostics_channel'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Exchange } from '../results/exchange.ts'
import { exchangeOfEntry, harEntry, type HarEntry } from '../results/har.ts'
import { MALFORMED_TOKEN_PREFIX } from '../results/redactor.ts'
import { harProblems } from '../report/testing.ts'
import { EvidenceLog } from '../shop/evidence.ts'
import { callerClass } from '../shop/exchange-identity.ts'
import { REQUEST_CHANNEL, type FinishedRequest } from '../shop/request-channel.ts'
import type { Outcome, RequestSpec } from '../shop/request.ts'
import { Secrets } from '../shop/secrets.ts'
import { evidenceParts, EVIDENCE_FILE, removeStaleEvidenceParts, writeEvidence } from './evidence.ts'

const BASE = 'http://shop.test/magento'
const ADMIN_TOKEN = 'adm1n-T0KEN-abcdefghijklmnop'
const ADMIN_PASSWORD = 'S3cret pass/word+1'
const CUSTOMER_TOKEN = 'cust0mer-T0KEN-qrstuvwxyz'
const LATE_SECRET = 'learnt-only-at-the-end-0042'
const MALFORMED = `${MALFORMED_TOKEN_PREFIX}0a1b2c3d`

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** What the client publishes for a request: its exchange recorded and redacted with the secrets known then. */
function finished(
  secrets: Secrets,
  spec: RequestSpec,
  status: number | undefined,
  body: unknown,
  startMs: number,
  extra: Partial<Exchange> = {},
): FinishedRequest {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (spec.token !== undefined) headers.authorization = `Bearer ${spec.token}`
  const url = `${BASE}/rest/${spec.store}${spec.path}${spec.query !== undefined ? `?${spec.query}` : ''}`
  const request = { method: spec.method, url, headers, ...(spec.body !== undefined ? { body: spec.body } : {}) }
  const text = JSON.stringify(body)
  const exchange = secrets.redact<Exchange>({
    request,
    ...(status !== undefined ? { response: { status, headers: { 'content-type': 'application/json' }, body } } : {}),
    durationMs: 7,
    ...extra,
  })
  const outcome: Outcome =
    status === undefined
      ? { failure: { kind: 'timeout', message: extra.error ?? 'timeout' }, exchange }
      : { answer: { status, headers: {}, body, json: true, text }, exchange }
  return { spec, outcome, startMs, endMs: startMs + 7 }
}

describe("the run's evidence as HAR 1.2", () => {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-'))
  dirs.push(dir)
  const parts = evidenceParts(dir, 'run42')
  const secrets = new Secrets()
  secrets.add(ADMIN_PASSWORD, 'admin password')
  const known = (t: string) => {
    if (t === ADMIN_TOKEN) return 'admin' as const
    return t === MALFORMED ? ('malformed' as const) : undefined
  }
  const callerOf = (token: string | undefined, authorization: string | undefined) =>
    callerClass(token, authorization, known)
  const publish = (f: FinishedRequest) => diagnostics_channel.channel(REQUEST_CHANNEL).publish(f)
  const now = performance.now()

  // The main thread: the admin's token call, whose answer is the token its caller registers only after it.
  // The session's own tokens by role (seedTokenName); the main thread learns the admin's only from its answer.
  const tokenName = (t: string) => (t === MALFORMED ? 'malformed' : undefined)
  const main = new EvidenceLog(parts.main, {
    runId: 'run42',
    callerOf,
    during: () => 'preflight',
    thread: 'main',
    tokenName,
  })
  publish(
    finished(
      secrets,
      {
        method: 'POST',
        path: '/V1/integration/admin/token',
        store: 'default',
        body: { username: 'admin', password: ADMIN_PASSWORD },
      },
      200,
      ADMIN_TOKEN,
      now,
    ),
  )
  secrets.add(ADMIN_TOKEN, 'admin token')
  main.close()
  // The worker, with secrets of its own (its session's: the main process never learns those it adds): a customer's
  // token, registered as its caller does; probes and a set-up call.
  const workerSecrets = new Secrets()
  for (const [value, label] of secrets.entries()) workerSecrets.add(value, label)
  workerSecrets.add('Cust0mer pw!', 'customer password')
  const worker = new EvidenceLog(parts.worker, {
    runId: 'run42',
    callerOf,
    thread: 'worker',
    tokenName: (t) => (t === ADMIN_TOKEN ? 'admin' : tokenName(t)),
  })
  publish(
    finished(
      workerSecrets,
      {
        method: 'POST',
        path: '/V1/integration/customer/token',
        store: 'default',
        body: { username: 'c@example.com', password: 'Cust0mer pw!' },
      },
      200,
      CUSTOMER_TOKEN,
      now + 1,
    ),
  )
  workerSecrets.add(CUSTOMER_TOKEN, 'other customer token')
  const probe = finished(
    workerSecrets,
    {
      method: 'GET',
      path: '/V1/customers/me',
      store: 'all',
      token: CUSTOMER_TOKEN,
      probe: 'GET /V1/customers/me customer second',
      query: 'fields=id',
    },
    200,
    { id: 5, note: LATE_SECRET },
    now + 3,
  )
  const setUp = finished(
    workerSecrets,
    {
      method: 'POST',
      path: '/V1/products',
      store: 'default',
      token: ADMIN_TOKEN,
      step: 'create product sc-1',
      body: { product: { sku: 'sc-1' } },
    },
    200,
    { id: 9 },
    now + 2,
  )
  const refused = finished(
    workerSecrets,
    {
      method: 'GET',
      path: '/V1/customers/me',
      store: 'default',
      token: MALFORMED,
      probe: 'GET /V1/customers/me malformed first',
    },
    401,
    { message: 'unauthorized' },
    now + 4,
  )
  const lost = finished(
    workerSecrets,
    { method: 'GET', path: '/V1/customerGroups/12', store: 'default', token: ADMIN_TOKEN },
    undefined,
    undefined,
    now + 5,
    { error: 'no complete answer within 10000 ms (TimeoutError)', note: 'asked again after no answer' },
  )
  const unsent = finished(
    workerSecrets,
    { method: 'GET', path: '/V1/customerGroups/13', store: 'default', token: ADMIN_TOKEN },
    undefined,
    undefined,
    now + 6,
    { error: 'not sent: the run was being stopped', durationMs: 0 },
  )
  for (const f of [probe, setUp, refused, lost, unsent]) publish(f)
  // The session's copy of an exchange (a note added) shares its request: it is the same entry.
  worker.served('GET /V1/customers/me › store-code', [
    { ...probe.outcome.exchange, note: 'copied' },
    refused.outcome.exchange,
  ])
  worker.served('GET /V1/customers/me › access', [refused.outcome.exchange])
  worker.close()
  // A secret the main process learns last is redacted as the reports are, when the file is written.
  secrets.add(LATE_SECRET, 'late secret')
  const report = {
    suite: { name: 'shop-conformance', version: '9.9.9' },
    spec: { version: '2.4.7' },
    target: { baseUrl: BASE, storeCode: 'default', secondStoreCode: 'all', bundledReferenceTarget: false },
    run: {
      id: 'run42',
      seed: 7,
      readOnly: false,
      pathAliases: [],
      concurrency: 4,
      timeoutMs: 10_000,
      modules: [],
      checks: ['access'],
    },
    startedAt: new Date().toISOString(),
    calibration: { noRoute: [], unknownStore: [] },
    plan: {
      modules: ['customer'],
      selected: [{ id: 'GET /V1/customers/me › access', module: 'customer', origin: 'spec' }],
    },
  } as unknown as Parameters<typeof writeEvidence>[1]['report']
  const operations = [
    { method: 'GET', path: '/V1/acme/widgets/:id', declaredAccess: 'admin', writes: false, origin: 'extension' },
  ]
  const probeSettings = { readOnly: false, customer: { reads: true, writes: true } }
  const block = writeEvidence([parts.main, parts.worker, parts.cleanup], {
    reportDir: dir,
    report,
    operations,
    probeSettings,
    probeWrites: false,
    pathAliases: [],
    secrets,
  })
  const text = readFileSync(join(dir, EVIDENCE_FILE), 'utf8')
  const har = JSON.parse(text) as { log: { creator: unknown; _run: Record<string, unknown>; entries: HarEntry[] } }
  const entries = har.log.entries

  it('is valid HAR 1.2, one entry per request sent (not what was never sent), the parts removed', () => {
    expect(harProblems(har)).toEqual([])
    expect(block).toEqual({ file: EVIDENCE_FILE, entries: 6, bytes: Buffer.byteLength(text) })
    expect(entries).toHaveLength(6)
    expect(entries.some((e) => e.request.url.endsWith('/V1/customerGroups/13'))).toBe(false)
    expect(readdirSync(dir)).toEqual([EVIDENCE_FILE])
    expect(har.log.creator).toEqual({ name: 'shop-conformance', version: '9.9.9' })
    // What a judge of the entries needs besides them: the run, its target and settings, the shop's own operations.
    expect(har.log._run).toMatchObject({
      id: 'run42',
      seed: 7,
      readOnly: false,
      target: { baseUrl: BASE, storeCode: 'default', secondStoreCode: 'all' },
      operations,
    })
    // What `judge --har` plans with as the run did: its selection, its probe settings, the checks it planned.
    expect(har.log._run).toMatchObject({
      modules: ['customer'],
      checks: ['access'],
      probeSettings,
      probeWrites: false,
      planned: ['GET /V1/customers/me › access'],
    })
  })

  it("holds its entries in the order sent, across the threads' parts", () => {
    expect(
      entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname.replace('/magento/rest', '')}`),
    ).toEqual([
      'POST /default/V1/integration/admin/token',
      'POST /default/V1/integration/customer/token',
      'POST /default/V1/products',
      'GET /all/V1/customers/me',
      'GET /default/V1/customers/me',
      'GET /default/V1/customerGroups/12',
    ])
    const starts = entries.map((e) => e.startedDateTime)
    expect([...starts].sort()).toEqual(starts)
  })

  it("tags each entry: run, caller's class, step or probe, endpoint, store, the checks it served", () => {
    const [adminToken, customerToken, product, me, meMalformed, order] = entries
    expect(adminToken).toMatchObject({
      _runId: 'run42',
      _caller: 'none',
      _step: 'preflight',
      _endpoint: 'POST /V1/integration/admin/token',
      _origin: 'spec',
      _store: 'default',
    })
    expect(customerToken).toMatchObject({ _caller: 'none', _endpoint: 'POST /V1/integration/customer/token' })
    expect(product).toMatchObject({ _caller: 'admin', _step: 'create product sc-1', _endpoint: 'POST /V1/products' })
    expect(product!._checks).toBeUndefined()
    // A token the sender did not know: its class by the redaction's label.
    expect(me).toMatchObject({
      _caller: 'other customer',
      _probe: 'GET /V1/customers/me customer second',
      _store: 'all',
      _checks: ['GET /V1/customers/me › store-code'],
    })
    expect(me!.request.queryString).toEqual([{ name: 'fields', value: 'id' }])
    expect(meMalformed).toMatchObject({
      _caller: 'malformed',
      _checks: ['GET /V1/customers/me › store-code', 'GET /V1/customers/me › access'],
    })
    expect(order).toMatchObject({
      _caller: 'admin',
      _endpoint: 'GET /V1/customerGroups/:id',
      _error: 'no complete answer within 10000 ms (TimeoutError)',
      comment: 'asked again after no answer',
    })
    expect(order!.response).toMatchObject({ status: 0, content: { size: 0 } })
  })

  it("names the token each was sent with, never its value: the session's own by role, others by their thread and number", () => {
    const [adminToken, customerToken, product, me, meMalformed, order] = entries
    // The main thread did not know the admin token as its own when it came: numbered there; the worker knows it.
    expect(adminToken).toMatchObject({ _issued: 'main.1' })
    expect(adminToken!._token).toBeUndefined()
    expect(customerToken).toMatchObject({ _issued: 'worker.1' })
    expect(product).toMatchObject({ _token: 'admin' })
    expect(order).toMatchObject({ _token: 'admin' })
    // The customer's token, redacted alike with any other customer's, is told apart by the name its token call gave it.
    expect(me).toMatchObject({ _token: 'worker.1' })
    expect(meMalformed).toMatchObject({ _token: 'malformed' })
  })

  it("writes bodies as sent and answered: JSON as JSON text, a token's answer redacted", () => {
    const [adminToken, customerToken, product] = entries
    expect(product!.request.postData).toEqual({ mimeType: 'application/json', text: '{"product":{"sku":"sc-1"}}' })
    expect(product!.response.content).toMatchObject({ mimeType: 'application/json', text: '{"id":9}' })
    expect(adminToken!.request.postData!.text).toBe('{"username":"admin","password":"[redacted]"}')
    expect(adminToken!.response.content.text).toBe('"[redacted admin token]"')
    expect(customerToken!.response.content.text).toBe('"[redacted customer token]"')
  })

  it('reads back as the exchanges recorded: what a judge of the recording reads', () => {
    const [, , product, me, meMalformed, order] = entries
    expect(exchangeOfEntry(product!)).toEqual(setUp.outcome.exchange)
    // As every report holds it: the secret learnt at the end redacted too.
    expect(exchangeOfEntry(me!)).toEqual(secrets.redact(probe.outcome.exchange))
    expect(exchangeOfEntry(meMalformed!)).toEqual(refused.outcome.exchange)
    expect(exchangeOfEntry(order!)).toEqual(lost.outcome.exchange)
    // A body recorded as a JSON string stays one; a text that is no JSON stays text.
    const text = (body: unknown, json: boolean) =>
      exchangeOfEntry(
        harEntry(
          { ...setUp.outcome.exchange, response: { status: 200, headers: {}, body } },
          { runId: 'r', caller: 'admin', startedAt: 0, json },
        ),
      )
    expect(text('', true).response!.body).toBe('')
    expect(text('<html>busy</html>', false).response!.body).toBe('<html>busy</html>')
    expect(text('{"cut… [20 more characters not recorded]', true).response!.body).toBe(
      '{"cut… [20 more characters not recorded]',
    )
  })

  it('holds no secret: no token, password or secret the run knew, in any form', () => {
    for (const secret of [ADMIN_TOKEN, ADMIN_PASSWORD, CUSTOMER_TOKEN, 'Cust0mer pw!', LATE_SECRET]) {
      expect(text).not.toContain(secret)
      expect(text).not.toContain(encodeURIComponent(secret))
      expect(text).not.toContain(JSON.stringify(secret).slice(1, -1))
    }
    expect(text).toContain('Bearer [redacted admin token]')
    expect(text).toContain('[redacted late secret]')
    // The suite's own made-up malformed token is no secret: kept, so the probe can be repeated.
    expect(text).toContain(`Bearer ${MALFORMED}`)
  })
})

describe('the parts a killed run left', () => {
  it('are removed by the next run into the directory, its own and every other file kept', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shop-evidence-stale-'))
    try {
      const dead = evidenceParts(dir, 'killed7')
      const live = evidenceParts(dir, 'run42')
      for (const file of [
        dead.main,
        dead.worker,
        live.main,
        join(dir, 'ledger.killed7.jsonl'),
        join(dir, EVIDENCE_FILE),
      ])
        writeFileSync(file, '{}\n')
      removeStaleEvidenceParts(dir, 'run42')
      expect(readdirSync(dir).sort()).toEqual(['.evidence-run42-main.jsonl', EVIDENCE_FILE, 'ledger.killed7.jsonl'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
