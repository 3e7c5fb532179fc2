/**
 * A store code the target does not know is a setting error found in the preflight (exit 2, one line naming
 * the code and its setting, the report still written), not 278 store-code failures — and a target that serves
 * any code, or is broken everywhere, is not told it has a setting wrong.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { REFERENCE_ADMIN, startReferenceTarget, type ReferenceTarget } from '../../reference-target/index.ts'
import { cli } from '../cli/testing.ts'
import { loadConfig } from '../settings/config.ts'
import { customerRegistrar } from '../setup/registrar.ts'
import { preflight, PreflightError } from './preflight.ts'

const closers: (() => Promise<unknown>)[] = []
afterAll(() => Promise.all(closers.map((c) => c())))

async function reference(): Promise<ReferenceTarget> {
  const t = await startReferenceTarget()
  closers.push(() => t.close())
  return t
}

/** A target answering every request with `answer` (tokens too, when `tokens`), whatever the store code. */
async function uniform(status: number, body: unknown, tokens = true): Promise<string> {
  const server: Server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json')
    if (tokens && req.url!.endsWith('/token')) return res.end(JSON.stringify('tok-0123456789abcdef'))
    res.statusCode = status
    res.end(JSON.stringify(body))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  closers.push(() => new Promise((r) => server.close(r)))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function preflightWith(
  url: string,
  argv: string[],
  admin = { SHOP_ADMIN_USERNAME: 'admin', SHOP_ADMIN_PASSWORD: 'pw-123456' },
) {
  const c = loadConfig(argv, { SHOP_BASE_URL: url, ...admin }, {}, [], [])
  return preflight({ ...c, baseUrl: c.baseUrl!, admin: c.admin! }, 'storerun', {
    registrar: customerRegistrar(),
  }).catch((e: unknown) => e)
}

const ADMIN = { SHOP_ADMIN_USERNAME: REFERENCE_ADMIN.username, SHOP_ADMIN_PASSWORD: REFERENCE_ADMIN.password }

describe('store codes the target does not know', () => {
  it('--second-store: one line naming the code and the setting, before anything is created', async () => {
    const t = await reference()
    const err = await preflightWith(t.url, ['--second-store', 'nosuch'], ADMIN)
    expect(err).toBeInstanceOf(PreflightError)
    expect((err as Error).message).toBe(
      'store code "nosuch" (--second-store / SHOP_SECOND_STORE_CODE) is not known to the target: GET /V1/mobilewallet/auth under it answered 400 "Specified request cannot be processed.", as under a store code that cannot exist, and under "default" 200 {"merchant_name":"Reference Store","merchant_id":"","is_enabled":false}',
    )
    expect(t.stats().byMethod.POST).toBe(1) // the admin token only: no customer registered
  })

  it('--store: the same, although the admin token call under it was refused first', async () => {
    const t = await reference()
    const err = await preflightWith(t.url, ['--store', 'nosuch'], ADMIN)
    expect((err as Error).message).toMatch(
      /^store code "nosuch" \(--store \/ SHOP_STORE_CODE\) is not known to the target: GET \/V1\/mobilewallet\/auth under it answered 400 "Specified request cannot be processed\."/,
    )
  })

  it('a known second store code passes; a target serving any code or broken everywhere is not told a setting is wrong', async () => {
    const t = await reference()
    expect(await preflightWith(t.url, ['--second-store', 'all'], ADMIN)).not.toBeInstanceOf(Error)
    // Any code served alike: nothing to tell a known code from an unknown one (the store-code check judges).
    const anyCode = await preflightWith(await uniform(200, { items: [] }), ['--second-store', 'nosuch'])
    expect((anyCode as Error).message ?? '').not.toMatch(/store code/)
    // Broken everywhere (also under "default"): the token's own failure, not a store code.
    const broken = await preflightWith(await uniform(500, { message: 'Internal Error' }, false), ['--store', 'nosuch'])
    expect((broken as Error).message).toMatch(/^admin token: expected 200 with a JSON string, got 500/)
  })

  it('exits 2 with that one line on stderr and writes the report with it as the run error', {
    timeout: 120_000,
  }, async () => {
    const t = await reference()
    const run = await cli(['run', '--base-url', t.url, '--second-store', 'nosuch'], ADMIN)
    expect(run.status).toBe(2)
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^shop-conformance: store code "nosuch" \(--second-store \/ SHOP_SECOND_STORE_CODE\) is not known to the target/,
      ),
    ])
    expect(run.report!.runErrors).toEqual([expect.stringMatching(/^store code "nosuch"/)])
    expect(run.report!.summary.failed).toBe(0)
    expect(run.report!.created).toEqual([])
  })
})
