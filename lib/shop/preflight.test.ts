import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { startReferenceTarget } from '../../reference-target/index.ts'
import { runEmail } from '../setup/identifiers.ts'
import { loadConfig } from '../settings/config.ts'
import { customerRegistrar } from '../setup/registrar.ts'
import { preflight, PreflightError } from './preflight.ts'

const servers: Server[] = []
afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))))

/** A target that issues tokens and registers customers, then refuses every other call with 401. */
async function refusingTarget(): Promise<string> {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json')
    if (req.url!.endsWith('/token')) return res.end(JSON.stringify('tok-0123456789abcdef'))
    if (req.url!.endsWith('/V1/customers') && req.method === 'POST') return res.end('{"id":7}')
    res.statusCode = 401
    res.end('{"message":"The consumer isn\'t authorized to access %resources."}')
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function configFor(url: string, env: Record<string, string> = {}) {
  const c = loadConfig(
    [],
    { SHOP_BASE_URL: url, SHOP_ADMIN_USERNAME: 'admin', SHOP_ADMIN_PASSWORD: 'pw-123456', ...env },
    {},
    [],
    [],
  )
  return { ...c, baseUrl: c.baseUrl!, admin: c.admin! }
}

describe('preflight', () => {
  it("gets both tokens, registers customers of the run's own and learns the no-route answer", async () => {
    const target = await startReferenceTarget()
    try {
      const c = loadConfig(
        [],
        {
          SHOP_BASE_URL: target.url,
          SHOP_ADMIN_USERNAME: target.admin.username,
          SHOP_ADMIN_PASSWORD: target.admin.password,
        },
        {},
        [],
        [],
      )
      const pre = await preflight({ ...c, baseUrl: c.baseUrl!, admin: c.admin! }, 'runabc', {
        registrar: customerRegistrar(),
      })
      // E-mails of the run's own (sc.<run id>.…@example.com), within a real shop's limits (lib/setup/builders.test.ts).
      expect(pre.registeredCustomers.map((x) => x.email)).toEqual([
        runEmail('runabc', 'main', 'customer '),
        runEmail('runabc', 'disposable', 'customer '),
      ])
      expect(pre.registeredCustomers.map((x) => x.email)).toEqual([
        expect.stringMatching(/^sc\.runabc\.main\.[0-9a-z]{8}@example\.com$/),
        expect.stringMatching(/^sc\.runabc\.disposable\./),
      ])
      expect(pre.seed.tokens.customer).not.toBe(pre.seed.tokens.disposableCustomer)
      expect(pre.seed.calibration.noRoute).toEqual([{ status: 404, key: 'message:Request does not match any route.' }])
      expect(pre.seed.calibration.unknownStore).toEqual([
        { status: 400, key: 'message:Specified request cannot be processed.' },
      ])
      // Every token and password learned is registered for redaction.
      const labels = pre.secrets
        .entries()
        .map(([, label]) => label)
        .sort()
      expect(labels).toEqual(
        [
          'admin password',
          'admin token',
          'customer password',
          'customer password',
          'customer token',
          'customer token',
        ].sort(),
      )
    } finally {
      await target.close()
    }
  })

  it("gets the limited admin's token, a secret of its own, and stops in one line when its credentials are refused", async () => {
    const target = await startReferenceTarget()
    try {
      const env = {
        SHOP_BASE_URL: target.url,
        SHOP_ADMIN_USERNAME: target.admin.username,
        SHOP_ADMIN_PASSWORD: target.admin.password,
        SHOP_LIMITED_ADMIN_USERNAME: 'clerk',
        SHOP_LIMITED_ADMIN_RESOURCES: 'Shop_Tax::manage_tax',
      }
      const c = loadConfig(
        [],
        { ...env, SHOP_LIMITED_ADMIN_PASSWORD: target.limitedAdmin.password },
        {},
        [],
        ['Shop_Tax::manage_tax'],
      )
      const pre = await preflight({ ...c, baseUrl: c.baseUrl!, admin: c.admin! }, 'r4', {
        registrar: customerRegistrar(),
      })
      expect(pre.seed.limitedAdmin).toEqual({ username: 'clerk', resources: ['Shop_Tax::manage_tax'] })
      expect(pre.secrets.entries().find(([value]) => value === pre.seed.tokens.limitedAdmin)?.[1]).toBe(
        'limited admin token',
      )
      expect(pre.secrets.entries().map(([, label]) => label)).toContain('limited admin password')
      const wrong = loadConfig(
        [],
        { ...env, SHOP_LIMITED_ADMIN_PASSWORD: 'Wrong-Clerk-Pw-1' },
        {},
        [],
        ['Shop_Tax::manage_tax'],
      )
      await expect(
        preflight({ ...wrong, baseUrl: wrong.baseUrl!, admin: wrong.admin! }, 'r5', { registrar: customerRegistrar() }),
      ).rejects.toThrow(
        /^limited admin credentials refused by the target \(401: "The account sign-in was incorrect[^\n]*\): check SHOP_LIMITED_ADMIN_USERNAME and SHOP_LIMITED_ADMIN_PASSWORD$/,
      )
    } finally {
      await target.close()
    }
  })

  it('stops with one plain line when the target is unreachable', async () => {
    await expect(preflight(configFor('http://127.0.0.1:9'), 'r', { registrar: customerRegistrar() })).rejects.toThrow(
      /^target unreachable: admin token request to http:\/\/127\.0\.0\.1:9 failed \(connection failed: ECONNREFUSED/,
    )
  })

  it('stops when the admin token is refused by every admin endpoint tried', async () => {
    const err = await preflight(configFor(await refusingTarget()), 'r', { registrar: customerRegistrar() }).catch(
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(PreflightError)
    expect((err as Error).message).toMatch(
      /^the admin token is refused by every admin endpoint tried \(GET \/V1\/\S+ → 401, GET \/V1\/\S+ → 401, GET \/V1\/\S+ → 401\)$/,
    )
  })

  it('uses configured customer credentials instead of registering the main customer', async () => {
    const target = await startReferenceTarget()
    try {
      const email = 'qa.configured@example.com'
      const password = 'Configured-Pw-1'
      const reg = await fetch(`${target.url}/rest/default/V1/customers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ customer: { email, firstname: 'Q', lastname: 'A' }, password }),
      })
      expect(reg.status).toBe(200)
      const c = loadConfig(
        [],
        {
          SHOP_BASE_URL: target.url,
          SHOP_ADMIN_USERNAME: target.admin.username,
          SHOP_ADMIN_PASSWORD: target.admin.password,
          SHOP_CUSTOMER_EMAIL: email,
          SHOP_CUSTOMER_PASSWORD: password,
        },
        {},
        [],
        [],
      )
      const pre = await preflight({ ...c, baseUrl: c.baseUrl!, admin: c.admin! }, 'r2', {
        registrar: customerRegistrar(),
      })
      // And a customer of the run's own, which sends the writes a customer makes: the configured one is the user's.
      expect(pre.registeredCustomers.map((x) => x.role).sort()).toEqual(['disposable', 'own'])
      expect(pre.seed.customerIsTheUsers).toBe(true)
      expect(pre.seed.tokens.ownCustomer).toBeDefined()
      // Issue 31.15: the user's account is labelled apart from the run's own customers', so a report shows it was only
      // read.
      const labels = new Map(pre.secrets.entries())
      expect(labels.get(password)).toBe('configured customer password')
      expect(labels.get(pre.seed.tokens.customer!)).toBe('configured customer token')
      expect(labels.get(pre.seed.tokens.ownCustomer!)).toBe('customer token')
      const wrong = { ...c, customer: { username: email, password: 'Wrong-Pw-123' } }
      await expect(
        preflight({ ...wrong, baseUrl: c.baseUrl!, admin: c.admin! }, 'r3', { registrar: customerRegistrar() }),
      ).rejects.toThrow(/^configured customer credentials refused by the target \(401/)
    } finally {
      await target.close()
    }
  })
})
