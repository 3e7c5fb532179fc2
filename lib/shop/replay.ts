/**
 * A recorded run answering again: a transport (client.ts `Transport`) that answers each request a session sends with
 * the answer its run's evidence.har recorded for the same request, so that a workflow's own step code — its set-up, its
 * calls, its judgement — runs again as it ran, sending nothing (`judge --har`, lib/run/replay-workflows.ts).
 *
 * A request is the recorded one when its method, URL, token and set-up step are (the token by its name in the
 * evidence, `_token`: the session's own by role, a token a recorded token call issued by that call's `_issued`; the
 * step by its name, `_step`, which names what it makes: `create guest cart guest checkout`) and its body is, a value
 * the recording redacted standing for any. Each recorded exchange answers once, the first not yet used in the order
 * sent; one that another workflow's step holds is never this one's. A request the recording holds no answer to — a
 * step that sends otherwise than it did, a body recorded only in part — is a miss (`misses`): the step that sent it
 * is not judged, never judged on an answer made up.
 */
import { Readable } from 'node:stream'
import { CUT_SHORT } from '../results/exchange.ts'
import type { HarEntry } from '../results/har.ts'
import type { PathAlias } from '../settings/config.ts'
import type { Transport } from './client.ts'
import type { Fingerprint } from './fingerprint.ts'
import type { SessionSeed } from './session.ts'
import { defined } from '../base/defined.ts'

/**
 * What of a run's session its evidence keeps (`_run.session`) for its workflows to run again on the recording: no
 * secret.
 */
export interface RecordedSession {
  /** The roles of the tokens the session began with (seedTokenName: `admin`, `customer`, …), never their values. */
  tokens: string[]
  builderSeed: number
  purchase: SessionSeed['purchase']
  /** The target's no-route and unknown-store answers as the run learned them (a step reads an answer against them). */
  calibration: { noRoute: Fingerprint[]; unknownStore: Fingerprint[] }
  tokenCheckPaths: SessionSeed['tokenCheckPaths']
  customerIsTheUsers: boolean
}

export function recordedSession(seed: SessionSeed): RecordedSession {
  return {
    tokens: Object.entries(seed.tokens).flatMap(([role, value]) => (value !== undefined ? [role] : [])),
    builderSeed: seed.builderSeed,
    purchase: seed.purchase,
    calibration: { noRoute: seed.calibration.noRoute, unknownStore: seed.calibration.unknownStore },
    tokenCheckPaths: seed.tokenCheckPaths,
    customerIsTheUsers: seed.customerIsTheUsers === true,
  }
}

/** What a token stands in for on the recording: `replay:<its name in the evidence>`. */
const STAND_IN = 'replay:'

/** How the reports call each of the session's own tokens (the labels the run redacted them with). */
const TOKEN_LABELS: Readonly<Record<string, string>> = {
  admin: 'admin token',
  customer: 'customer token',
  disposableCustomer: 'customer token',
  ownCustomer: 'customer token',
  limitedAdmin: 'limited admin token',
}

interface RecordedRunOfSession {
  id: string
  target: { baseUrl: string; storeCode: string; secondStoreCode: string }
  readOnly: boolean
  pathAliases: PathAlias[]
  concurrency?: number
  timeoutMs?: number
}

/**
 * The seed of a session that sends a recorded run's requests again to its recording: each token a stand-in known by its
 * name.
 */
export function replaySeed(run: RecordedRunOfSession, session: RecordedSession): SessionSeed {
  const tokens = Object.fromEntries(
    session.tokens.map((role) => [role, `${STAND_IN}${role}`]),
  ) as unknown as SessionSeed['tokens']
  return {
    runId: run.id,
    baseUrl: run.target.baseUrl,
    storeCode: run.target.storeCode,
    secondStoreCode: run.target.secondStoreCode,
    timeoutMs: run.timeoutMs ?? 30_000,
    concurrency: Math.max(1, run.concurrency ?? 1),
    insecure: false,
    pathAliases: run.pathAliases,
    tokens,
    malformedToken: `${STAND_IN}malformed`,
    calibration: { ...session.calibration, exchanges: [] },
    // Redacted in what the judging shows, as the run's were.
    secrets: session.tokens.map((role) => [`${STAND_IN}${role}`, TOKEN_LABELS[role] ?? `${role} token`]),
    builderSeed: session.builderSeed,
    purchase: session.purchase,
    readOnly: run.readOnly,
    customerIsTheUsers: session.customerIsTheUsers,
    credentials: {},
    tokenCheckPaths: session.tokenCheckPaths,
  }
}

type Request = Parameters<Transport['request']>[0]
type Response = Awaited<ReturnType<Transport['request']>>

export class ReplayTransport implements Transport {
  readonly #entries: readonly HarEntry[]
  /** Each request's recorded exchanges by `METHOD url`, in the order sent. */
  readonly #byCall = new Map<string, number[]>()
  readonly #used = new Set<number>()
  #workflow: string | undefined
  /** What was asked that the recording holds no answer to, in the order asked: `METHOD path as <token>`. */
  readonly misses: string[] = []

  constructor(entries: readonly HarEntry[]) {
    this.#entries = entries
    entries.forEach((e, i) => {
      const key = `${e.request.method} ${e.request.url}`
      this.#byCall.set(key, [...(this.#byCall.get(key) ?? []), i])
    })
  }

  /** The workflow whose requests come next: the exchanges another workflow's steps hold are not its. */
  forWorkflow(name: string): void {
    this.#workflow = name
  }

  request(options: Request, about: { step?: string }): Promise<Response> {
    const url = `${options.origin}${options.path}`
    const token = tokenName(options.headers.authorization)
    const sent: unknown = options.body === undefined ? undefined : JSON.parse(options.body)
    const found = this.#find(`${options.method} ${url}`, { token, step: about.step, sent })
    const asked = `${options.method} ${new URL(url).pathname}${token !== undefined ? ` as ${token}` : ''}`
    if (found === undefined) {
      this.misses.push(asked)
      return Promise.resolve(
        answer(404, { 'content-type': 'application/json' }, JSON.stringify({ message: 'not in the recording' })),
      )
    }
    this.#used.add(found)
    const e = this.#entry(found)
    if (e.response.status === 0) return Promise.reject(failureOf(e._error ?? 'no answer'))
    const text = e._issued !== undefined ? JSON.stringify(`${STAND_IN}${e._issued}`) : (e.response.content.text ?? '')
    // A body the run kept only the start of is not the answer the step read.
    if (CUT_SHORT.test(text)) this.misses.push(`${asked} (its answer recorded only in part)`)
    const headers = Object.fromEntries(e.response.headers.map((h) => [h.name.toLowerCase(), h.value]))
    // A 429 the run gave up on is recorded once, its waits and repeats inside it (client.ts): answered without its
    // Retry-After, the client gives up on it at once, as it did, rather than waiting and asking for repeats not
    // recorded.
    if (e.response.status === 429 && e._error !== undefined) delete headers['retry-after']
    return Promise.resolve(answer(e.response.status, headers, text))
  }

  close(): Promise<void> {
    return Promise.resolve()
  }

  /**
   * The recorded exchange that answers: the first unused of this workflow's or of no workflow's, else of a check's
   * only.
   */
  #find(
    call: string,
    asked: { token: string | undefined; step: string | undefined; sent: unknown },
  ): number | undefined {
    const fits = (this.#byCall.get(call) ?? []).filter((i) => {
      const e = this.#entry(i)
      return (
        !this.#used.has(i) &&
        e._token === asked.token &&
        e._step === asked.step &&
        sameBody(e.request.postData?.text, asked.sent) &&
        !this.#otherWorkflows(e)
      )
    })
    return fits.find((i) => (this.#entry(i)._checks ?? []).every((c) => this.#ours(c))) ?? fits[0]
  }

  /** An entry by an index of the recording's own (#byCall holds only indexes inside it). */
  #entry(i: number): HarEntry {
    return defined(this.#entries[i], 'a recorded entry by its index')
  }

  #ours(check: string): boolean {
    return check.startsWith(`workflow ${this.#workflow} › `)
  }

  #otherWorkflows(e: HarEntry): boolean {
    return (e._checks ?? []).some((c) => c.startsWith('workflow ') && !this.#ours(c))
  }
}

/** The name of the token an Authorization header sends (`Bearer replay:<name>`); undefined without one. */
function tokenName(authorization: string | undefined): string | undefined {
  const value = authorization?.replace(/^Bearer /, '')
  return value?.startsWith(STAND_IN) === true ? value.slice(STAND_IN.length) : value
}

/** A value the redaction replaced whole: stands for whatever was sent. */
const REDACTED = /^\[redacted[^\]]*\]$/

/** Whether a body sent is the one recorded (its text), a value redacted in the recording standing for any string. */
function sameBody(recorded: string | undefined, sent: unknown): boolean {
  if (recorded === undefined || sent === undefined) return recorded === sent
  let value: unknown
  try {
    value = JSON.parse(recorded)
  } catch {
    return recorded === JSON.stringify(sent)
  }
  return sameValue(value, sent)
}

function sameValue(recorded: unknown, sent: unknown): boolean {
  if (typeof recorded === 'string' && REDACTED.test(recorded)) return typeof sent === 'string'
  if (Array.isArray(recorded))
    return Array.isArray(sent) && recorded.length === sent.length && recorded.every((v, i) => sameValue(v, sent[i]))
  if (recorded !== null && typeof recorded === 'object') {
    if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) return false
    const a = Object.entries(recorded)
    const b = sent as Record<string, unknown>
    return a.length === Object.keys(b).length && a.every(([k, v]) => Object.hasOwn(b, k) && sameValue(v, b[k]))
  }
  return recorded === sent
}

function answer(statusCode: number, headers: Record<string, string>, text: string): Response {
  return { statusCode, headers, body: Readable.from([Buffer.from(text)]) }
}

/**
 * The error the client read the recorded failure from (client.ts describeFailure): a timeout, a connection's, another.
 */
function failureOf(error: string): Error {
  if (/no complete answer|timeout/i.test(error)) return new DOMException(error, 'TimeoutError')
  const code = /connection failed: (\w+)/.exec(error)?.[1]
  return Object.assign(new Error(error), { code: code ?? 'RECORDED_FAILURE' })
}
