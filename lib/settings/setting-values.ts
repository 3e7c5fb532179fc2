/**
 * How the text of a setting (a flag's value, a variable of the environment or `.env`) becomes its value: each
 * problem is one UsageError line naming the flag or variable.
 */
import { UsageError } from '../base/usage-error.ts'
import { MODULES } from '../spec/modules.ts'
import type { LimitedAdmin, PathAlias, ShippingMethod, SignIn } from './run-config.ts'
import { withoutUserInfo } from './user-info.mjs'
import { defined } from '../base/defined.ts'

export function seedSetting(raw: string | undefined): { seed: number; seedGiven: boolean } {
  if (raw === undefined) return { seed: Math.floor(Math.random() * 2 ** 31), seedGiven: false }
  return { seed: nonNegativeInt('--seed / SHOP_SEED', raw, 2 ** 31 - 1), seedGiven: true }
}

export function shardSetting(raw: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(raw)
  const index = Number(m?.[1])
  const count = Number(m?.[2])
  if (m === null || index < 1 || count < 1 || index > count || count > 64)
    throw new UsageError(`--shard: "${raw}" must be i/n with 1 ≤ i ≤ n ≤ 64, e.g. 2/3`)
  return { index, count }
}

export function booleanSetting(name: string, raw: string | undefined): boolean {
  if (raw === undefined) return false
  if (/^(1|true|yes|on)$/i.test(raw)) return true
  if (/^(0|false|no|off)$/i.test(raw)) return false
  throw new UsageError(`${name}: "${raw}" must be 1 or 0`)
}

/**
 * The limited admin of the acl check: its credentials, and the resources its role has — given explicitly, even
 * empty, because a forgotten list would read as "none" and fail every endpoint whose resource the role has.
 * `raw` is SHOP_LIMITED_ADMIN_RESOURCES as given (empty is a value here); `known` the detail table's resources.
 */
export function limitedAdminSetting(
  signIn: SignIn | undefined,
  raw: string | undefined,
  known: readonly string[],
): LimitedAdmin | undefined {
  if (signIn === undefined) {
    if (raw !== undefined && raw.trim() !== '')
      throw new UsageError(
        'SHOP_LIMITED_ADMIN_RESOURCES: set without SHOP_LIMITED_ADMIN_USERNAME and SHOP_LIMITED_ADMIN_PASSWORD (or SHOP_LIMITED_ADMIN_TOKEN)',
      )
    return undefined
  }
  if (raw === undefined) {
    const given = 'token' in signIn ? 'SHOP_LIMITED_ADMIN_TOKEN' : 'SHOP_LIMITED_ADMIN_USERNAME'
    throw new UsageError(
      `SHOP_LIMITED_ADMIN_RESOURCES: missing while ${given} is set (the detail table's ACL resources the role has, comma-separated; empty for none)`,
    )
  }
  const resources = splitList(raw)
  const unknown = resources.find((r) => !known.includes(r))
  if (unknown !== undefined) {
    throw new UsageError(
      `SHOP_LIMITED_ADMIN_RESOURCES: "${unknown}" is not an ACL resource of the spec's detail table (${known.join(', ')}); list only those the role has, as the spec writes them`,
    )
  }
  return { ...signIn, resources: [...new Set(resources)] }
}

/**
 * A token the user gives (`SHOP_ADMIN_TOKEN`, …): the bare token an integration shows, as it goes after `Bearer `.
 * Never quoted in a message: a value is refused by what is wrong with its form alone.
 */
export function givenTokenSetting(name: string, raw: string): { token: string; setting: string } {
  if (/^bearer\s/i.test(raw)) throw new UsageError(`${name}: give the token alone, without "Bearer " (the run adds it)`)
  if (/\s/.test(raw))
    throw new UsageError(`${name}: a token has no spaces or line breaks (copy the access token alone)`)
  return { token: raw, setting: name }
}

export function codeSetting(name: string, value: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(value))
    throw new UsageError(`${name}: "${value}" is not a method code (letters, digits, _)`)
  return value
}

export function shippingSetting(name: string, value: string): ShippingMethod {
  const m = /^([A-Za-z0-9_]+)\/([A-Za-z0-9_]+)$/.exec(value)
  if (m === null) throw new UsageError(`${name}: "${value}" must be carrier/method, e.g. flatrate/flatrate`)
  return { carrier: defined(m[1], 'the carrier group'), method: defined(m[2], 'the method group') }
}

export function normaliseBaseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined
  const shown = withoutUserInfo(raw)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new UsageError(`--base-url / SHOP_BASE_URL: "${shown}" is not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--base-url / SHOP_BASE_URL: "${shown}" must start with http:// or https://`)
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(
      `--base-url / SHOP_BASE_URL: "${shown}" must not carry a user or password (give them as SHOP_ADMIN_USERNAME and SHOP_ADMIN_PASSWORD)`,
    )
  }
  if (url.search !== '' || url.hash !== '') {
    throw new UsageError(`--base-url / SHOP_BASE_URL: "${shown}" must not carry a query or fragment`)
  }
  if (/\/rest(\/|$)/.test(url.pathname)) {
    throw new UsageError(
      `--base-url / SHOP_BASE_URL: give the shop's base URL without /rest/... (the suite adds /rest/{store}/V1)`,
    )
  }
  return url.toString().replace(/\/+$/, '')
}

/**
 * A name or version of the target, as every format prints it: one line of at most 100 characters, nothing a
 * terminal or a file would take for a command (no control characters), trimmed.
 */
export function labelSetting(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined
  const value = raw.trim()
  if (value === '') throw new UsageError(`${name}: an empty value`)
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value))
    throw new UsageError(
      `${name}: "${JSON.stringify(value).slice(1, -1)}" holds a control character (a line break, a tab…): one line of text`,
    )
  if (value.length > 100) throw new UsageError(`${name}: ${value.length} characters, at most 100`)
  return value
}

export function storeCodeSetting(name: string, value: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(value))
    throw new UsageError(`${name}: "${value}" is not a store code (letters, digits, _)`)
  return value
}

function nonNegativeInt(name: string, raw: string, max: number): number {
  const n = Number(raw)
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n > max)
    throw new UsageError(`${name}: "${raw}" must be a whole number from 0 to ${max}`)
  return n
}

export function positiveInt(name: string, raw: string, max: number): number {
  const n = Number(raw)
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1 || n > max) {
    throw new UsageError(`${name}: "${raw}" must be a whole number from 1 to ${max}`)
  }
  return n
}

/**
 * The run's end (`--run-timeout-ms`): a run keeps its last 3 s at least to stop its checks (vitest has 1.5 s to
 * cancel), clean up and write its reports (lib/run/stopping.ts), and needs some seconds before it to start (tokens,
 * customers, calibration, the shop's schema): below this, the end it prints at start could not hold.
 */
const MIN_RUN_TIMEOUT_MS = 10_000

export function runTimeoutSetting(name: string, raw: string): number {
  const ms = positiveInt(name, raw, 86_400_000)
  if (ms < MIN_RUN_TIMEOUT_MS)
    throw new UsageError(
      `${name}: "${raw}" is less than a run needs to start, stop its checks, clean up and write its reports: at least ${MIN_RUN_TIMEOUT_MS} (milliseconds)`,
    )
  return ms
}

export function splitList(raw: string | undefined): string[] {
  return raw === undefined
    ? []
    : raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
}

/**
 * Module ids of `--module` values (ids or the spec's headings, comma-separated); `flag` names the option in messages.
 * `vendor`: the modules of a vendor's config, also selectable — or `deferred` where the config is loaded later: any
 * other id is taken then, and checked against the config once it is loaded (`vendorModulesGiven`, again with its
 * modules).
 */
export function selectModules(
  given: string[],
  flag = '--module',
  vendor: readonly string[] | 'deferred' = [],
): string[] {
  return namesOf(given, flag).map((name) => {
    const wanted = name.toLowerCase()
    const found = MODULES.find((m) => m.id === wanted || m.title.toLowerCase() === wanted)
    if (found !== undefined) return found.id
    if (vendor === 'deferred' ? /^[a-z0-9][a-z0-9-]*$/.test(wanted) : vendor.includes(wanted)) return wanted
    const theirs = vendor === 'deferred' || vendor.length === 0 ? '' : `; the config's: ${vendor.join(', ')}`
    throw new UsageError(`${flag}: unknown module "${name}" (known: ${MODULES.map((m) => m.id).join(', ')}${theirs})`)
  })
}

/** The selected modules that are not the spec's: a vendor's, as `selectModules` took them. */
export function vendorModulesGiven(modules: readonly string[]): string[] {
  return modules.filter((m) => !MODULES.some((x) => x.id === m))
}

/** Check kinds of `--check` values (comma-separated), each one of `known`; `flag` names the option in messages. */
export function selectChecks(given: string[], known: readonly string[], flag = '--check'): string[] {
  return namesOf(given, flag).map((name) => {
    if (!known.includes(name)) {
      throw new UsageError(`${flag}: unknown check "${name}" (known: ${known.join(', ')})`)
    }
    return name
  })
}

export function parseAliases(entries: string[]): PathAlias[] {
  return entries.map((entry) => {
    const m = /^(\/V1\/[^=\s]+)=(\/[^=\s]+)$/.exec(entry)
    if (m === null) {
      throw new UsageError(`--path-alias / SHOP_PATH_ALIASES: "${entry}" must look like /V1/stockmedia=/V1/adobestock`)
    }
    return {
      from: defined(m[1], 'the alias group').replace(/\/+$/, ''),
      to: defined(m[2], 'the target group').replace(/\/+$/, ''),
    }
  })
}

/**
 * The names of a repeatable, comma-separated option; one that names nothing (`--module ""`, `--module ,`) would
 * silently select everything.
 */
function namesOf(given: string[], flag: string): string[] {
  const names = given.flatMap(splitList)
  if (given.length > 0 && names.length === 0)
    throw new UsageError(`${flag}: names nothing (give a name, or leave the option out for all)`)
  return names
}
