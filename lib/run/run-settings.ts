/**
 * A run's settings, as today: flags over the environment over `.env` of the directory the run was started in.
 * The flags are those of `shop-conformance run`, which hands them to vitest as one JSON variable
 * (`SHOP_RUN_FLAGS`); a native `npx vitest run --project conformance` has none.
 */
import { UsageError } from '../base/usage-error.ts'
import { CHECK_KINDS } from '../checks/index.ts'
import type { Baseline } from '../report/baseline.ts'
import { resolveBaseline } from '../report/profiles.ts'
import { loadConfig, readDotenv, selectModules, vendorModulesGiven, type RunConfig } from '../settings/config.ts'
import { configFileOf, type VendorParts } from '../extend/load.ts'
import { ACL_RESOURCES } from '../spec/catalog/index.ts'

const RUN_FLAGS_VARIABLE = 'SHOP_RUN_FLAGS'

export interface RunSettings {
  config: RunConfig
  baseline?: Baseline
  /** Started by `shop-conformance run`: its own progress and one-line errors, vitest's reporters silent. */
  underCli: boolean
}

/**
 * Throws UsageError for a bad setting (a bad baseline is one: refused before anything is sent). Under `shop-conformance
 * run` the caller prints it as one line and exits 2; natively vitest reports it as an error of the run.
 */
export function runSettings(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): RunSettings {
  const raw = env[RUN_FLAGS_VARIABLE]
  const flags = raw === undefined || raw === '' ? [] : (JSON.parse(raw) as string[])
  const config = loadConfig(flags, env, readDotenv(cwd), CHECK_KINDS, ACL_RESOURCES, 'deferred')
  // A module that is not the spec's can only be a vendor's: without a config it is unknown, said now.
  const vendors = vendorModulesGiven(config.modules)
  if (vendors.length > 0 && configFileOf(config.configFile, cwd) === undefined) selectModules(vendors)
  if (config.dryRun)
    throw new UsageError('--dry-run: not under vitest (shop-conformance run --dry-run prints the requests)')
  const baseline = config.baseline !== undefined ? resolveBaseline(config.baseline) : undefined
  return { config, ...(baseline !== undefined ? { baseline } : {}), underCli: raw !== undefined }
}

/**
 * The modules `--module` selected that are not the spec's must be modules of the vendor's config (its endpoints'):
 * refused in one line otherwise, naming the modules there are — before any request.
 */
export function requireVendorModules(modules: readonly string[], vendor: VendorParts | undefined): void {
  const given = vendorModulesGiven(modules)
  if (given.length > 0) selectModules(given, '--module', [...new Set(vendor?.rows.map((r) => r.module) ?? [])])
}
