/**
 * Flags → environment → `.env` → the settings of a run (`loadConfig`). The settings' other files are reached
 * through this one: what a run is configured with (run-config.ts), the settings table (settings-table.ts), how
 * flags are parsed (flags.ts), how a value is read (setting-values.ts) and what makes the settings strict
 * (strict-settings.ts).
 */
import { UsageError } from '../base/usage-error.ts'
import { parseFlags } from './flags.ts'
import type { Credentials, RunConfig, SignIn } from './run-config.ts'
import {
  booleanSetting,
  codeSetting,
  givenTokenSetting,
  labelSetting,
  limitedAdminSetting,
  normaliseBaseUrl,
  parseAliases,
  positiveInt,
  runTimeoutSetting,
  seedSetting,
  selectChecks,
  selectModules,
  shardSetting,
  shippingSetting,
  splitList,
  storeCodeSetting,
} from './setting-values.ts'
import { SETTINGS, TOOL_VARIABLES, type SettingRow } from './settings-table.ts'
import { unknownVariables, type Env } from './strict-settings.ts'
import { parseTargetSchema } from '../schema/setting.ts'

export type {
  Credentials,
  PurchaseSettings,
  LimitedAdmin,
  PathAlias,
  RunConfig,
  ShippingMethod,
  SignIn,
} from './run-config.ts'
export { isGivenToken } from './run-config.ts'
export { SETTINGS, TOOL_VARIABLES, type SettingRow } from './settings-table.ts'
export { selectChecks, selectModules, vendorModulesGiven } from './setting-values.ts'
export { readDotenv } from './strict-settings.ts'

/**
 * Flags win over the environment, which wins over `.env`. `checkKinds` are the names `--check` may take
 * (the check registry is downstream of the target session, so it is handed in rather than imported), and
 * `aclResources` those SHOP_LIMITED_ADMIN_RESOURCES may name (handed in too: only `run` loads the catalog).
 */
export function loadConfig(
  argv: string[],
  env: Env,
  dotenv: Env,
  checkKinds: readonly string[],
  aclResources: readonly string[],
  /**
   * `deferred`: a `--module` that is not the spec's is taken, for the caller to check against the vendor's config
   * (selectModules).
   */
  vendorModules: 'deferred' | 'none' = 'none',
): RunConfig {
  const setting = settingOf(env, dotenv)
  const flags = parseFlags(argv)
  const unknown = unknownVariables(env, dotenv, [
    ...SETTINGS.flatMap((row: SettingRow) => row.variables ?? []),
    ...Object.keys(TOOL_VARIABLES),
  ])
  const shard = flagsTogether(flags, setting)
  const { baseUrl, storeCode, secondStoreCode } = targetSettings(flags, setting)
  const { admin, customer, limitedAdmin } = callerSettings(baseUrl, env, dotenv, aclResources, setting)
  const labels = targetLabels(flags, setting)
  const configFile = flags.config ?? setting('SHOP_CONFIG')
  return {
    baseUrl,
    ...labels,
    storeCode,
    secondStoreCode,
    admin,
    customer,
    ...(limitedAdmin !== undefined ? { limitedAdmin } : {}),
    modules: selectModules(flags.module ?? [], '--module', vendorModules === 'deferred' ? 'deferred' : []),
    checks: selectChecks(flags.check ?? [], checkKinds),
    ...loadSettings(flags, setting),
    ...runModeSettings(flags, setting, env, shard),
    pathAliases: parseAliases([...splitList(setting('SHOP_PATH_ALIASES')), ...(flags['path-alias'] ?? [])]),
    targetSchema: parseTargetSchema(flags['target-schema'] ?? setting('SHOP_TARGET_SCHEMA')),
    extensions: extensionsMode(flags.extensions ?? setting('SHOP_EXTENSIONS') ?? 'gate'),
    extensionsProbeWrites:
      flags['extensions-probe-writes'] === true ||
      booleanSetting('SHOP_EXTENSIONS_PROBE_WRITES', setting('SHOP_EXTENSIONS_PROBE_WRITES')),
    ...(configFile ? { configFile } : {}),
    ...seedSetting(flags.seed ?? setting('SHOP_SEED')),
    purchase: purchaseSettings(setting),
    warnings: unknown.map((name) => `${name} is not a setting of shop-conformance: ignored`),
  }
}

/** A variable's value, the environment's over `.env`'s; an empty value is no value. */
type Setting = (name: string) => string | undefined

/** The flags parsed from the command line. */
type Flags = ReturnType<typeof parseFlags>

function settingOf(env: Env, dotenv: Env): Setting {
  return (name: string): string | undefined => {
    const v = env[name] ?? dotenv[name]
    return v === undefined || v === '' ? undefined : v
  }
}

/**
 * The flags that only make sense with or without another — `--allow-stale` needs `--baseline`, `--shard` a seed,
 * `--progress` excludes `--quiet` —, checked in that order; the shard, when one is given.
 */
function flagsTogether(flags: Flags, setting: Setting): RunConfig['shard'] {
  if (flags['allow-stale'] === true && flags.baseline === undefined)
    throw new UsageError('--allow-stale: only with --baseline FILE')
  const shard = flags.shard !== undefined ? shardSetting(flags.shard) : undefined
  // Shards are separate processes: `report merge` knows them for one run by their settings and seed.
  if (shard !== undefined && flags.seed === undefined && setting('SHOP_SEED') === undefined) {
    throw new UsageError(
      '--shard: needs --seed N (or SHOP_SEED), the same in every shard, so that `report merge` can tell the shards of one run',
    )
  }
  if (flags.progress === true && flags.quiet === true) throw new UsageError('--progress and --quiet: one or the other')
  return shard
}

/** Where the target is: its base URL, and the two store codes it is tested under (never the same one). */
function targetSettings(flags: Flags, setting: Setting): Pick<RunConfig, 'baseUrl' | 'storeCode' | 'secondStoreCode'> {
  const baseUrl = normaliseBaseUrl(flags['base-url'] ?? setting('SHOP_BASE_URL'))
  const storeCode = storeCodeSetting(
    '--store / SHOP_STORE_CODE',
    flags.store ?? setting('SHOP_STORE_CODE') ?? 'default',
  )
  const secondStoreCode = storeCodeSetting(
    '--second-store / SHOP_SECOND_STORE_CODE',
    flags['second-store'] ?? setting('SHOP_SECOND_STORE_CODE') ?? 'all',
  )
  if (secondStoreCode === storeCode) {
    throw new UsageError(`--second-store: must differ from the store code "${storeCode}"`)
  }
  return { baseUrl, storeCode, secondStoreCode }
}

/** How each caller signs in: the admin (required with a target), the customer, the limited admin of the ACL checks. */
function callerSettings(
  baseUrl: string | undefined,
  env: Env,
  dotenv: Env,
  aclResources: readonly string[],
  setting: Setting,
): Pick<RunConfig, 'admin' | 'customer' | 'limitedAdmin'> {
  const admin = signIn('SHOP_ADMIN_USERNAME', 'SHOP_ADMIN_PASSWORD', 'SHOP_ADMIN_TOKEN', setting)
  if (baseUrl !== undefined && admin === undefined) {
    throw new UsageError(
      'SHOP_ADMIN_USERNAME and SHOP_ADMIN_PASSWORD (or SHOP_ADMIN_TOKEN): required when a target is given',
    )
  }
  const customer = signIn('SHOP_CUSTOMER_EMAIL', 'SHOP_CUSTOMER_PASSWORD', 'SHOP_CUSTOMER_TOKEN', setting)
  const limitedAdmin = limitedAdminSetting(
    signIn('SHOP_LIMITED_ADMIN_USERNAME', 'SHOP_LIMITED_ADMIN_PASSWORD', 'SHOP_LIMITED_ADMIN_TOKEN', setting),
    env.SHOP_LIMITED_ADMIN_RESOURCES ?? dotenv.SHOP_LIMITED_ADMIN_RESOURCES,
    aclResources,
  )
  return { admin, customer, limitedAdmin }
}

/** The target's name and version as the user labels it in the reports, each only when given. */
function targetLabels(flags: Flags, setting: Setting): Pick<RunConfig, 'targetName' | 'targetVersion'> {
  const targetName = labelSetting(
    '--target-name / SHOP_TARGET_NAME',
    flags['target-name'] ?? setting('SHOP_TARGET_NAME'),
  )
  const targetVersion = labelSetting(
    '--target-version / SHOP_TARGET_VERSION',
    flags['target-version'] ?? setting('SHOP_TARGET_VERSION'),
  )
  return {
    ...(targetName !== undefined ? { targetName } : {}),
    ...(targetVersion !== undefined ? { targetVersion } : {}),
  }
}

/** The load the run puts on the shop: requests in flight, requests a second, the pace, and the deadlines. */
function loadSettings(
  flags: Flags,
  setting: Setting,
): Pick<RunConfig, 'concurrency' | 'maxRps' | 'pace' | 'timeoutMs' | 'maxTimeoutMs'> {
  const maxRps = flags['max-rps'] ?? setting('SHOP_MAX_RPS')
  return {
    concurrency: positiveInt(
      '--concurrency / SHOP_CONCURRENCY',
      flags.concurrency ?? setting('SHOP_CONCURRENCY') ?? '8',
      256,
    ),
    ...(maxRps ? { maxRps: positiveInt('--max-rps / SHOP_MAX_RPS', maxRps, 10_000) } : {}),
    pace: paceMode(flags.pace ?? setting('SHOP_PACE') ?? 'adaptive'),
    timeoutMs: positiveInt(
      '--timeout-ms / SHOP_TIMEOUT_MS',
      flags['timeout-ms'] ?? setting('SHOP_TIMEOUT_MS') ?? '10000',
      600_000,
    ),
    maxTimeoutMs: positiveInt(
      '--max-timeout-ms / SHOP_MAX_TIMEOUT_MS',
      flags['max-timeout-ms'] ?? setting('SHOP_MAX_TIMEOUT_MS') ?? '120000',
      3_600_000,
    ),
  }
}

/**
 * How the run goes about it and what it writes: the report directory, read-only, evidence, the baseline, TLS, the
 * progress shown, a dry run, the shard and the run's own deadline.
 */
function runModeSettings(flags: Flags, setting: Setting, env: Env, shard: RunConfig['shard']) {
  return {
    reportDir: flags['report-dir'] ?? setting('SHOP_REPORT_DIR') ?? 'reports',
    readOnly: flags['read-only'] === true || booleanSetting('SHOP_READ_ONLY', setting('SHOP_READ_ONLY')),
    evidence:
      flags['no-evidence'] !== true &&
      (setting('SHOP_EVIDENCE') === undefined || booleanSetting('SHOP_EVIDENCE', setting('SHOP_EVIDENCE'))),
    ...(flags.baseline !== undefined ? { baseline: flags.baseline } : {}),
    allowStale: flags['allow-stale'] === true,
    insecure: flags.insecure === true,
    progress: progressMode(flags.quiet === true, flags.progress === true, env.CI === 'true'),
    dryRun: flags['dry-run'] === true,
    ...(shard !== undefined ? { shard } : {}),
    runTimeoutMs: runTimeoutSetting(
      '--run-timeout-ms / SHOP_RUN_TIMEOUT_MS',
      flags['run-timeout-ms'] ?? setting('SHOP_RUN_TIMEOUT_MS') ?? '1800000',
    ),
  }
}

/** What the workflows buy with: the fixture's sku when given, the payment and shipping methods. */
function purchaseSettings(setting: Setting): RunConfig['purchase'] {
  const fixtureSku = setting('SHOP_FIXTURE_SKU')
  return {
    ...(fixtureSku !== undefined ? { sku: fixtureSku } : {}),
    paymentMethod: codeSetting('SHOP_PAYMENT_METHOD', setting('SHOP_PAYMENT_METHOD') ?? 'checkmo'),
    shipping: shippingSetting('SHOP_SHIPPING_METHOD', setting('SHOP_SHIPPING_METHOD') ?? 'flatrate/flatrate'),
    invoiceRefundPaymentMethod: codeSetting(
      'SHOP_INVOICE_REFUND_PAYMENT_METHOD',
      setting('SHOP_INVOICE_REFUND_PAYMENT_METHOD') ?? 'free',
    ),
    freeShipping: shippingSetting(
      'SHOP_FREE_SHIPPING_METHOD',
      setting('SHOP_FREE_SHIPPING_METHOD') ?? 'freeshipping/freeshipping',
    ),
  }
}

/** `--quiet` silences; `--progress`, or a terminal outside CI, names each failure; a CI log names modules only. */
function progressMode(quiet: boolean, progress: boolean, inCi: boolean): RunConfig['progress'] {
  if (quiet) return 'off'
  if (progress || !inCi) return 'failures'
  return 'modules'
}

function paceMode(raw: string): RunConfig['pace'] {
  if (raw === 'adaptive' || raw === 'fixed') return raw
  throw new UsageError(`--pace / SHOP_PACE: "${raw}" is neither adaptive nor fixed`)
}

function extensionsMode(raw: string): RunConfig['extensions'] {
  if (raw === 'gate' || raw === 'report-only') return raw
  throw new UsageError(`--extensions / SHOP_EXTENSIONS: "${raw}" is neither gate nor report-only`)
}

/**
 * A caller's credentials or the token given for it: one or the other — with both, which would the run sign in
 * with (and renew with)? The token is for a shop that refuses the password (two-factor admin login).
 */
function signIn(userVar: string, passVar: string, tokenVar: string, setting: Setting): SignIn | undefined {
  const credentials = credentialPair(userVar, passVar, setting)
  const token = setting(tokenVar)
  if (token === undefined) return credentials
  if (credentials !== undefined)
    throw new UsageError(
      `${tokenVar} and ${userVar} / ${passVar}: give one or the other (the token replaces the password, for a shop that refuses it)`,
    )
  return givenTokenSetting(tokenVar, token)
}

function credentialPair(userVar: string, passVar: string, setting: Setting): Credentials | undefined {
  const username = setting(userVar)
  const password = setting(passVar)
  if (username === undefined && password === undefined) return undefined
  if (username === undefined) throw new UsageError(`${userVar}: missing while ${passVar} is set`)
  if (password === undefined) throw new UsageError(`${passVar}: missing while ${userVar} is set`)
  return { username, password }
}
