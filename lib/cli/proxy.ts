/**
 * The proxy of `shop-conformance proxy`: forwards every request to the target unchanged (HTTP/1.1, keep-alive both
 * ways, bodies streamed as they come, TLS to an https target) and writes each exchange as a HAR entry as it finishes,
 * redacted as a run's evidence is: the tokens the capture's token calls issue (and those a `--token-class` hint
 * names) by their class's label, any other token as `[redacted token]`, passwords, cookies and API keys hidden. So
 * the capture holds no secret, and its caller classes are what `judge --passive` reads (lib/shop/exchange-identity.ts).
 * Nothing else of the traffic is kept.
 */
import { closeSync, openSync, writeSync } from 'node:fs'
import { Agent as HttpAgent, createServer, request as httpRequest } from 'node:http'
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import { UsageError } from '../base/usage-error.ts'
import type { CallerClass, Exchange } from '../results/exchange.ts'
import { harEntry } from '../results/har.ts'
import { authorizationOf, hasCookie, pathnameOf, tokenCallOf, type TokenHint } from '../shop/exchange-identity.ts'
import { Secrets } from '../shop/secrets.ts'
import { SUITE } from '../spec/version.ts'

interface ProxyOptions {
  /** The shop's URL (its path, if any, is the prefix every request is forwarded below). */
  target: URL
  host: string
  /** 0: a free port. */
  port: number
  har: string
  hints: readonly TokenHint[]
  /** Certificate verification of an https target off (`--insecure`). */
  insecure: boolean
}

interface RunningProxy {
  /** Where clients send their requests: `http://127.0.0.1:PORT`. */
  url: string
  /** Exchanges written so far. */
  entries(): number
  /** Stops accepting, lets the requests in flight finish (at most `graceMs`), and ends the HAR. */
  close(graceMs?: number): Promise<void>
}

/** An answer's body kept for the HAR up to this many bytes; the rest is forwarded, not kept (its length is). */
const MAX_KEPT_BYTES = 1024 * 1024
/** Headers of one connection, not of the message (RFC 9110 §7.6.1): never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

/** Where the proxy forwards to: the target, the path prefix below it, and the agent that keeps its connections. */
interface Upstream {
  target: URL
  prefix: string
  https: boolean
  agent: HttpAgent | HttpsAgent
}

/** What a forwarded exchange ends with: the answer (none when the target did not answer) and what went wrong. */
type Finish = (response: RecordedExchange['response'], error?: string) => void

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const har = new HarWriter(options.har, options.target.href)
  const recorder = new Recorder(options.hints)
  const https = options.target.protocol === 'https:'
  const agent = https
    ? new HttpsAgent({ keepAlive: true, rejectUnauthorized: !options.insecure })
    : new HttpAgent({ keepAlive: true })
  const upstream: Upstream = {
    target: options.target,
    prefix: options.target.pathname.replace(/\/+$/, ''),
    https,
    agent,
  }
  const inFlight = new Set<Promise<void>>()

  const server = createServer((req, res) => {
    const done = forward(upstream, req, res).then((x) => har.write(recorder.entry(x)))
    inFlight.add(done)
    void done.finally(() => inFlight.delete(done))
  })
  await listen(server, options.host, options.port)
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}`,
    entries: () => har.count,
    async close(graceMs = 5000) {
      await drain(server, inFlight, graceMs)
      agent.destroy()
      har.end()
    },
  }
}

/** One request forwarded to the target and its answer streamed back, resolved with the exchange as it went. */
function forward(to: Upstream, req: IncomingMessage, res: ServerResponse): Promise<RecordedExchange> {
  const startedAt = Date.now()
  const url = new URL(`${to.prefix}${req.url ?? '/'}`, to.target.origin)
  const headers = forwarded(req.headers)
  headers.host = to.target.host
  const sent = new Kept()
  return new Promise((resolve) => {
    const finish: Finish = (response, error) => {
      const failed = error !== undefined ? { error } : {}
      const durationMs = Date.now() - startedAt
      resolve({
        method: req.method ?? 'GET',
        url: url.href,
        requestHeaders: req.headers,
        requestBody: sent,
        response,
        ...failed,
        startedAt,
        durationMs,
      })
    }
    const send = to.https ? httpsRequest : httpRequest
    const upstream = send(url, { method: req.method, headers, agent: to.agent }, (answer) => relay(answer, res, finish))
    upstream.on('error', (err) => {
      // The shop could not be reached: the client gets a gateway's 502, the capture the failure (no answer).
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' })
      res.end(`shop-conformance proxy: the target did not answer (${err.message})\n`)
      finish(undefined, err.message)
    })
    req.on('data', (chunk: Buffer) => sent.add(chunk))
    req.pipe(upstream)
  })
}

/** The target's answer streamed to the client as it comes, its first bytes kept for the capture. */
function relay(answer: IncomingMessage, res: ServerResponse, finish: Finish): void {
  res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwarded(answer.headers))
  const got = new Kept()
  answer.on('data', (chunk: Buffer) => got.add(chunk))
  answer.pipe(res)
  answer.on('end', () => finish({ status: answer.statusCode ?? 0, headers: answer.headers, body: got }))
  answer.on('error', (err) => {
    finish(
      { status: answer.statusCode ?? 0, headers: answer.headers, body: got },
      `the answer was cut off: ${err.message}`,
    )
  })
}

/** The server listening on host:port; a port it cannot have is a usage error. */
function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(new UsageError(`proxy: cannot listen on ${host}:${port} (${err.code ?? err.message})`))
    })
    server.listen(port, host, () => resolve())
  })
}

/** Stops accepting, lets the requests in flight finish (at most `graceMs`), then closes every connection. */
async function drain(server: Server, inFlight: ReadonlySet<Promise<void>>, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  server.closeIdleConnections()
  await Promise.race([Promise.allSettled([...inFlight]), new Promise((r) => setTimeout(r, graceMs).unref())])
  server.closeAllConnections()
  await closed
}

function forwarded(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value
  return out
}

/** A body as it streams through: the first MAX_KEPT_BYTES kept, the whole length counted. */
class Kept {
  readonly chunks: Buffer[] = []
  bytes = 0
  kept = 0
  add(chunk: Buffer): void {
    this.bytes += chunk.length
    if (this.kept >= MAX_KEPT_BYTES) return
    const part = chunk.subarray(0, MAX_KEPT_BYTES - this.kept)
    this.chunks.push(part)
    this.kept += part.length
  }
}

interface RecordedExchange {
  method: string
  url: string
  requestHeaders: IncomingHttpHeaders
  requestBody: Kept
  response?: { status: number; headers: IncomingHttpHeaders; body: Kept }
  error?: string
  startedAt: number
  durationMs: number
}

/** Each exchange as a HAR entry, redacted; the tokens of the capture followed to their class as they are issued. */
class Recorder {
  readonly #secrets = new Secrets()
  readonly #classes = new Map<string, CallerClass>()
  readonly #hints: readonly TokenHint[]
  readonly #runId = `proxy-${new Date().toISOString().replace(/[-:.TZ]/g, '')}`

  constructor(hints: readonly TokenHint[]) {
    this.#hints = hints
  }

  entry(x: RecordedExchange): object {
    const requestHeaders = flat(x.requestHeaders)
    const caller = this.#callerOf(authorizationOf(requestHeaders), hasCookie(requestHeaders))
    const request = { method: x.method, url: x.url, headers: requestHeaders, ...bodyOf(x.requestBody, requestHeaders) }
    const answerHeaders = x.response === undefined ? {} : flat(x.response.headers)
    const answer =
      x.response === undefined
        ? undefined
        : {
            status: x.response.status,
            headers: answerHeaders,
            bytes: x.response.body.bytes,
            ...bodyOf(x.response.body, answerHeaders),
          }
    // A token call's answer is the token: known (with its class) before the exchange is redacted, so never written.
    const whose = tokenCallOf(pathnameOf(x.url))
    const success = answer !== undefined && answer.status >= 200 && answer.status < 300
    const issued = success && typeof answer.body === 'string' && answer.body !== '' ? answer.body : undefined
    if (whose !== undefined && issued !== undefined) {
      this.#secrets.add(issued, `${whose} token`)
      this.#classes.set(issued, whose)
    }
    const exchange: Exchange = {
      request,
      ...(answer !== undefined
        ? { response: { status: answer.status, headers: answer.headers, body: answer.body ?? '' } }
        : {}),
      ...(x.error !== undefined ? { error: x.error } : {}),
      durationMs: x.durationMs,
    }
    const entry = harEntry(this.#secrets.redact(exchange), {
      runId: this.#runId,
      caller: caller ?? 'none',
      startedAt: x.startedAt,
      ...(answer !== undefined ? { json: answer.json, size: answer.bytes } : {}),
      ...(request.body !== undefined ? { requestJson: request.json } : {}),
    })
    // A caller the capture did not show is left untagged: `judge --passive` reads it as unknown, never as a class.
    const { _caller, ...untagged } = entry
    return JSON.parse(this.#secrets.redactText(JSON.stringify(caller !== undefined ? entry : untagged))) as object
  }

  /**
   * The class of a request's token: issued in the capture, or named by a hint (then redacted by that label); else
   * unknown.
   */
  #callerOf(authorization: string | undefined, cookie: boolean): CallerClass | undefined {
    // A session cookie may sign a customer in: without a token, the caller is then unknown, not none.
    if (authorization === undefined) return cookie ? undefined : 'none'
    const token = /^Bearer\s+(\S+)$/i.exec(authorization.trim())?.[1]
    if (token === undefined) return undefined
    const known = this.#classes.get(token) ?? this.#hints.find((h) => token.startsWith(h.prefix))?.caller
    this.#secrets.add(token, known !== undefined ? `${known} token` : 'token')
    if (known !== undefined) this.#classes.set(token, known)
    return known
  }
}

/** Headers as one value each (a repeated header joined, as HAR's list would show it once per value). */
function flat(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value
  return out
}

/** A body as the client records one: JSON parsed where it is JSON, else its text; cut where it was longer than kept. */
function bodyOf(kept: Kept, headers: Readonly<Record<string, string>>): { body?: unknown; json: boolean } {
  if (kept.bytes === 0) return { json: false }
  const raw = Buffer.concat(kept.chunks)
  const whole = kept.bytes === kept.kept
  const text = (whole ? decoded(raw, headers['content-encoding']) : raw).toString('utf8')
  if (!whole) return { body: `${text}… [${kept.bytes - kept.kept} more characters not recorded]`, json: false }
  try {
    return { body: JSON.parse(text) as unknown, json: true }
  } catch {
    return { body: text, json: false }
  }
}

function decoded(raw: Buffer, encoding: string | undefined): Buffer {
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(raw)
    if (encoding === 'br') return brotliDecompressSync(raw)
    if (encoding === 'deflate') return inflateSync(raw)
  } catch {
    // Not what it says it is: kept as it came.
  }
  return raw
}

/**
 * The HAR file, written as the exchanges finish: its head, each entry as it comes, its end when the proxy stops. A
 * proxy killed before its end leaves the entries it wrote, which `judge --passive` reads.
 */
class HarWriter {
  #fd: number | undefined
  count = 0

  constructor(file: string, target: string) {
    try {
      this.#fd = openSync(file, 'w')
    } catch (err) {
      throw new UsageError(
        `proxy: --har ${file}: cannot write it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      )
    }
    const head = {
      version: '1.2',
      creator: { name: SUITE.name, version: SUITE.version },
      comment:
        `Traffic to ${target} through ${SUITE.name} proxy, redacted: no token, password or secret; ` +
        'each caller by its class where the capture showed it (_caller).',
      _proxy: { target: { baseUrl: target.replace(/\/+$/, '') } },
      pages: [],
    }
    writeSync(this.#fd, `{"log":${JSON.stringify(head).slice(0, -1)},"entries":[\n`)
  }

  write(entry: object): void {
    if (this.#fd === undefined) return
    writeSync(this.#fd, `${this.count === 0 ? '' : ',\n'}${JSON.stringify(entry)}`)
    this.count++
  }

  end(): void {
    if (this.#fd === undefined) return
    writeSync(this.#fd, '\n]}}\n')
    closeSync(this.#fd)
    this.#fd = undefined
  }
}
