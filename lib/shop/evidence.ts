/**
 * The run's evidence as its requests finish (request-channel.ts): each one a HAR entry (lib/results/har.ts), written
 * at once to this thread's part of the run's evidence, so a body is never held for it; the run joins the parts into
 * evidence.har when it ends (lib/run/evidence.ts). One log per thread of a run, as for the server errors: the worker's,
 * the main process's (preflight, the shop's schema, cleanup), an interrupted run's cleanup process's.
 *
 * What is written is what the client recorded — secrets already redacted — and the caller's class, never its token.
 * The one secret a record may still hold is the token a token call has just issued, which its caller registers only
 * once the answer is in: it is written redacted here (`issuedToken`). The planned checks an entry served are told
 * as their results are made (`served`): a line naming the result and the entries of its exchanges.
 */
import diagnostics_channel from 'node:diagnostics_channel'
import { closeSync, openSync, writeSync } from 'node:fs'
import type { CallerClass, Exchange, RecordedRequest } from '../results/exchange.ts'
import { harEntry, type HarEntry } from '../results/har.ts'
import { EVIDENCE_TAG_CHANNEL, REQUEST_CHANNEL, type EvidenceTag, type FinishedRequest } from './request-channel.ts'
import { tokenCallOf } from './exchange-identity.ts'
import type { Answer } from './request.ts'

/**
 * One line of a part: an entry (`n`: its number in the part), the entries a result holds, or fields told of an entry
 * later.
 */
export type EvidenceLine =
  | { n: number; entry: HarEntry }
  | { served: string; entries: number[] }
  | { tagged: number; fields: EvidenceTag['fields'] }

interface EvidenceOptions {
  runId: string
  /** The caller's class, from the token sent (undefined: none) and the Authorization header as recorded (redacted). */
  callerOf(token: string | undefined, authorization: string | undefined): CallerClass
  /** Where the run is when a request carries no set-up step (`preflight`, `cleanup`). */
  during?: () => string | undefined
  /** A token's name by its role among the session's own (seedTokenName); undefined for any other. */
  tokenName?: (token: string) => string | undefined
  /** The thread whose part this is (`main`, `worker`, `cleanup`): the other tokens are named `<thread>.<n>`. */
  thread: string
}

export class EvidenceLog {
  readonly #options: EvidenceOptions
  #fd: number | undefined
  #n = 0
  /** Each recorded request's entry: a result's exchanges are the records (or copies sharing the request). */
  readonly #entries = new WeakMap<RecordedRequest, number>()
  readonly #listen = (message: unknown) => this.record(message as FinishedRequest)
  readonly #listenTags = (message: unknown) => this.#tagged(message as EvidenceTag)
  /** The names given to tokens that are not the session's own, in the order first seen. */
  readonly #tokenNames = new Map<string, string>()

  constructor(
    /** This thread's part of the run's evidence (lib/run/evidence.ts names it). */
    readonly file: string,
    options: EvidenceOptions,
  ) {
    this.#options = options
    this.#fd = openSync(file, 'a')
    diagnostics_channel.subscribe(REQUEST_CHANNEL, this.#listen)
    diagnostics_channel.subscribe(EVIDENCE_TAG_CHANNEL, this.#listenTags)
  }

  record({ spec, outcome, startMs }: FinishedRequest): void {
    const { exchange, answer } = outcome
    // What the client gave up on before it left (the run being stopped, the target gone) was never sent.
    if (exchange.error?.startsWith('not sent') === true) return
    const n = this.#n++
    const step = spec.step ?? this.#options.during?.()
    const issued = issuedBy(spec.path, answer)
    const entry = harEntry(issuedToken(exchange, spec.path), {
      runId: this.#options.runId,
      caller: this.#options.callerOf(spec.token, exchange.request.headers.authorization),
      ...(spec.token !== undefined ? { token: this.#tokenName(spec.token) } : {}),
      ...(issued !== undefined ? { issued: this.#tokenName(issued) } : {}),
      startedAt: performance.timeOrigin + startMs,
      ...(answer !== undefined ? { json: answer.json, size: answer.text.length } : {}),
      ...(step !== undefined ? { step } : {}),
      ...(spec.probe !== undefined ? { probe: spec.probe } : {}),
      ...(spec.carries !== undefined ? { carries: spec.carries } : {}),
    })
    this.#entries.set(exchange.request, n)
    this.#write({ n, entry })
  }

  /** A token's name in the evidence (`_token`): never its value. The session's own by role, others by number. */
  #tokenName(token: string): string {
    const known = this.#options.tokenName?.(token) ?? this.#tokenNames.get(token)
    if (known !== undefined) return known
    const name = `${this.#options.thread}.${this.#tokenNames.size + 1}`
    this.#tokenNames.set(token, name)
    return name
  }

  /** The result `id` holds these exchanges as its evidence: their entries served its check. */
  served(id: string, exchanges: readonly Exchange[]): void {
    const entries = [...new Set(exchanges.flatMap((x) => this.#entries.get(x.request) ?? []))]
    if (entries.length > 0) this.#write({ served: id, entries })
  }

  /** What a check told of an exchange after it finished (request-channel.ts `tagEvidence`): added to its entry. */
  #tagged({ exchange, fields }: EvidenceTag): void {
    const n = this.#entries.get(exchange.request)
    if (n !== undefined) this.#write({ tagged: n, fields })
  }

  /** Stops recording: the thread's later requests are another run's. */
  close(): void {
    diagnostics_channel.unsubscribe(REQUEST_CHANNEL, this.#listen)
    diagnostics_channel.unsubscribe(EVIDENCE_TAG_CHANNEL, this.#listenTags)
    if (this.#fd !== undefined) closeSync(this.#fd)
    this.#fd = undefined
  }

  #write(line: EvidenceLine): void {
    if (this.#fd === undefined) return
    try {
      writeSync(this.#fd, `${JSON.stringify(line)}\n`)
    } catch {
      // A full disk costs the evidence, never the request being recorded nor the run: the part ends here, and the
      // run's evidence says it holds fewer entries than requests were sent.
      closeSync(this.#fd)
      this.#fd = undefined
    }
  }
}

/** The token a token call's answer issued, as it came (it is named, never written). */
function issuedBy(path: string, answer: Answer | undefined): string | undefined {
  const body = answer?.body
  const issued = answer !== undefined && answer.status >= 200 && answer.status < 300
  return tokenCallOf(path) !== undefined && issued && typeof body === 'string' && body !== '' ? body : undefined
}

/** A token call's answer with the token it issued redacted: its caller registers it as a secret only after this. */
function issuedToken(x: Exchange, path: string): Exchange {
  const kind = tokenCallOf(path)
  const response = x.response
  if (kind === undefined || response === undefined) return x
  const body = response.body
  const issued = response.status >= 200 && response.status < 300
  if (!issued || typeof body !== 'string' || body === '' || body.startsWith('[redacted')) return x
  return { ...x, response: { ...response, body: `[redacted ${kind} token]` } }
}
