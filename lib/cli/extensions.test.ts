/**
 * The run's additions to the spec's suite, end to end through `shop-conformance run`: the clean reference
 * target's extension operations (all passing when writes may be probed; the writes its classes admit not judged
 * otherwise, and nothing changed), and the worked vendor example (examples/vendor-extension/) — passing on the
 * target that serves its endpoint, its own check failing and nothing else where its behaviour is broken. Never
 * in the spec's verdict.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { EXTRA_ROUTES } from '../../reference-target/extra-routes.ts'
import { EXTENSION_ROUTES } from '../../reference-target/extension-routes.ts'
import { afterAll, describe, expect, it } from 'vitest'
import { startReferenceTarget, type ReferenceTargetOptions } from '../../reference-target/index.ts'
import { limitedAdminEnv } from '../checks/testing.ts'
import { cli } from './testing.ts'

const EXAMPLE = fileURLToPath(new URL('../../examples/vendor-extension/shop-conformance.config.ts', import.meta.url))
const VENDOR_RESULT = 'GET /V1/ref-example/warehouses › warehouse-stock'

describe.concurrent('shop-conformance run with extensions', { timeout: 300_000 }, () => {
  const closers: (() => Promise<void>)[] = []
  afterAll(async () => {
    for (const c of closers) await c()
  })

  async function runAgainst(options: ReferenceTargetOptions, args: string[]) {
    const target = await startReferenceTarget(options)
    closers.push(() => target.close())
    const run = await cli(['run', '--base-url', target.url, ...args], {
      SHOP_ADMIN_USERNAME: target.admin.username,
      SHOP_ADMIN_PASSWORD: target.admin.password,
      ...limitedAdminEnv(target),
    })
    return { run, r: run.report! }
  }

  it('the vendor example passes where its endpoint is served; the extensions by default leave the admitted writes unjudged', async () => {
    const { run, r } = await runAgainst({ serveExample: 'served' }, ['--config', EXAMPLE])
    expect(run.status).toBe(0)
    expect(r.certification.verdict).toBe('conforms')
    const vendor = r.results.filter((x) => x.origin === 'vendor')
    expect(vendor).toEqual([
      expect.objectContaining({ id: VENDOR_RESULT, module: 'vendor-warehouses', status: 'passed', extension: true }),
    ])
    expect(vendor[0]!.exchanges).toHaveLength(1)
    expect(r.schema!.findings).toEqual([])
    // The example's endpoint is in the target's schema too: one more extension operation than the target's own
    // and the platform's calls beyond the spec it serves.
    const extension = r.results.filter((x) => x.origin === 'extension')
    expect(new Set(extension.map((x) => x.endpoint.path)).size).toBe(
      new Set([...EXTRA_ROUTES, ...EXTENSION_ROUTES].map((route) => route.template)).size + 1,
    )
    expect(extension.filter((x) => x.status === 'failed')).toEqual([])
    expect(extension.filter((x) => x.status === 'skipped').length).toBeGreaterThan(0)
    expect(
      extension
        .filter((x) => x.status === 'skipped')
        .every((x) => x.reason === 'write-withheld' && x.endpoint.method !== 'GET'),
    ).toBe(true)
    expect(r.plan.suite).toContainEqual({ module: 'vendor-warehouses', origin: 'vendor', checks: 1 })
    expect(run.stdout).toContain('Vendor checks: 1 operation, 1 check passed')
    expect(r.exit).toEqual({ status: 0, reason: 'no check failed' })
  })

  it("the vendor example's own check fails, and nothing else, where its behaviour is broken; report-only leaves the exit 0", async () => {
    const { run, r } = await runAgainst({ serveExample: 'broken' }, [
      '--config',
      EXAMPLE,
      '--extensions',
      'report-only',
    ])
    expect(r.results.filter((x) => x.status === 'failed').map((x) => x.id)).toEqual([VENDOR_RESULT])
    expect(r.certification).toMatchObject({ verdict: 'conforms', percent: 100 })
    expect(r.exit).toEqual({
      status: 0,
      reason: 'no check failed; 1 extension check failed, reported only (--extensions report-only)',
    })
    expect(run.status).toBe(0)
  })

  it("a vendor's check that throws is the vendor's error: apart from the spec's verdict, and report-only leaves the exit 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vendor-config-'))
    closers.push(() => {
      rmSync(dir, { recursive: true, force: true })
      return Promise.resolve()
    })
    const config = join(dir, 'throws.config.mjs')
    // A bug of the vendor's own code: it reads a field of nothing.
    writeFileSync(
      config,
      `export default {
  endpoints: [{ method: 'GET', path: '/V1/ref-example/warehouses', access: 'admin', module: 'vendor-warehouses' }],
  checks: [{ name: 'throws', description: 'A check with a bug.', async run() { const stock = undefined; return stock.count } }],
}
`,
    )
    const { run, r } = await runAgainst({}, ['--config', config, '--extensions', 'report-only'])
    const vendor = r.results.filter((x) => x.origin === 'vendor')
    expect(vendor).toEqual([
      expect.objectContaining({
        id: 'GET /V1/ref-example/warehouses › throws',
        module: 'vendor-warehouses',
        status: 'error',
        extension: true,
      }),
    ])
    expect(vendor[0]!.message).toMatch(
      /^error of the vendor's check \(its code, not a finding about the shop\): throws threw TypeError: Cannot read properties of undefined \(reading 'count'\) at .*throws\.config\.mjs:\d+:\d+/,
    )
    expect(r.results.filter((x) => x.status === 'failed' || (x.status === 'error' && x.origin !== 'vendor'))).toEqual(
      [],
    )
    expect(r.certification.verdict).toBe('conforms')
    expect(r.exit).toEqual({
      status: 0,
      reason: 'no check failed; 1 vendor check errored, reported only (--extensions report-only)',
    })
    expect(run.status).toBe(0)
  })

  it('a shop whose schema endpoint is broken: every format says so, that its extension endpoints went unchecked, and lists its 500s apart from the verdict', async () => {
    const { run, r } = await runAgainst({ variants: ['schema-broken'] }, [])
    expect(r.schema).toMatchObject({ status: 'broken', published: true })
    expect(r.results.filter((x) => x.extension === true)).toEqual([])
    expect(run.stdout).toMatch(
      /\nThe shop's schema endpoint is broken: GET http:\/\/127\.0\.0\.1:\d+\/rest\/default\/schema\?services=all answered 500 "Internal Error\. [^\n]*The shop's extension endpoints were not checked: [^\n]*--target-schema FILE[^\n]*--config/,
    )
    const file = (name: string) => readFileSync(join(run.dir, 'reports', name), 'utf8')
    expect(file('summary.md')).toContain(
      "- **Not checked:** the shop's extension endpoints — its schema endpoint is broken",
    )
    expect(file('junit.xml')).toContain('name="extension endpoints › not checked"')
    expect(file('report.sarif')).toContain('"ruleId": "schema/endpoint-broken"')
    // Its 500s are the run's server errors, listed: the schema read under each caller, by the main process.
    expect(r.serverErrors!.entries.map((e) => [e.method, e.path, e.caller, e.status, e.steps])).toEqual(
      (['admin', 'customer', 'none'] as const).map((caller) => [
        'GET',
        '/schema',
        caller,
        500,
        ["reading the shop's schema"],
      ]),
    )
    expect(run.stdout).toContain('\nServer errors: 3 (500 ×3) at 1 operation — information only, never the verdict.\n')
    expect(file('summary.md')).toContain('\n## Server errors (3)\n')
    // Information, as any schema finding and any server error: the spec's verdict and the exit are untouched.
    expect(r.certification.verdict).toBe('conforms')
    expect(r.exit).toEqual({ status: 0, reason: 'no check failed' })
    expect(run.status).toBe(0)
  })

  it("a vendor lists and runs its own module alone (issue 31.11): its check and nothing of the spec's or the shop's extensions", async () => {
    const listed = await cli(['list', '--config', EXAMPLE, '--module', 'vendor-warehouses'])
    expect([listed.status, listed.stderr]).toEqual([0, ''])
    expect(listed.stdout).toMatch(
      /^vendor-warehouses — the vendor's own, from .*shop-conformance\.config\.ts \(not the spec's\) \(1 endpoint\)\n {2}GET {4}\/V1\/ref-example\/warehouses {2}admin {2}warehouse-stock\n/,
    )
    const json = await cli(['list', '--config', EXAMPLE, '--format', 'json'])
    expect(JSON.parse(json.stdout).filter((e: { origin?: string }) => e.origin === 'vendor')).toEqual([
      {
        module: 'vendor-warehouses',
        method: 'GET',
        path: '/V1/ref-example/warehouses',
        access: 'admin',
        checks: ['warehouse-stock'],
        notApplicable: [],
        workflows: [],
        origin: 'vendor',
      },
    ])
    const { run, r } = await runAgainst({ serveExample: 'served' }, [
      '--config',
      EXAMPLE,
      '--module',
      'vendor-warehouses',
    ])
    expect(run.status).toBe(0)
    expect(
      r.results.filter((x) => x.status !== 'skipped' || x.applicable !== false).map((x) => `${x.id} ${x.status}`),
    ).toEqual([`${VENDOR_RESULT} passed`])
    expect(r.run.modules).toEqual(['vendor-warehouses'])
    expect(r.certification.scope.whole).toBe(false)
  })

  it("a module that is neither the spec's nor the config's is refused before any request, naming the config's", async () => {
    const target = await startReferenceTarget({})
    closers.push(() => target.close())
    const env = { SHOP_ADMIN_USERNAME: target.admin.username, SHOP_ADMIN_PASSWORD: target.admin.password }
    const run = await cli(['run', '--base-url', target.url, '--config', EXAMPLE, '--module', 'vendor-nope'], env)
    expect(run.status).toBe(2)
    expect(run.stderr.trim()).toMatch(
      /^shop-conformance: --module: unknown module "vendor-nope" \(known: payment-partner-core, .*, sales-tax-tfa; the config's: vendor-warehouses\)$/,
    )
    const without = await cli(['run', '--base-url', target.url, '--module', 'vendor-warehouses'], env)
    expect(without.status).toBe(2)
    expect(without.stderr.trim()).toMatch(
      /^shop-conformance: --module: unknown module "vendor-warehouses" \(known: payment-partner-core, .*, sales-tax-tfa\)$/,
    )
    expect(target.stats().requests).toBe(0)
  })

  it('a config file that cannot be used stops the run before any request: one line, exit 2', async () => {
    const target = await startReferenceTarget({})
    closers.push(() => target.close())
    const run = await cli(['run', '--base-url', target.url, '--config', '/nonexistent/x.config.ts'], {
      SHOP_ADMIN_USERNAME: target.admin.username,
      SHOP_ADMIN_PASSWORD: target.admin.password,
    })
    expect(run.status).toBe(2)
    expect(run.stderr.trim()).toBe('shop-conformance: --config / SHOP_CONFIG: /nonexistent/x.config.ts does not exist')
    expect(target.stats().requests).toBe(0)
  })
})
