/**
 * Each request a client finished, published on a `node:diagnostics_channel` channel for whoever subscribes
 * in the same thread: the run's list of server errors (server-errors.ts: one comparison per answer that is none),
 * the bench's request log (lib/bench/preload.mjs). Nothing is published without a subscriber; the shop knows
 * nothing of who listens.
 */
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
