import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { UsageError } from '../base/usage-error.ts'
import { loadConfig, readDotenv, selectModules, vendorModulesGiven } from './config.ts'

const KINDS = ['route', 'access'] as const
const TARGET = {
  SHOP_BASE_URL: 'https://shop.example.test',
  SHOP_ADMIN_USERNAME: 'qa',
  SHOP_ADMIN_PASSWORD: 'Secret-1x',
}
const ACL = ['Shop_Tax::manage_tax', 'Shop_Catalog::sets']
const load = (argv: string[], env: Record<string, string> = {}, dotenv: Record<string, string> = {}) =>
  loadConfig(argv, env, dotenv, KINDS, ACL)
const refusal = (argv: string[], env: Record<string, string> = {}): string => {
  try {
    load(argv, env)
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError)
    return (err as Error).message
  }
  throw new Error('expected a UsageError')
}

describe('loadConfig', () => {
  it('defaults to the bundled target with the contract defaults', () => {
    const c = load([])
    expect(c).toMatchObject({
      baseUrl: undefined,
      storeCode: 'default',
      secondStoreCode: 'all',
      concurrency: 8,
      timeoutMs: 10000,
      reportDir: 'reports',
      modules: [],
      checks: [],
    })
    expect(c.admin).toBeUndefined()
  })

  it('takes flags over the environment over .env', () => {
    const c = load(
      ['--store', 'flag_store'],
      { ...TARGET, SHOP_STORE_CODE: 'env_store', SHOP_CONCURRENCY: '3' },
      { SHOP_STORE_CODE: 'dot', SHOP_CONCURRENCY: '5', SHOP_TIMEOUT_MS: '777' },
    )
    expect(c.storeCode).toBe('flag_store')
    expect(c.concurrency).toBe(3)
    expect(c.timeoutMs).toBe(777)
    expect(c.admin).toEqual({ username: 'qa', password: 'Secret-1x' })
  })

  it('names the target from the flags or the environment, as one trimmed line', () => {
    expect(load([], TARGET)).not.toHaveProperty('targetName')
    expect(
      load(['--target-name', 'Platform'], { ...TARGET, SHOP_TARGET_NAME: 'Env', SHOP_TARGET_VERSION: ' 2.4.7-p7 ' }),
    ).toMatchObject({ targetName: 'Platform', targetVersion: '2.4.7-p7' })
    expect(load([], TARGET, { SHOP_TARGET_NAME: 'Acme Commerce' }).targetName).toBe('Acme Commerce')
    expect(refusal(['--target-name', 'a\nb'], TARGET)).toBe(
      '--target-name / SHOP_TARGET_NAME: "a\\nb" holds a control character (a line break, a tab…): one line of text',
    )
    expect(refusal([], { ...TARGET, SHOP_TARGET_VERSION: '   ' })).toBe(
      '--target-version / SHOP_TARGET_VERSION: an empty value',
    )
    expect(refusal(['--target-version', 'x'.repeat(101)], TARGET)).toBe(
      '--target-version / SHOP_TARGET_VERSION: 101 characters, at most 100',
    )
  })

  it('normalises the base URL and rejects what is not one', () => {
    expect(load([], { ...TARGET, SHOP_BASE_URL: 'https://shop.example.test/store/' }).baseUrl).toBe(
      'https://shop.example.test/store',
    )
    expect(refusal(['--base-url', 'not a url'], TARGET)).toMatch(
      /^--base-url \/ SHOP_BASE_URL: "not a url" is not a URL$/,
    )
    expect(refusal(['--base-url', 'ftp://x'], TARGET)).toMatch(/must start with http/)
    expect(refusal(['--base-url', 'https://x/rest/default'], TARGET)).toMatch(/without \/rest/)
  })

  it('requires admin credentials for a configured target, and pairs of credentials', () => {
    expect(refusal([], { SHOP_BASE_URL: 'http://127.0.0.1:1' })).toMatch(
      /^SHOP_ADMIN_USERNAME and SHOP_ADMIN_PASSWORD \(or SHOP_ADMIN_TOKEN\): required/,
    )
    expect(refusal([], { ...TARGET, SHOP_ADMIN_PASSWORD: '' })).toMatch(/SHOP_ADMIN_PASSWORD: missing/)
    expect(refusal([], { ...TARGET, SHOP_CUSTOMER_EMAIL: 'a@example.com' })).toMatch(/SHOP_CUSTOMER_PASSWORD: missing/)
    expect(
      load([], { ...TARGET, SHOP_CUSTOMER_EMAIL: 'a@example.com', SHOP_CUSTOMER_PASSWORD: 'Pw-123456' }).customer,
    ).toEqual({ username: 'a@example.com', password: 'Pw-123456' })
  })

  it("takes a limited admin only with its role's resources given, even empty, and only resources the detail table names", () => {
    const limited = { SHOP_LIMITED_ADMIN_USERNAME: 'clerk', SHOP_LIMITED_ADMIN_PASSWORD: 'Clerk-Pw-1' }
    expect(load([], TARGET).limitedAdmin).toBeUndefined()
    expect(
      load([], {
        ...TARGET,
        ...limited,
        SHOP_LIMITED_ADMIN_RESOURCES: ' Shop_Catalog::sets, Shop_Tax::manage_tax,Shop_Catalog::sets',
      }).limitedAdmin,
    ).toEqual({
      username: 'clerk',
      password: 'Clerk-Pw-1',
      resources: ['Shop_Catalog::sets', 'Shop_Tax::manage_tax'],
    })
    // Empty is a value: a role with none of the named resources. In .env too.
    expect(load([], { ...TARGET, ...limited, SHOP_LIMITED_ADMIN_RESOURCES: '' }).limitedAdmin?.resources).toEqual([])
    expect(load([], { ...TARGET, ...limited }, { SHOP_LIMITED_ADMIN_RESOURCES: '' }).limitedAdmin?.resources).toEqual(
      [],
    )
    // Forgotten, it would read as "none" and fail every endpoint whose resource the role has.
    expect(refusal([], { ...TARGET, ...limited })).toMatch(
      /^SHOP_LIMITED_ADMIN_RESOURCES: missing while SHOP_LIMITED_ADMIN_USERNAME is set/,
    )
    expect(refusal([], { ...TARGET, ...limited, SHOP_LIMITED_ADMIN_RESOURCES: 'Shop_Catalog::products' })).toBe(
      'SHOP_LIMITED_ADMIN_RESOURCES: "Shop_Catalog::products" is not an ACL resource of the spec\'s detail table (Shop_Tax::manage_tax, Shop_Catalog::sets); list only those the role has, as the spec writes them',
    )
    expect(refusal([], { ...TARGET, SHOP_LIMITED_ADMIN_USERNAME: 'clerk', SHOP_LIMITED_ADMIN_RESOURCES: '' })).toMatch(
      /^SHOP_LIMITED_ADMIN_PASSWORD: missing/,
    )
    expect(refusal([], { ...TARGET, SHOP_LIMITED_ADMIN_RESOURCES: 'Shop_Tax::manage_tax' })).toMatch(
      /^SHOP_LIMITED_ADMIN_RESOURCES: set without SHOP_LIMITED_ADMIN_USERNAME/,
    )
  })

  it('selects modules by id or heading and checks by name, refusing unknown ones', () => {
    expect(load(['--module', 'quote', '--module', 'Catalog: categories,directory']).modules).toEqual([
      'quote',
      'catalog-categories',
      'directory',
    ])
    expect(load(['--check', 'route']).checks).toEqual(['route'])
    expect(refusal(['--module', 'nope'])).toMatch(/^--module: unknown module "nope" \(known: /)
    expect(refusal(['--check', 'shape'])).toMatch(/^--check: unknown check "shape" \(known: route, access\)$/)
  })

  it("takes a module that is not the spec's where a vendor's config is loaded later, for the run to check against it", () => {
    const deferred = loadConfig(['--module', 'quote,vendor-warehouses'], {}, {}, KINDS, ACL, 'deferred')
    expect(deferred.modules).toEqual(['quote', 'vendor-warehouses'])
    expect(vendorModulesGiven(deferred.modules)).toEqual(['vendor-warehouses'])
    expect(() => loadConfig(['--module', 'Not An Id'], {}, {}, KINDS, ACL, 'deferred')).toThrow(
      /^--module: unknown module "Not An Id" \(known: /,
    )
    expect(selectModules(['vendor-warehouses'], '--module', ['vendor-warehouses'])).toEqual(['vendor-warehouses'])
    expect(() => selectModules(['vendor-nope'], '--module', ['vendor-warehouses'])).toThrow(
      /^--module: unknown module "vendor-nope" \(known: .*; the config's: vendor-warehouses\)$/,
    )
  })

  it('refuses settings later work defines instead of ignoring them', () => {
    expect(load(['--baseline', 'x.json', '--allow-stale'])).toMatchObject({ baseline: 'x.json', allowStale: true })
    expect(refusal(['--allow-stale'])).toBe('--allow-stale: only with --baseline FILE')
    expect(load(['--shard', '2/3', '--seed', '7']).shard).toEqual({ index: 2, count: 3 })
    expect(load(['--shard', '2/3'], { SHOP_SEED: '7' }).shard).toEqual({ index: 2, count: 3 })
    expect(refusal(['--shard', '2/3'])).toMatch(/^--shard: needs --seed N \(or SHOP_SEED\), the same in every shard/)
    expect(load([]).insecure).toBe(false)
    expect(load(['--insecure']).insecure).toBe(true)
    // The run's evidence (evidence.har) is on unless turned off, by the flag or the variable; a value not 1 or 0 is
    // refused.
    expect(load([]).evidence).toBe(true)
    expect(load(['--no-evidence']).evidence).toBe(false)
    expect(load([], { SHOP_EVIDENCE: '0' }).evidence).toBe(false)
    expect(load([], { SHOP_EVIDENCE: '1' }).evidence).toBe(true)
    expect(load(['--no-evidence'], { SHOP_EVIDENCE: '1' }).evidence).toBe(false)
    expect(refusal([], { SHOP_EVIDENCE: 'maybe' })).toBe('SHOP_EVIDENCE: "maybe" must be 1 or 0')
    expect(load([]).progress).toBe('failures')
    // Under CI a line per module (and at least one a minute): a job silent for minutes looks hung.
    expect(load([], { CI: 'true' }).progress).toBe('modules')
    expect(load(['--progress'], { CI: 'true' }).progress).toBe('failures')
    expect(load(['--quiet']).progress).toBe('off')
    expect(load(['--quiet'], { CI: 'true' }).progress).toBe('off')
    for (const bad of ['0/2', '3/2', 'x', '1/'])
      expect(refusal(['--shard', bad])).toMatch(/^--shard: ".*" must be i\/n/)
    expect(refusal(['--frobnicate'])).toMatch(/Unknown option '--frobnicate'/)
  })

  it('takes read-only mode from the flag or the environment', () => {
    expect(load([]).readOnly).toBe(false)
    expect(load(['--read-only']).readOnly).toBe(true)
    expect(load([], { SHOP_READ_ONLY: '1' }).readOnly).toBe(true)
    expect(load([], { SHOP_READ_ONLY: '0' }).readOnly).toBe(false)
    expect(refusal([], { SHOP_READ_ONLY: 'maybe' })).toBe('SHOP_READ_ONLY: "maybe" must be 1 or 0')
  })

  it('takes a seed, or picks one at random and says so', () => {
    expect(load(['--seed', '42'])).toMatchObject({ seed: 42, seedGiven: true })
    expect(load([], { SHOP_SEED: '0' })).toMatchObject({ seed: 0, seedGiven: true })
    const random = load([])
    expect(random.seedGiven).toBe(false)
    expect(Number.isSafeInteger(random.seed)).toBe(true)
    expect(refusal(['--seed', '1.5'])).toMatch(/^--seed \/ SHOP_SEED: "1.5" must be a whole number/)
  })

  it('reads the purchase settings (product, payment and shipping methods) with the platform defaults', () => {
    expect(load([]).purchase).toEqual({
      paymentMethod: 'checkmo',
      shipping: { carrier: 'flatrate', method: 'flatrate' },
      invoiceRefundPaymentMethod: 'free',
      freeShipping: { carrier: 'freeshipping', method: 'freeshipping' },
    })
    expect(load([], { SHOP_FIXTURE_SKU: 'MB01', SHOP_SHIPPING_METHOD: 'tablerate/bestway' }).purchase).toMatchObject({
      sku: 'MB01',
      shipping: { carrier: 'tablerate', method: 'bestway' },
    })
    expect(refusal([], { SHOP_SHIPPING_METHOD: 'flatrate' })).toMatch(
      /^SHOP_SHIPPING_METHOD: "flatrate" must be carrier\/method/,
    )
  })

  it('validates numbers, store codes and path aliases', () => {
    expect(refusal(['--concurrency', '0'])).toMatch(/--concurrency \/ SHOP_CONCURRENCY: "0" must be a whole number/)
    expect(refusal(['--concurrency', '-3'])).toBe(refusal(['--concurrency', '0']).replace('"0"', '"-3"'))
    expect(refusal(['--timeout-ms', '-1', '--read-only'])).toMatch(
      /^--timeout-ms \/ SHOP_TIMEOUT_MS: "-1" must be a whole number/,
    )
    // A flag after a flag is a forgotten value, not the value.
    expect(refusal(['--concurrency', '--read-only'])).toMatch(/--concurrency/)
    expect(refusal(['--timeout-ms', '1.5'])).toMatch(/SHOP_TIMEOUT_MS/)
    // Below what a run needs to start, stop its checks, clean up and write its reports, the end it prints could not
    // hold.
    const floor =
      '--run-timeout-ms / SHOP_RUN_TIMEOUT_MS: "9999" is less than a run needs to start, stop its checks, clean up and write its reports: at least 10000 (milliseconds)'
    expect(refusal(['--run-timeout-ms', '9999'])).toBe(floor)
    expect(refusal([], { SHOP_RUN_TIMEOUT_MS: '1' })).toBe(floor.replace('"9999"', '"1"'))
    expect(load(['--run-timeout-ms', '10000']).runTimeoutMs).toBe(10_000)
    expect(refusal(['--store', 'a/b'])).toMatch(/not a store code/)
    expect(refusal(['--second-store', 'default'])).toMatch(/must differ/)
    expect(
      load(['--path-alias', '/V1/stockmedia=/V1/adobestock'], { SHOP_PATH_ALIASES: '/V1/paypartner=/V1/paypal' })
        .pathAliases,
    ).toEqual([
      { from: '/V1/paypartner', to: '/V1/paypal' },
      { from: '/V1/stockmedia', to: '/V1/adobestock' },
    ])
    expect(refusal(['--path-alias', 'stockmedia'])).toMatch(/must look like/)
  })
})

describe('settings that would silently do nothing', () => {
  const warningsOf = (env: Record<string, string>, dotenv: Record<string, string> = {}) =>
    load([], env, dotenv).warnings

  it('refuses a SHOP_ variable one or two edits from a setting, naming the setting, never the value', () => {
    expect(refusal([], { SHOP_READONLY: '1' })).toBe(
      'SHOP_READONLY (in the environment): not a setting; did you mean SHOP_READ_ONLY?',
    )
    expect(() => load([], {}, { SHOP_READONLY: '1' })).toThrow(
      new UsageError('SHOP_READONLY (in .env): not a setting; did you mean SHOP_READ_ONLY?'),
    )
    expect(refusal([], { SHOP_ADMIN_PASWORD: 'Secret-1x' })).toBe(
      'SHOP_ADMIN_PASWORD (in the environment): not a setting; did you mean SHOP_ADMIN_PASSWORD?',
    )
    expect(refusal([], { SHOP_CONCURENCY: '4' })).toMatch(/did you mean SHOP_CONCURRENCY\?$/)
    expect(refusal([], { SHOP_SEDE: '4' })).toMatch(/did you mean SHOP_SEED\?$/)
    expect(refusal([], { shop_read_only: '1' })).toMatch(/^shop_read_only \(in the environment\): .*SHOP_READ_ONLY\?$/)
  })

  it("names any other unknown SHOP_ variable in a warning, and knows the project's own", () => {
    expect(warningsOf({ SHOP_DEPLOY_ENVIRONMENT: 'staging', OTHER: 'x' }, { SHOP_TEAM: 'qa' })).toEqual([
      'SHOP_DEPLOY_ENVIRONMENT is not a setting of shop-conformance: ignored',
      'SHOP_TEAM is not a setting of shop-conformance: ignored',
    ])
    expect(
      warningsOf({
        SHOP_DEBUG: '1',
        SHOP_REQUEST_LOG: 'x',
        SHOP_BENCH_STATS: 'y',
        SHOP_CHROMIUM: 'z',
        SHOP_SCREENSHOT_DIR: 'd',
        SHOP_READ_ONLY: '1',
      }),
    ).toEqual([])
  })

  it('refuses an empty value, a selection naming nothing, and --progress with --quiet', () => {
    expect(refusal(['--module', ''])).toBe('--module: an empty value')
    expect(refusal(['--module', ','])).toMatch(/^--module: names nothing/)
    expect(refusal(['--check', ' , '])).toMatch(/^--check: names nothing/)
    expect(refusal(['--report-dir', ''])).toBe('--report-dir: an empty value')
    expect(refusal(['--progress', '--quiet'])).toBe('--progress and --quiet: one or the other')
  })

  it('takes a token given instead of a password (a shop with two-factor admin login), never both, never quoting it', () => {
    const { SHOP_ADMIN_USERNAME: _u, SHOP_ADMIN_PASSWORD: _p, ...url } = TARGET
    const token = 'k3f9x0q1w8e7r6t5y4u3i2o1p0a9s8d7'
    expect(load([], { ...url, SHOP_ADMIN_TOKEN: token }).admin).toEqual({ token, setting: 'SHOP_ADMIN_TOKEN' })
    expect(load([], { ...TARGET, SHOP_CUSTOMER_TOKEN: token }).customer).toEqual({
      token,
      setting: 'SHOP_CUSTOMER_TOKEN',
    })
    expect(
      load([], { ...TARGET, SHOP_LIMITED_ADMIN_TOKEN: token, SHOP_LIMITED_ADMIN_RESOURCES: 'Shop_Catalog::sets' })
        .limitedAdmin,
    ).toEqual({ token, setting: 'SHOP_LIMITED_ADMIN_TOKEN', resources: ['Shop_Catalog::sets'] })
    expect(refusal([], url)).toBe(
      'SHOP_ADMIN_USERNAME and SHOP_ADMIN_PASSWORD (or SHOP_ADMIN_TOKEN): required when a target is given',
    )
    expect(refusal([], { ...TARGET, SHOP_ADMIN_TOKEN: token })).toBe(
      'SHOP_ADMIN_TOKEN and SHOP_ADMIN_USERNAME / SHOP_ADMIN_PASSWORD: give one or the other (the token replaces the password, for a shop that refuses it)',
    )
    expect(
      refusal([], {
        ...TARGET,
        SHOP_CUSTOMER_EMAIL: 'a@example.com',
        SHOP_CUSTOMER_PASSWORD: 'x',
        SHOP_CUSTOMER_TOKEN: token,
      }),
    ).toMatch(/^SHOP_CUSTOMER_TOKEN and SHOP_CUSTOMER_EMAIL \/ SHOP_CUSTOMER_PASSWORD: give one or the other/)
    expect(refusal([], { ...TARGET, SHOP_LIMITED_ADMIN_TOKEN: token })).toMatch(
      /^SHOP_LIMITED_ADMIN_RESOURCES: missing while SHOP_LIMITED_ADMIN_TOKEN is set/,
    )
    for (const bad of [`Bearer ${token}`, `${token} `.repeat(2).trim(), `${token}\nx`]) {
      const message = refusal([], { ...url, SHOP_ADMIN_TOKEN: bad })
      expect(message).toMatch(/^SHOP_ADMIN_TOKEN: /)
      expect(message).not.toContain(token)
    }
  })

  it('never echoes the password of a base URL', () => {
    for (const url of [
      'http://user:s3cret-pw@shop.example',
      'http://user:s3cret-pw@',
      'http://us:s3cret-pw@x@shop.example/',
      'https://s3cret-pw@shop.example',
      'ftp://u:s3cret-pw@h',
    ]) {
      const message = refusal(['--base-url', url], TARGET)
      expect(message, url).not.toContain('s3cret-pw')
      expect(message).toMatch(/^--base-url \/ SHOP_BASE_URL: "[^"]*\[redacted\]@[^"]*"/)
    }
    expect(refusal(['--base-url', 'http://user:s3cret-pw@shop.example'], TARGET)).toBe(
      '--base-url / SHOP_BASE_URL: "http://[redacted]@shop.example" must not carry a user or password (give them as SHOP_ADMIN_USERNAME and SHOP_ADMIN_PASSWORD)',
    )
  })
})

describe('readDotenv', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-dotenv-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const dotenv = (text: string) => {
    writeFileSync(join(dir, '.env'), text)
    return readDotenv(dir)
  }

  it('reads what dotenv reads: comments, blanks, export, quotes over several lines', () => {
    expect(
      dotenv(
        '# c\n\nSHOP_SEED=4 # why\nexport SHOP_STORE_CODE = "de"\nSHOP_FIXTURE_SKU="a\nb"\nSHOP_PAYMENT_METHOD: free\nSHOP_TIMEOUT_MS=\n',
      ),
    ).toEqual({
      SHOP_SEED: '4',
      SHOP_STORE_CODE: 'de',
      SHOP_FIXTURE_SKU: 'a\nb',
      SHOP_PAYMENT_METHOD: 'free',
      SHOP_TIMEOUT_MS: '',
    })
  })

  it('refuses a line dotenv would drop, by its number and without showing it', () => {
    expect(() => dotenv('SHOP_SEED=4\n\nSHOP_ADMIN_PASSWORD Secret-1x\n')).toThrow(
      new UsageError('.env line 3: not NAME=value, a comment or a blank line'),
    )
    expect(() => dotenv('SHOP_READ ONLY=1\n')).toThrow(/^\.env line 1: /)
    expect(() => dotenv('A=1\nSHOP_FIXTURE_SKU="never closed\nB=2\n')).toThrow(/^\.env line 2: /)
    expect(() => dotenv('SHOP_SEED=4')).not.toThrow()
  })
})

describe('the extensions settings', () => {
  it('gate by default, report-only when asked, anything else refused in one line', () => {
    expect(load([]).extensions).toBe('gate')
    expect(load(['--extensions', 'report-only']).extensions).toBe('report-only')
    expect(load([], { SHOP_EXTENSIONS: 'report-only' }).extensions).toBe('report-only')
    expect(() => load(['--extensions', 'warn'])).toThrow(
      new UsageError('--extensions / SHOP_EXTENSIONS: "warn" is neither gate nor report-only'),
    )
  })

  it('sends extension writes to admitted callers only when asked, and names the config file as given', () => {
    expect(load([]).extensionsProbeWrites).toBe(false)
    expect(load(['--extensions-probe-writes']).extensionsProbeWrites).toBe(true)
    expect(load([], { SHOP_EXTENSIONS_PROBE_WRITES: '1' }).extensionsProbeWrites).toBe(true)
    expect(load([]).configFile).toBeUndefined()
    expect(load(['--config', 'vendor.config.ts']).configFile).toBe('vendor.config.ts')
    expect(load([], { SHOP_CONFIG: 'x.config.ts' }).configFile).toBe('x.config.ts')
  })
})
