import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import {
  diffSnapshots,
  FOREIGN_DATA,
  REFERENCE_ADMIN,
  startReferenceTarget,
  type ReferenceTarget,
  type ReferenceTargetOptions,
} from '../../reference-target/index.ts'
import { makeTestCa } from '../../reference-target/tls-testing.ts'
import { cli, everythingWritten, type CliRun } from '../cli/testing.ts'
import type { Report } from '../report/model.ts'
import { harProblems } from '../report/testing.ts'
import type { HarEntry } from '../results/har.ts'
import { REPORT_FILES } from '../report/write.ts'
import { ANSWER_DEADLINE_MS, queued } from '../../test-setup/deadlines.ts'
import { endpointText } from '../spec/endpoint-id.ts'

/** POSTs the checks recorded (each probe once): they must all be calls of the token endpoints. */
function tokenEndpointProbes(report: Report): number {
  const posts = new Set(
    report.results
      .flatMap((r) => r.exchanges)
      .filter((e) => e.request.method === 'POST')
      .map((e) => JSON.stringify(e.request)),
  )
  for (const p of posts) expect(p).toMatch(/\/V1\/integration\/(admin|customer)\/token"/)
  return posts.size
}

/** Registers a customer through the interface, as a shop's own customer would be (not the run's). */
async function customerOf(t: { url: string }, email: string, password: string): Promise<void> {
  const res = await fetch(`${t.url}/rest/default/V1/customers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ customer: { email, firstname: 'Staging', lastname: 'Tester' }, password }),
  })
  expect(res.status).toBe(200)
}

/**
 * `t` behind a gateway that notes when each request reached it (`performance.now()`) and what it was; `padBytes`
 * spaces added to each answer (still the same JSON) make every recorded exchange as large as the suite records one.
 */
async function timedProxy(
  t: { url: string },
  padBytes = 0,
): Promise<{ url: string; arrivals: { at: number; what: string }[]; close: () => Promise<void> }> {
  const arrivals: { at: number; what: string }[] = []
  const upstream = new URL(t.url)
  const pad = Buffer.from(' '.repeat(padBytes))
  const server = createServer((req, res) => {
    arrivals.push({ at: performance.now(), what: `${req.method} ${req.url}` })
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (c: Buffer) => chunks.push(c))
        answer.on('end', () => {
          const body = Buffer.concat([...chunks, pad])
          const { 'transfer-encoding': _chunked, ...headers } = answer.headers
          res.writeHead(answer.statusCode!, { ...headers, 'content-length': String(body.length) }).end(body)
        })
      },
    )
    forward.on('error', () => res.destroy())
    req.pipe(forward)
  })
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    close: () => new Promise((closed) => server.close(() => closed())),
  }
}

const ADMIN_ENV = { SHOP_ADMIN_USERNAME: REFERENCE_ADMIN.username, SHOP_ADMIN_PASSWORD: REFERENCE_ADMIN.password }

/** One call of the target's interface as a shop's own users make it (not the run's). */
async function shopCall(
  t: { url: string },
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<unknown> {
  const res = await fetch(`${t.url}/rest/default${path}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  })
  expect(res.status, endpointText({ method, path })).toBe(200)
  return res.json()
}

/**
 * The configured customer's cart holding a product with a coupon applied: the shop's own data, as a staging tester left
 * it.
 */
async function cartWithCoupon(
  t: { url: string },
  email: string,
  password: string,
): Promise<{ token: string; code: string }> {
  const admin = (await shopCall(t, 'POST', '/V1/integration/admin/token', undefined, {
    username: REFERENCE_ADMIN.username,
    password: REFERENCE_ADMIN.password,
  })) as string
  const rule = (await shopCall(t, 'POST', '/V1/salesRules', admin, {
    rule: {
      name: 'Staging 10 %',
      is_active: true,
      website_ids: [1],
      customer_group_ids: [0, 1],
      coupon_type: 'SPECIFIC_COUPON',
      use_auto_generation: true,
      simple_action: 'by_percent',
      discount_amount: 10,
    },
  })) as { rule_id: number }
  const code = 'STAGING10'
  await shopCall(t, 'POST', '/V1/coupons', admin, {
    coupon: { rule_id: rule.rule_id, code, type: 1, is_primary: false, times_used: 0 },
  })
  const token = (await shopCall(t, 'POST', '/V1/integration/customer/token', undefined, {
    username: email,
    password,
  })) as string
  await shopCall(t, 'POST', '/V1/carts/mine', token)
  await shopCall(t, 'POST', '/V1/carts/mine/items', token, { cartItem: { sku: FOREIGN_DATA.skus[0], qty: 1 } })
  await shopCall(t, 'PUT', `/V1/carts/mine/coupons/${code}`, token)
  return { token, code }
}

describe.concurrent('safe on shared staging, unbreakable by broken targets', () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const c of closers) await c()
  })
  async function target(options: ReferenceTargetOptions = {}) {
    const t = await startReferenceTarget(options)
    closers.push(() => t.close())
    return t
  }

  /** Results judged on an answer, in how many modules; and whether any rests on a request the stop cut off. */
  const judged = (r: Report) => {
    const applicable = r.results.filter((x) => x.applicable !== false)
    return {
      count: applicable.length,
      modules: new Set(applicable.map((x) => x.module)).size,
      cutOff: applicable
        .filter((x) => x.exchanges.some((e) => /the run was being stopped/.test(e.error ?? '')))
        .map((x) => x.id),
    }
  }

  // First the two that run alone (no other run of this file beside them), then all the others side by side, the
  // whole run on a shop with data of its own among them: placed between them, and the whole run after them all,
  // the file was a chain of four waits.

  // Alone, not beside another run: it is interrupted at a point of its progress, which another run would slow.
  it.sequential('Ctrl-C stops the run, keeps every finished result, cleans up and writes a partial report', {
    timeout: queued(120_000),
  }, async () => {
    const t = await target({ latencyMs: 5 })
    // Interrupted some 900 requests in (of some 2,300; suite files run one after another, so several have finished by
    // then): however fast this machine is today.
    const run = await cli(['run', '--base-url', t.url, '--concurrency', '2'], ADMIN_ENV, {
      signal: { name: 'SIGINT', when: () => t.stats().requests >= 900 },
    })
    expect(run.status).toBe(130)
    expect(run.stderr).toMatch(/SIGINT received: stopping, cleaning up and writing a partial report/)
    const r = run.report!
    expect(r.partial).toEqual({ reason: 'SIGINT' })
    expect(r.runErrors).toContain('the run was interrupted (SIGINT)')
    expect(r.exit).toEqual({ status: 130, reason: 'interrupted by SIGINT: the results cover only what finished' })
    // The results judged before the interrupt, from every module that got that far (vitest had reported
    // none of them: its first file's tests wait on checks queued behind every other module's), and none
    // judged on a request the interrupt cut off.
    const j = judged(r)
    // Several modules' results: at load 8 (the whole npm test beside it) 48, on a quiet machine some hundreds.
    expect(j.count).toBeGreaterThan(20)
    expect(j.modules).toBeGreaterThan(1)
    expect(j.cutOff).toEqual([])
    expect(r.certification.verdict).toBe('incomplete')
    // What it had created is removed (the customers of its own at least).
    expect(r.cleanup.removed).toBeGreaterThan(0)
    // Its evidence too, written on the way out: what it sent before the interrupt and the cleanup process's calls,
    // the threads' parts joined and gone.
    const har = JSON.parse(readFileSync(join(run.dir, 'reports', 'evidence.har'), 'utf8')) as {
      log: { entries: HarEntry[] }
    }
    expect(harProblems(har)).toEqual([])
    expect(har.log.entries.length).toBeGreaterThan(900)
    expect(r.evidence?.entries).toBe(har.log.entries.length)
    expect(har.log.entries.filter((e) => e._step === 'cleanup').length).toBeGreaterThan(0)
    expect(readdirSync(join(run.dir, 'reports')).filter((f) => f.startsWith('.evidence-'))).toEqual([])
  })

  // Its length is the target's latency (some 110 requests one after another, 100 ms each: 11 s, on any machine),
  // so its tokens expire at least once; a loaded machine (30 s) renews each at most four times, not the run's
  // most (MAX_RENEWALS, 10), as 1.5 s tokens did. Alone, not beside another run all the same.
  it.sequential('renews a token that expires mid-run, once per expiry, and goes on', {
    timeout: queued(120_000),
  }, async () => {
    const t = await target({ tokenTtlMs: 8_000, latencyMs: 100 })
    const run = await cli(
      ['run', '--base-url', t.url, '--module', 'customer', '--check', 'access', '--concurrency', '2'],
      ADMIN_ENV,
      { slot: 'waiting' },
    )
    expect(run.report!.durationMs).toBeGreaterThan(8_000) // the tokens did expire during the run
    expect(run.stderr).not.toMatch(/✗/)
    expect(run.report!.notes).toContain('the admin token expired during the run and was renewed')
    expect(run.stdout).toMatch(/Note: the (admin|customer) token expired during the run and was renewed/)
    expect(run.status).toBe(0)
  })

  it('read-only mode sends only token calls and GET requests', { timeout: queued(120_000) }, async () => {
    const t = await target()
    const run = await cli(['run', '--base-url', t.url, '--read-only'], ADMIN_ENV)
    expect(run.status).toBe(0)
    // POSTs only to the token endpoints: the admin token, and the probes of the two token endpoints (empty
    // bodies, refused: they lock no account). No customer is registered without configured credentials.
    expect(Object.keys(t.stats().byMethod).sort()).toEqual(['GET', 'POST'])
    const postsRecorded = tokenEndpointProbes(run.report!)
    expect(t.stats().byMethod.POST).toBe(1 + postsRecorded)
    expect(run.report!.run.readOnly).toBe(true)
    expect(run.report!.created).toEqual([])
    const writes = run.report!.results.filter(
      (r) => r.endpoint.method !== 'GET' && r.check === 'route' && !r.endpoint.path.endsWith('/token'),
    )
    expect(writes.every((r) => r.status === 'skipped' && /read-only mode/.test(r.message))).toBe(true)
    // Every check left unjudged says why as a code, counted per reason in the reports.
    const unjudged = run.report!.results.filter(
      (r) => r.status === 'skipped' && r.applicable !== false && r.extension !== true,
    )
    expect(unjudged.length).toBeGreaterThan(100)
    expect(unjudged.filter((r) => r.reason === undefined).map((r) => r.id)).toEqual([])
    // Without a limited admin, the acl checks are not configured: said so, not passed.
    expect(new Set(unjudged.map((r) => r.reason))).toEqual(
      new Set(['read-only', 'no-customer-token', 'earlier-step', 'not-configured']),
    )
    expect(writes.every((r) => r.reason === 'read-only')).toBe(true)
    // The shop's extension operations: no write sent (the POSTs above are all), each write's checks not judged for it.
    const extensionWrites = run.report!.results.filter((r) => r.origin === 'extension' && r.endpoint.method !== 'GET')
    expect(extensionWrites.length).toBeGreaterThan(0)
    expect(extensionWrites.map((r) => `${r.status} ${r.reason}`)).toEqual(
      extensionWrites.map(() => 'skipped read-only'),
    )
    // The reads are judged; only their access is not, as read-only mode registers no customer, whose schema view tells
    // the classes apart.
    const reads = run.report!.results.filter((r) => r.origin === 'extension' && r.endpoint.method === 'GET')
    expect(
      reads
        .filter((r) => r.status !== 'passed')
        .every((r) => r.check === 'extension-access' && /customer caller's schema was not read/.test(r.message)),
    ).toBe(true)
    expect(reads.filter((r) => r.status === 'passed').length).toBeGreaterThan(0)
    expect(readFileSync(join(run.dir, 'reports', 'summary.md'), 'utf8')).toMatch(
      /- \*\*Read-only:\*\*[^\n]*\n[\s\S]*\| read-only mode \(the call would write\) \| \d+ \|/,
    )

    await customerOf(t, 'staging.tester@example.com', 'Staging-Pw-123')
    const before = t.stats().byMethod.POST ?? 0
    const withCustomer = await cli(['run', '--base-url', t.url, '--read-only', '--check', 'access'], {
      ...ADMIN_ENV,
      SHOP_CUSTOMER_EMAIL: 'staging.tester@example.com',
      SHOP_CUSTOMER_PASSWORD: 'Staging-Pw-123',
    })
    expect(withCustomer.status, withCustomer.stdout + withCustomer.stderr).toBe(0)
    // Two token calls (admin, customer) besides the probes of the token endpoints; nothing else that is not a GET.
    expect((t.stats().byMethod.POST ?? 0) - before).toBe(2 + tokenEndpointProbes(withCustomer.report!))
    expect(Object.keys(t.stats().byMethod).sort()).toEqual(['GET', 'POST'])
  })

  // Issue 31.2: `--max-rps 3` capped only the checks; the preflight sent 24 requests in 0.4 s, the cleanup 6 deletes in
  // 10 ms — the calls a rate-limiting gateway must not refuse. Measured where the gateway stands: in front of the shop.
  it('--max-rps holds for every request the run sends, from the first token call to the last cleanup call', {
    timeout: queued(180_000),
  }, async () => {
    const t = await target()
    const gateway = await timedProxy(t)
    closers.push(gateway.close)
    const maxRps = 8
    const run = await cli(
      ['run', '--base-url', gateway.url, '--module', 'directory', '--max-rps', String(maxRps)],
      ADMIN_ENV,
      { slot: 'waiting' },
    )
    expect(run.status, run.stderr).toBe(0)
    const arrivals = gateway.arrivals
    // The whole run went through it: its token call first, its cleanup's deletes (and its sweep's reads) last.
    expect(arrivals[0]!.what).toMatch(/^POST \/rest\/default\/V1\/integration\/admin\/token/)
    expect(run.report!.cleanup.removed).toBeGreaterThan(1)
    expect(arrivals.filter((a) => a.what.startsWith('DELETE ')).length).toBeGreaterThanOrEqual(
      run.report!.cleanup.removed,
    )
    expect(arrivals.length).toBeGreaterThan(40)
    // No second holds more than the cap: each request left its turn 1/N s after the one before, as the run's evidence
    // records when each left (a loaded machine may send one late, never early). Counted where they left, not where the
    // gateway stamped them: a gateway in a busy test worker read three requests 125 ms apart in one go (load 9).
    const har = JSON.parse(readFileSync(join(run.dir, 'reports', 'evidence.har'), 'utf8')) as {
      log: { entries: HarEntry[] }
    }
    const left = har.log.entries.map((e) => ({
      at: Date.parse(e.startedDateTime),
      what: `${e.request.method} ${e.request.url}`,
    }))
    expect(left.length).toBe(arrivals.length)
    const busiest = Math.max(...left.map((a) => left.filter((b) => b.at >= a.at && b.at < a.at + 1_000).length))
    // One more for the milliseconds the timestamps are rounded to.
    expect(busiest, left.map((a) => `${a.at} ${a.what}`).join('\n')).toBeLessThanOrEqual(maxRps + 1)
    // The report's run settings say it.
    expect(run.report!.run.maxRps).toBe(maxRps)
  })

  // Issue 22: a target that goes away (a staging redeploy) is an outage, not a verdict: "18.5 %, does not conform"
  // with 241 results failed for requests never sent blamed the pull request a CI gate ran for.
  it('a target that goes away mid-run is a run error (exit 2, when and after how many requests), not failed results, and a report, not a hang', {
    timeout: queued(180_000),
  }, async () => {
    const t = await target({ dieAfterRequests: 400 })
    const run = await cli(['run', '--base-url', t.url, '--timeout-ms', String(ANSWER_DEADLINE_MS)], ADMIN_ENV)
    expect(run.status).toBe(2)
    const r = run.report!
    expect(r.partial).toMatchObject({ reason: 'target-gone', requests: expect.any(Number) })
    expect(r.exit.reason).toMatch(
      /^the run was cut short: the target stopped answering at \S+, after \d+ requests: the requests after that were not sent/,
    )
    expect(run.stdout).toMatch(/\nExit 2: the run was cut short: the target stopped answering at /)
    // Issue 31.4: one story in every output, never "a run that never started".
    expect(run.stdout).toMatch(
      /\nRun: a run cut short after \d+ requests by the target, which stopped answering; it judged \d+ of \d+ required checks; /,
    )
    expect(r.certification.verdict).toBe('incomplete')
    // Nothing failed for a request never sent or never answered; what they would have judged is not judged.
    expect(r.results.filter((x) => x.status === 'failed' && x.exchanges.some((e) => e.error !== undefined))).toEqual([])
    expect(r.results.filter((x) => x.reason === 'target-gone').length).toBeGreaterThan(0)
    expect(r.results.filter((x) => x.status === 'passed').length).toBeGreaterThan(0)
  })

  it('a deadline cuts the run short by the end it printed, cleanup and reports included, and exits 124', {
    timeout: queued(120_000),
  }, async () => {
    // A deadline a loaded machine's start-up (some 15 s at a load of 20) leaves time in — 30 s judged only 20 results
    // at load 13, its reports' time kept at that load — on a target slow enough (some 2,300 requests, two at a time,
    // 50 ms each: about a minute) that no machine finishes before it, and fast enough that several modules' results
    // (each restricted endpoint probed with a valid request) come before it.
    const t = await target({ latencyMs: 50 })
    const run = await cli(['run', '--base-url', t.url, '--concurrency', '2', '--run-timeout-ms', '45000'], ADMIN_ENV, {
      slot: 'waiting',
    })
    const closedAt = Date.now()
    expect(run.status).toBe(124)
    const endsBy = Date.parse(
      /ends by (\S+) at the latest \(cleanup and reports included; /.exec(run.stdout)?.[1] ?? '',
    )
    // The process itself was gone by then (the slack is the child's exit and this busy worker noticing it).
    expect(closedAt).toBeLessThanOrEqual(endsBy + 3_000)
    const r = run.report!
    expect(Date.parse(r.finishedAt)).toBeLessThanOrEqual(endsBy)
    expect(r.partial).toEqual({ reason: 'deadline' })
    expect(r.exit.reason).toMatch(/^cut short by the run deadline/)
    const j = judged(r)
    // Several modules' results: at load 8 (the whole npm test beside it) 48, on a quiet machine some hundreds.
    expect(j.count).toBeGreaterThan(20)
    expect(j.cutOff).toEqual([])
    expect(run.stdout).toContain('Exit 124: cut short by the run deadline')
  })

  // Issue 31.7: a loaded machine wrote a 15 s run's last report 1.4 s past the end it printed; one with answers of
  // 20 kB (each exchange recorded at the suite's 16 kB: a report of some 20 MB) wrote it 5 s past. The reports' time
  // is measured as the end nears, and the run stops earlier for it.
  it('a deadline keeps the printed end with a large report too: every file written by then', {
    timeout: queued(150_000),
  }, async () => {
    // Some 2,300 requests, four at a time, 100 ms each (about a minute): cut short on any machine, with answers enough
    // for a large report (30 s at load 13 gave 1.7 MB).
    const t = await target({ latencyMs: 100 })
    const large = await timedProxy(t, 20_000)
    closers.push(large.close)
    const run = await cli(
      ['run', '--base-url', large.url, '--concurrency', '4', '--run-timeout-ms', '45000'],
      ADMIN_ENV,
      { slot: 'waiting' },
    )
    expect(run.status, run.stderr).toBe(124)
    const endsBy = Date.parse(/ends by (\S+) at the latest/.exec(run.stdout)?.[1] ?? '')
    // A second of slack for the child's last write reaching the disk's clock; the reports' time is kept by the run at
    // this machine's load (before issue 31 they came 3–5 s late; at load 19, with the first step's time alone, 15 s).
    const written = REPORT_FILES.map((f) => [f, statSync(join(run.dir, 'reports', f)).mtimeMs] as const)
    expect(
      written.filter(([, at]) => at > endsBy + 1_000).map(([f, at]) => `${f} ${Math.round(at - endsBy)} ms late`),
    ).toEqual([])
    // Large enough that writing it takes more than the least kept for it (1 s) on a loaded machine: fewer results come
    // before the deadline the more the machine is loaded (6 MB at load 11–13 alone, 2.0 MB at load 9 and 1.7 MB at
    // load 13 within the whole npm test).
    expect(statSync(join(run.dir, 'reports', 'report.json')).size).toBeGreaterThan(1_000_000)
    // What the printed end depends on, said with it.
    expect(run.stdout).toContain(
      'at the latest (cleanup and reports included; a machine loaded past its cores may delay the reports)',
    )
  })

  it('a deadline that comes before the start is over: cut short by the end it printed (124, not "could not be made"), what it had made removed or listed as left over', {
    timeout: queued(120_000),
  }, async () => {
    // The customer check is held back for a minute: the start has registered its customers and waits for that answer
    // when the 10-s run's deadline comes (its stop is at least 3 s before the end, the answer's deadline 10 s after the
    // check was sent), on any machine — a target slow at every answer left a start at load 18 that had made nothing
    // yet.
    const t = await target({
      faults: [{ name: 'slow', method: 'GET', path: '/V1/carts/mine/payment-information' }],
      slowMs: 60_000,
    })
    const run = await cli(
      ['run', '--base-url', t.url, '--run-timeout-ms', '10000', '--timeout-ms', String(ANSWER_DEADLINE_MS)],
      ADMIN_ENV,
      { slot: 'waiting' },
    )
    const closedAt = Date.now()
    const endsBy = Date.parse(/ends by (\S+) at the latest/.exec(run.stdout)?.[1] ?? '')
    expect(closedAt).toBeLessThanOrEqual(endsBy + 500)
    expect(run.status).toBe(124)
    const r = run.report!
    expect(Date.parse(r.finishedAt)).toBeLessThanOrEqual(endsBy)
    expect(r.exit.reason).toMatch(/^cut short by the run deadline/)
    expect(run.stderr).not.toMatch(/undefined/)
    expect(run.stdout).toContain('Exit 124: cut short by the run deadline')
    // The customers the start had registered (two): removed in the time kept for the cleanup, or in the report as left
    // over (a loaded machine's cleanup cut off by the end), never forgotten on the shop (at load 9 the shop held 2 and
    // the report listed 3: one registration cut off in flight, which the shop may have made).
    const left = r.cleanup.leftovers.filter((l) => l.kind === 'customer')
    expect(r.cleanup.removed + left.length).toBeGreaterThanOrEqual(2)
    // Every customer on the shop is listed (a registration cut off in flight is listed too: it may have been made).
    for (const id of Object.keys(t.snapshot().customers)) expect(left.map((l) => l.id)).toContain(id)
    for (const l of left) expect(l.reason).toMatch(/run (reached its deadline|was being stopped)/)
  })

  it('verifies TLS certificates: a private CA through NODE_EXTRA_CA_CERTS, --insecure only when asked', {
    timeout: queued(120_000),
  }, async () => {
    const caDir = mkdtempSync(join(tmpdir(), 'shop-ca-'))
    onTestFinished(() => rmSync(caDir, { recursive: true, force: true }))
    const ca = makeTestCa(caDir)
    const t = await target({ tls: { key: readFileSync(ca.keyPath), cert: readFileSync(ca.certPath) } })
    expect(t.url).toMatch(/^https:/)
    const args = ['run', '--base-url', t.url, '--module', 'directory']
    const trusted = await cli(args, { ...ADMIN_ENV, NODE_EXTRA_CA_CERTS: ca.caCertPath })
    expect(trusted.status).toBe(0)
    const untrusted = await cli(args, ADMIN_ENV)
    expect(untrusted.status).toBe(2)
    expect(untrusted.stderr).toMatch(/^shop-conformance: target unreachable: .*(certificate|CERT)/)
    expect(untrusted.stderr.trim().split('\n')).toHaveLength(1)
    // Issue 31.12: the one line says what to do about it.
    expect(untrusted.stderr).toMatch(
      /: the target's TLS certificate could not be verified — for a private CA, set NODE_EXTRA_CA_CERTS=\/path\/ca\.pem; to skip verification, pass --insecure \(every report then says so\)\n$/,
    )
    const insecure = await cli([...args, '--insecure'], ADMIN_ENV)
    expect(insecure.status).toBe(0)
    expect(insecure.report!.target.tlsVerification).toBe('off (--insecure)')
    expect(insecure.stdout).toMatch(/TLS certificates NOT verified/)
  })

  it('sends nothing on --dry-run, and nothing on a bad setting', { timeout: queued(120_000) }, async () => {
    const t = await target()
    const dry = await cli(['run', '--base-url', t.url, '--dry-run'], ADMIN_ENV)
    expect(dry.status).toBe(0)
    expect(dry.stdout).toContain(`GET ${t.url}/rest/default/V1/directory/currency  [none]`)
    // Refused before the first request, with a target given: the run's settings are read before anything is
    // sent (every refusal of that parser: lib/settings/config.test.ts; an unreadable baseline: lib/cli/cli.test.ts).
    const refused = await cli(['run', '--base-url', t.url], { SHOP_ADMIN_USERNAME: 'admin' })
    expect(refused.status).toBe(2)
    expect(refused.stderr).toMatch(
      /^shop-conformance: SHOP_ADMIN_PASSWORD: missing while SHOP_ADMIN_USERNAME is set[^\n]*\n$/,
    )
    expect(t.stats().requests).toBe(0)
  })

  // One whole run serves both: a shop with data of its own (the configured customer among it), the run's tokens and
  // passwords.
  describe('a whole run on a shop with data of its own, with a configured customer', () => {
    const email = 'secret.holder@example.com'
    const password = 'Customer-Secret-Pw-77'
    let t: ReferenceTarget
    let before: ReturnType<ReferenceTarget['snapshot']>
    let run: CliRun
    let coupon: { token: string; code: string }
    beforeAll(async () => {
      // The shop publishes its schema as the platform does: a `mine` method with an admin twin is left out of the
      // customer's view (issue 21: such an extension operation, taken for admin-only, was sent with this customer's
      // token and removed the coupon of its cart).
      t = await startReferenceTarget({ seedForeignData: true, variants: ['schema-hides-mine'] })
      await customerOf(t, email, password)
      coupon = await cartWithCoupon(t, email, password)
      before = t.snapshot()
      run = await cli(['run', '--base-url', t.url], {
        ...ADMIN_ENV,
        SHOP_CUSTOMER_EMAIL: email,
        SHOP_CUSTOMER_PASSWORD: password,
      })
    }, queued(180_000))
    afterAll(async () => {
      await t.close()
    })

    it('never prints or writes a password, a token or an Authorization value', () => {
      expect(run.status).toBe(0)
      const all = everythingWritten(run)
      const secrets = [REFERENCE_ADMIN.password, password, ...t.issuedTokens()]
      expect(t.issuedTokens().length).toBeGreaterThan(3)
      for (const secret of secrets)
        expect(all.includes(secret), `a secret of ${secret.length} characters leaked`).toBe(false)
      expect(all).not.toMatch(/[A-Za-z0-9_-]{16}aA1!/) // passwords the suite makes for its own customers
      expect(all).not.toMatch(/"authorization": "Bearer (?!\[redacted|shop-conformance-malformed-)/i)
    })

    // Issue 21: the configured customer is the user's; a write with its token changed a real customer's cart.
    it("never sends a write with the configured customer's token (its reads are fine): its cart keeps its coupon", async () => {
      expect(run.status).toBe(0)
      // Its own set-up's writes (before the run) aside, nothing the run sent.
      expect(t.customerWrites(email).slice(3)).toEqual([])
      expect(await shopCall(t, 'GET', '/V1/carts/mine/coupons', coupon.token)).toBe(coupon.code)
      // The mine coupon call the schema lists for admins only is checked as the self operation it is.
      const ext = run.report!.results.filter(
        (x) => x.extension === true && x.endpoint.path === '/V1/carts/mine/coupons',
      )
      expect(ext.length).toBeGreaterThan(0)
      expect(ext.filter((x) => x.status === 'failed')).toEqual([])
    })

    // Issue 31.15: the report shows it, the configured customer's token labelled apart from the run's own customers'.
    it("shows in its report that the configured customer's token was only read with", () => {
      const labelled = (label: string) =>
        run
          .report!.results.flatMap((x) => x.exchanges)
          .filter((e) => Object.values(e.request.headers).some((v) => v.includes(`[redacted ${label}]`)))
      const configured = labelled('configured customer token')
      expect(configured.length).toBeGreaterThan(0)
      expect([...new Set(configured.map((e) => e.request.method))]).toEqual(['GET'])
      expect(labelled('customer token').some((e) => e.request.method !== 'GET')).toBe(true)
    })

    it('changes and deletes nothing that existed before, removes what it can of its own, and lists the rest', () => {
      expect(run.status).toBe(0)
      const diff = diffSnapshots(before, t.snapshot())
      expect(diff.changed, 'foreign entities changed').toEqual([])
      expect(diff.removed, 'foreign entities removed').toEqual([])
      // What the interface can remove is gone; what it cannot (no delete call) is the run's own and listed.
      const kindOf = (path: string) => path.split('/')[0]!
      expect(
        diff.added.filter((p) => !['carts', 'orders', 'invoices', 'shipments', 'creditmemos'].includes(kindOf(p))),
      ).toEqual([])
      const leftovers = run.report!.cleanup.leftovers
      const listed = (kind: string) => new Set(leftovers.filter((l) => l.kind === kind).map((l) => l.id))
      for (const [snapshotKind, ledgerKind] of [
        ['orders', 'order'],
        ['invoices', 'invoice'],
        ['shipments', 'shipment'],
        ['creditmemos', 'credit memo'],
      ] as const) {
        const added = diff.added.filter((p) => kindOf(p) === snapshotKind).map((p) => p.split('/')[1])
        expect(added.length, snapshotKind).toBeGreaterThan(0)
        for (const id of added)
          expect(listed(ledgerKind).has(id!), `${snapshotKind}/${id} is not in the report's leftovers`).toBe(true)
      }
      const carts = diff.added.filter((p) => kindOf(p) === 'carts').length
      expect(listed('cart').size + listed('guest cart').size).toBe(carts)
      expect(leftovers.every((l) => /the interface has no call that removes/.test(l.reason))).toBe(true)
    })

    // Issue 29: carts named only by a masked id the shop no longer answered once their orders were placed, and
    // shipments of the pickup notice not named at all (diff above).
    it('names every leftover by what the shop still answers to: a cart by its cart id and the order it became', async () => {
      expect(run.status).toBe(0)
      const admin = (await shopCall(t, 'POST', '/V1/integration/admin/token', undefined, {
        username: REFERENCE_ADMIN.username,
        password: REFERENCE_ADMIN.password,
      })) as string
      const reads: Record<string, (id: string) => string> = {
        order: (id) => `/V1/orders/${id}`,
        invoice: (id) => `/V1/invoices/${id}`,
        shipment: (id) => `/V1/shipment/${id}/label`,
        'credit memo': (id) => `/V1/creditmemo/${id}`,
        cart: (id) => `/V1/carts/${id}`,
        'guest cart': (id) => (/^\d+$/.test(id) ? `/V1/carts/${id}` : `/V1/guest-carts/${id}`),
        'inventory source': (id) => `/V1/inventory/sources/${id}`,
        'bulk operation': (id) => `/V1/bulk/${id}/status`,
      }
      const leftovers = run.report!.cleanup.leftovers
      const unanswered: string[] = []
      const cartless: string[] = []
      for (const l of leftovers) {
        const path = reads[l.kind]?.(l.id)
        const res =
          path === undefined
            ? undefined
            : await fetch(`${t.url}/rest/default${path}`, {
                headers: { accept: 'application/json', authorization: `Bearer ${admin}` },
              })
        if (res?.status !== 200)
          unanswered.push(`${l.kind} ${l.id} (${l.label}): ${res?.status ?? 'no read of its kind'}`)
        if (l.kind !== 'order' || res?.status !== 200) continue
        // The cart the order was placed from is named by its cart id, as the cart that became it.
        const order = (await res.json()) as { quote_id: number; increment_id: string }
        const cart = leftovers.find(
          (c) => (c.kind === 'cart' || c.kind === 'guest cart') && c.id === String(order.quote_id),
        )
        if (cart === undefined || !cart.label.includes(`, which became order ${order.increment_id} (`))
          cartless.push(
            `order ${order.increment_id}: cart ${order.quote_id} is ${cart === undefined ? 'not listed' : `listed as "${cart.label}"`}`,
          )
      }
      expect(unanswered).toEqual([])
      expect(cartless).toEqual([])
      expect(
        leftovers.filter((l) => l.kind === 'guest cart' && l.label.includes(', which became order ')).length,
      ).toBeGreaterThan(0)
    })
  })
})
