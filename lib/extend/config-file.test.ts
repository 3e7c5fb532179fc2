/**
 * The vendor's config file: which one a run takes, and what in its default export is refused before any
 * request, each in one line. Loading it (tsx starts esbuild, a process): load.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { UsageError } from '../base/usage-error.ts'
import { CHECK_KINDS } from '../checks/index.ts'
import { configFileOf, DEFAULT_CONFIG_FILE, vendorParts } from './load.ts'

const ENDPOINT = { method: 'GET', path: '/V1/vendor/things', access: 'admin', module: 'vendor-things' }
const CHECK = {
  name: 'thing-count',
  description: 'd',
  run: () => Promise.resolve({ status: 'passed', message: '', exchanges: [] }),
}
const dir = mkdtempSync(join(tmpdir(), 'vendor-config-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the config file', () => {
  it('is the named one (which must be there), else shop-conformance.config.ts of the working directory if there', () => {
    expect(configFileOf(undefined, dir)).toBeUndefined()
    expect(() => configFileOf('missing.config.ts', dir)).toThrow(
      new UsageError('--config / SHOP_CONFIG: missing.config.ts does not exist'),
    )
    writeFileSync(join(dir, DEFAULT_CONFIG_FILE), 'export default {}')
    expect(configFileOf(undefined, dir)).toBe(join(dir, DEFAULT_CONFIG_FILE))
  })

  it.each([
    [null, 'its default export is not a config (export default defineConfig({ endpoints, checks }))'],
    [{ checks: [] }, '`endpoints` is not a list'],
    [
      { endpoints: [{ ...ENDPOINT, method: 'PATCH' }], checks: [] },
      'endpoints[0].method "PATCH" is none of GET, POST, PUT, DELETE',
    ],
    [
      { endpoints: [{ ...ENDPOINT, module: 'quote' }], checks: [] },
      'endpoints[0].module "quote" is a module of the spec: a vendor\'s endpoints are reported under a module of their own',
    ],
    [
      { endpoints: [{ ...ENDPOINT, path: '/V1/directory/countries', method: 'GET' }], checks: [] },
      "endpoints[0] GET /V1/directory/countries is a spec endpoint: the spec's checks judge it",
    ],
    [
      { endpoints: [ENDPOINT], checks: [{ ...CHECK, name: 'access' }] },
      'checks[0].name "access" is a check kind of the suite',
    ],
    [
      { endpoints: [ENDPOINT], checks: [{ name: 'x', description: 'd' }] },
      'checks[0] is not a check (an object with name, description and run(row, session))',
    ],
    [
      { endpoints: [ENDPOINT], checks: [], scenarios: { 'POST /V1/vendor/other': {} } },
      'scenarios["POST /V1/vendor/other"] is not a declared endpoint',
    ],
  ])('refuses %j in one line', (config, why) => {
    expect(() => vendorParts(config, 'v.config.ts', CHECK_KINDS)).toThrow(
      new UsageError(`--config v.config.ts: ${why}`),
    )
  })
})
