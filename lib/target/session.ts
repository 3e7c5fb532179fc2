import { TargetClient, type Outcome, type RequestSpec } from './client.ts'
import type { FixtureSettings, PathAlias } from './config.ts'
import { matchesAny } from './fingerprint.ts'
import type { Calibration } from './calibration.ts'
import { Secrets } from './secrets.ts'
import type { Answer } from './client.ts'

/** The four callers of the spec's access rules. */
export type Caller = 'none' | 'malformed' | 'customer' | 'admin'

/**
 * Everything a check needs to talk to the target, learned once before any check runs. Plain data: the
 * runner hands it to the vitest workers (in memory only — it holds tokens).
 */
export interface SessionSeed {
  runId: string
  baseUrl: string
  storeCode: string
  secondStoreCode: string
  timeoutMs: number
  concurrency: number
  pathAliases: PathAlias[]
  tokens: {
    admin: string
    /** Absent in read-only mode without configured customer credentials (no customer is registered then). */
    customer?: string
    /** A customer of its own for calls that revoke the caller's tokens; absent when none could be made. */
    disposableCustomer?: string
  }
  /** A Bearer value no target can have issued. */
  malformedToken: string
  calibration: Calibration
  secrets: [value: string, label: string][]
  /** Seed of the fixture builders. */
  seed: number
  fixtures: FixtureSettings
  /** Where every entity the run creates is recorded as it is created. */
  ledgerFile?: string
  /** The main customer, for checks that need its identity (never its password); absent with no customer. */
  customer?: { email: string; id?: number | string }
  /** Only token calls and GET requests may leave the machine. */
  readOnly: boolean
}

/** A write was about to leave the machine in read-only mode: a bug of the suite, never sent. */
export class ReadOnlyViolation extends Error {}

/** The calls read-only mode still allows besides GET: getting tokens. */
export function allowedInReadOnly(method: string, path: string): boolean {
  return method === 'GET' || (method === 'POST' && /^\/V1\/integration\/(admin|customer)\/token$/.test(path))
}

/** A check's handle on the target, one per worker: one client, one memo of probes shared by all checks. */
export class Session {
  readonly seed: SessionSeed
  readonly client: TargetClient
  readonly secrets = new Secrets()
  readonly #memo = new Map<string, Promise<unknown>>()

  constructor(seed: SessionSeed) {
    this.seed = seed
    for (const [value, label] of seed.secrets) this.secrets.add(value, label)
    this.client = new TargetClient({ baseUrl: seed.baseUrl, timeoutMs: seed.timeoutMs, concurrency: seed.concurrency, secrets: this.secrets })
  }

  tokenFor(caller: Caller, options: { disposable?: boolean } = {}): string | undefined {
    switch (caller) {
      case 'none':
        return undefined
      case 'malformed':
        return this.seed.malformedToken
      case 'admin':
        return this.seed.tokens.admin
      case 'customer':
        return options.disposable === true ? this.seed.tokens.disposableCustomer : this.seed.tokens.customer
    }
  }

  /** The path the target serves for a spec path, after the configured aliases. */
  targetPath(specPath: string): string {
    for (const { from, to } of this.seed.pathAliases) {
      if (specPath === from || specPath.startsWith(`${from}/`)) return to + specPath.slice(from.length)
    }
    return specPath
  }

  /** Every request of every check goes through here; read-only mode is enforced at this one door. */
  send(spec: RequestSpec): Promise<Outcome> {
    if (this.seed.readOnly && !allowedInReadOnly(spec.method, spec.path)) {
      return Promise.reject(new ReadOnlyViolation(`read-only mode: ${spec.method} ${spec.path} was about to be sent`))
    }
    return this.client.send(spec)
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
