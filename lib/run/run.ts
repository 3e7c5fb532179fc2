import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { ReferenceTarget } from '../../reference-target/index.ts'
import { Ledger, ledgerEntities, type LedgerEntry } from '../setup/ledger.ts'
import { customerRegistrar } from '../setup/registrar.ts'
import { SUITE } from '../spec/version.ts'
import { TargetClient } from '../shop/client.ts'
import { isGivenToken, type LimitedAdmin, type RunConfig, type SignIn } from '../settings/config.ts'
import { preflight, PreflightError, type PreflightResult } from '../shop/preflight.ts'
import { CONFIGURED_CUSTOMER } from '../shop/tokens.ts'
import { Secrets } from '../shop/secrets.ts'
import type { Report } from '../report/model.ts'
import type { Baseline } from '../report/baseline.ts'
import { cleanUp, type CleanupOutcome } from '../setup/cleanup.ts'
import type { Result } from '../results/result.ts'
import { buildPlan, PLAN, suiteWith, type ExtensionFacts, type Plan } from '../plan/plan.ts'
import type { SchemaFacts } from '../schema/block.ts'
import { CHECK_KINDS } from '../checks/index.ts'
import { configFileOf, loadVendorConfig, type VendorParts } from '../extend/load.ts'
import { draftReport, type RunRecord, type RunScope } from './report-draft.ts'
import { readShopSchema } from './shop-schema.ts'
import { stopReserveMs, WRITE_RESERVE_MS, type Stop } from './stopping.ts'
import type { ReportDirLock } from './report-dir-lock.ts'
import { callerClass, seedCaller, ServerErrorLog } from '../shop/server-errors.ts'
import type { ServerErrorCaller } from '../results/server-errors.ts'
import { longestDeadlines, type CallKind, type RunDeadlines } from '../results/deadlines.ts'

/** Every entity of the ledger that may be on the target, each listed as left over with `reason`. */
export function leftWith(lines: readonly LedgerEntry[], reason: string): CleanupOutcome {
  return { removed: [], leftovers: ledgerEntities(lines).filter((e) => e.state !== 'refused').map(({ kind, id, key, label }) => ({ kind, id: id !== '' ? id : (key ?? '?'), label, reason })) }
}

/** What the extensions' suite file needs of the run's start (vitest `provide`): never a token. */
export function extensionFacts(run: Run): ExtensionFacts {
  return {
    operations: run.schema?.operations ?? [],
    probeWrites: run.config.extensionsProbeWrites,
    ...(run.vendor !== undefined ? { configFile: run.vendor.file } : {}),
    ...(run.schema !== undefined ? { schema: run.schema.block.text } : {}),
  }
}

/**
 * One conformance run's facts in the main process: its target (the bundled one when none is configured), the
 * preflight's seed, the ledger of what it creates, the results as they arrive, and the report made of them.
 * Once a request has been sent the report is always written: after failures, at the deadline, on a signal.
 */
export class Run implements RunRecord {
  readonly id = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`
  readonly startedAt = new Date()
  readonly endsAt: number
  readonly ledger: Ledger
  readonly secrets = new Secrets()
  readonly results = new Map<string, Result>()
  readonly runErrors: string[] = []
  readonly notes: string[] = []
  /** The deadlines the run's clients gave and the slowest answers they saw (the preflight's, then the checks'). */
  deadlines: RunDeadlines | undefined
  bundled: ReferenceTarget | undefined
  target: { baseUrl: string; admin: SignIn; limitedAdmin?: LimitedAdmin } | undefined
  pre: PreflightResult | undefined
  /** The admin token, as soon as the preflight has it: what a run stopped during its preflight cleans up with. */
  adminToken: string | undefined
  stopped: Stop | undefined
  /** When it was stopped (epoch ms): a write cut off then may still be made until its deadline (writesInFlight). */
  stoppedAt: number | undefined
  /** Set once the report is on disk: the 'exit' path (interrupted.ts) then has nothing left to do. */
  written = false
  /** The vendor's config (loadVendor), before any request. */
  vendor: VendorParts | undefined
  /** The shop's schema as read at the start (its report block, its extension operations). */
  schema: SchemaFacts | undefined
  /** The spec's suite with what this run adds: the shop's extension operations and the vendor's set. */
  plan: Plan = PLAN
  /** Where the main process's requests are (preflight, the schema, cleanup): what a server error there is listed under. */
  #phase: string | undefined
  /**
   * Every 5xx the run met: the main process's own requests, collected here, and the worker's, joined in as its tests
   * finish (run-reporter.ts) — and a cleanup process's (interrupted.ts).
   */
  readonly serverErrors = new ServerErrorLog({
    callerOf: (token, authorization) => callerClass(token, authorization, (t) => this.#callerOf(t)),
    during: () => this.#phase,
  })

  constructor(
    readonly config: RunConfig,
    readonly baseline: Baseline | undefined,
    /** The report directory, this run's alone until its report is written (report-dir-lock.ts). */
    readonly dirLock?: ReportDirLock,
  ) {
    this.endsAt = this.startedAt.getTime() + config.runTimeoutMs
    mkdirSync(config.reportDir, { recursive: true })
    const ledgerFile = resolve(config.reportDir, 'ledger.jsonl')
    writeFileSync(ledgerFile, '')
    this.ledger = new Ledger(ledgerFile)
  }

  /** When the checks are stopped, so that stopping, cleanup and the reports fit before the printed end. */
  get stopAt(): number {
    return this.endsAt - stopReserveMs(this.config.runTimeoutMs)
  }

  /** By when cleanup must be over, so the reports are written before the printed end. */
  get cleanupBy(): number {
    return this.endsAt - WRITE_RESERVE_MS
  }

  headline(): string {
    const c = this.config
    return (
      `${SUITE.name} ${SUITE.version}: run ${this.id}, seed ${c.seed}${c.seedGiven ? '' : ' (random; repeat with --seed)'}` +
      `${c.readOnly ? ', read-only' : ''}${c.insecure ? ', TLS certificates NOT verified (--insecure)' : ''}; ends by ${new Date(this.endsAt).toISOString()} at the latest (cleanup and reports included)\n`
    )
  }

  /**
   * The vendor's config file, loaded and checked before any request: throws UsageError (one line, exit 2) for a
   * file that cannot be used.
   */
  async loadVendor(): Promise<void> {
    const file = configFileOf(this.config.configFile)
    if (file === undefined) return
    this.vendor = await loadVendorConfig(file, CHECK_KINDS)
    this.plan = buildPlan(suiteWith({ vendor: this.vendor }))
  }

  /** The target up (the bundled one loaded only when needed), then the preflight; refused → a run error, false. */
  async start(): Promise<boolean> {
    const config = this.config
    if (config.baseUrl === undefined) {
      const { startReferenceTarget } = await import('../../reference-target/index.ts')
      this.bundled = await startReferenceTarget({ host: '127.0.0.1', port: 0 })
      // Its limited admin too, so the default run judges the acl check.
      this.target = { baseUrl: this.bundled.url, admin: this.bundled.admin, limitedAdmin: { ...this.bundled.limitedAdmin, resources: [...this.bundled.limitedAdmin.resources] } }
    } else this.target = { baseUrl: config.baseUrl, admin: config.admin! }
    // Every password and token given is a secret before the first request.
    const limitedAdmin = this.target.limitedAdmin ?? config.limitedAdmin
    for (const [signIn, who] of [[this.target.admin, 'admin'], [config.customer, CONFIGURED_CUSTOMER], [limitedAdmin, 'limited admin']] as const) {
      if (signIn === undefined) continue
      if (isGivenToken(signIn)) this.secrets.add(signIn.token, `${who} token given as ${signIn.setting}`)
      else this.secrets.add(signIn.password, `${who} password`)
    }
    this.#phase = 'preflight'
    try {
      const onAdminToken = (token: string) => {
        this.adminToken = token
        this.secrets.add(token, 'admin token')
      }
      this.pre = await preflight({ ...config, ...this.target, limitedAdmin }, this.id, { registrar: customerRegistrar(this.ledger), ledgerFile: this.ledger.file!, onAdminToken })
      for (const [value, label] of this.pre.secrets.entries()) this.secrets.add(value, label)
      this.deadlines = { used: this.pre.deadlinesUsed, slowestMs: this.pre.seed.slowestMs ?? {} }
      if (this.pre.signedIn !== undefined) this.notes.push(this.pre.signedIn)
      await this.#readSchema()
      return true
    } catch (err) {
      if (!(err instanceof PreflightError)) throw err
      this.runErrors.push(err.message)
      return false
    } finally {
      this.#phase = undefined
    }
  }

  /** Which of the run's own callers a token is, as far as the main process knows them. */
  #callerOf(token: string): ServerErrorCaller | undefined {
    if (token === this.adminToken) return 'admin'
    return this.pre !== undefined ? seedCaller(this.pre.seed, token) : undefined
  }

  /** The shop's schema, with the run's tokens: its findings for the report, its extension operations for the plan. */
  async #readSchema(): Promise<void> {
    const { seed, secrets } = this.pre!
    const config = this.config
    const client = this.#client(secrets)
    try {
      const tokens = { admin: seed.tokens.admin, ...(seed.tokens.customer !== undefined ? { customer: seed.tokens.customer } : {}) }
      this.#phase = 'reading the shop\'s schema'
      this.schema = await readShopSchema({ setting: config.targetSchema, baseUrl: this.target!.baseUrl, storeCode: config.storeCode, timeoutMs: config.timeoutMs, pathAliases: config.pathAliases, tokens }, client)
    } finally {
      await client.close()
    }
    this.plan = buildPlan(suiteWith({ operations: this.schema.operations, probeWrites: config.extensionsProbeWrites, ...(this.vendor !== undefined ? { vendor: this.vendor } : {}) }))
  }

  /** What the checks' session told of its deadlines: the report says the longest of each kind, the cleanup starts from them. */
  tellDeadlines(told: RunDeadlines): void {
    const slowestMs = { ...(this.deadlines?.slowestMs ?? {}) }
    for (const [kind, ms] of Object.entries(told.slowestMs) as [CallKind, number][]) slowestMs[kind] = Math.max(ms, slowestMs[kind] ?? 0)
    this.deadlines = { used: this.deadlines === undefined ? told.used : longestDeadlines(this.deadlines.used, told.used), slowestMs }
  }

  /** A client of the run's (the schema read, the cleanup): its deadlines start from what the shop has shown so far. */
  #client(secrets: Secrets): TargetClient {
    const c = this.config
    const slowestMs = this.deadlines?.slowestMs
    return new TargetClient({ baseUrl: this.target!.baseUrl, timeoutMs: c.timeoutMs, maxTimeoutMs: c.maxTimeoutMs, ...(slowestMs !== undefined ? { slowestMs } : {}), concurrency: c.concurrency, secrets, insecure: c.insecure })
  }

  stop(why: Stop): boolean {
    if (this.stopped !== undefined) return false
    this.stopped = why
    this.stoppedAt = Date.now()
    return true
  }

  /**
   * The run's writes that may still be in flight when its cleanup starts (cut off by the stop, or left behind by its
   * process): each was sent by the stop (or by now), and the shop may still make what it asked for until its
   * deadline — the longest a write of the run was given (`--timeout-ms` or more) — counted from then. The cleanup waits for
   * them, but never past half the time it has left.
   */
  writesInFlight(): { endBy: number; waitUntil: number } {
    const now = Date.now()
    // The longest deadline a write was given so far (a heavy one's follows the shop's slowest answers): at least --timeout-ms.
    const used = this.deadlines?.used
    const endBy = (this.stoppedAt ?? now) + Math.max(this.config.timeoutMs, used?.write ?? 0, used?.heavyWrite ?? 0)
    return { endBy, waitUntil: Math.min(endBy, now + Math.max(0, this.cleanupBy - now) / 2) }
  }

  /**
   * Removes what the run created, by `cleanupBy` at the latest: what is not removed by then is listed as left over.
   * Whatever ended the run — also a preflight that failed or was stopped after its first write — the ledger says
   * what it made; without an admin token every entity it names is listed as left over.
   */
  async cleanUp(): Promise<CleanupOutcome> {
    const lines = Ledger.read(this.ledger.file!)
    if (this.config.readOnly || lines.length === 0) return { removed: [], leftovers: [] }
    const token = this.pre?.seed.tokens.admin ?? this.adminToken
    if (token === undefined) return leftWith(lines, 'not removed: the run ended before it had an admin token to remove it with')
    const client = this.#client(this.pre?.secrets ?? this.secrets)
    const cutOff = setTimeout(() => client.stop(), Math.max(0, this.cleanupBy - Date.now()))
    this.#phase = 'cleanup'
    try {
      return await cleanUp(lines, client, token, this.config.storeCode, { id: this.id, ledger: this.ledger, writesInFlight: this.writesInFlight() })
    } finally {
      this.#phase = undefined
      clearTimeout(cutOff)
      await client.close()
    }
  }

  /** The report of what is known now: the results so far, the cleanup's outcome, the scope the runner ran. */
  report(scope: RunScope, cleanup: CleanupOutcome): Report {
    return draftReport(this, Ledger.read(this.ledger.file!), scope, cleanup)
  }

  /** Lets another run have the report directory: once this run's report is written, or it will not be. */
  releaseDir(): void {
    this.dirLock?.release()
  }

  async close(): Promise<void> {
    this.serverErrors.close()
    await this.bundled?.close()
  }
}
