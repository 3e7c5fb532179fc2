/**
 * The request log of a benchmarked run: when `SHOP_REQUEST_LOG` names a file, every request the run sends (from
 * the main thread and from the vitest worker, as the bench's preload hears them on the clients' request channel)
 * is appended to it as one JSON line, so the bench can count the requests, time the request phase and replay the
 * same sequence with a bare client. Callers are written as a label, never the token; passwords are replaced by
 * placeholders (the same password, the same placeholder).
 *
 * Kept free of heavy imports: the preload loads it into the run it measures.
 */
import { openSync, writeSync } from 'node:fs'
import type { Outcome, RequestSpec } from '../shop/request.ts'
import type { FinishedRequest } from '../shop/request-channel.ts'

export const CALLER_LABELS = ['admin', 'customer', 'disposable', 'own customer', 'malformed', 'none', 'other'] as const
export type CallerLabel = (typeof CALLER_LABELS)[number]

/**
 * One line of the log. Times are `performance.now()`: milliseconds since the process started, monotonic, the same
 * clock in the main thread and in worker threads (they share the process's time origin).
 */
export interface LoggedRequest {
  startMs: number
  endMs: number
  thread: 'main' | 'worker'
  method: string
  path: string
  store: string
  query?: string
  body?: unknown
  caller: CallerLabel
  /** With caller `other`: which of the other tokens this thread learned (1, 2, …), so a replay can tell them apart. */
  otherToken?: number
  /** On a token request whose answer was an `other` token: its number. */
  issuesOtherToken?: number
  /** The answer's status, absent when none came (for comparing a replay; not needed to replay). */
  status?: number
}

/** The placeholder a password becomes in a logged body; `admin` for the admin password, else a number per password. */
export const PASSWORD_PLACEHOLDER = /^\[password (admin|\d+)\]$/
const PASSWORD_KEY = /pass(word)?$/i

/** Which caller a token belongs to: told by the session, and learned from token answers as they arrive. */
export class CallerLabels {
  readonly #labels = new Map<string, CallerLabel>()
  readonly #others = new Map<string, number>()
  readonly #passwords = new Map<string, string>()
  readonly #adminUsername: string | undefined
  readonly #customerUsername: string | undefined

  constructor(options: { adminUsername?: string; customerUsername?: string } = {}) {
    this.#adminUsername = options.adminUsername
    this.#customerUsername = options.customerUsername
  }

  set(token: string | undefined, label: CallerLabel): void {
    if (token !== undefined) this.#labels.set(token, label)
  }

  of(token: string | undefined): CallerLabel {
    if (token === undefined) return 'none'
    const known = this.#labels.get(token)
    if (known !== undefined) return known
    return token.startsWith(MALFORMED_PREFIX) ? 'malformed' : 'other'
  }

  /**
   * A token answer (`POST /V1/integration/{admin|customer}/token` → 200 with a JSON string) names a new token:
   * the admin's, the run's main customer's, its disposable customer's, or someone else's.
   */
  learn(spec: RequestSpec, outcome: Outcome): void {
    const m = /^\/V1\/integration\/(admin|customer)\/token$/.exec(spec.path)
    if (
      m === null ||
      spec.method !== 'POST' ||
      outcome.answer?.status !== 200 ||
      typeof outcome.answer.body !== 'string'
    )
      return
    const username = (spec.body as { username?: unknown } | undefined)?.username
    const token = outcome.answer.body
    if (this.#labels.has(token)) return
    let label: CallerLabel = 'other'
    if (m[1] === 'admin')
      label = this.#adminUsername === undefined || username === this.#adminUsername ? 'admin' : 'other'
    else if (typeof username === 'string' && /^sc\.[^.]+\.disposable\.[0-9a-z]{8}@example\.com$/.test(username))
      label = 'disposable'
    else if (
      typeof username === 'string' &&
      (username === this.#customerUsername || /^sc\.[^.]+\.main\.[0-9a-z]{8}@example\.com$/.test(username))
    )
      label = 'customer'
    this.#labels.set(token, label)
    if (label === 'other') this.#others.set(token, this.#others.size + 1)
  }

  /** The number of an `other` token (see `LoggedRequest.otherToken`). */
  otherNumber(token: string | undefined): number | undefined {
    return token === undefined ? undefined : this.#others.get(token)
  }

  /** The `other` token a token answer issued, if it was one. */
  issuedOther(outcome: Outcome): number | undefined {
    return typeof outcome.answer?.body === 'string' ? this.#others.get(outcome.answer.body) : undefined
  }

  /** The body with every password replaced by its placeholder and every known token by its label. */
  scrub(body: unknown, path: string): unknown {
    return body === undefined ? undefined : (JSON.parse(this.serialise(body, path)) as unknown)
  }

  /** JSON of a log line (or a body) scrubbed as `scrub` says, in one pass. */
  serialise(value: unknown, path: string): string {
    const adminTokenCall = path === '/V1/integration/admin/token'
    return JSON.stringify(value, (key, v: unknown) => {
      if (typeof v !== 'string') return v
      if (PASSWORD_KEY.test(key)) return adminTokenCall ? '[password admin]' : this.#passwordPlaceholder(v)
      const label = this.#labels.get(v)
      return label === undefined ? v : `[token ${label}]`
    })
  }

  #passwordPlaceholder(password: string): string {
    let p = this.#passwords.get(password)
    if (p === undefined) {
      p = `[password ${this.#passwords.size + 1}]`
      this.#passwords.set(password, p)
    }
    return p
  }
}

/** The prefix of the suite's made-up malformed token (secrets.ts), repeated here to keep this module light. */
const MALFORMED_PREFIX = 'shop-conformance-malformed-'

/**
 * A writer of one thread's log lines: one synchronous append per finished request, so a process that exits
 * loses none it has heard. A caller the sending session named labels its token from then on.
 */
export function requestLogObserver(
  file: string,
  labels: CallerLabels,
  thread: LoggedRequest['thread'],
): (request: FinishedRequest) => void {
  const fd = openSync(file, 'a')
  return ({ spec, outcome, startMs, endMs, caller }) => {
    if (caller !== undefined && caller !== 'none') labels.set(spec.token, caller)
    labels.learn(spec, outcome)
    const otherToken = labels.otherNumber(spec.token)
    const issuesOtherToken = /^\/V1\/integration\/(admin|customer)\/token$/.test(spec.path)
      ? labels.issuedOther(outcome)
      : undefined
    const line: LoggedRequest = {
      startMs: round(startMs),
      endMs: round(endMs),
      thread,
      method: spec.method,
      path: spec.path,
      store: spec.store,
      ...(spec.query !== undefined ? { query: spec.query } : {}),
      ...(spec.body !== undefined ? { body: spec.body } : {}),
      caller: labels.of(spec.token),
      ...(otherToken !== undefined ? { otherToken } : {}),
      ...(issuesOtherToken !== undefined ? { issuesOtherToken } : {}),
      ...(outcome.answer !== undefined ? { status: outcome.answer.status } : {}),
    }
    try {
      // Scrubbed as it is written: the line's own fields are labels, numbers and paths; the body is the run's.
      writeSync(fd, `${labels.serialise(line, spec.path)}\n`)
    } catch {
      // A log that cannot be written must not break the run it observes.
    }
  }
}

export function readRequestLog(text: string): LoggedRequest[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as LoggedRequest)
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000
}
