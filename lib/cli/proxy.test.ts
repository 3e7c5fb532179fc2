/**
 * `shop-conformance proxy` (issue 30.4): a scripted storefront-and-admin session sent through the proxy to the
 * reference target, the proxy stopped with SIGTERM, and the holes found from the traffic alone — and, on the clean
 * target, the same session giving no failure. The capture holds no token or password.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startReferenceTarget, type FaultName, type ReferenceTarget } from '../../reference-target/index.ts'
import type { Report } from '../report/model.ts'
import { harProblems } from '../report/testing.ts'
import { spawnInTest } from '../../test-setup/child-processes.ts'
import { makeTestCa } from '../../reference-target/tls-testing.ts'
import { main } from './main.ts'
import { sharedCli } from './testing.ts'

const BIN = resolve(import.meta.dirname, 'bin.mjs')
const dirs: string[] = []
const targets: ReferenceTarget[] = []
afterAll(async () => {
  await Promise.all(targets.map((t) => t.close()))
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

interface Proxied {
  status: number | null
  stdout: string
  stderr: string
  har: string
  report: Report
  secrets: string[]
}

/** The proxy in front of a reference target with `faults`, the session sent through it, then SIGTERM. */
async function proxiedSession(faults: FaultName[], https?: ReturnType<typeof makeTestCa>): Promise<Proxied> {
  const tls =
    https === undefined ? {} : { tls: { key: readFileSync(https.keyPath), cert: readFileSync(https.certPath) } }
  const target = await startReferenceTarget({ port: 0, faults: faults.map((name) => ({ name })), ...tls })
  targets.push(target)
  const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-proxy-'))
  dirs.push(dir)
  const har = join(dir, 'traffic.har')
  const child = spawnInTest(
    process.execPath,
    [BIN, 'proxy', '--target', target.url, '--port', '0', '--har', har, '--report-dir', join(dir, 'reports')],
    {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        ...(https !== undefined ? { NODE_EXTRA_CA_CERTS: https.caCertPath } : {}),
      },
    },
  )
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (d) => (stdout += d))
  child.stderr!.on('data', (d) => (stderr += d))
  const closed = new Promise<number | null>((done) => child.on('close', (status) => done(status)))
  for (let i = 0; i < 600 && !/proxy: (http:\/\/\S+)/.test(stdout); i++) await new Promise((r) => setTimeout(r, 100))
  const proxy = /proxy: (http:\/\/\S+)/.exec(stdout)?.[1]
  if (proxy === undefined) throw new Error(`the proxy did not start: ${stderr}`)
  const secrets = await session(proxy, target)
  child.kill('SIGTERM')
  const status = await closed
  return {
    status,
    stdout,
    stderr,
    har: readFileSync(har, 'utf8'),
    report: JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')) as Report,
    secrets,
  }
}

/**
 * A storefront and an admin at work: token calls, catalog reads, an admin call with a customer token, an anonymous one.
 */
async function session(proxy: string, target: ReferenceTarget): Promise<string[]> {
  const send = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await fetch(`${proxy}${path}`, {
      method,
      headers: {
        ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    return { status: res.status, body: await res.json() }
  }
  const password = 'Proxy-Pass-2024!'
  const email = `proxy.${Date.now()}@example.com`
  const admin = (
    await send('POST', '/rest/V1/integration/admin/token', undefined, {
      username: target.admin.username,
      password: target.admin.password,
    })
  ).body as string
  const made = await send('POST', '/rest/default/V1/customers', undefined, {
    customer: { email, firstname: 'Pat', lastname: 'Proxy' },
    password,
  })
  expect(made.status).toBe(200)
  const customer = (
    await send('POST', '/rest/default/V1/integration/customer/token', undefined, { username: email, password })
  ).body as string
  expect((await send('GET', '/rest/default/V1/directory/currency')).status).toBe(200)
  // Forwarded unchanged: the proxy's answer is the target's, byte for byte (asked of a plain http target: the test's
  // own fetch trusts no test CA).
  if (target.url.startsWith('http:')) {
    const [direct, proxied] = await Promise.all(
      [target.url, proxy].map((at) =>
        fetch(`${at}/rest/default/V1/products?searchCriteria[pageSize]=50`, {
          headers: { authorization: `Bearer ${admin}` },
        }),
      ),
    )
    expect([proxied!.status, proxied!.headers.get('content-type'), await proxied!.text()]).toEqual([
      direct!.status,
      direct!.headers.get('content-type'),
      await direct!.text(),
    ])
  } else await send('GET', '/rest/default/V1/products?searchCriteria[pageSize]=50', admin)
  expect((await send('GET', '/rest/default/V1/customers/me', customer)).status).toBe(200)
  expect((await send('GET', '/rest/default/V1/products?searchCriteria[pageSize]=2', admin)).status).toBe(200)
  expect((await send('GET', '/rest/default/V1/customerGroups/default', admin)).status).toBe(200)
  await send('GET', '/rest/default/V1/products/types', customer)
  await send('GET', '/rest/default/V1/modules')
  expect((await send('GET', '/rest/default/V1/modules', admin)).status).toBe(200)
  // A body that is no JSON (a form), at a path the spec does not list: kept as the text it was.
  await fetch(`${proxy}/rest/default/V1/newsletter/form`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'email=a%40example.com&list=2',
  })
  return [admin, customer, password, target.admin.password]
}

const resultOf = (report: Report, id: string) => report.results.find((r) => r.id === id)

describe('proxy', () => {
  it('catches an admin endpoint open to everyone and one that takes a customer token, from the traffic alone', async () => {
    const run = await proxiedSession(['admin-open', 'customer-token-on-admin'])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(/passive: not a certification · 2 failed/)
    // Loopback unless told otherwise.
    expect(run.stdout).toMatch(/^proxy: http:\/\/127\.0\.0\.1:\d+ → /)
    const { report } = run
    expect(report.mode).toBe('passive')
    expect(report.certification.verdict).toBe('passive: not a certification')
    expect(resultOf(report, 'GET /V1/products/types › access')).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/customer token let through \(200/),
    })
    expect(resultOf(report, 'GET /V1/modules › access')).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/no token let through \(200/),
    })
    expect(
      report.results
        .filter((r) => r.status === 'failed')
        .map((r) => r.id)
        .sort(),
    ).toEqual(['GET /V1/modules › access', 'GET /V1/products/types › access'])
    // The coverage names what the traffic touched, as whom.
    expect(report.passive?.endpoints.find((e) => e.endpoint === 'GET /V1/modules')).toMatchObject({
      exchanges: 2,
      callers: { none: 1, admin: 1 },
      stores: ['default'],
    })
    expect(report.passive).toMatchObject({ exchanges: 12, atEndpoints: 11, outside: 1, unknownCallers: 0 })
    // An anonymous endpoint refuses nobody: the traffic shows nothing of its access rule.
    expect(resultOf(report, 'GET /V1/directory/currency › access')).toMatchObject({
      status: 'skipped',
      reason: 'not-observed',
    })
    // Nothing of the traffic kept but the redacted HAR: no token or password in it, nor in any report.
    for (const secret of run.secrets) expect(run.har).not.toContain(secret)
    expect(run.har).toContain('Bearer [redacted customer token]')
    // Valid HAR 1.2, an entry per request, each known caller tagged.
    const har = JSON.parse(run.har) as {
      log: { entries: { _caller?: string; request: { postData?: { mimeType: string; text: string } } }[] }
    }
    expect(harProblems(har)).toEqual([])
    expect(har.log.entries.map((e) => e._caller)).toEqual([
      'none',
      'none',
      'none',
      'none',
      'admin',
      'customer',
      'admin',
      'admin',
      'customer',
      'none',
      'admin',
      'none',
    ])
    expect(har.log.entries.at(-1)!.request.postData).toEqual({
      mimeType: 'application/x-www-form-urlencoded',
      text: 'email=a%40example.com&list=2',
    })
    expect(JSON.stringify(report)).not.toContain(run.secrets[0])
  }, 180_000)

  it('gives no failure for the same session on the clean target: each refused caller passes', async () => {
    const run = await proxiedSession([])
    expect(run.status).toBe(0)
    expect(run.report.results.filter((r) => r.status === 'failed')).toEqual([])
    expect(resultOf(run.report, 'GET /V1/products/types › access')).toMatchObject({
      status: 'passed',
      message: expect.stringMatching(/customer token refused \(401\)/),
    })
    expect(resultOf(run.report, 'GET /V1/modules › access')).toMatchObject({ status: 'passed' })
    expect(resultOf(run.report, 'GET /V1/modules › route')).toMatchObject({ status: 'passed' })
    expect(resultOf(run.report, 'GET /V1/customerGroups/default › shape')).toMatchObject({
      status: 'passed',
      message: expect.stringMatching(/^observed: the answer is/),
    })
  }, 180_000)

  it('forwards to an https target over verified TLS', async () => {
    const caDir = mkdtempSync(join(tmpdir(), 'shop-conformance-proxy-ca-'))
    dirs.push(caDir)
    const run = await proxiedSession(['admin-open'], makeTestCa(caDir))
    expect(run.stderr).toBe('')
    expect(run.status).toBe(1)
    expect(run.har).toMatch(/"url":"https:\/\/[^"]+\/rest\/default\/V1\/modules"/)
    expect(run.report.results.filter((r) => r.status === 'failed').map((r) => r.id)).toEqual([
      'GET /V1/modules › access',
    ])
  }, 180_000)

  it("judges the suite's own clean run passively without a failure, with its tags and as a browser's capture without them", async () => {
    const run = await sharedCli(['run'])
    expect(run.status).toBe(0)
    const har = join(run.dir, 'reports', 'evidence.har')
    const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-passive-own-'))
    dirs.push(dir)
    // The same exchanges without the suite's tags: each caller read from its redacted token's label alone.
    const untagged = join(dir, 'untagged.har')
    const log = JSON.parse(readFileSync(har, 'utf8')) as { log: { _run?: unknown; entries: Record<string, unknown>[] } }
    delete log.log._run
    log.log.entries = log.log.entries.map(
      ({ _caller, _runId, _checks, _endpoint, _origin, _store, _step, _probe, ...entry }) => entry,
    )
    writeFileSync(untagged, JSON.stringify(log))
    for (const [file, base] of [
      [har, []],
      [untagged, ['--base-url', run.report!.target.baseUrl]],
    ] as const) {
      let out = ''
      const status = await main(
        ['judge', '--har', file, '--passive', ...base, '--report-dir', join(dir, file === har ? 'tagged' : 'untagged')],
        { out: (t) => void (out += t), err: (t) => void (out += t) },
        { env: {}, cwd: dir },
      )
      expect(out, file).toMatch(/^passive: not a certification · 0 failed, \d{3} passed/)
      expect(status, file).toBe(0)
    }
  }, 600_000)
})
