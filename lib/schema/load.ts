/**
 * Loading the shop's schema as the setting says (setting.ts): under each caller from the shop itself (`auto`),
 * or one document from a file or a URL. The requests go through the `get` the caller hands in (the run's
 * client); tokens go only to the shop's own schema URL, never to a URL the user named. A schema that is not
 * there or not Swagger 2.0 is "not published"; the shop's own schema URL failing under every caller (a 5xx, a body
 * that is not JSON, no answer) is "broken" — the shop's team's to fix, and why its extension endpoints go
 * unchecked. Either way the reason is one line, never an error of the run.
 */
import { readFile } from 'node:fs/promises'
import { clip } from '../base/text.ts'
import { defined } from '../base/defined.ts'
import { accessUnknownBecause, mergeViews, readDocument, SCHEMA_CALLERS } from './read.ts'
import type { DeclaredSchema, ReadOutcome, SchemaCaller } from './read.ts'
import { shownUrl } from './setting.ts'
import type { TargetSchemaSetting } from './setting.ts'

/** What a GET answered: status, media type and body text. */
export interface FetchedDocument {
  status: number
  contentType?: string
  text: string
}

/** GETs a URL, with `Authorization: Bearer <token>` when a token is given; a request that got no answer says why. */
export type SchemaGet = (url: string, token?: string) => Promise<FetchedDocument | { error: string }>

export interface LoadOptions {
  setting: TargetSchemaSetting
  /** The shop's base URL and the run's store code: `auto` reads `{base}/rest/{store}/schema?services=all`. */
  baseUrl: string
  storeCode: string
  get: SchemaGet
  /** The run's admin and customer tokens: the views read under them (absent: that view is not read). */
  tokens: { admin?: string; customer?: string }
}

export type LoadedSchema =
  | { status: 'off' }
  | { status: 'unpublished'; source: string; reason: string }
  /** The shop's schema URL failed under every caller read (its team's to fix): `reason` says how, per caller. */
  | { status: 'broken'; source: string; reason: string }
  /** `notes`: what was not read (a caller's view) and what that leaves unjudged, one line each. */
  | { status: 'read'; source: string; schema: DeclaredSchema; notes: string[] }

export function schemaUrl(baseUrl: string, storeCode: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/rest/${encodeURIComponent(storeCode)}/schema?services=all`
}

/** A file or a URL is one document: the access comparison and the extensions' access cannot be judged from it. */
const SINGLE_DOCUMENT = `access classes not judged: ${accessUnknownBecause([])}`

const VIEW_NAMES: Readonly<Record<SchemaCaller, string>> = {
  anon: 'no token',
  customer: 'the customer token',
  admin: 'the admin token',
}

/**
 * Why a view is no schema document; `broken` where the URL failed rather than being absent or another format: a
 * server error, a body that is not JSON where a document or an error should be, no answer at all.
 */
type ViewOutcome = ReadOutcome | { ok: false; reason: string; broken: true }

/** A fetched answer as a schema document (the view of `caller`, if one), or why it is none. */
function documentOf(fetched: FetchedDocument | { error: string }, caller?: SchemaCaller): ViewOutcome {
  if ('error' in fetched) return { ok: false, reason: `no answer (${fetched.error})`, broken: true }
  // A refusal or a missing route (4xx) is an answer about the URL; a server error is the URL failing.
  const failing = fetched.status < 400 || fetched.status >= 500
  let body: unknown
  try {
    body = JSON.parse(fetched.text)
  } catch {
    const what =
      fetched.text.trim() === ''
        ? 'an empty body'
        : `a body that is not JSON (${fetched.contentType ?? 'no content type'}: ${JSON.stringify(clip(fetched.text.trim(), 60))})`
    return {
      ok: false,
      reason: `answered ${fetched.status} with ${what}`,
      ...(failing ? { broken: true as const } : {}),
    }
  }
  if (fetched.status !== 200) {
    const message =
      typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
        ? (body as { message: string }).message
        : clip(fetched.text.trim(), 80)
    return {
      ok: false,
      reason: `answered ${fetched.status} ${JSON.stringify(message)}`,
      ...(fetched.status >= 500 ? { broken: true as const } : {}),
    }
  }
  const read = readDocument(body, caller)
  return read.ok ? read : { ok: false, reason: `answered 200 with ${read.reason}` }
}

async function fromShop(options: LoadOptions): Promise<LoadedSchema> {
  const url = schemaUrl(options.baseUrl, options.storeCode)
  const source = `GET ${url} under each caller`
  const tokenOf: Readonly<Record<SchemaCaller, string | undefined>> = {
    anon: undefined,
    customer: options.tokens.customer,
    admin: options.tokens.admin,
  }
  const views = await Promise.all(
    SCHEMA_CALLERS.map(async (caller) => {
      const token = tokenOf[caller]
      if (caller !== 'anon' && token === undefined)
        return { caller, outcome: { ok: false as const, reason: `no ${caller} token in this run` } }
      return { caller, outcome: documentOf(await options.get(url, token), caller) }
    }),
  )
  const read = views.flatMap((v) => (v.outcome.ok ? [v.outcome.schema] : []))
  const failed = views.flatMap((v) =>
    !v.outcome.ok && 'broken' in v.outcome ? [{ caller: v.caller, reason: v.outcome.reason }] : [],
  )
  if (read.length === 0) {
    // Failing under every caller it was asked as: the shop's schema endpoint is broken, not switched off.
    if (failed.length > 0) return { status: 'broken', source, reason: brokenReason(failed) }
    const anon = defined(
      views.find((v) => v.caller === 'anon'),
      'the anonymous view (SCHEMA_CALLERS names it)',
    ).outcome
    return { status: 'unpublished', source, reason: `with ${VIEW_NAMES.anon}, ${anon.ok ? '' : anon.reason}` }
  }
  const notes = views.flatMap((v) => {
    if (v.outcome.ok) return []
    const why =
      'broken' in v.outcome
        ? `: the shop's schema endpoint failed for this caller, so the extension operations only it may use were not checked`
        : ''
    return [`the schema under ${VIEW_NAMES[v.caller]} was not read: ${v.outcome.reason}${why}`]
  })
  return { status: 'read', source, schema: mergeViews(read), notes }
}

/**
 * `answered 500 "…" under every caller`; the first caller's answer and the others' status where only the details
 * differ (a report ID per request); else how each caller's view failed.
 */
function brokenReason(failed: readonly { caller: SchemaCaller; reason: string }[]): string {
  const [first, ...others] = failed as [
    { caller: SchemaCaller; reason: string },
    ...{ caller: SchemaCaller; reason: string }[],
  ]
  if (others.length === 0) return `${first.reason} with ${VIEW_NAMES[first.caller]}`
  if (others.every((f) => f.reason === first.reason)) return `${first.reason} under every caller`
  const kind = (reason: string) => /^(answered \d+|no answer)/.exec(reason)?.[1]
  if (others.every((f) => kind(f.reason) === kind(first.reason)))
    return `${first.reason} with ${VIEW_NAMES[first.caller]}, and ${kind(first.reason)} under every other caller too`
  return failed.map((f) => `with ${VIEW_NAMES[f.caller]}, ${f.reason}`).join('; ')
}

/** Reads the shop's schema as the setting says; never throws for what the shop, the file or the URL holds. */
export async function loadSchema(options: LoadOptions): Promise<LoadedSchema> {
  const { setting } = options
  switch (setting.kind) {
    case 'off':
      return { status: 'off' }
    case 'auto':
      return fromShop(options)
    case 'url': {
      const source = `GET ${shownUrl(setting.url)} (once, without a token)`
      const outcome = documentOf(await options.get(setting.url))
      return outcome.ok
        ? { status: 'read', source, schema: outcome.schema, notes: [SINGLE_DOCUMENT] }
        : { status: 'unpublished', source, reason: outcome.reason }
    }
    case 'file': {
      const source = `the file ${setting.path}`
      let text: string
      try {
        text = await readFile(setting.path, 'utf8')
      } catch (error) {
        return {
          status: 'unpublished',
          source,
          reason: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        }
      }
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        return { status: 'unpublished', source, reason: text.trim() === '' ? 'is empty' : 'is not JSON' }
      }
      const read = readDocument(body)
      return read.ok
        ? { status: 'read', source, schema: read.schema, notes: [SINGLE_DOCUMENT] }
        : { status: 'unpublished', source, reason: `holds ${read.reason}` }
    }
  }
}
