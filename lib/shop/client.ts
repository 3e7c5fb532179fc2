import { Agent, type Dispatcher } from 'undici'
import diagnostics_channel from 'node:diagnostics_channel'
import type { Exchange, RecordedRequest } from '../results/exchange.ts'
import type { Secrets } from './secrets.ts'
import type { Answer, Outcome, RequestSpec, TransportFailure } from './request.ts'
import { REQUEST_CHANNEL, type CallerLabel, type FinishedRequest } from './request-channel.ts'
import { Bound, type Lane } from './bound.ts'
import { isHeavyWrite, Pace, paceKey, RateCap, sideBySideGroup, type RateShare } from './pace.ts'
import { callKind, Deadlines } from './deadlines.ts'
import { cartAliases, cartWritten, SerialGroups } from './serial.ts'
import type { CallKind, DeadlinesUsed, Slowest } from '../results/deadlines.ts'

interface ClientOptions {
  baseUrl: string
  /** `--timeout-ms`: every call's deadline is at least this (deadlines.ts). */
  timeoutMs: number
  /**
   * `--max-timeout-ms`: a kind's deadline grows with the shop's slowest answers up to this. Default `timeoutMs` (fixed
   * deadlines).
   */
  maxTimeoutMs?: number
  /** The slowest answers an earlier client of the run saw (the preflight's), which this one's deadlines start from. */
  slowestMs?: Slowest
  concurrency: number
  secrets: Secrets
  /** Largest body read from an answer; the rest is cut off so a runaway target cannot exhaust memory. */
  maxBodyBytes?: number
  /** Largest body kept in a recorded exchange. */
  maxRecordedBodyChars?: number
  /** Total time the client may spend waiting out 429 Retry-After answers over its whole life. */
  retryBudgetMs?: number
  /** Skip TLS certificate verification (only when the user asked with --insecure). */
  insecure?: boolean
  /** Who a token is, as far as the client's owner knows: published with each finished request (request-channel.ts). */
  callerOf?: (token: string | undefined) => CallerLabel | undefined
  /** `--max-rps`: requests start at least 1/N s apart, the run's other clients' included (the run's one share). */
  rate?: RateShare
  /**
   * The bound follows the shop's pace (pace.ts); off, `concurrency` requests are in flight whenever there are. Default
   * on.
   */
  adaptive?: boolean
  /**
   * Told what the shop's pace did that a reader of the report should know (pace.ts: fewer requests kept in flight, and
   * why).
   */
  onPace?: (note: string) => void
  /**
   * What sends the requests: an undici Agent of the client's own unless given one (a recording's: lib/shop/replay.ts).
   */
  transport?: Transport
}

/**
 * What the client asks of undici's dispatcher, and all it asks: an Agent (agentTransport) is one; so is a stand-in
 * that answers each request from a run's recorded exchanges (lib/shop/replay.ts), so that everything above it runs as
 * it ran. `about`: what the request is for beyond HTTP (the set-up step it is sent in), which only a stand-in reads.
 */
export interface Transport {
  request(
    options: TransportRequest,
    about: { step?: string },
  ): Promise<{
    statusCode: number
    headers: Record<string, string | string[] | undefined>
    body: AsyncIterable<Buffer> & { destroy(): void }
  }>
  close(): Promise<void>
}

interface TransportRequest {
  origin: string
  path: string
  method: Dispatcher.HttpMethod
  headers: Record<string, string>
  body: string | undefined
  signal: AbortSignal
}

/** An undici Agent as the client's transport: what is not HTTP stays out of it. */
function agentTransport(agent: Agent): Transport {
  return { request: (options) => agent.request(options), close: () => agent.close() }
}

const finished = diagnostics_channel.channel(REQUEST_CHANNEL)

/** Retries of one request after 429, each waiting what Retry-After asks, if it asks for at most this long. */
const MAX_429_RETRIES = 2
const MAX_RETRY_AFTER_MS = 5_000
/** This many requests in a row without an answer: the target is gone, and the rest are not sent. */
const GONE_AFTER_FAILURES = 20

/**
 * The one way the suite talks to a target: bounded concurrency, a hard deadline per request,
 * `Accept: application/json` always (the platform answers XML otherwise), and every exchange recorded redacted.
 * It never throws for what the target does: a dead or broken target becomes a `TransportFailure`.
 */
export class TargetClient {
  readonly #agent: Transport
  readonly #bound: Bound
  readonly #base: URL
  readonly #options: Required<
    Omit<ClientOptions, 'callerOf' | 'rate' | 'onPace' | 'maxTimeoutMs' | 'slowestMs' | 'transport'>
  > &
    Pick<ClientOptions, 'callerOf' | 'onPace'>
  readonly #deadlines: Deadlines
  readonly #pace: Pace
  readonly #rate: RateCap
  /**
   * Writes the platform deadlocks on side by side, one at a time per group: a cart's (serial.ts), attribute sets
   * (pace.ts).
   */
  readonly #serial = new SerialGroups()
  #sent = 0
  #retryBudgetMs: number
  #failuresInARow = 0
  /** When the target was found gone, and after how many requests: what the run's error says. */
  #gone: { at: string; after: number } | undefined
  #lastFailure = ''
  readonly #stopping = new AbortController()

  constructor(options: ClientOptions) {
    this.#options = {
      maxBodyBytes: 8 * 1024 * 1024,
      maxRecordedBodyChars: 16 * 1024,
      retryBudgetMs: 30_000,
      insecure: false,
      adaptive: true,
      ...options,
    }
    this.#retryBudgetMs = this.#options.retryBudgetMs
    this.#deadlines = new Deadlines(options.timeoutMs, options.maxTimeoutMs, options.slowestMs)
    this.#base = new URL(options.baseUrl)
    this.#pace = new Pace(options.concurrency, {
      changed: () => this.#bound.wake(),
      note: (text) => this.#options.onPace?.(text),
    })
    this.#rate = new RateCap(options.rate)
    const adaptive = this.#options.adaptive
    this.#bound = new Bound(() =>
      adaptive
        ? { size: this.#pace.limit, heavy: this.#pace.heavy }
        : { size: options.concurrency, heavy: options.concurrency },
    )
    this.#agent =
      options.transport ??
      agentTransport(
        new Agent({
          connections: options.concurrency,
          // Each exchange's own deadline (#exchangeSignal) is what ends it: these only bound it where that one cannot
          // grow.
          headersTimeout: this.#deadlines.ceilingMs,
          bodyTimeout: this.#deadlines.ceilingMs,
          // Certificates are verified against Node's CAs plus NODE_EXTRA_CA_CERTS (a private CA); --insecure turns that
          // off.
          connect: { timeout: options.timeoutMs, ...(options.insecure === true ? { rejectUnauthorized: false } : {}) },
          keepAliveTimeout: 10_000,
        }),
      )
  }

  /**
   * The run is being stopped: requests in flight are cut off and none is sent any more, each becoming a
   * `stopped` failure at once. A run that must end by its deadline cannot wait out request timeouts.
   */
  stop(): void {
    this.#stopping.abort()
  }

  get stopped(): boolean {
    return this.#stopping.signal.aborted
  }

  /** The deadline a call sent now gets (deadlines.ts): what a set-up step waits at least before it gives up. */
  deadlineOf(method: string, path: string): number {
    return this.#deadlines.of(callKind(method, path))
  }

  /** The longest deadline each kind of call was given so far: what the report says the run used. */
  get deadlinesUsed(): DeadlinesUsed {
    return this.#deadlines.used
  }

  /** The slowest answer of each kind so far: where a later client of the run starts from (slowestMs). */
  get slowestMs(): Slowest {
    return this.#deadlines.slowest
  }

  /** Requests sent so far (for benchmarks and safety tests). */
  get sent(): number {
    return this.#sent
  }

  urlFor(spec: Pick<RequestSpec, 'path' | 'store' | 'query'>): string {
    const prefix = this.#base.pathname.replace(/\/+$/, '')
    const query = spec.query === undefined || spec.query === '' ? '' : `?${spec.query}`
    return `${this.#base.origin}${prefix}/rest/${spec.store}${spec.path}${query}`
  }

  /**
   * Sends within the bound; a request of work started before its turn (`lane` ahead) yields to current work. A heavy
   * write takes one of the heavy writes' places too; a write of a group the platform deadlocks on side by side — one
   * cart's writes (serial.ts), attribute sets (pace.ts) — waits for the one before it to end.
   *
   * `held`: what to do with the request while its group's turn is held — send it (`send`, as often as it decides), and
   * whatever reads it needs between — so that no other write of the group comes in between (a deadlock's repeat,
   * session.ts). Without it, the request is sent once.
   */
  send(spec: RequestSpec, lane?: Lane, held?: (send: () => Promise<Outcome>) => Promise<Outcome>): Promise<Outcome> {
    const once = async () => {
      const outcome = await this.#sendBounded(spec, lane)
      // One cart may be addressed several ways: an answer naming its id makes them one group from now on.
      if (outcome.answer !== undefined) for (const [a, b] of cartAliases(spec, outcome.answer)) this.#serial.alias(a, b)
      return outcome
    }
    const work = held === undefined ? once : () => held(once)
    const group = this.#turnOf(spec)
    return group === undefined ? work() : this.#serial.run(group, work)
  }

  /**
   * Whose turn a write waits for: its cart's, or the attribute sets'; none for a read, a write about no one cart, and a
   * request to a caller the endpoint refuses. A shop refuses before it writes (the platform checks the token before the
   * service runs), so a refused caller's request cannot deadlock; made to wait, the refused callers' probes of each
   * endpoint went one after another behind the run's writes to its one cart (issue 29.9). A shop that lets one through
   * and then deadlocks answers it with a deadlock, repeated once (session.ts) and else not judged, never a pass.
   */
  #turnOf(spec: RequestSpec): string | undefined {
    if (spec.refusalExpected === true) return undefined
    return sideBySideGroup(spec.method, spec.path) ?? cartWritten(spec)
  }

  #sendBounded(spec: RequestSpec, lane?: Lane): Promise<Outcome> {
    const heavy = isHeavyWrite(spec.method, spec.path)
    return this.#bound.run(
      async () => {
        await this.#rate.take(this.#stopping.signal)
        const startMs = performance.now()
        const inFlight = heavy ? this.#bound.inFlight.heavy : this.#bound.inFlight.all
        const outcome = await this.#sendHonouringRateLimits(spec)
        // Heavy writes are paced apart from the rest: slow by nature, they are compared with their own kind — those the
        // shop did (a success) or did not finish in time; a refusal of one is answered at once, as any light request.
        if (
          outcome.answer !== undefined ||
          outcome.failure?.kind === 'timeout' ||
          outcome.failure?.kind === 'rate-limited'
        ) {
          const status = outcome.answer?.status
          const work = heavy && (status === undefined || (status >= 200 && status < 300))
          this.#pace.observe({
            ms: performance.now() - startMs,
            heavy: work,
            inFlight: work ? inFlight : this.#bound.inFlight.all,
            timedOut: outcome.failure?.kind === 'timeout',
            key: paceKey(spec.method, spec.path),
            startedAt: startMs,
            overloaded: outcome.failure?.kind === 'rate-limited' || status === 429 || status === 503,
            demand: this.#bound.waiting(heavy ? 'heavy' : 'light'),
          })
        }
        if (outcome.answer !== undefined) this.#failuresInARow = 0
        else if (outcome.failure?.kind !== 'target-gone') {
          this.#failuresInARow++
          this.#lastFailure = outcome.failure?.message ?? ''
        }
        if (finished.hasSubscribers) {
          const caller = this.#options.callerOf?.(spec.token)
          finished.publish({
            spec,
            outcome,
            startMs,
            endMs: performance.now(),
            ...(caller !== undefined ? { caller } : {}),
          } satisfies FinishedRequest)
        }
        return outcome
      },
      lane,
      heavy ? 'heavy' : 'light',
    )
  }

  /**
   * 429 answers are waited out as Retry-After asks, a few times per request and within a budget for the whole
   * run; a target still answering 429 after that gave no answer to judge.
   */
  async #sendHonouringRateLimits(spec: RequestSpec): Promise<Outcome> {
    if (this.stopped) {
      const message = 'not sent: the run was being stopped'
      return {
        failure: { kind: 'stopped', message },
        exchange: { request: this.#recorded(spec, this.urlFor(spec)), error: message, durationMs: 0 },
      }
    }
    if (this.#failuresInARow >= GONE_AFTER_FAILURES) {
      this.#gone ??= { at: new Date().toISOString(), after: this.#sent }
      const message = `not sent: the target stopped answering at ${this.#gone.at}, after ${this.#gone.after} requests (${this.#failuresInARow} in a row got no answer; the last: ${this.#lastFailure})`
      return {
        failure: { kind: 'target-gone', message },
        exchange: { request: this.#recorded(spec, this.urlFor(spec)), error: message, durationMs: 0 },
      }
    }
    let outcome = await this.#send(spec)
    let retries = 0
    while (outcome.answer?.status === 429 && retries < MAX_429_RETRIES) {
      const wait = retryAfterMs(outcome.answer.headers['retry-after'])
      if (wait === undefined || wait > MAX_RETRY_AFTER_MS || wait > this.#retryBudgetMs) break
      this.#retryBudgetMs -= wait
      retries++
      await new Promise((r) => setTimeout(r, wait))
      // A repeat is a request too: within the cap.
      await this.#rate.take(this.#stopping.signal)
      outcome = await this.#send(spec)
    }
    const note =
      retries > 0
        ? `retried ${retries} time${retries > 1 ? 's' : ''} after 429, waiting as Retry-After asked`
        : undefined
    if (outcome.answer?.status === 429) {
      const message = `the target answered 429 Too Many Requests${retries > 0 ? ` ${retries + 1} times` : ''} (Retry-After: ${outcome.answer.headers['retry-after'] ?? 'none'}); no answer to judge`
      return {
        failure: { kind: 'rate-limited', message },
        exchange: { ...outcome.exchange, ...(note !== undefined ? { note } : {}), error: message },
      }
    }
    return note === undefined ? outcome : { ...outcome, exchange: { ...outcome.exchange, note } }
  }

  #recorded(spec: RequestSpec, url: string): RecordedRequest {
    return this.#options.secrets.redact(unredactedRequest(spec, url))
  }

  async close(): Promise<void> {
    await this.#agent.close()
  }

  async #send(spec: RequestSpec): Promise<Outcome> {
    const url = this.urlFor(spec)
    const request = unredactedRequest(spec, url)
    const { headers } = request
    const payload = spec.body !== undefined ? JSON.stringify(spec.body) : undefined
    const started = performance.now()
    const recordedRequest = (): RecordedRequest => request
    this.#sent++
    spec.onSent?.()
    // The exchange's deadline (its kind's, growing while it waits) or stopping the run cuts it off.
    const kind = callKind(spec.method, spec.path)
    const { signal, release, deadlineMs } = this.#exchangeSignal(kind)
    try {
      const target = new URL(url)
      const res = await this.#agent.request(
        {
          origin: target.origin,
          path: target.pathname + target.search,
          method: spec.method,
          headers,
          body: payload,
          signal,
        },
        spec.step !== undefined ? { step: spec.step } : {},
      )
      const text = await readLimited(res.body, this.#options.maxBodyBytes)
      const answer = toAnswer(res.statusCode, flattenHeaders(res.headers), text)
      this.#deadlines.observe(kind, performance.now() - started)
      const exchange: Exchange = {
        request: recordedRequest(),
        response: { status: answer.status, headers: answer.headers, body: this.#recordableBody(answer) },
        durationMs: Math.round(performance.now() - started),
      }
      return { answer, exchange: this.#options.secrets.redact(exchange) }
    } catch (err) {
      const failure: TransportFailure = this.stopped
        ? { kind: 'stopped', message: 'cut off: the run was being stopped' }
        : describeFailure(err, deadlineMs())
      // A call that timed out counts as at least the deadline it reached: its kind is given longer from now on.
      if (failure.kind === 'timeout') this.#deadlines.observe(kind, Math.max(deadlineMs(), performance.now() - started))
      const exchange: Exchange = {
        request: recordedRequest(),
        error: failure.message,
        durationMs: Math.round(performance.now() - started),
      }
      return { failure, exchange: this.#options.secrets.redact(exchange) }
    } finally {
      release()
    }
  }

  /**
   * One exchange's signal: aborted when its time is up (a TimeoutError) or the run is being stopped, as
   * `AbortSignal.any([AbortSignal.timeout(ms), stopping])` would be, but released when the exchange ends. Those two
   * hold each request's signals through weak references and its timer for the whole timeout, so they outlive the
   * young generation and stay in the heap until a full collection: in a whole run about 6 MB more of the worker's
   * heap at its peak.
   *
   * Its time is its kind's deadline; when that is reached, the kind's deadline is asked again: grown meanwhile (a call
   * of the kind answered slowly or timed out), the exchange waits on until the new one. `deadlineMs` is the last.
   */
  #exchangeSignal(kind: CallKind): { signal: AbortSignal; release: () => void; deadlineMs: () => number } {
    const controller = new AbortController()
    const stopping = this.#stopping.signal
    const stop = () => controller.abort(stopping.reason)
    const started = performance.now()
    let deadline = this.#deadlines.of(kind)
    const expire = () => {
      const now = this.#deadlines.of(kind)
      const waited = performance.now() - started
      if (now > deadline && now > waited) {
        deadline = now
        timer = setTimeout(expire, now - waited)
        timer.unref()
        return
      }
      controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))
    }
    let timer = setTimeout(expire, deadline)
    timer.unref()
    if (stopping.aborted) stop()
    else stopping.addEventListener('abort', stop, { once: true })
    return {
      signal: controller.signal,
      release() {
        clearTimeout(timer)
        stopping.removeEventListener('abort', stop)
      },
      deadlineMs: () => deadline,
    }
  }

  #recordableBody(answer: Answer): unknown {
    const limit = this.#options.maxRecordedBodyChars
    if (answer.text.length <= limit) return answer.body
    return `${answer.text.slice(0, limit)}… [${answer.text.length - limit} more characters not recorded]`
  }
}

/** Hop-by-hop headers say nothing about the interface and would only bloat every recorded exchange. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date'])

/** The request as sent, secrets and all: only ever handed to redaction or to the wire. */
function unredactedRequest(spec: RequestSpec, url: string): RecordedRequest {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (spec.token !== undefined) headers.authorization = `Bearer ${spec.token}`
  if (spec.body !== undefined) headers['content-type'] = 'application/json'
  return { method: spec.method, url, headers, ...(spec.body !== undefined ? { body: spec.body } : {}) }
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v
  }
  return out
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy(): void }, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.length
    if (size > maxBytes) {
      body.destroy()
      throw Object.assign(new Error(`answer body larger than ${maxBytes} bytes`), { code: 'SHOP_BODY_TOO_LARGE' })
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function toAnswer(status: number, headers: Record<string, string>, text: string): Answer {
  if (text.trim() !== '') {
    try {
      return { status, headers, body: JSON.parse(text) as unknown, json: true, text }
    } catch {
      // Not JSON: checks decide whether that matters; the raw text is the evidence.
    }
  }
  return { status, headers, body: text, json: false, text }
}

function describeFailure(err: unknown, timeoutMs: number): TransportFailure {
  const e = err as { code?: unknown; name?: string; message?: string; cause?: { code?: unknown } }
  // An aborted signal is a DOMException whose numeric `code` means nothing here: its name says what happened.
  const named = e.name === 'TimeoutError' || e.name === 'AbortError' ? e.name : undefined
  const code = named ?? [e.code, e.cause?.code].find((c): c is string => typeof c === 'string') ?? e.name ?? 'ERROR'
  if (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'TimeoutError' ||
    code === 'AbortError'
  ) {
    return { kind: 'timeout', message: `no complete answer within ${timeoutMs} ms (${code})` }
  }
  if (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN' ||
    code === 'EHOSTUNREACH' ||
    code === 'UND_ERR_SOCKET' ||
    code === 'EPIPE'
  ) {
    return {
      kind: 'connection',
      message: `connection failed: ${code}${e.message !== undefined && e.message !== code ? ` (${e.message})` : ''}`,
    }
  }
  return { kind: 'protocol', message: `request failed: ${code}${e.message !== undefined ? ` (${e.message})` : ''}` }
}
