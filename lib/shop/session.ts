import type { CallerLabel } from './request-channel.ts'
import { TargetClient, type Transport } from './client.ts'
import type { Outcome, RequestSpec } from './request.ts'
import type { Lane } from './bound.ts'
import type { RateShare } from './pace.ts'
import type { Credentials, PurchaseSettings, PathAlias } from '../settings/config.ts'
import { matchesAny } from './fingerprint.ts'
import { applyAliases } from './aliases.ts'
import type { Calibration } from './calibration.ts'
import { Secrets } from './secrets.ts'
import { CONFIGURED_CUSTOMER } from './tokens.ts'
import { cartBefore, changedNothing, DEADLOCK_PAUSE_MS, isDeadlock, repeatAfterDeadlock } from './deadlock.ts'
import { describeOutcome } from './answer-text.ts'
import type { Answer } from './request.ts'
import type { ProbeCaller } from './probe.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import type { Slowest } from '../results/deadlines.ts'
import { defined } from '../base/defined.ts'

/**
 * Everything a check needs to talk to the target, learned once before any check runs. Plain data: the
 * runner hands it to the vitest workers (in memory only — it holds tokens).
 */
export interface SessionSeed {
  runId: string
  baseUrl: string
  storeCode: string
  secondStoreCode: string
  /** `--timeout-ms`: every call's deadline is at least this. */
  timeoutMs: number
  /** `--max-timeout-ms`: a kind of call's deadline grows with the shop's slowest answers up to this (deadlines.ts). */
  maxTimeoutMs?: number
  /** The slowest answer of each kind of call the preflight saw: the checks' deadlines start from it. */
  slowestMs?: Slowest
  concurrency: number
  /**
   * `--max-rps`: at most this many requests start per second — the run's one share, which its main thread's clients
   * take too.
   */
  rate?: RateShare
  /** `fixed`: `concurrency` requests in flight whenever there are, heavy writes like any other (`--pace fixed`). */
  pace?: 'adaptive' | 'fixed'
  /** TLS certificates not verified (the user asked). */
  insecure: boolean
  pathAliases: PathAlias[]
  tokens: {
    admin: string
    /** Absent in read-only mode without configured customer credentials (no customer is registered then). */
    customer?: string
    /** A customer of its own for calls that revoke the caller's tokens; absent when none could be made. */
    disposableCustomer?: string
    /**
     * Where the main customer is the user's (`customerIsTheUsers`): a customer of the run's own that a customer's
     * writes are sent as.
     */
    ownCustomer?: string
    /** The limited admin's (SHOP_LIMITED_ADMIN_USERNAME); absent when none is configured. */
    limitedAdmin?: string
  }
  /** Who the limited admin is and the detail table's resources its role has; absent when none is configured. */
  limitedAdmin?: { username: string; resources: string[] }
  /** A Bearer value no target can have issued. */
  malformedToken: string
  calibration: Calibration
  secrets: [value: string, label: string][]
  /** The run's seed (--seed / SHOP_SEED), from which the data builders draw every generated value. */
  builderSeed: number
  purchase: PurchaseSettings
  /** Where every entity the run creates is recorded as it is created. */
  ledgerFile?: string
  /** Where the worker writes its part of the run's evidence (lib/shop/evidence.ts); absent with `--no-evidence`. */
  evidenceFile?: string
  /** The main customer, for checks that need its identity (never its password); absent with no customer. */
  customer?: { email: string; id?: number | string }
  /** Only token calls and GET requests may leave the machine. */
  readOnly: boolean
  /** The main customer is one the user configured (SHOP_CUSTOMER_EMAIL): its token never sends a write. */
  customerIsTheUsers?: boolean
  /** To renew a token that expires mid-run (in memory only, like the tokens); none for a token given. */
  credentials: { admin?: Credentials; customer?: Credentials }
  /** The callers whose token the user gave (`SHOP_ADMIN_TOKEN`, …), with the variable: never renewed, and said so. */
  givenTokens?: { admin?: string; customer?: string; limitedAdmin?: string }
  /** A GET each token is accepted on (preflight proved it), to tell an expired token from a refusal. */
  tokenCheckPaths: { admin: string; customer?: string }
}

/** Failures a read is asked again after: not a target that is gone or a run that is stopping. */
const REPEATABLE: ReadonlySet<string> = new Set(['timeout', 'connection', 'protocol'])

/** The pace's notes a report keeps: the first few say what it did; more would say the same. */
const MAX_PACE_NOTES = 4

/**
 * Token lifetimes are an hour on the platform; a run that outlives more than a few is misconfigured, not renewed
 * forever.
 */
const MAX_RENEWALS = 10

/** A write was about to leave the machine in read-only mode: a bug of the suite, never sent. */
export class ReadOnlyViolation extends Error {}

/** The calls read-only mode still allows besides GET: getting tokens. */
export function allowedInReadOnly(method: string, path: string): boolean {
  return method === 'GET' || (method === 'POST' && /^\/V1\/integration\/(admin|customer)\/token$/.test(path))
}

/**
 * A check's handle on the target, one per worker: one client, one memo of probes shared by all checks. Work
 * started before its turn gets a view of it in that work's lane (`inLane`): the same client, memo and tokens.
 */
export class Session {
  readonly seed: SessionSeed
  readonly client: TargetClient
  readonly secrets: Secrets
  readonly #memo: Map<string, Promise<unknown>>
  readonly #lane: Lane | undefined
  readonly #base: Session | undefined

  /** `transport`: what sends its requests, when not an Agent of its client's own (a recording's: replay.ts). */
  constructor(seed: SessionSeed, view?: { of: Session; lane: Lane }, transport?: Transport) {
    if (view !== undefined) {
      const { of } = view
      ;[this.seed, this.client, this.secrets, this.#memo, this.#lane, this.#base] = [
        of.seed,
        of.client,
        of.secrets,
        of.#memo,
        view.lane,
        of.base,
      ]
      ;[this.#tokenKinds, this.#aliveChecks, this.#renewals, this.#notes, this.#own, this.#ownRenewals] = [
        of.#tokenKinds,
        of.#aliveChecks,
        of.#renewals,
        of.#notes,
        of.#own,
        of.#ownRenewals,
      ]
      return
    }
    // The session renews tokens in its own copy: a seed may be shared.
    this.seed = { ...seed, tokens: { ...seed.tokens } }
    this.secrets = new Secrets()
    this.#memo = new Map()
    this.#lane = undefined
    this.#base = undefined
    this.#tokenKinds = new Map()
    this.#aliveChecks = new Map()
    this.#renewals = new Map()
    this.#notes = []
    this.#own = new Map()
    this.#ownRenewals = new Map()
    for (const [value, label] of seed.secrets) this.secrets.add(value, label)
    this.client = new TargetClient({
      baseUrl: seed.baseUrl,
      timeoutMs: seed.timeoutMs,
      ...(seed.maxTimeoutMs !== undefined ? { maxTimeoutMs: seed.maxTimeoutMs } : {}),
      ...(seed.slowestMs !== undefined ? { slowestMs: seed.slowestMs } : {}),
      concurrency: seed.concurrency,
      secrets: this.secrets,
      insecure: seed.insecure,
      callerOf: (token) => this.#callerOf(token),
      ...(seed.rate !== undefined ? { rate: seed.rate } : {}),
      adaptive: seed.pace !== 'fixed',
      onPace: (note) => this.#notePace(note),
      ...(transport !== undefined ? { transport } : {}),
    })
    this.#registerTokens()
  }

  /** This session for work started before its turn: its requests yield to current work's (lib/shop/bound.ts). */
  inLane(lane: Lane): Session {
    return new Session(this.seed, { of: this, lane })
  }

  /** The session every lane's view shares: what is kept per session (a provisioner's pace) is kept per this one. */
  get base(): Session {
    return this.#base ?? this
  }

  /** Which of the session's own callers a token is (published with each request, request-channel.ts). */
  #callerOf(token: string | undefined): CallerLabel | undefined {
    const { tokens, malformedToken } = this.seed
    if (token === undefined) return 'none'
    if (token === tokens.admin) return 'admin'
    if (token === tokens.customer) return 'customer'
    if (token === tokens.disposableCustomer) return 'disposable'
    if (token === tokens.ownCustomer) return 'own customer'
    return token === malformedToken ? 'malformed' : undefined
  }

  /**
   * The token a caller sends. `disposable`: a customer whose tokens the call may revoke; `write`: the call writes,
   * so never the token of a customer the user configured (that account is theirs) — a customer of the run's own.
   */
  tokenFor(caller: ProbeCaller, options: { disposable?: boolean; write?: boolean } = {}): string | undefined {
    return seedToken(this.seed, caller, options)
  }

  /** The path the target serves for a spec path, after the configured aliases. */
  targetPath(specPath: string): string {
    return applyAliases(specPath, this.seed.pathAliases)
  }

  /** Every request of every check goes through here; read-only mode is enforced at this one door. */
  async send(spec: RequestSpec): Promise<Outcome> {
    if (this.seed.readOnly && !allowedInReadOnly(spec.method, spec.path)) {
      throw new ReadOnlyViolation(`read-only mode: ${endpointText(spec)} was about to be sent`)
    }
    // A set-up call repeats itself (retry.ts); a judged one is sent again after a deadlock, in its cart's turn
    // (deadlock.ts).
    let outcome =
      spec.ownRepeats === true
        ? await this.client.send(spec, this.#lane)
        : await this.client.send(spec, this.#lane, (send) => this.#throughDeadlock(spec, send))
    // A read is safe to repeat: one that got no answer (a timeout, a reset) is asked once more before anything is
    // judged on it — a slow or briefly unreachable shop is not a failing one.
    if (
      spec.ownRepeats !== true &&
      spec.method === 'GET' &&
      outcome.answer === undefined &&
      outcome.failure !== undefined &&
      REPEATABLE.has(outcome.failure.kind)
    ) {
      const first = outcome.failure.message
      const again = await this.client.send(spec, this.#lane)
      outcome = { ...again, exchange: { ...again.exchange, note: `asked again after no answer (${first})` } }
    }
    const token = spec.token
    const kind = token === undefined ? undefined : this.#tokenKinds.get(token)
    if (outcome.answer?.status !== 401 || token === undefined || kind === undefined || spec.refusalExpected === true)
      return outcome
    // A 401 with one of the run's own tokens: a refusal, or the token expired mid-run? Renew at most once.
    const current = await this.#liveToken(kind, token)
    return current === token ? outcome : this.client.send({ ...spec, token: current }, this.#lane)
  }

  /**
   * A judged call, sent while its cart's turn is held (no other write of the run to that cart comes in between): a
   * deadlock answer is waited out and the call sent once more — at once where that changes nothing more, else only
   * once the cart shows the first attempt changed nothing (deadlock.ts). A second deadlock, or one after which the
   * call may not be sent again, is no answer to judge (`deadlock`).
   */
  async #throughDeadlock(spec: RequestSpec, send: () => Promise<Outcome>): Promise<Outcome> {
    const repeat = repeatAfterDeadlock(spec)
    const read = (path: string) =>
      this.client.send(
        { method: 'GET', path, store: spec.store, ...(spec.token !== undefined ? { token: spec.token } : {}) },
        this.#lane,
      )
    // An item added can be checked only against the cart as it was: read first (only where such a call is sent).
    const before = repeat === 'checked' ? await cartBefore(spec, read) : undefined
    const first = await send()
    if (first.answer === undefined || !isDeadlock(first.answer)) return first
    const said = describeOutcome(first)
    const noAnswer = (message: string, exchange: Outcome['exchange']): Outcome => ({
      failure: { kind: 'deadlock', message },
      exchange,
    })
    if (repeat === 'never')
      return noAnswer(
        `the shop answered a database deadlock (${said}), and the run cannot tell what a write like this one made: not sent again`,
        first.exchange,
      )
    await new Promise((r) => setTimeout(r, DEADLOCK_PAUSE_MS))
    if (repeat === 'checked' && !(await changedNothing(spec, before, read))) {
      return noAnswer(
        `the shop answered a database deadlock (${said}), and its cart does not show that the attempt changed nothing: not sent again`,
        first.exchange,
      )
    }
    const again = await send()
    const note = `sent again after a deadlock (${said})${repeat === 'checked' ? ', once the cart showed the attempt changed nothing' : ''}`
    if (again.answer !== undefined && isDeadlock(again.answer)) {
      return noAnswer(
        `the shop answered a database deadlock twice (${describeOutcome(again)}): its transaction was rolled back`,
        { ...again.exchange, note },
      )
    }
    return { ...again, exchange: { ...again.exchange, note } }
  }

  readonly #tokenKinds: Map<string, 'admin' | 'customer'>
  readonly #aliveChecks: Map<string, Promise<boolean>>
  /** Renewals by the token they replace: each expired token is renewed once, and a run renews a few at most. */
  readonly #renewals: Map<string, Promise<string>>

  /** The run's own token of a kind: a customer's is registered (#registerTokens) only when the run has one. */
  #runToken(kind: 'admin' | 'customer'): string {
    if (kind === 'admin') return this.seed.tokens.admin
    return defined(this.seed.tokens.customer, "the run's customer token, whose kind a token was registered with")
  }

  #registerTokens(): void {
    this.#tokenKinds.set(this.seed.tokens.admin, 'admin')
    if (this.seed.tokens.customer !== undefined) this.#tokenKinds.set(this.seed.tokens.customer, 'customer')
  }

  /** The token to use now: the same one if it still works where preflight saw it work, else a renewed one. */
  async #liveToken(kind: 'admin' | 'customer', token: string): Promise<string> {
    const current = this.#runToken(kind)
    if (token !== current) return current
    // Asked afresh for each such 401 (they are rare: a token refused where it should work), one at a time per
    // token: a token alive at an earlier check may have expired since.
    let checking = this.#aliveChecks.get(token)
    if (checking === undefined) {
      const path = kind === 'admin' ? this.seed.tokenCheckPaths.admin : this.seed.tokenCheckPaths.customer
      checking =
        path === undefined
          ? Promise.resolve(true)
          : this.client
              .send({ method: 'GET', path, store: this.seed.storeCode, token })
              .then((c) => c.answer?.status !== 401)
      this.#aliveChecks.set(token, checking)
      void checking.finally(() => this.#aliveChecks.delete(token))
    }
    const alive = await checking
    if (alive) return token
    let renewal = this.#renewals.get(token)
    if (renewal === undefined) {
      if (this.#renewals.size >= MAX_RENEWALS) return token
      renewal = this.#renew(kind)
      this.#renewals.set(token, renewal)
    }
    return renewal
  }

  async #renew(kind: 'admin' | 'customer'): Promise<string> {
    const credentials = kind === 'admin' ? this.seed.credentials.admin : this.seed.credentials.customer
    const current = this.#runToken(kind)
    const given = this.seed.givenTokens?.[kind]
    if (given !== undefined) {
      this.#notes.push(
        `the ${kind} token given (${given}) was refused during the run (it expired or was revoked): a token given cannot be renewed, so the requests sent with it from then on were refused — give a fresh one`,
      )
    }
    if (credentials === undefined) return current
    const outcome = await this.client.send({
      method: 'POST',
      path: `/V1/integration/${kind}/token`,
      store: this.seed.storeCode,
      body: { username: credentials.username, password: credentials.password },
    })
    if (outcome.answer?.status !== 200 || typeof outcome.answer.body !== 'string') return current
    const fresh = outcome.answer.body
    this.secrets.add(
      fresh,
      kind === 'customer' && this.seed.customerIsTheUsers ? `${CONFIGURED_CUSTOMER} token` : `${kind} token`,
    )
    this.#tokenKinds.set(fresh, kind)
    if (kind === 'admin') this.seed.tokens.admin = fresh
    else this.seed.tokens.customer = fresh
    this.#notes.push(`the ${kind} token expired during the run and was renewed`)
    return fresh
  }

  readonly #notes: string[]
  #paceNotes = 0
  /** Tokens of customers of the run's own (set-up), with their credentials: renewed like the run's own tokens. */
  readonly #own: Map<string, Credentials>
  /**
   * Apart from the run's own tokens' renewals, whose number is bounded (MAX_RENEWALS): each customer of the run's own
   * is one.
   */
  readonly #ownRenewals: Map<string, Promise<string>>

  /** A customer of the run's own and its token, to be renewed where it expires (liveOwnToken). */
  registerOwnCustomer(token: string, credentials: Credentials): void {
    this.#own.set(token, credentials)
  }

  /**
   * The token to use for a customer of the run's own after a 401: the same one if it still works, else a new one (once
   * per expiry). Asked only where a refusal of that customer is no answer to judge (an access probe's witness): the
   * checks that judge a customer token's refusal (a revoke) must see the 401 itself.
   */
  liveOwnToken(token: string): Promise<string> {
    const credentials = this.#own.get(token)
    return credentials === undefined ? Promise.resolve(token) : this.#liveOwn(token, credentials)
  }

  #liveOwn(token: string, credentials: Credentials): Promise<string> {
    let renewal = this.#ownRenewals.get(token)
    if (renewal === undefined) {
      renewal = (async () => {
        const alive = await this.client.send({
          method: 'GET',
          path: '/V1/customers/me',
          store: this.seed.storeCode,
          token,
        })
        if (alive.answer?.status !== 401) return token
        const outcome = await this.client.send({
          method: 'POST',
          path: '/V1/integration/customer/token',
          store: this.seed.storeCode,
          body: { username: credentials.username, password: credentials.password },
        })
        if (outcome.answer?.status !== 200 || typeof outcome.answer.body !== 'string') return token
        const fresh = outcome.answer.body
        this.secrets.add(fresh, 'customer token')
        this.#own.set(fresh, credentials)
        this.#notes.push("a token of a customer of the run's own expired during the run and was renewed")
        return fresh
      })()
      this.#ownRenewals.set(token, renewal)
      // Asked again after an answer that kept the token: it may expire later.
      void renewal.then((t) => t === token && this.#ownRenewals.delete(token))
    }
    return renewal
  }

  /**
   * What the shop's pace did (pace.ts), each told once and a few at most: a long run on a changing shop tells the
   * first.
   */
  #notePace(note: string): void {
    const text = `${note} (a slow shop is given time, not failed)`
    if (this.#paceNotes >= MAX_PACE_NOTES || this.#notes.includes(text)) return
    this.#paceNotes++
    this.#notes.push(text)
  }

  /** What the session did that a reader of the report should know (a renewed token), each told once. */
  takeNotes(): string[] {
    return this.#notes.splice(0)
  }

  /** Runs `make` once per key for the life of the session; checks that need the same probe share it. */
  memo<T>(key: string, make: () => Promise<T>): Promise<T> {
    let p = this.#memo.get(key) as Promise<T> | undefined
    if (p === undefined) {
      p = make()
      this.#memo.set(key, p)
    }
    return p
  }

  looksLikeNoRoute(answer: Answer, path: string): boolean {
    return matchesAny(answer, path, this.seed.calibration.noRoute)
  }

  looksLikeUnknownStore(answer: Answer, path: string): boolean {
    return matchesAny(answer, path, this.seed.calibration.unknownStore)
  }

  async close(): Promise<void> {
    await this.client.close()
  }
}

/**
 * The token a caller of the run sends (Session.tokenFor): known from the run's seed alone, so the main process knows it
 * too.
 */
export function seedToken(
  seed: Pick<SessionSeed, 'tokens' | 'malformedToken' | 'customerIsTheUsers'>,
  caller: ProbeCaller,
  options: { disposable?: boolean; write?: boolean } = {},
): string | undefined {
  switch (caller) {
    case 'limited admin':
      return seed.tokens.limitedAdmin
    case 'none':
      return undefined
    case 'malformed':
      return seed.malformedToken
    case 'admin':
      return seed.tokens.admin
    case 'customer':
      if (options.disposable === true) return seed.tokens.disposableCustomer
      return options.write === true && seed.customerIsTheUsers === true ? seed.tokens.ownCustomer : seed.tokens.customer
  }
}
