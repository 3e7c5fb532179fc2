/**
 * The evidence of a result: what the suite sent and what came back, recorded by the shop's client and carried
 * by every verdict into every report. Here, not beside the client, so reports read evidence without the shop.
 */
/** A request as recorded: secrets already redacted. */
export interface RecordedRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: unknown
}

export interface RecordedResponse {
  status: number
  headers: Record<string, string>
  body: unknown
}

/**
 * Who sent an exchange, as a class: never its token. `other customer`: a customer of the run's own who owns nothing
 * the path names (the access probes'), not the run's main one.
 */
export type CallerClass = 'none' | 'malformed' | 'customer' | 'other customer' | 'limited admin' | 'admin'

export const CALLER_CLASSES: readonly CallerClass[] = [
  'none',
  'malformed',
  'customer',
  'other customer',
  'limited admin',
  'admin',
]

/** One request and what came back, secrets redacted: the evidence every verdict carries. */
export interface Exchange {
  request: RecordedRequest
  response?: RecordedResponse
  /** Set when no complete answer came back. */
  error?: string
  /** What the client did beyond one plain request (e.g. retries after 429). */
  note?: string
  durationMs: number
}

/** How the client marks a body it recorded only the start of (lib/shop/client.ts, `#recordableBody`). */
export const CUT_SHORT = /… \[\d+ more characters not recorded\]$/
