/**
 * The vendor's config file: found (`--config FILE`, `SHOP_CONFIG`, else `shop-conformance.config.ts` in the
 * working directory if there), imported, and checked before any request — a bad file is a one-line usage error
 * (exit 2). What it declares becomes plan rows and kinds of `origin: 'vendor'`.
 */
import { existsSync, readFileSync } from 'node:fs'
import { findSourceMap } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { clipJson } from '../base/text.ts'
import { UsageError } from '../base/usage-error.ts'
import type { Verdict } from '../results/verdict.ts'
import type { Check } from '../checks/types.ts'
import { findRow } from '../spec/catalog/index.ts'
import { MODULES } from '../spec/modules.ts'
import type { VendorCheck, VendorConfig, VendorEndpoint, VendorRow } from './index.ts'
import { endpointText } from '../spec/endpoint-id.ts'

export const DEFAULT_CONFIG_FILE = 'shop-conformance.config.ts'

const METHODS = ['GET', 'POST', 'PUT', 'DELETE']
const CLASSES = ['admin', 'self', 'anon']

export interface VendorParts {
  /** The file it came from, as the report names it. */
  file: string
  rows: VendorRow[]
  kinds: (Check & { origin: 'vendor' })[]
}

/** The config file of this run, or none: a file that was named must be there. */
export function configFileOf(given: string | undefined, cwd = process.cwd()): string | undefined {
  if (given !== undefined) {
    const path = resolve(cwd, given)
    if (!existsSync(path)) throw new UsageError(`--config / SHOP_CONFIG: ${given} does not exist`)
    return path
  }
  const fallback = resolve(cwd, DEFAULT_CONFIG_FILE)
  return existsSync(fallback) ? fallback : undefined
}

/** Imports and checks the file; `reservedKinds` are the names a vendor's check may not take (the suite's own). */
export async function loadVendorConfig(file: string, reservedKinds: readonly string[]): Promise<VendorParts> {
  let module: { default?: unknown }
  try {
    module = await importConfig(file)
  } catch (error) {
    throw new UsageError(`--config ${file}: cannot be loaded: ${loadFailure(error, file)}`)
  }
  return vendorParts(commonJsDefault(module.default), file, reservedKinds)
}

/**
 * Why a config could not be imported, in one line that says where. A TypeScript config's syntax error comes from
 * its transform as "Transform failed with 1 error:" and, on the next line, `FILE:3:8: ERROR: Expected "]" …`: that
 * line is the message (the first alone said nothing). Node's own syntax error of a JavaScript config names no
 * line: `node --check` shows it.
 */
function loadFailure(error: unknown, file: string): string {
  const message = error instanceof Error ? error.message : String(error)
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^Transform failed with \d+ errors?:$/.test(l))
  const first = lines[0] ?? (error instanceof Error ? error.name : 'no reason given')
  if (error instanceof SyntaxError && !first.includes(file))
    return `${error.name}: ${first} (\`node --check ${file}\` shows where)`
  return first
}

/**
 * The config module. A TypeScript config through tsx (the run's own code is plain JavaScript by then:
 * lib/base/bundled-import.mjs) — a CommonJS one (`.cts`, `.ts` in a project without `"type": "module"`) through tsx's
 * require, as an ES module import of it would load it from a `data:` URL without a source map — with source maps kept
 * while it loads, so that a vendor's error names its own line (vendorFrames).
 */
async function importConfig(file: string): Promise<{ default?: unknown }> {
  const url = pathToFileURL(file).href
  if (!/\.[cm]?ts$/.test(file)) return (await import(url)) as { default?: unknown }
  const before = process.sourceMapsEnabled
  process.setSourceMapsEnabled(true)
  try {
    if (commonJs(file)) return { default: (await import('tsx/cjs/api')).require(file, import.meta.url) as unknown }
    return (await (await import('tsx/esm/api')).tsImport(url, import.meta.url)) as { default?: unknown }
  } finally {
    process.setSourceMapsEnabled(before)
  }
}

/**
 * Whether Node loads a TypeScript file as CommonJS: `.cts`, or `.ts` whose nearest package.json does not say `"type":
 * "module"`.
 */
function commonJs(file: string): boolean {
  if (file.endsWith('.cts')) return true
  if (file.endsWith('.mts')) return false
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type !== 'module'
      } catch {
        return true
      }
    }
    if (dirname(dir) === dir) return true
  }
}

/**
 * The error of a vendor's check with each frame at the vendor's own file, line and column: a TypeScript config runs
 * as the code tsx made of it, whose positions (and a `?tsx-namespace=` on its URL) say nothing to its author, and
 * vitest's stack formatting does not apply tsx's source maps. Frames of other code are left as they are.
 */
function vendorFrames(error: unknown): unknown {
  if (!(error instanceof Error) || typeof error.stack !== 'string') return error
  error.stack = error.stack.replace(
    /(?<=\(|at )(\S+?):(\d+):(\d+)(?=\)?$)/gm,
    (whole, at: string, line: string, column: string) => {
      const generated = at.replace(/\?tsx-namespace=[^:]*$/, '')
      const entry = findSourceMap(at)?.findEntry(Number(line) - 1, Number(column) - 1)
      if (entry === undefined || !('originalSource' in entry))
        return generated === at ? whole : `${generated}:${line}:${column}`
      const source = entry.originalSource.startsWith('file:')
        ? fileURLToPath(entry.originalSource)
        : entry.originalSource
      return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`
    },
  )
  return error
}

/**
 * In a project without `"type": "module"` (npm's default) a `.ts` config is CommonJS: its `export default` is
 * `module.exports.default`, and an import hands the whole `module.exports` over as the default — the config one
 * level down. A config itself has `endpoints` and `checks`.
 */
function commonJsDefault(exported: unknown): unknown {
  if (
    typeof exported !== 'object' ||
    exported === null ||
    !('default' in exported) ||
    'endpoints' in exported ||
    'checks' in exported
  )
    return exported
  return exported.default
}

/** What a config declares, as plan rows and kinds; anything a run could not use is refused in one line. */
export function vendorParts(config: unknown, file: string, reservedKinds: readonly string[]): VendorParts {
  const refuse = (why: string): never => {
    throw new UsageError(`--config ${file}: ${why}`)
  }
  if (typeof config !== 'object' || config === null)
    return refuse('its default export is not a config (export default defineConfig({ endpoints, checks }))')
  const c = config as Partial<VendorConfig>
  if (!Array.isArray(c.endpoints)) return refuse('`endpoints` is not a list')
  if (!Array.isArray(c.checks)) return refuse('`checks` is not a list')
  const specModules = new Set(MODULES.map((m) => m.id))
  const seen = new Set<string>()
  // Each item is typed as declared (Array.isArray would leave a readonly list's items `any`) and still checked field
  // by field as if it were anything: it comes from the vendor's file, as a check of `checks` below does.
  const rows: VendorRow[] = c.endpoints.map((e: VendorEndpoint, i) => {
    const at = `endpoints[${i}]`
    if (typeof e !== 'object' || e === null) return refuse(`${at} is not an endpoint`)
    if (!METHODS.includes(e.method)) refuse(`${at}.method "${String(e.method)}" is none of ${METHODS.join(', ')}`)
    if (typeof e.path !== 'string' || !/^\/V1\/\S+$/.test(e.path))
      refuse(`${at}.path "${String(e.path)}" does not start with /V1/`)
    if (!CLASSES.includes(e.access)) refuse(`${at}.access "${String(e.access)}" is none of ${CLASSES.join(', ')}`)
    if (typeof e.module !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(e.module))
      refuse(`${at}.module "${String(e.module)}" is not an id (lower case, digits, dashes)`)
    if (specModules.has(e.module))
      refuse(
        `${at}.module "${e.module}" is a module of the spec: a vendor's endpoints are reported under a module of their own`,
      )
    const key = endpointText(e)
    if (findRow(e.method, e.path) !== undefined) refuse(`${at} ${key} is a spec endpoint: the spec's checks judge it`)
    if (seen.has(key)) refuse(`${at} ${key} is declared twice`)
    seen.add(key)
    const scenario = c.scenarios?.[key]
    return {
      method: e.method,
      path: e.path,
      module: e.module,
      access: e.access,
      sections: [],
      origin: 'vendor' as const,
      ...(e.note !== undefined ? { note: e.note, purpose: e.note } : {}),
      ...(scenario !== undefined ? { scenario } : {}),
    }
  })
  for (const key of Object.keys(c.scenarios ?? {}))
    if (!seen.has(key)) refuse(`scenarios["${key}"] is not a declared endpoint`)
  const names = new Set<string>()
  const kinds = c.checks.map((check: VendorCheck, i) => {
    const at = `checks[${i}]`
    if (typeof check !== 'object' || check === null || typeof check.run !== 'function')
      return refuse(`${at} is not a check (an object with name, description and run(row, session))`)
    if (typeof check.name !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(check.name))
      refuse(`${at}.name "${String(check.name)}" is not a name (lower case, digits, dashes)`)
    if (reservedKinds.includes(check.name)) refuse(`${at}.name "${check.name}" is a check kind of the suite`)
    if (names.has(check.name)) refuse(`${at}.name "${check.name}" is used twice`)
    names.add(check.name)
    if (typeof check.description !== 'string' || check.description.trim() === '')
      refuse(`${at} (${check.name}) has no description`)
    // Bound: a vendor's check may be a class instance whose appliesTo reads `this`, as its run (called on it) may.
    const appliesTo = check.appliesTo?.bind(check)
    return {
      name: check.name,
      description: check.description,
      spec: [...(check.spec ?? [])],
      rules: [],
      origin: 'vendor' as const,
      appliesTo: (row: Parameters<Check['appliesTo']>[0]) =>
        appliesTo === undefined ? true : appliesTo(row as VendorRow),
      run: async (row: Parameters<Check['run']>[0], session: Parameters<Check['run']>[1]) => {
        let value: unknown
        try {
          value = await check.run(row as VendorRow, session)
        } catch (error) {
          throw vendorFrames(error)
        }
        return aVerdict(value)
      },
    }
  })
  if (rows.length === 0 && kinds.length > 0) refuse('declares checks and no endpoint for them to judge')
  return { file, rows, kinds }
}

/** The statuses a vendor's check may return; to say its own code broke, it throws (the run files it as its error). */
const VERDICT_STATUSES: readonly unknown[] = ['passed', 'failed', 'skipped']

/** What a vendor's check resolved to, when it is a verdict; anything else is an error of that check, as a throw is. */
function aVerdict(value: unknown): Verdict {
  const v = value as Partial<Verdict> | undefined
  if (
    typeof v === 'object' &&
    v !== null &&
    VERDICT_STATUSES.includes(v.status) &&
    typeof v.message === 'string' &&
    Array.isArray(v.exchanges)
  )
    return v as Verdict
  const error = new Error(
    `its run() resolved to ${clipJson(value)}, not a verdict ({ status: 'passed' | 'failed' | 'skipped', message, exchanges })`,
  )
  // The frame would be this file's, not the vendor's: the message says all there is.
  error.stack = `${error.name}: ${error.message}`
  throw error
}
