/**
 * The vendor's config: found, loaded and checked before any request (a bad file is one line, exit 2); the
 * worked example of examples/vendor-extension/ judged against the reference target, which serves its endpoint
 * when told to: it passes there, and its own check fails — nothing else of it — where the example's behaviour is broken.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { startReferenceTarget } from '../../reference-target/index.ts'
import { UsageError } from '../base/usage-error.ts'
import { CHECK_KINDS } from '../checks/index.ts'
import { targetSessions } from '../checks/testing.ts'
import { buildPlan, SUITE } from '../plan/plan.ts'
import { configFileOf, DEFAULT_CONFIG_FILE, loadVendorConfig, vendorParts } from './load.ts'
import { endpointText } from '../spec/endpoint-id.ts'

const EXAMPLE = fileURLToPath(new URL('../../examples/vendor-extension/shop-conformance.config.ts', import.meta.url))
const ENDPOINT = { method: 'GET', path: '/V1/vendor/things', access: 'admin', module: 'vendor-things' }
const CHECK = { name: 'thing-count', description: 'd', run: async () => ({ status: 'passed', message: '', exchanges: [] }) }
const sessions = targetSessions()
const dirs: string[] = []
afterAll(async () => {
  await sessions.closeAll()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vendor-config-'))
  dirs.push(dir)
  return dir
}

describe('the config file', () => {
  it('is the named one (which must be there), else shop-conformance.config.ts of the working directory if there', () => {
    const dir = tempDir()
    expect(configFileOf(undefined, dir)).toBeUndefined()
    expect(() => configFileOf('missing.config.ts', dir)).toThrow(new UsageError('--config / SHOP_CONFIG: missing.config.ts does not exist'))
    writeFileSync(join(dir, DEFAULT_CONFIG_FILE), 'export default {}')
    expect(configFileOf(undefined, dir)).toBe(join(dir, DEFAULT_CONFIG_FILE))
  })

  it.each([
    [null, 'its default export is not a config (export default defineConfig({ endpoints, checks }))'],
    [{ checks: [] }, '`endpoints` is not a list'],
    [{ endpoints: [{ ...ENDPOINT, method: 'PATCH' }], checks: [] }, 'endpoints[0].method "PATCH" is none of GET, POST, PUT, DELETE'],
    [{ endpoints: [{ ...ENDPOINT, module: 'quote' }], checks: [] }, 'endpoints[0].module "quote" is a module of the spec: a vendor\'s endpoints are reported under a module of their own'],
    [{ endpoints: [{ ...ENDPOINT, path: '/V1/directory/countries', method: 'GET' }], checks: [] }, 'endpoints[0] GET /V1/directory/countries is a spec endpoint: the spec\'s checks judge it'],
    [{ endpoints: [ENDPOINT], checks: [{ ...CHECK, name: 'access' }] }, 'checks[0].name "access" is a check kind of the suite'],
    [{ endpoints: [ENDPOINT], checks: [{ name: 'x', description: 'd' }] }, 'checks[0] is not a check (an object with name, description and run(row, session))'],
    [{ endpoints: [ENDPOINT], checks: [], scenarios: { 'POST /V1/vendor/other': {} } }, 'scenarios["POST /V1/vendor/other"] is not a declared endpoint'],
  ])('refuses %j in one line', (config, why) => {
    expect(() => vendorParts(config, 'v.config.ts', CHECK_KINDS)).toThrow(new UsageError(`--config v.config.ts: ${why}`))
  })

  it('that cannot be loaded is refused in one line', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'bad.config.ts'), 'export default {')
    await expect(loadVendorConfig(join(dir, 'bad.config.ts'), CHECK_KINDS)).rejects.toThrow(/^--config .*bad\.config\.ts: cannot be loaded: /)
  })
})

describe('the README\'s config, in a project of the user\'s', () => {
  // The block of README "Extending the suite", word for word, importing the package by its name.
  const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8')
  const config = /## Extending the suite[^]*?\n```ts\n([^]*?)```\n/.exec(readme)![1]!
  it.each([
    ['a default (CommonJS) project', { name: 'shop-tests', version: '1.0.0' }],
    ['an ES module project', { name: 'shop-tests', version: '1.0.0', type: 'module' }],
  ])('loads in %s', async (_, packageJson) => {
    const dir = tempDir()
    writeFileSync(join(dir, 'package.json'), JSON.stringify(packageJson))
    mkdirSync(join(dir, 'node_modules'))
    symlinkSync(fileURLToPath(new URL('../..', import.meta.url)), join(dir, 'node_modules', 'shop-conformance'))
    writeFileSync(join(dir, DEFAULT_CONFIG_FILE), config)
    const parts = await loadVendorConfig(configFileOf(undefined, dir)!, CHECK_KINDS)
    expect(parts.rows.map((r) => `${endpointText(r)} ${r.module}`)).toEqual(['GET /V1/ref-example/warehouses vendor-warehouses'])
    expect(parts.kinds.map((k) => k.name)).toEqual(['warehouse-stock'])
  })
})

describe('the worked example (examples/vendor-extension/)', () => {
  async function judged(serveExample: 'served' | 'broken') {
    const parts = await loadVendorConfig(EXAMPLE, CHECK_KINDS)
    const plan = buildPlan({ ...SUITE, rows: [...SUITE.rows, ...parts.rows], kinds: [...SUITE.kinds, ...parts.kinds] })
    const session = await sessions.open(await startReferenceTarget({ serveExample }))
    const vendor = plan.checks.filter((p) => p.origin === 'vendor')
    return Promise.all(vendor.map(async (p) => {
      const kind = parts.kinds.find((k) => k.name === p.kind)!
      const v = await kind.run(p.added!, session)
      return { id: p.id, module: p.module, status: v.status, message: v.message, exchanges: v.exchanges.length }
    }))
  }

  it('passes on the reference target that serves its endpoint', async () => {
    expect(await judged('served')).toEqual([{ id: 'GET /V1/ref-example/warehouses › warehouse-stock', module: 'vendor-warehouses', status: 'passed', message: '2 warehouses, each with a stock of at least 0', exchanges: 1 }])
  })

  it('fails its own check where the example\'s behaviour is broken', async () => {
    expect(await judged('broken')).toEqual([{ id: 'GET /V1/ref-example/warehouses › warehouse-stock', module: 'vendor-warehouses', status: 'failed', message: 'stock is not a whole number of at least 0 for south (-3)', exchanges: 1 }])
  })
})
