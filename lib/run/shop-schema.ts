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

export async function readShopSchema(r: SchemaReading, client: TargetClient): Promise<SchemaFacts> {
  const own = schemaUrl(r.baseUrl, r.storeCode)
  const get: SchemaGet = async (url, token) => {
    if (url === own) {
      const outcome = await client.send({ method: 'GET', path: '/schema', store: r.storeCode, query: 'services=all', ...(token !== undefined ? { token } : {}) })
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
  const loaded = await loadSchema({ setting: r.setting, baseUrl: r.baseUrl, storeCode: r.storeCode, get, tokens: r.tokens })
  return schemaFacts(loaded, { targetPath: (p) => applyAliases(p, r.pathAliases) })
}

function documentOf(status: number, contentType: string | undefined, text: string): FetchedDocument {
  return { status, ...(contentType !== undefined ? { contentType } : {}), text }
}
