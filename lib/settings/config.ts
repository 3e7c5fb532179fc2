import { parseArgs } from 'node:util'
import { UsageError } from '../base/usage-error.ts'
import {
  booleanSetting,
  codeSetting,
  limitedAdminSetting,
  normaliseBaseUrl,
  parseAliases,
  positiveInt,
  seedSetting,
  selectChecks,
  selectModules,
  shardSetting,
  shippingSetting,
  splitList,
  storeCodeSetting,
} from './setting-values.ts'
import { unknownVariables } from './strict-settings.ts'
import { parseTargetSchema, type TargetSchemaSetting } from '../schema/setting.ts'

export { selectChecks, selectModules } from './setting-values.ts'
export { readDotenv } from './strict-settings.ts'

export interface Credentials {
  username: string
  password: string
}

/** The acl check's admin, whose role has only `resources` of the detail table's ACL resources (possibly none). */
export interface LimitedAdmin extends Credentials {
  resources: string[]
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
  /** Absent: the acl check is reported not configured. */
  limitedAdmin?: LimitedAdmin
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
  /** Where the shop's published schema is read from (lib/schema/setting.ts). */
  targetSchema: TargetSchemaSetting
  /** `gate`: a failing extension or vendor check makes the exit status 1; `report-only`: it is reported only. */
  extensions: 'gate' | 'report-only'
  /** Send an extension operation's write to the callers its declared class admits too (it may change data). */
  extensionsProbeWrites: boolean
  /** The vendor's config file (`--config`, `SHOP_CONFIG`), as given; absent: `shop-conformance.config.ts` of the working directory, if there. */
  configFile?: string
  /** Seed of the fixture builders: the same seed gives the same data (apart from the run id). */
  seed: number
  /** Whether the seed was chosen at random (it is printed either way). */
  seedGiven: boolean
  fixtures: FixtureSettings
  /** Unknown `SHOP_*` variables of the environment and `.env`, ignored: named in a warning at start. */
  warnings: string[]
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

/**
 * Every setting a user gives, one row each: the variables read from the environment and `.env`, the flag of
 * `run`, and what holds without it (in the README's words). The flags `run` accepts, the known `SHOP_*`
 * variables (an unknown one near a known name is refused, as a typo), the usage text and the README's settings
 * table all come from here: a new setting is a new row (and the code that reads it).
 */
export const SETTINGS = [
  { variables: ['SHOP_BASE_URL'], flag: '--base-url', value: 'URL', default: 'none: the bundled reference target is started on a free loopback port' },
  { variables: ['SHOP_STORE_CODE'], flag: '--store', value: 'CODE', default: '`default`' },
  { variables: ['SHOP_SECOND_STORE_CODE'], flag: '--second-store', value: 'CODE', default: '`all` (every endpoint is also called under it)' },
  { variables: ['SHOP_ADMIN_USERNAME', 'SHOP_ADMIN_PASSWORD'], default: 'required with a target' },
  {
    variables: ['SHOP_CUSTOMER_EMAIL', 'SHOP_CUSTOMER_PASSWORD'],
    default: 'none: the suite registers customers of its own (`POST /V1/customers`, on `example.com`)',
  },
  { variables: ['SHOP_LIMITED_ADMIN_USERNAME'], default: 'none: the `acl` check is reported *not configured* (see "The ACL check: a limited admin")' },
  { variables: ['SHOP_LIMITED_ADMIN_PASSWORD'], default: 'none; required with `SHOP_LIMITED_ADMIN_USERNAME`' },
  { variables: ['SHOP_LIMITED_ADMIN_RESOURCES'], default: 'required with `SHOP_LIMITED_ADMIN_USERNAME`: the detail table\'s ACL resources the limited admin\'s role has, comma-separated, as the spec writes them; empty = none of them' },
  { flag: '--module', value: 'NAME', multiple: true, default: 'every module; a module id (`shop-conformance list` shows them) or the spec\'s heading, repeated or comma-separated' },
  { flag: '--check', value: 'KIND', multiple: true, default: 'every check kind (below); repeated or comma-separated' },
  { variables: ['SHOP_READ_ONLY'], shownAs: 'SHOP_READ_ONLY=1', flag: '--read-only', default: 'off: see "Running against staging safely"' },
  { variables: ['SHOP_CONCURRENCY'], flag: '--concurrency', value: 'N', default: '8 requests in flight at most' },
  { variables: ['SHOP_TIMEOUT_MS'], flag: '--timeout-ms', value: 'N', default: '10000 per request' },
  { variables: ['SHOP_RUN_TIMEOUT_MS'], flag: '--run-timeout-ms', value: 'N', default: '1800000: the run is cut short (cleaned up, partial report) after this' },
  { variables: ['SHOP_REPORT_DIR'], flag: '--report-dir', value: 'DIR', default: '`reports`; refused before any request unless it is a writable directory or can be made one' },
  { flag: '--baseline', value: 'FILE', default: 'none: every failure fails the run (see "For CI: a gate")' },
  { flag: '--allow-stale', default: 'off: a baseline entry that now passes fails the run' },
  { variables: ['SHOP_SEED'], flag: '--seed', value: 'N', default: 'random, printed at start and written into the report; the same seed gives the same data' },
  { flag: '--shard', value: 'I/N', default: 'the whole suite; `2/3` runs the second of three parts (`report merge` joins them)' },
  {
    variables: ['SHOP_PATH_ALIASES'],
    flag: '--path-alias',
    value: '/V1/spec-prefix=/V1/target-prefix',
    multiple: true,
    default: 'none; e.g. `/V1/stockmedia=/V1/adobestock` for a target that names the spec\'s vendor-neutral paths after the vendor (the report shows the alias used)',
  },
  { variables: ['SHOP_TARGET_SCHEMA'], flag: '--target-schema', value: 'SOURCE', default: '`auto`: the shop\'s own schema, `{base}/rest/{store}/schema?services=all`, read under each caller; `off`; or a file or an http(s) URL (see "The shop\'s published schema")' },
  {
    variables: ['SHOP_EXTENSIONS'],
    flag: '--extensions',
    value: 'MODE',
    default: '`gate`: a failing extension or vendor check makes the exit status 1; `report-only` reports it without (see "Checking a shop\'s custom endpoints")',
  },
  {
    variables: ['SHOP_EXTENSIONS_PROBE_WRITES'],
    shownAs: 'SHOP_EXTENSIONS_PROBE_WRITES=1',
    flag: '--extensions-probe-writes',
    default: 'off: an extension operation that writes is sent only to callers its declared class must refuse. **On, it is sent to the callers it admits too: it may change or delete data**',
  },
  { variables: ['SHOP_CONFIG'], flag: '--config', value: 'FILE', default: '`shop-conformance.config.ts` in the working directory if there: extra endpoints and checks (see "Extending the suite")' },
  { variables: ['SHOP_FIXTURE_SKU'], default: 'none: the suite creates its own product; name an existing one on a shop where it should not' },
  { variables: ['SHOP_PAYMENT_METHOD'], default: '`checkmo` (orders of the workflows)' },
  { variables: ['SHOP_SHIPPING_METHOD'], default: '`flatrate/flatrate` (carrier/method)' },
  {
    variables: ['SHOP_INVOICE_REFUND_PAYMENT_METHOD'],
    default: '`free`: the invoice refund needs a payment method that refunds per invoice (a zero-total order)',
  },
  { variables: ['SHOP_FREE_SHIPPING_METHOD'], default: '`freeshipping/freeshipping` (for that zero-total order)' },
  { flag: '--insecure', default: 'off: TLS certificates are verified; a private CA works through `NODE_EXTRA_CA_CERTS=ca.pem`' },
  { variables: ['CI'], shownAs: 'CI=true', flag: '--progress', default: 'progress on stderr (each failure as it comes, a line per module); off under `CI=true` unless `--progress`' },
  { flag: '--quiet', default: 'off: `--quiet` turns progress off also outside CI (not with `--progress`)' },
  { flag: '--dry-run', default: 'off: print every request the run would send, send none' },
] as const satisfies readonly SettingRow[]

export interface SettingRow {
  /** Read from the environment, then `.env`; a flag wins over both. */
  readonly variables?: readonly string[]
  /** How the README names the variable when its value matters (`SHOP_READ_ONLY=1`). */
  readonly shownAs?: string
  readonly flag?: `--${string}`
  /** The placeholder of the flag's value; none: the flag is a switch. */
  readonly value?: string
  /** The flag may be given more than once. */
  readonly multiple?: boolean
  readonly default: string
}

/**
 * `SHOP_*` variables the project's own tools read, not settings of a run: known, so never warned about.
 * (`SHOP_BODY_TOO_LARGE` in the client is an error code, not a variable.)
 */
export const TOOL_VARIABLES: Readonly<Record<string, string>> = {
  SHOP_DEBUG: '`1`: the stack trace of an internal error, after its one line',
  SHOP_RUN_FLAGS: 'set by `shop-conformance run`: its flags (JSON), for the run under vitest',
  SHOP_REQUEST_LOG: 'set by `npm run bench`: every request of the run is logged to this file',
  SHOP_BENCH_STATS: 'set by `npm run bench`: the run\'s CPU time, peak RSS and request phase are written to this file at exit',
  SHOP_CHROMIUM: 'the browser of the HTML report\'s test (default `/usr/bin/chromium`)',
  SHOP_SCREENSHOT_DIR: 'where the HTML report\'s test saves its screenshots (default: a temporary directory, removed after)',
}

type FlagRow = Extract<(typeof SETTINGS)[number], { flag: string }>
type FlagOptions = {
  [R in FlagRow as R['flag'] extends `--${infer Name}` ? Name : never]: R extends { value: string }
    ? R extends { multiple: true }
      ? { type: 'string'; multiple: true }
      : { type: 'string' }
    : { type: 'boolean' }
}

const FLAGS = Object.fromEntries(
  SETTINGS.flatMap((row: SettingRow) =>
    row.flag === undefined ? [] : [[row.flag.slice(2), row.value === undefined ? { type: 'boolean' } : { type: 'string', ...(row.multiple === true ? { multiple: true } : {}) }]],
  ),
) as FlagOptions

export type Env = Record<string, string | undefined>

/**
 * Flags win over the environment, which wins over `.env`. `checkKinds` are the names `--check` may take
 * (the check registry is downstream of the target session, so it is handed in rather than imported), and
 * `aclResources` those SHOP_LIMITED_ADMIN_RESOURCES may name (handed in too: only `run` loads the catalog).
 */
export function loadConfig(argv: string[], env: Env, dotenv: Env, checkKinds: readonly string[], aclResources: readonly string[]): RunConfig {
  const setting = (name: string): string | undefined => {
    const v = env[name] ?? dotenv[name]
    return v === undefined || v === '' ? undefined : v
  }
  const flags = parseFlags(argv)
  const unknown = unknownVariables(env, dotenv, [...SETTINGS.flatMap((row: SettingRow) => row.variables ?? []), ...Object.keys(TOOL_VARIABLES)])

  if (flags['allow-stale'] === true && flags.baseline === undefined) throw new UsageError('--allow-stale: only with --baseline FILE')
  const shard = flags.shard !== undefined ? shardSetting(flags.shard) : undefined
  // Shards are separate processes: `report merge` knows them for one run by their settings and seed.
  if (shard !== undefined && flags.seed === undefined && setting('SHOP_SEED') === undefined) {
    throw new UsageError('--shard: needs --seed N (or SHOP_SEED), the same in every shard, so that `report merge` can tell the shards of one run')
  }
  if (flags.progress === true && flags.quiet === true) throw new UsageError('--progress and --quiet: one or the other')
  const baseUrl = normaliseBaseUrl(flags['base-url'] ?? setting('SHOP_BASE_URL'))
  const storeCode = storeCodeSetting('--store / SHOP_STORE_CODE', flags.store ?? setting('SHOP_STORE_CODE') ?? 'default')
  const secondStoreCode = storeCodeSetting(
    '--second-store / SHOP_SECOND_STORE_CODE',
    flags['second-store'] ?? setting('SHOP_SECOND_STORE_CODE') ?? 'all',
  )
  if (secondStoreCode === storeCode) {
    throw new UsageError(`--second-store: must differ from the store code "${storeCode}"`)
  }

  const admin = credentialPair('SHOP_ADMIN_USERNAME', 'SHOP_ADMIN_PASSWORD', setting)
  if (baseUrl !== undefined && admin === undefined) {
    throw new UsageError('SHOP_ADMIN_USERNAME and SHOP_ADMIN_PASSWORD: required when a target is given')
  }
  const customer = credentialPair('SHOP_CUSTOMER_EMAIL', 'SHOP_CUSTOMER_PASSWORD', setting)
  const limitedAdmin = limitedAdminSetting(credentialPair('SHOP_LIMITED_ADMIN_USERNAME', 'SHOP_LIMITED_ADMIN_PASSWORD', setting), env.SHOP_LIMITED_ADMIN_RESOURCES ?? dotenv.SHOP_LIMITED_ADMIN_RESOURCES, aclResources)

  return {
    baseUrl,
    storeCode,
    secondStoreCode,
    admin,
    customer,
    ...(limitedAdmin !== undefined ? { limitedAdmin } : {}),
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
    targetSchema: parseTargetSchema(flags['target-schema'] ?? setting('SHOP_TARGET_SCHEMA')),
    extensions: extensionsMode(flags.extensions ?? setting('SHOP_EXTENSIONS') ?? 'gate'),
    extensionsProbeWrites: flags['extensions-probe-writes'] === true || booleanSetting('SHOP_EXTENSIONS_PROBE_WRITES', setting('SHOP_EXTENSIONS_PROBE_WRITES')),
    ...(flags.config ?? setting('SHOP_CONFIG') ? { configFile: (flags.config ?? setting('SHOP_CONFIG'))! } : {}),
    ...seedSetting(flags.seed ?? setting('SHOP_SEED')),
    fixtures: {
      ...(setting('SHOP_FIXTURE_SKU') !== undefined ? { sku: setting('SHOP_FIXTURE_SKU')! } : {}),
      paymentMethod: codeSetting('SHOP_PAYMENT_METHOD', setting('SHOP_PAYMENT_METHOD') ?? 'checkmo'),
      shipping: shippingSetting('SHOP_SHIPPING_METHOD', setting('SHOP_SHIPPING_METHOD') ?? 'flatrate/flatrate'),
      invoiceRefundPaymentMethod: codeSetting('SHOP_INVOICE_REFUND_PAYMENT_METHOD', setting('SHOP_INVOICE_REFUND_PAYMENT_METHOD') ?? 'free'),
      freeShipping: shippingSetting('SHOP_FREE_SHIPPING_METHOD', setting('SHOP_FREE_SHIPPING_METHOD') ?? 'freeshipping/freeshipping'),
    },
    warnings: unknown.map((name) => `${name} is not a setting of shop-conformance: ignored`),
  }
}

function extensionsMode(raw: string): RunConfig['extensions'] {
  if (raw === 'gate' || raw === 'report-only') return raw
  throw new UsageError(`--extensions / SHOP_EXTENSIONS: "${raw}" is neither gate nor report-only`)
}

function parseFlags(argv: string[]) {
  let values
  try {
    values = parseArgs({ args: valuesAttached(argv), options: FLAGS, strict: true, allowPositionals: false }).values
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]!)
  }
  for (const [name, value] of Object.entries(values)) {
    if (value === '' || (Array.isArray(value) && value.includes(''))) throw new UsageError(`--${name}: an empty value`)
  }
  return values
}

/**
 * `--concurrency -3` as `--concurrency=-3`: parseArgs takes a value starting with a dash for a forgotten value,
 * which would give `-3` another message than `0`. A known flag after a flag is still a forgotten value.
 */
function valuesAttached(argv: string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]!.startsWith('--') ? argv[i]!.slice(2) : undefined
    const next = argv[i + 1]
    const takesValue = name !== undefined && Object.hasOwn(FLAGS, name) && FLAGS[name as keyof typeof FLAGS].type === 'string'
    if (takesValue && next !== undefined && next.startsWith('-') && !Object.hasOwn(FLAGS, next.replace(/^--/, '').split('=')[0]!)) {
      out.push(`${argv[i]}=${next}`)
      i++
    } else out.push(argv[i]!)
  }
  return out
}

function credentialPair(userVar: string, passVar: string, setting: (n: string) => string | undefined): Credentials | undefined {
  const username = setting(userVar)
  const password = setting(passVar)
  if (username === undefined && password === undefined) return undefined
  if (username === undefined) throw new UsageError(`${userVar}: missing while ${passVar} is set`)
  if (password === undefined) throw new UsageError(`${passVar}: missing while ${userVar} is set`)
  return { username, password }
}

