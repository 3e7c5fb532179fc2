/**
 * A run's evidence as HAR 1.2 (the HTTP Archive format a browser's network panel exports and imports): one entry
 * per exchange the run sent, made of the exchange as the client recorded it — secrets redacted, a long answer's body
 * cut as in every report — and tagged in HAR's own way, fields whose names start with `_`: the run's id, the
 * caller's class, the set-up step or probe it was sent for, and, once the run knows them (lib/run/evidence.ts), the
 * spec endpoint, the store code and the planned checks whose results hold it. Its JSON Schema:
 * lib/report/har.schema.json.
 */
import { CUT_SHORT, type CallerClass, type Exchange } from './exchange.ts'

interface NameValue {
  name: string
  value: string
}

/** One exchange as a HAR entry, with the suite's tags. */
export interface HarEntry {
  startedDateTime: string
  /** Milliseconds from the request's start to its answer's end (or its failure). */
  time: number
  request: {
    method: string
    url: string
    httpVersion: string
    cookies: NameValue[]
    headers: NameValue[]
    queryString: NameValue[]
    postData?: { mimeType: string; text: string }
    headersSize: -1
    bodySize: number
  }
  response: {
    /** 0 when no answer came (`_error` says why), as browsers export a failed request. */
    status: number
    statusText: string
    httpVersion: string
    cookies: NameValue[]
    headers: NameValue[]
    content: { size: number; mimeType: string; text?: string; comment?: string }
    redirectURL: string
    headersSize: -1
    bodySize: -1
  }
  cache: Record<string, never>
  timings: { send: number; wait: number; receive: number }
  /** What the client did beyond one plain request (a repeat after 429, a deadlock's repeat). */
  comment?: string
  _runId: string
  /** Who sent it, as a class: never a token. */
  _caller: CallerClass
  /**
   * Which token it was sent with, by name, never by value: a token the run's session began with by its role (`admin`,
   * `customer`, `disposableCustomer`, …), any other by its number in its thread's part (`worker.3`). So the calls of
   * two customers whose tokens the redaction labels alike are told apart: `judge --har` sends a workflow's calls again
   * to the recording, each as the customer it was sent as (lib/shop/replay.ts).
   */
  _token?: string
  /** On a token call's answer: the name (`_token`) of the token it issued. */
  _issued?: string
  /**
   * The set-up step (`token of customer other customer`) or the run's phase (`preflight`, `cleanup`) it was sent in.
   */
  _step?: string
  /** The probe it was: a planned call (`GET /V1/orders/999999 customer first`) or a valid request's caller. */
  _probe?: string
  /** What the answer to a valid call must carry, and the rule's name (SHAPE_RULES): what `judge --har` judges it by. */
  _carries?: { values: Record<string, unknown>; rule: string }
  /**
   * On a body-keys call with a missing or renamed key: the state it would change, read before and after it (a key
   * absent: nothing read there), which the check compares. On a batch-partial read-back: the prices read (or stored)
   * before the call it reads back (`before`); on an information call of stored prices: what storing them answered.
   */
  _observed?: { before?: unknown; after?: unknown }
  /**
   * On the body-keys check's call with a body contradicting a path parameter: which, and how the read-back found it.
   */
  _conflict?: { bodyKey: string; pathParam: string; honoured?: true | string | { rule: string; text: string } }
  /**
   * On a batch-partial call: its items as the check planned them, in the order of the body's list (`prices` or `skus`):
   * which are valid, and what makes the others invalid (`kind`), which the request alone does not say.
   */
  _items?: { valid: boolean; kind?: string }[]
  /** Why no answer came (a timeout, a connection refused, the run being stopped). */
  _error?: string
  /** The spec endpoint (a catalog row's id) or the shop's extension operation its path is of, and which. */
  _endpoint?: string
  _origin?: 'spec' | 'extension'
  /** The store code it was sent under. */
  _store?: string
  /** The planned checks whose results hold it as evidence (their result ids). */
  _checks?: string[]
}

/** What the sender knew of an exchange that its record does not say. */
interface EntryFacts {
  runId: string
  caller: CallerClass
  /** Epoch milliseconds when it was sent. */
  startedAt: number
  /** Whether the answer's body was JSON (the record holds it parsed); absent without an answer. */
  json?: boolean
  /** The answer's body length as it came, in characters: the record may hold only its start. */
  size?: number
  step?: string
  probe?: string
  carries?: HarEntry['_carries']
  token?: string
  issued?: string
  /** False for a request body that was no JSON (a form a proxied client sent): written as its text. */
  requestJson?: boolean
}

const HTTP_VERSION = 'HTTP/1.1'

/** The request body's text as sent: a form's text as it is, else JSON; none without a body. */
function requestText(body: unknown, json: boolean | undefined): string | undefined {
  if (body === undefined) return undefined
  return json === false && typeof body === 'string' ? body : JSON.stringify(body)
}

export function harEntry(x: Exchange, facts: EntryFacts): HarEntry {
  const { request } = x
  const postText = requestText(request.body, facts.requestJson)
  const entry: HarEntry = {
    startedDateTime: new Date(facts.startedAt).toISOString(),
    time: x.durationMs,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: nameValues(request.headers),
      queryString: queryOf(request.url),
      ...(postText !== undefined
        ? { postData: { mimeType: headerOf(request.headers, 'content-type') ?? 'application/json', text: postText } }
        : {}),
      headersSize: -1,
      bodySize: postText === undefined ? 0 : Buffer.byteLength(postText),
    },
    response: responseOf(x, facts),
    cache: {},
    timings: { send: 0, wait: x.durationMs, receive: 0 },
    ...(x.note !== undefined ? { comment: x.note } : {}),
    _runId: facts.runId,
    _caller: facts.caller,
    ...(facts.token !== undefined ? { _token: facts.token } : {}),
    ...(facts.issued !== undefined ? { _issued: facts.issued } : {}),
    ...(facts.step !== undefined ? { _step: facts.step } : {}),
    ...(facts.probe !== undefined ? { _probe: facts.probe } : {}),
    ...(facts.carries !== undefined ? { _carries: facts.carries } : {}),
    ...(x.error !== undefined ? { _error: x.error } : {}),
  }
  return entry
}

function responseOf(x: Exchange, facts: EntryFacts): HarEntry['response'] {
  const r = x.response
  const common = {
    httpVersion: HTTP_VERSION,
    cookies: [],
    redirectURL: '',
    headersSize: -1 as const,
    bodySize: -1 as const,
  }
  if (r === undefined)
    return { status: 0, statusText: '', headers: [], content: { size: 0, mimeType: 'x-unknown' }, ...common }
  const text = bodyText(r.body, facts.json === true)
  const cut = typeof r.body === 'string' && CUT_SHORT.test(r.body)
  return {
    status: r.status,
    statusText: '',
    headers: nameValues(r.headers),
    content: {
      size: facts.size ?? text.length,
      mimeType: headerOf(r.headers, 'content-type') ?? 'x-unknown',
      text,
      ...(cut ? { comment: 'only the start of the body is recorded, as in every report' } : {}),
    },
    ...common,
  }
}

/** The body's text as recorded: JSON written back as JSON (a JSON string too), else the text, a cut one as it is. */
function bodyText(body: unknown, json: boolean): string {
  if (typeof body !== 'string') return JSON.stringify(body) ?? ''
  return json && !CUT_SHORT.test(body) ? JSON.stringify(body) : body
}

function nameValues(headers: Readonly<Record<string, string>>): NameValue[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }))
}

function headerOf(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  return Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1]
}

function queryOf(url: string): NameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }))
  } catch {
    return []
  }
}

/**
 * An entry read back as the exchange it was made of — its request, its answer (a body that parses as JSON read as
 * JSON, as the client reads an answer; one cut short as the text it is), no answer where none came — so that what
 * reads a run's exchanges (lib/shop/recorded.ts) reads a HAR's alike.
 */
export function exchangeOfEntry(
  entry: Pick<HarEntry, 'request' | 'response' | 'time' | 'comment' | '_error'>,
): Exchange {
  const { request, response } = entry
  const body = request.postData === undefined ? {} : { body: parsedOr(request.postData.text) }
  const cut = response.content.comment !== undefined
  return {
    request: { method: request.method, url: request.url, headers: recordOf(request.headers), ...body },
    ...(response.status > 0
      ? {
          response: {
            status: response.status,
            headers: recordOf(response.headers),
            body: cut ? (response.content.text ?? '') : parsedOr(response.content.text ?? ''),
          },
        }
      : {}),
    ...(entry._error !== undefined ? { error: entry._error } : {}),
    ...(entry.comment !== undefined ? { note: entry.comment } : {}),
    durationMs: entry.time,
  }
}

function recordOf(headers: readonly NameValue[]): Record<string, string> {
  return Object.fromEntries(headers.map((h) => [h.name, h.value]))
}

/** JSON when the text is JSON (the client's reading of an answer: lib/shop/client.ts), else the text. */
function parsedOr(text: string): unknown {
  if (text.trim() === '') return text
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}
