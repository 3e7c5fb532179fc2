/**
 * A run's settings, as today: flags over the environment over `.env` of the directory the run was started in.
 * The flags are those of `shop-conformance run`, which hands them to vitest as one JSON variable
 * (`SHOP_RUN_FLAGS`); a native `npx vitest run --project conformance` has none.
 */
import { UsageError } from '../base/usage-error.ts'
import { CHECK_KINDS } from '../checks/index.ts'
import type { Baseline } from '../report/baseline.ts'
import { resolveBaseline } from '../report/profiles.ts'
import { loadConfig, readDotenv, type RunConfig } from '../settings/config.ts'
import { ACL_RESOURCES } from '../spec/catalog/index.ts'

const RUN_FLAGS_VARIABLE = 'SHOP_RUN_FLAGS'

export interface RunSettings {
  config: RunConfig
  baseline?: Baseline
  /** Started by `shop-conformance run`: its own progress and one-line errors, vitest's reporters silent. */
  underCli: boolean
}

/**
 * Throws UsageError for a bad setting (a bad baseline is one: refused before anything is sent). Under
 * `shop-conformance run` the caller prints it as one line and exits 2; natively vitest reports it as an error of the run.
 */
export function runSettings(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): RunSettings {
  const raw = env[RUN_FLAGS_VARIABLE]
  const flags = raw === undefined || raw === '' ? [] : (JSON.parse(raw) as string[])
  const config = loadConfig(flags, env, readDotenv(cwd), CHECK_KINDS, ACL_RESOURCES)
  if (config.dryRun) throw new UsageError('--dry-run: not under vitest (shop-conformance run --dry-run prints the requests)')
  const baseline = config.baseline !== undefined ? resolveBaseline(config.baseline) : undefined
  return { config, ...(baseline !== undefined ? { baseline } : {}), underCli: raw !== undefined }
}
