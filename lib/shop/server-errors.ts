/**
 * Every 5xx answer a thread's clients get, collected as it finishes (request-channel.ts): the report's list of
 * server errors (lib/results/server-errors.ts). One log per thread of a run: the worker's, whose list rides to the
 * main process with each finished test (`take`), and the main process's own (preflight, the schema, cleanup).
 * What is kept is what the client recorded — secrets already redacted — and the caller's class, never its token;
 * the same request answered so again is counted on its entry; past MAX_LISTED distinct requests, answers are
 * counted, not kept. Any other answer costs one comparison.
 */
import diagnostics_channel from 'node:diagnostics_channel'
import { clip } from '../base/text.ts'
import { entryKey, joinLists, MAX_LISTED } from '../results/server-errors.ts'
import type { ServerErrorEntry, ServerErrorList } from '../results/server-errors.ts'
import type { CallerClass } from '../results/exchange.ts'
import { restPathOf } from './exchange-identity.ts'
import { messageText } from './answer-text.ts'
import { reportIdOf } from './server-error.ts'
import { REQUEST_CHANNEL, type FinishedRequest } from './request-channel.ts'
import { defined } from '../base/defined.ts'

/** A body sent longer than this is not kept (its length is): a curl needs it whole, and the list stays small. */
const MAX_BODY_CHARS = 16 * 1024
const MAX_MESSAGE_CHARS = 500

interface LogOptions {
  /** The caller's class, from the token sent (undefined: none) and the Authorization header as recorded (redacted). */
  callerOf(token: string | undefined, authorization: string | undefined): CallerClass
  /** Where the run is when a request carries no set-up step (`preflight`, `cleanup`); undefined: a check's own. */
  during?: () => string | undefined
  max?: number
}

export class ServerErrorLog {
  readonly #options: LogOptions
  readonly #max: number
  #byKey = new Map<string, ServerErrorEntry>()
  #unlisted: Record<string, number> = {}
  readonly #listen = (message: unknown) => this.record(message as FinishedRequest)

  constructor(options: LogOptions) {
    this.#options = options
    this.#max = options.max ?? MAX_LISTED
    diagnostics_channel.subscribe(REQUEST_CHANNEL, this.#listen)
  }

  /** Stops collecting: the thread's later requests are another run's. */
  close(): void {
    diagnostics_channel.unsubscribe(REQUEST_CHANNEL, this.#listen)
  }

  record({ spec, outcome }: FinishedRequest): void {
    const answer = outcome.answer
    if (answer === undefined || answer.status < 500 || answer.status > 599) return
    const request = outcome.exchange.request
    const at = new Date().toISOString()
    const { path, query } = restPathOf(request.url) ?? { path: spec.path }
    const bodyText = request.body === undefined ? undefined : JSON.stringify(request.body)
    const kept = keptBody(request.body, bodyText)
    const step = spec.step ?? this.#options.during?.()
    const entry: ServerErrorEntry = {
      method: spec.method,
      path,
      ...(query !== undefined ? { query } : {}),
      store: spec.store,
      caller: this.#options.callerOf(spec.token, request.headers.authorization),
      ...kept,
      status: answer.status,
      ...shopSaid(outcome.exchange.response?.body),
      firstAt: at,
      lastAt: at,
      count: 1,
      steps: step !== undefined ? [step] : [],
    }
    const key = entryKey(entry)
    const known = this.#byKey.get(key)
    if (known !== undefined)
      this.#byKey.set(
        key,
        defined(joinLists([{ entries: [known, entry], unlisted: {} }]).entries[0], 'the two entries joined'),
      )
    else if (this.#byKey.size < this.#max) this.#byKey.set(key, entry)
    else this.#unlisted[entry.status] = (this.#unlisted[entry.status] ?? 0) + 1
  }

  /** What was collected since the last `take`, and the log emptied: the worker's list for the next finished test. */
  take(): ServerErrorList {
    const list = this.list()
    this.#byKey = new Map()
    this.#unlisted = {}
    return list
  }

  /** A list collected elsewhere (the worker's, a cleanup process's), joined into this one, bounded alike. */
  add(list: ServerErrorList): void {
    if (list.entries.length === 0 && Object.keys(list.unlisted).length === 0) return
    const joined = joinLists([this.list(), list], this.#max)
    this.#byKey = new Map(joined.entries.map((e) => [entryKey(e), e]))
    this.#unlisted = joined.unlisted
  }

  list(): ServerErrorList {
    return { entries: [...this.#byKey.values()], unlisted: { ...this.#unlisted } }
  }
}

/**
 * The shop's message and report id, read from the answer as recorded (redacted, its body cut at the recording's limit).
 */
export function shopSaid(recorded: unknown): { message: string; reportId?: string } {
  const text = typeof recorded === 'string' ? recorded : (JSON.stringify(recorded) ?? '')
  const message = clip((messageText(recorded) ?? text).trim(), MAX_MESSAGE_CHARS)
  const reportId = reportIdOf(text)
  return { message, ...(reportId !== undefined ? { reportId } : {}) }
}

/** The body sent as the list keeps it: none when none was sent, whole up to MAX_BODY_CHARS, else its length only. */
function keptBody(body: unknown, bodyText: string | undefined): Pick<ServerErrorEntry, 'body' | 'bodyChars'> {
  if (bodyText === undefined) return {}
  if (bodyText.length <= MAX_BODY_CHARS) return { body }
  return { bodyChars: bodyText.length }
}
