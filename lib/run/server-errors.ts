/**
 * The run's list of server errors completed for its report, with what only the main process knows once the run is
 * over: the spec endpoint (or the shop's extension operation) each path is of, the results whose exchanges include
 * it, and whether the shop's own published schema documents the body that failed (lib/schema/bodies.ts). Cost
 * nothing when the list is empty: no result is read.
 */
import type { PathAlias } from '../settings/config.ts'
import type { Result } from '../results/result.ts'
import { entryUrl, MAX_RESULT_IDS, serverErrorsBlock } from '../results/server-errors.ts'
import type { ServerErrorEntry, ServerErrorList, ServerErrorsBlock } from '../results/server-errors.ts'
import type { SchemaFacts } from '../schema/block.ts'
import { bodyKeyPaths, readBody } from '../schema/bodies.ts'
import { endpointMatcher } from '../shop/exchange-identity.ts'

interface Completing {
  baseUrl: string | undefined
  pathAliases: readonly PathAlias[]
  results: Iterable<Result>
  schema: Pick<SchemaFacts, 'block' | 'operations' | 'bodies'> | undefined
}

export function completedServerErrors(list: ServerErrorList, run: Completing): ServerErrorsBlock {
  if (list.entries.length === 0) return serverErrorsBlock(list)
  const endpointOf = endpointMatcher(run.pathAliases, run.schema?.operations ?? [])
  const linked =
    run.baseUrl !== undefined
      ? resultsOf(list.entries, run.baseUrl, run.results)
      : new Map<ServerErrorEntry, string[]>()
  const entries = list.entries.map((e) => {
    const ids = linked.get(e) ?? []
    return {
      ...e,
      ...endpointOf(e.method, e.path),
      ...(ids.length > 0 ? { results: ids.slice(0, MAX_RESULT_IDS) } : {}),
      ...(ids.length > MAX_RESULT_IDS ? { moreResults: ids.length - MAX_RESULT_IDS } : {}),
      ...bodyFacts(e, run.schema),
    }
  })
  return serverErrorsBlock({ entries, unlisted: list.unlisted })
}

/** For each entry, the ids of the results with an exchange of the same request answered the same status. */
function resultsOf(
  entries: readonly ServerErrorEntry[],
  baseUrl: string,
  results: Iterable<Result>,
): Map<ServerErrorEntry, string[]> {
  const byRequest = new Map<string, ServerErrorEntry[]>()
  const keyOf = (method: string, status: number, url: string) => `${method} ${status} ${url}`
  for (const e of entries) {
    const key = keyOf(e.method, e.status, entryUrl(baseUrl, e))
    byRequest.set(key, [...(byRequest.get(key) ?? []), e])
  }
  const linked = new Map<ServerErrorEntry, string[]>()
  for (const result of results) {
    for (const x of result.exchanges) {
      const status = x.response?.status
      if (status === undefined || status < 500) continue
      for (const e of byRequest.get(keyOf(x.request.method, status, x.request.url)) ?? []) {
        if (!sameBody(e, x.request.body)) continue
        const ids = linked.get(e) ?? []
        if (!ids.includes(result.id)) linked.set(e, [...ids, result.id])
      }
    }
  }
  return linked
}

function sameBody(e: ServerErrorEntry, body: unknown): boolean {
  const text = body === undefined ? undefined : JSON.stringify(body)
  if (e.bodyChars !== undefined) return text?.length === e.bodyChars
  return text === (e.body === undefined ? undefined : JSON.stringify(e.body))
}

/** The keys the body sent, and what the shop's schema says of them. */
function bodyFacts(
  e: ServerErrorEntry,
  schema: Completing['schema'],
): Pick<ServerErrorEntry, 'bodyKeys' | 'schemaDocumentsBody' | 'schemaSays'> {
  if (e.bodyChars !== undefined)
    return { schemaSays: `the body sent (${e.bodyChars} characters) was too long to keep, and is not compared` }
  if (e.body === undefined) return {}
  const bodyKeys = bodyKeyPaths(e.body)
  if (schema?.bodies === undefined)
    return { bodyKeys, schemaSays: `the shop's schema was not read (${schema?.block.status ?? 'off'})` }
  const { documents, says } = readBody(schema.bodies, e.method, e.path, e.body)
  return { bodyKeys, schemaDocumentsBody: documents, schemaSays: says }
}
