import { MALFORMED_BEARER, type Redactor } from '../results/redactor.ts'
import type { Exchange } from '../results/exchange.ts'

/**
 * Every password and token the run learns is registered here the moment it is known; everything the
 * suite records or writes passes through `redact`, so a secret never reaches a report, a log or stdout.
 */
export class Secrets implements Redactor {
  readonly #values = new Map<string, string>()
  /**
   * Longest first, with the URL-encoded form where it differs, and one pattern that finds any of them; rebuilt after
   * `add`, not on every string.
   */
  #known: KnownSecrets | undefined

  add(value: string | undefined, label: string): void {
    // Very short values would redact ordinary text and hide evidence; such "secrets" are not secret anyway.
    if (value !== undefined && value.length >= 4) {
      this.#values.set(value, label)
      this.#known = undefined
    }
  }

  get size(): number {
    return this.#values.size
  }

  /** Labels of registered secrets, for tests that search output for leaks. */
  entries(): [value: string, label: string][] {
    return [...this.#values.entries()]
  }

  redactText(text: string): string {
    const known = (this.#known ??= knownSecrets(this.#values))
    // Most texts hold none: one pass of the pattern says so (a search per secret took a tenth of the CPU of writing the
    // reports, and of recording each exchange).
    if (known.any === undefined || !known.any.test(text)) return text
    // Longest first, so a secret containing another is replaced whole.
    let out = text
    for (const { value, encoded, replacement } of known.ordered) {
      if (out.includes(value)) out = out.split(value).join(replacement)
      if (encoded !== undefined && out.includes(encoded)) out = out.split(encoded).join(replacement)
    }
    return out
  }

  /** A deep copy with secret values replaced and every `password`-like key's value hidden. */
  redact<T>(value: T): T {
    if (value === undefined) return value
    return JSON.parse(this.redactedJson(value)) as T
  }

  /**
   * An exchange whose answer holds a secret learned from it (a token it has just issued), its answer redacted. Its
   * request, recorded redacted already, stays the same record: the run's evidence knows an exchange by it
   * (evidence.ts).
   */
  redactAnswer(x: Exchange): Exchange {
    return { ...this.redact(x), request: x.request }
  }

  /** The JSON text `redact` parses back: for a caller that wants the text, without the copy in between. */
  redactedJson(value: unknown): string {
    return JSON.stringify(value, (key, v: unknown) => {
      if (typeof v === 'string') {
        const redacted = this.redactText(v)
        if (AUTHORIZATION_KEY.test(key)) {
          // A token the run knows keeps its label ("Bearer [redacted admin token]"); the suite's own
          // made-up malformed token is no secret and stays, so the exchange can be replayed.
          return redacted !== v || MALFORMED_BEARER.test(v) || ALREADY_REDACTED.test(v) ? redacted : '[redacted]'
        }
        return SECRET_KEY.test(key) ? '[redacted]' : redacted
      }
      return v
    })
  }
}

interface KnownSecrets {
  ordered: { value: string; encoded?: string; replacement: string }[]
  /** Matches where any secret, or its encoded form, is in a text; undefined with no secret. */
  any: RegExp | undefined
}

function knownSecrets(values: ReadonlyMap<string, string>): KnownSecrets {
  const ordered = [...values]
    .sort((a, b) => b[0].length - a[0].length)
    .map(([value, label]) => {
      const encoded = encodeURIComponent(value)
      return { value, ...(encoded !== value ? { encoded } : {}), replacement: `[redacted ${label}]` }
    })
  const literals = ordered.flatMap((s) => (s.encoded !== undefined ? [s.value, s.encoded] : [s.value]))
  return {
    ordered,
    any:
      literals.length === 0
        ? undefined
        : new RegExp(literals.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')),
  }
}

const AUTHORIZATION_KEY = /^(proxy-)?authorization$/i
const SECRET_KEY = /pass(word)?$|^cookie$|^set-cookie$|^x-api-key$/i
const ALREADY_REDACTED = /^(Bearer )?\[redacted[^\]]*\]$/
