/**
 * `SHOP_TARGET_SCHEMA` / `--target-schema`: where the shop's published schema is read from. `auto` (the
 * default): `{base}/rest/{store}/schema?services=all` under each caller, as the platform publishes it; `off`:
 * not read; a file path or an http(s) URL: that one document, read once, without a token. Anything else stops
 * the run before any request, in one line.
 */
import { statSync } from 'node:fs'
import { UsageError } from '../base/usage-error.ts'

export type TargetSchemaSetting =
  | { kind: 'auto' }
  | { kind: 'off' }
  | { kind: 'file'; path: string }
  | { kind: 'url'; url: string }

const NAME = '--target-schema / SHOP_TARGET_SCHEMA'
const EXPECTED = 'auto, off, a file or an http(s) URL'

/** A URL as messages show it: without a user name or password it may carry. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.username = ''
    parsed.password = ''
    return parsed.toString()
  } catch {
    return '(not a URL)'
  }
}

/**
 * The setting's value (undefined: not given); throws a one-line UsageError for anything else than auto, off, an
 * existing file or an http(s) URL.
 */
export function parseTargetSchema(raw: string | undefined): TargetSchemaSetting {
  if (raw === undefined) return { kind: 'auto' }
  const value = raw.trim()
  const keyword = value.toLowerCase()
  if (keyword === 'auto' || keyword === 'off') return { kind: keyword }
  if (/^https?:\/\//i.test(value)) {
    try {
      return { kind: 'url', url: new URL(value).toString() }
    } catch {
      throw new UsageError(`${NAME}: ${shownUrl(value)} is not a valid URL`)
    }
  }
  if (value === '') throw new UsageError(`${NAME}: an empty value (give ${EXPECTED})`)
  // Another scheme (ftp:, file:) is not read; a Windows drive letter (C:\…) starts a path.
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]+):/.exec(value)?.[1]
  if (scheme !== undefined) throw new UsageError(`${NAME}: ${scheme}: URLs are not read (give ${EXPECTED})`)
  let isFile: boolean
  try {
    isFile = statSync(value).isFile()
  } catch {
    throw new UsageError(`${NAME}: no such file ${JSON.stringify(value)} (give ${EXPECTED})`)
  }
  if (!isFile) throw new UsageError(`${NAME}: ${JSON.stringify(value)} is not a file (give ${EXPECTED})`)
  return { kind: 'file', path: value }
}
