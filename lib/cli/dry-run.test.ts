/**
 * `run --dry-run` prints every request the run would send: each one it can spell out, and — where a request
 * depends on the target's answers (ids, the operations the shop's schema declares) or a vendor's code — what is
 * sent, in words, per kind. Nothing the run sends is left out. A vendor's config in it (loaded through tsx, which
 * starts esbuild): lib/extend/load.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CHECK_KINDS, CHECKS } from '../checks/index.ts'
import { concretePath } from '../checks/probe.ts'
import { PLAN } from '../plan/plan.ts'
import { loadConfig } from '../settings/config.ts'
import { ACL_RESOURCES, CATALOG, rowId } from '../spec/catalog/index.ts'
import { PLATFORM_CALLS, type PlatformCall } from '../setup/platform-calls.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import type { AccessClass } from '../spec/types.ts'
import { dryRunPlan } from './dry-run.ts'

const BASE = 'https://shop.example'
const ADMIN = { SHOP_ADMIN_USERNAME: 'qa', SHOP_ADMIN_PASSWORD: 'pw' }
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

function dry(argv: string[] = [], env: Record<string, string> = {}, cwd?: string): Promise<string> {
  const config = loadConfig(
    ['--base-url', BASE, ...argv],
    { ...(env.SHOP_ADMIN_TOKEN === undefined ? ADMIN : {}), ...env },
    {},
    CHECK_KINDS,
    ACL_RESOURCES,
  )
  return dryRunPlan(config, cwd ?? emptyDir())
}

function emptyDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dry-run-'))
  dirs.push(dir)
  return dir
}

const SCHEMA = `${BASE}/rest/default/schema?services=all`

describe('run --dry-run', () => {
  it('sends no token call for a token given, and says which it uses (never the token)', async () => {
    const text = await dry([], { SHOP_ADMIN_TOKEN: 'adm1n-t0ken-v4lue', SHOP_CUSTOMER_TOKEN: 'cust0mer-t0ken-v4lue' })
    expect(text).not.toContain(`POST ${BASE}/rest/default/V1/integration/admin/token  {username, password}`)
    expect(text).toContain(
      "# tokens: an unknown user name at the customer token endpoint (none at the admin's: its token was given)",
    )
    expect(text).toContain('# admin: the token given as SHOP_ADMIN_TOKEN, no token call')
    expect(text).toContain('# customer: the token given as SHOP_CUSTOMER_TOKEN, no token call')
    expect(text).not.toMatch(/t0ken-v4lue/)
  })

  it("lists the reads of the shop's schema, one per caller", async () => {
    const text = await dry()
    expect(text).toContain(`\nGET ${SCHEMA}  [none]\nGET ${SCHEMA}  [customer]\nGET ${SCHEMA}  [admin]\n`)
    // Read-only without a configured customer: no customer token, no customer's view.
    const readOnly = await dry(['--read-only'])
    expect(readOnly).toContain(
      `\nGET ${SCHEMA}  [none]\n# GET ${SCHEMA}  [customer]: not sent, no customer token in this run\nGET ${SCHEMA}  [admin]\n`,
    )
    expect(await dry(['--target-schema', 'https://docs.example/schema.json'])).toContain(
      '\nGET https://docs.example/schema.json  (once, without a token)\n',
    )
    const off = await dry(['--target-schema', 'off'])
    expect(off).not.toContain('schema?services=all')
    expect(off).not.toContain('no-such-extension')
  })

  it("says in words what it sends to the shop's extension operations, whose writes included, as the settings decide", async () => {
    const text = await dry()
    expect(text).toContain(
      `\nPOST ${BASE}/rest/default/V1/shop-conformance-no-such-extension  [none]  {}   # once, if it declares any: does the target route before it checks access?\n`,
    )
    expect(text).toContain(
      '#   a POST, PUT or DELETE: only to the callers its class must refuse, never to one it admits (--extensions-probe-writes would)\n',
    )
    expect(await dry(['--extensions-probe-writes'])).toContain(
      '#   a POST, PUT or DELETE: to every caller its class decides, also those it admits (--extensions-probe-writes: IT MAY CHANGE OR DELETE DATA)\n',
    )
    const readOnly = await dry(['--read-only', '--extensions-probe-writes'])
    expect(readOnly).toContain(`\nGET ${BASE}/rest/default/V1/shop-conformance-no-such-extension  [none]   # once`)
    expect(readOnly).toContain('#   a POST, PUT or DELETE: not sent (read-only mode)\n')
    // A slice runs no extension check.
    expect(await dry(['--module', 'directory'])).not.toContain('no-such-extension')
  })

  it("lists the platform's calls the set-up, workflows and cleanup send beyond the spec: the table, once each (read-only: its GETs)", async () => {
    const caller: Record<AccessClass, string> = { admin: 'admin', self: 'customer', anon: 'none' }
    const line = (c: PlatformCall) =>
      `${endpointText({ method: c.method, path: `${BASE}/rest/default${c.path}` })}  [${caller[c.access]}]   # ${c.for}`
    const table = Object.values(PLATFORM_CALLS)
    const text = (await dry()).split('\n')
    for (const c of table)
      expect(
        text.filter((l) => l === line(c)),
        endpointText(c),
      ).toHaveLength(1)
    const readOnly = (await dry(['--read-only'])).split('\n')
    for (const c of table)
      expect(
        readOnly.filter((l) => l === line(c)),
        endpointText(c),
      ).toHaveLength(c.method === 'GET' ? 1 : 0)
  })

  it("leaves no planned check out: each is a listed probe of its kind, or its kind's requests said in words at its endpoint", async () => {
    const text = await dry([], {
      SHOP_LIMITED_ADMIN_USERNAME: 'clerk',
      SHOP_LIMITED_ADMIN_PASSWORD: 'pw',
      SHOP_LIMITED_ADMIN_RESOURCES: 'Shop_Catalog::categories',
    })
    const listed = new Set<string>()
    const inWords = new Map<string, string>()
    for (const line of text.split('\n')) {
      const probe = /^(GET|POST|PUT|DELETE) \S+\/rest\/[^/]+(\/V1\/\S*) .*# ([a-z, -]+)$/.exec(line)
      if (probe !== null) for (const kind of probe[3]!.split(', ')) listed.add(`${kind} ${probe[1]} ${probe[2]}`)
      const words = /^# ([a-z-]+): (.*) — at (.*)$/.exec(line)
      if (words !== null) inWords.set(words[1]!, words[3]!)
    }
    const rows = new Map(CATALOG.map((r) => [rowId(r), r]))
    const kinds = new Map(CHECKS.map((k) => [k.name, k]))
    for (const p of PLAN.checks.filter((c) => c.kind !== 'workflow')) {
      const row = rows.get(p.endpoint!)!
      // A probe check's call at the row's placeholder path, or its valid request at the row's template.
      if ('probes' in kinds.get(p.kind)!)
        expect(
          listed.has(`${p.kind} ${row.method} ${concretePath(row)}`) || listed.has(`${p.kind} ${endpointText(row)}`),
          p.id,
        ).toBe(true)
      else expect(inWords.get(p.kind)?.split(', '), p.id).toContain(p.endpoint)
    }
  })
})
