/**
 * The run's reading of the shop's published schema (lib/schema/), once, at its start: the shop's own URL through
 * the run's client (its tokens, its TLS setting, its deadline), a URL the user named with a plain GET and no token,
 * a file from disk. What it yields is the report's `schema` block and the extension operations the plan gets rows
 * for; a shop that publishes none costs the run one request per caller and one line in the report.
 */
import { schemaFacts, type SchemaFacts } from '../schema/block.ts'
import { loadSchema, schemaUrl, type FetchedDocument, type SchemaGet } from '../schema/load.ts'
import type { TargetSchemaSetting } from '../schema/setting.ts'
import type { TargetClient } from '../shop/client.ts'
import type { Outcome } from '../shop/request.ts'
import { applyAliases } from '../shop/aliases.ts'
import type { PathAlias } from '../settings/config.ts'

interface SchemaReading {
  setting: TargetSchemaSetting
  baseUrl: string
  storeCode: string
  timeoutMs: number
  pathAliases: readonly PathAlias[]
  tokens: { admin?: string; customer?: string }
}

export async function readShopSchema(
  r: SchemaReading,
  client: TargetClient,
  early?: EarlySchema,
): Promise<SchemaFacts> {
  const own = schemaUrl(r.baseUrl, r.storeCode)
  const get: SchemaGet = async (url, token) => {
    if (url === own) {
      const sent = early?.get(token ?? '')
      early?.delete(token ?? '')
      const outcome = await (sent ?? sendSchemaGet(client, r.storeCode, token))
      if (outcome.answer === undefined) return { error: outcome.failure?.message ?? 'no answer' }
      return documentOf(outcome.answer.status, outcome.answer.headers['content-type'], outcome.answer.text)
    }
    // A URL the user named is not the shop's: no token goes there (load.ts never hands one for it).
    try {
      const answer = await fetch(url, { signal: AbortSignal.timeout(r.timeoutMs) })
      return documentOf(answer.status, answer.headers.get('content-type') ?? undefined, await answer.text())
    } catch (error) {
      return { error: (error as Error).message }
    }
  }
  const loaded = await loadSchema({
    setting: r.setting,
    baseUrl: r.baseUrl,
    storeCode: r.storeCode,
    get,
    tokens: r.tokens,
  })
  return schemaFacts(loaded, { targetPath: (p) => applyAliases(p, r.pathAliases) })
}

/** The shop's own schema requested before the reading, by token ('' for none): each answer used once. */
export type EarlySchema = Map<string, Promise<Outcome>>

/**
 * The shop's own schema requested now, anonymously and with the admin's token, for a reading of the shop's own
 * schema (`auto`) that comes later: the preflight's customers (registered, signed in; on a real shop 12-16 s) are what
 * the third caller's view waits for, not these two, which go beside them (issue 29.9: at 20 ms answers the three
 * views were 0.1-0.25 s of the run's start after the preflight). Nothing for another setting.
 */
export function requestSchemaEarly(
  setting: TargetSchemaSetting,
  storeCode: string,
  client: TargetClient,
  adminToken: string,
): EarlySchema {
  const early: EarlySchema = new Map()
  if (setting.kind !== 'auto') return early
  for (const token of ['', adminToken])
    early.set(token, sendSchemaGet(client, storeCode, token === '' ? undefined : token))
  return early
}

/** What the run is doing while it reads the schema, and the step its schema requests name wherever they are sent. */
export const READING_SCHEMA = "reading the shop's schema"

function sendSchemaGet(client: TargetClient, storeCode: string, token: string | undefined): Promise<Outcome> {
  // Sent early, beside the preflight, they still list a server error under what they are for.
  return client.send({
    method: 'GET',
    path: '/schema',
    store: storeCode,
    query: 'services=all',
    step: READING_SCHEMA,
    ...(token !== undefined ? { token } : {}),
  })
}

function documentOf(status: number, contentType: string | undefined, text: string): FetchedDocument {
  return { status, ...(contentType !== undefined ? { contentType } : {}), text }
}
