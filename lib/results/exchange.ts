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
