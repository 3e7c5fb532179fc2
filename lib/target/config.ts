import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { parse as parseDotenv } from 'dotenv'
import { MODULES } from '../spec/modules.ts'

/** A setting that is missing or wrong: the run cannot start. Its message is the one line the user sees. */
export class ConfigError extends Error {}

export interface Credentials {
  username: string
  password: string
}

export interface PathAlias {
  /** Spec path prefix, e.g. `/V1/stockmedia`. */
  from: string
  /** The target's own prefix, e.g. `/V1/adobestock`. */
  to: string
}

export interface RunConfig {
  /** Absent: run against the bundled reference target. */
  baseUrl?: string
  storeCode: string
  /** The second store code every endpoint is also called under (the spec: a store code can replace `default`). */
  secondStoreCode: string
  admin?: Credentials
  /** Absent: the suite registers its own customer. `username` is the email. */
  customer?: Credentials
  /** Selected module ids; empty means all. */
  modules: string[]
  /** Selected check kinds; empty means all. */
  checks: string[]
  concurrency: number
  timeoutMs: number
  reportDir: string
  /** Only token calls and GET requests leave the machine. */
  readOnly: boolean
  /** The whole run is cut short (cleaned up, partial report) after this long. */
  runTimeoutMs: number
  /** A file of result ids expected to fail (each with a reason): only new failures fail the run. */
  baseline?: string
  /** A baseline entry that now passes does not fail the run. */
  allowStale: boolean
  /** Progress on the terminal (stderr): on unless CI=true, where `--progress` asks for it. */
  progress: boolean
  /** Print the requests the run would send, send none. */
  dryRun: boolean
  /** TLS certificates of the target are not verified (must be asked for explicitly; the report shows it). */
  insecure: boolean
  /** This machine's part of a run split across CI machines (`i/n`, vitest's own sharding by suite file). */
  shard?: { index: number; count: number }
  pathAliases: PathAlias[]
  /** Seed of the fixture builders: the same seed gives the same data (apart from the run id). */
  seed: number
  /** Whether the seed was chosen at random (it is printed either way). */
  seedGiven: boolean
  fixtures: FixtureSettings
}

/** What the deep checks and workflows build on; a staging shop may name its own instead. */
export interface FixtureSettings {
  /** An existing product to use instead of creating one. */
  sku?: string
  paymentMethod: string
  shipping: ShippingMethod
  /** Payment method of the order the invoice refund is made on: one the target can refund per invoice. */
  invoiceRefundPaymentMethod: string
  /** Shipping method of a zero-total order (the `free` payment method needs a zero total). */
  freeShipping: ShippingMethod
}

export interface ShippingMethod {
  carrier: string
  method: string
}

const FLAGS = {
  'base-url': { type: 'string' },
  store: { type: 'string' },
  'second-store': { type: 'string' },
  module: { type: 'string', multiple: true },
  check: { type: 'string', multiple: true },
  concurrency: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'report-dir': { type: 'string' },
  'path-alias': { type: 'string', multiple: true },
  seed: { type: 'string' },
  'read-only': { type: 'boolean' },
  'run-timeout-ms': { type: 'string' },
  baseline: { type: 'string' },
  'allow-stale': { type: 'boolean' },
  shard: { type: 'string' },
  insecure: { type: 'boolean' },
  progress: { type: 'boolean' },
  quiet: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
} as const

export type Env = Record<string, string | undefined>

/** Reads `.env` in `dir` when present; its values rank below the real environment. */
export function readDotenv(dir: string): Env {
  try {
    return parseDotenv(readFileSync(`${dir}/.env`))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw new ConfigError(`.env: cannot read it (${(err as Error).message})`)
  }
}

/**
 * Flags win over the environment, which wins over `.env`. `checkKinds` are the names `--check` may take
 * (the check registry is downstream of the target session, so it is handed in rather than imported).
 */
export function loadConfig(argv: string[], env: Env, dotenv: Env, checkKinds: readonly string[]): RunConfig {
  const setting = (name: string): string | undefined => {
    const v = env[name] ?? dotenv[name]
    return v === undefined || v === '' ? undefined : v
  }
  const flags = parseFlags(argv)

  if (flags['allow-stale'] === true && flags.baseline === undefined) throw new ConfigError('--allow-stale: only with --baseline FILE')
  const shard = flags.shard !== undefined ? shardSetting(flags.shard) : undefined
  // Shards are separate processes: `report merge` knows them for one run by their settings and seed.
  if (shard !== undefined && flags.seed === undefined && setting('SHOP_SEED') === undefined) {
    throw new ConfigError('--shard: needs --seed N (or SHOP_SEED), the same in every shard, so that `report merge` can tell the shards of one run')
  }
  const baseUrl = normaliseBaseUrl(flags['base-url'] ?? setting('SHOP_BASE_URL'))
  const storeCode = storeCodeSetting('--store / SHOP_STORE_CODE', flags.store ?? setting('SHOP_STORE_CODE') ?? 'default')
  const secondStoreCode = storeCodeSetting(
    '--second-store / SHOP_SECOND_STORE_CODE',
    flags['second-store'] ?? setting('SHOP_SECOND_STORE_CODE') ?? 'all',
  )
  if (secondStoreCode === storeCode) {
    throw new ConfigError(`--second-store: must differ from the store code "${storeCode}"`)
  }

  const admin = credentialPair('SHOP_ADMIN_USERNAME', 'SHOP_ADMIN_PASSWORD', setting)
  if (baseUrl !== undefined && admin === undefined) {
    throw new ConfigError('SHOP_ADMIN_USERNAME and SHOP_ADMIN_PASSWORD: required when a target is given')
  }
  const customer = credentialPair('SHOP_CUSTOMER_EMAIL', 'SHOP_CUSTOMER_PASSWORD', setting)

  return {
    baseUrl,
    storeCode,
    secondStoreCode,
    admin,
    customer,
    modules: selectModules(flags.module ?? []),
    checks: selectChecks(flags.check ?? [], checkKinds),
    concurrency: positiveInt('--concurrency / SHOP_CONCURRENCY', flags.concurrency ?? setting('SHOP_CONCURRENCY') ?? '8', 256),
    timeoutMs: positiveInt('--timeout-ms / SHOP_TIMEOUT_MS', flags['timeout-ms'] ?? setting('SHOP_TIMEOUT_MS') ?? '10000', 600_000),
    reportDir: flags['report-dir'] ?? setting('SHOP_REPORT_DIR') ?? 'reports',
    readOnly: flags['read-only'] === true || booleanSetting('SHOP_READ_ONLY', setting('SHOP_READ_ONLY')),
    ...(flags.baseline !== undefined ? { baseline: flags.baseline } : {}),
    allowStale: flags['allow-stale'] === true,
    insecure: flags.insecure === true,
    progress: flags.quiet === true ? false : flags.progress === true || env.CI !== 'true',
    dryRun: flags['dry-run'] === true,
    ...(shard !== undefined ? { shard } : {}),
    runTimeoutMs: positiveInt('--run-timeout-ms / SHOP_RUN_TIMEOUT_MS', flags['run-timeout-ms'] ?? setting('SHOP_RUN_TIMEOUT_MS') ?? '1800000', 86_400_000),
    pathAliases: parseAliases([...splitList(setting('SHOP_PATH_ALIASES')), ...(flags['path-alias'] ?? [])]),
    ...seedSetting(flags.seed ?? setting('SHOP_SEED')),
    fixtures: {
      ...(setting('SHOP_FIXTURE_SKU') !== undefined ? { sku: setting('SHOP_FIXTURE_SKU')! } : {}),
      paymentMethod: codeSetting('SHOP_PAYMENT_METHOD', setting('SHOP_PAYMENT_METHOD') ?? 'checkmo'),
      shipping: shippingSetting('SHOP_SHIPPING_METHOD', setting('SHOP_SHIPPING_METHOD') ?? 'flatrate/flatrate'),
      invoiceRefundPaymentMethod: codeSetting('SHOP_INVOICE_REFUND_PAYMENT_METHOD', setting('SHOP_INVOICE_REFUND_PAYMENT_METHOD') ?? 'free'),
      freeShipping: shippingSetting('SHOP_FREE_SHIPPING_METHOD', setting('SHOP_FREE_SHIPPING_METHOD') ?? 'freeshipping/freeshipping'),
    },
  }
}

function seedSetting(raw: string | undefined): { seed: number; seedGiven: boolean } {
  if (raw === undefined) return { seed: Math.floor(Math.random() * 2 ** 31), seedGiven: false }
  return { seed: nonNegativeInt('--seed / SHOP_SEED', raw, 2 ** 31 - 1), seedGiven: true }
}

function shardSetting(raw: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(raw)
  const index = Number(m?.[1])
  const count = Number(m?.[2])
  if (m === null || index < 1 || count < 1 || index > count || count > 64) throw new ConfigError(`--shard: "${raw}" must be i/n with 1 ≤ i ≤ n ≤ 64, e.g. 2/3`)
  return { index, count }
}

function booleanSetting(name: string, raw: string | undefined): boolean {
  if (raw === undefined) return false
  if (/^(1|true|yes|on)$/i.test(raw)) return true
  if (/^(0|false|no|off)$/i.test(raw)) return false
  throw new ConfigError(`${name}: "${raw}" must be 1 or 0`)
}

function codeSetting(name: string, value: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(value)) throw new ConfigError(`${name}: "${value}" is not a method code (letters, digits, _)`)
  return value
}

function shippingSetting(name: string, value: string): ShippingMethod {
  const m = /^([A-Za-z0-9_]+)\/([A-Za-z0-9_]+)$/.exec(value)
  if (m === null) throw new ConfigError(`${name}: "${value}" must be carrier/method, e.g. flatrate/flatrate`)
  return { carrier: m[1]!, method: m[2]! }
}

function parseFlags(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false }).values
  } catch (err) {
    throw new ConfigError((err as Error).message.split('\n')[0]!)
  }
}

function normaliseBaseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(`--base-url / SHOP_BASE_URL: "${raw}" is not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`--base-url / SHOP_BASE_URL: "${raw}" must start with http:// or https://`)
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigError(`--base-url / SHOP_BASE_URL: "${raw}" must not carry a query, fragment or user info`)
  }
  if (/\/rest(\/|$)/.test(url.pathname)) {
    throw new ConfigError(`--base-url / SHOP_BASE_URL: give the shop's base URL without /rest/... (the suite adds /rest/{store}/V1)`)
  }
  return url.toString().replace(/\/+$/, '')
}

function storeCodeSetting(name: string, value: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(value)) throw new ConfigError(`${name}: "${value}" is not a store code (letters, digits, _)`)
  return value
}

function credentialPair(userVar: string, passVar: string, setting: (n: string) => string | undefined): Credentials | undefined {
  const username = setting(userVar)
  const password = setting(passVar)
  if (username === undefined && password === undefined) return undefined
  if (username === undefined) throw new ConfigError(`${userVar}: missing while ${passVar} is set`)
  if (password === undefined) throw new ConfigError(`${passVar}: missing while ${userVar} is set`)
  return { username, password }
}

function nonNegativeInt(name: string, raw: string, max: number): number {
  const n = Number(raw)
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n > max) throw new ConfigError(`${name}: "${raw}" must be a whole number from 0 to ${max}`)
  return n
}

function positiveInt(name: string, raw: string, max: number): number {
  const n = Number(raw)
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1 || n > max) {
    throw new ConfigError(`${name}: "${raw}" must be a whole number from 1 to ${max}`)
  }
  return n
}

function splitList(raw: string | undefined): string[] {
  return raw === undefined ? [] : raw.split(',').map((s) => s.trim()).filter((s) => s !== '')
}

function selectModules(given: string[]): string[] {
  return given.flatMap(splitList).map((name) => {
    const wanted = name.toLowerCase()
    const found = MODULES.find((m) => m.id === wanted || m.title.toLowerCase() === wanted)
    if (found === undefined) {
      throw new ConfigError(`--module: unknown module "${name}" (known: ${MODULES.map((m) => m.id).join(', ')})`)
    }
    return found.id
  })
}

function selectChecks(given: string[], known: readonly string[]): string[] {
  return given.flatMap(splitList).map((name) => {
    if (!known.includes(name)) {
      throw new ConfigError(`--check: unknown check "${name}" (known: ${known.join(', ')})`)
    }
    return name
  })
}

function parseAliases(entries: string[]): PathAlias[] {
  return entries.map((entry) => {
    const m = /^(\/V1\/[^=\s]+)=(\/[^=\s]+)$/.exec(entry)
    if (m === null) {
      throw new ConfigError(`--path-alias / SHOP_PATH_ALIASES: "${entry}" must look like /V1/stockmedia=/V1/adobestock`)
    }
    return { from: m[1]!.replace(/\/+$/, ''), to: m[2]!.replace(/\/+$/, '') }
  })
}
