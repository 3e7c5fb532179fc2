/**
 * What hides secrets in evidence before anything is written: the run hands its `Secrets` (lib/shop/secrets.ts),
 * and the reports need only this much of it — so they never import the shop.
 */
export interface Redactor {
  /** The text with every secret the run knows replaced by its label (`[redacted admin token]`). */
  redactText(text: string): string
  /** A deep copy with secret values replaced and every `password`-like key's value hidden. */
  redact<T>(value: T): T
  /** The JSON text of that deep copy (`redact` is its parse). */
  redactedJson(value: unknown): string
}

/** The Bearer value the suite invents for "malformed token" probes (the preflight makes one per run). */
export const MALFORMED_TOKEN_PREFIX = 'shop-conformance-malformed-'
/** That token in an Authorization header: no secret, so evidence keeps it and a replay of the probe can send it. */
export const MALFORMED_BEARER = new RegExp(`^Bearer ${MALFORMED_TOKEN_PREFIX}[0-9a-f]+$`)
