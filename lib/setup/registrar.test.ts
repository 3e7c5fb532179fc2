/** The preflight's customers are set-up: in the ledger before they are sent, found when late, refused in one line. */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { startReferenceTarget } from '../../reference-target/index.ts'
import { loadConfig } from '../settings/config.ts'
import { TargetClient } from '../shop/client.ts'
import { preflight } from '../shop/preflight.ts'
import { Secrets } from '../shop/secrets.ts'
import { TokenError } from '../shop/tokens.ts'
import { runEmail } from './identifiers.ts'
import { Ledger } from './ledger.ts'
import { customerRegistrar } from './registrar.ts'
import { ANSWER_DEADLINE_MS, LATE_ANSWER_MS } from '../../test-setup/deadlines.ts'

const closers: (() => Promise<unknown>)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

describe('the customer registrar', () => {
  it("records the preflight's customers before sending them, and finds a late one instead of making it twice", async () => {
    // The first registration is made at once but answered after the client's deadline (a cold shop).
    const target = await startReferenceTarget({ variants: ['late-creation'], slowMs: LATE_ANSWER_MS })
    closers.push(() => target.close())
    const c = loadConfig(
      ['--timeout-ms', String(ANSWER_DEADLINE_MS)],
      {
        SHOP_BASE_URL: target.url,
        SHOP_ADMIN_USERNAME: target.admin.username,
        SHOP_ADMIN_PASSWORD: target.admin.password,
      },
      {},
      [],
      [],
    )
    const ledger = new Ledger()
    const pre = await preflight({ ...c, baseUrl: c.baseUrl!, admin: c.admin! }, 'reg1', {
      registrar: customerRegistrar(ledger),
    })

    const lines = ledger
      .entries()
      .map((e) => `${e.label} ${e.sent === true ? 'sent' : e.state}${e.reason !== undefined ? ` (${e.reason})` : ''}`)
    expect(lines.filter((l) => l.startsWith('main'))).toEqual([
      'main customer requested',
      'main customer sent',
      expect.stringMatching(/^main customer created/),
    ])
    expect(lines.filter((l) => l.startsWith('disposable'))).toEqual([
      'disposable customer requested',
      'disposable customer sent',
      expect.stringMatching(/^disposable customer created/),
    ])
    // One of the two came late and was found by its e-mail, not registered again.
    expect(lines.filter((l) => l.includes('found by its key'))).toHaveLength(1)
    const keys = ledger
      .entries()
      .filter((e) => e.state === 'created')
      .map((e) => e.key)
    expect(keys.sort()).toEqual(
      [runEmail('reg1', 'disposable', 'customer '), runEmail('reg1', 'main', 'customer ')].sort(),
    )
    expect(pre.registeredCustomers.map((r) => r.email).sort()).toEqual(keys)
  })

  it('refuses in one line naming the settings to use instead, and leaves the refusal in the ledger', async () => {
    const server = createServer((req, res) => {
      res.statusCode = 400
      res.setHeader('content-type', 'application/json')
      res.end('{"message":"A customer with the same email address already exists in an associated website."}')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    closers.push(() => new Promise((r) => server.close(r)))
    const client = new TargetClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      timeoutMs: 2_000,
      concurrency: 2,
      secrets: new Secrets(),
    })
    closers.push(() => client.close())
    const ledger = new Ledger()
    const secrets = new Secrets()
    const err = await customerRegistrar(ledger)
      .registerCustomer(client, secrets, {
        runId: 'reg2',
        role: 'main',
        store: 'default',
        adminToken: 'admin-token-0123456789',
      })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(TokenError)
    expect((err as Error).message).toBe(
      'customer registration (POST /V1/customers) failed with 400: "A customer with the same email address already exists in an associated website."; configure SHOP_CUSTOMER_EMAIL and SHOP_CUSTOMER_PASSWORD instead',
    )
    expect(ledger.entries().map((e) => (e.sent === true ? 'sent' : e.state))).toEqual(['requested', 'sent', 'refused'])
    // The password it made is a secret of the run from the start: no report can print it.
    expect(secrets.entries().map(([, label]) => label)).toEqual(['customer password'])
  })
})
