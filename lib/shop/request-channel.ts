/**
 * Each request a client finished, published on a `node:diagnostics_channel` channel for whoever subscribes
 * in the same thread: the run's list of server errors (server-errors.ts: one comparison per answer that is none),
 * the bench's request log (lib/bench/preload.mjs). Nothing is published without a subscriber; the shop knows
 * nothing of who listens.
 */
import diagnostics_channel from 'node:diagnostics_channel'
import type { Exchange } from '../results/exchange.ts'
import type { HarEntry } from '../results/har.ts'
import type { Outcome, RequestSpec } from './request.ts'

export const REQUEST_CHANNEL = 'shop-conformance:request'

/** Who a request was sent as, when the session that sent it knows (its own tokens; anything else has none). */
export type CallerLabel = 'admin' | 'customer' | 'disposable' | 'own customer' | 'malformed' | 'none'

export interface FinishedRequest {
  spec: RequestSpec
  outcome: Outcome
  /** `performance.now()` when the request left the concurrency queue and when its outcome was known. */
  startMs: number
  endMs: number
  caller?: CallerLabel
}

/**
 * What a check learned after a request finished that its judge reads beside the answer — the body-keys check's state
 * read before and after a refused call, a path conflict's outcome, the batch-partial check's planned items and the
 * prices read before —, told for the run's evidence to add to the request's entry (lib/shop/evidence.ts), so that
 * `judge --har` judges it as the run did. Published only when heard.
 */
export const EVIDENCE_TAG_CHANNEL = 'shop-conformance:evidence-tag'

export interface EvidenceTag {
  exchange: Exchange
  fields: Pick<HarEntry, '_observed' | '_conflict' | '_items'>
}

export function tagEvidence(exchange: Exchange, fields: EvidenceTag['fields']): void {
  const channel = diagnostics_channel.channel(EVIDENCE_TAG_CHANNEL)
  if (channel.hasSubscribers) channel.publish({ exchange, fields } satisfies EvidenceTag)
}
