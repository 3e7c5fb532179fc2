import { randomBytes } from 'node:crypto'
import { mkdirSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { resolve } from 'node:path'
import type { ReferenceTarget } from '../../reference-target/index.ts'
import { Ledger, ledgerEntities, ledgerHeadLine, type LedgerEntry } from '../setup/ledger.ts'
import { customerRegistrar } from '../setup/registrar.ts'
import { SUITE } from '../spec/version.ts'
import { TargetClient } from '../shop/client.ts'
import { rateShare, type RateShare } from '../shop/pace.ts'
import { isGivenToken, type LimitedAdmin, type RunConfig, type SignIn } from '../settings/config.ts'
import { preflight, PreflightError, type PreflightResult } from '../shop/preflight.ts'
import { CONFIGURED_CUSTOMER } from '../shop/tokens.ts'
import { Secrets } from '../shop/secrets.ts'
import type { EvidenceBlock, Report } from '../report/model.ts'
import type { Baseline } from '../report/baseline.ts'
import { cleanUp, type CleanupOutcome } from '../setup/cleanup.ts'
import type { Result } from '../results/result.ts'
import { buildPlan, PLAN, suiteWith, type ExtensionFacts, type Plan } from '../plan/plan.ts'
import type { SchemaFacts } from '../schema/block.ts'
import { CHECK_KINDS } from '../checks/index.ts'
import { probeSettingsOf } from '../checks/probe.ts'
import { configFileOf, loadVendorConfig, type VendorParts } from '../extend/load.ts'
import { draftReport, type RunRecord, type RunScope } from './report-draft.ts'
import { READING_SCHEMA, readShopSchema, requestSchemaEarly, type EarlySchema } from './shop-schema.ts'
import { requireVendorModules } from './run-settings.ts'
import { BUDGET_WITHIN_MS, stopReserveMs, WRITE_RESERVE_MS, writeReserveMs, type Stop } from './stopping.ts'
import type { ReportDirLock } from './report-dir-lock.ts'
import { keepStaleLedger, LEDGER_FILE } from './stale-ledger.ts'
import { ServerErrorLog } from '../shop/server-errors.ts'
import { EvidenceLog } from '../shop/evidence.ts'
import { evidenceParts, removeEarlierEvidence, removeStaleEvidenceParts, writeEvidence } from './evidence.ts'
import { callerClass, seedCaller, seedTokenName } from '../shop/exchange-identity.ts'
import { recordedSession } from '../shop/replay.ts'
import type { CallerClass } from '../results/exchange.ts'
import { longestDeadlines, type CallKind, type RunDeadlines } from '../results/deadlines.ts'
import { defined } from '../base/defined.ts'

/**
 * What the printed end depends on: the reports' writing is budgeted at the machine's load as the run ends
 * (budgetWriting), and a machine that slows down much more after that writes them later.
 */
const REPORTS_DEPEND_ON = 'a machine loaded past its cores may delay the reports'

/** Every entity of the ledger that may be on the target, each listed as left over with `reason`. */
export function leftWith(lines: readonly LedgerEntry[], reason: string): CleanupOutcome {
  return {
    removed: [],
    leftovers: ledgerEntities(lines)
      .filter((e) => e.state !== 'refused')
      .map(({ kind, id, key, label }) => ({ kind, id: id !== '' ? id : (key ?? '?'), label, reason })),
  }
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
  /** The ledger's file: a run's ledger always has one. */
  readonly ledgerFile: string
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
  /** Set when this shard got none of the selection's suite files (startEmpty): it runs nothing and sends nothing. */
  emptyShard: { suiteFiles: number } | undefined
  /** When it was stopped (epoch ms): a write cut off then may still be made until its deadline (writesInFlight). */
  stoppedAt: number | undefined
  /** Set once the report is on disk: the 'exit' path (interrupted.ts) then has nothing left to do. */
  written = false
  /** A stale ledger found in the report directory and kept (stale-ledger.ts): the one line the run says of it. */
  readonly keptLedger: string | undefined
  /** The vendor's config (loadVendor), before any request. */
  vendor: VendorParts | undefined
  /** The shop's schema as read at the start (its report block, its extension operations). */
  schema: SchemaFacts | undefined
  /** The spec's suite with what this run adds: the shop's extension operations and the vendor's set. */
  plan: Plan = PLAN
  /** `--max-rps` for every request of the run, whichever client sends it (lib/shop/pace.ts): none without a cap. */
  readonly rate: RateShare | undefined
  /**
   * Where the main process's requests are (preflight, the schema, cleanup): what a server error there is listed under.
   */
  #phase: string | undefined
  /**
   * Every 5xx the run met: the main process's own requests, collected here, and the worker's, joined in as its tests
   * finish (run-reporter.ts) — and a cleanup process's (interrupted.ts).
   */
  readonly serverErrors = new ServerErrorLog({
    callerOf: (token, authorization) => this.#callerClass(token, authorization),
    during: () => this.#phase,
  })
  /**
   * Every exchange of the run as a HAR entry, as its requests finish: the main process's own here, the worker's and a
   * cleanup process's in parts of their own (lib/shop/evidence.ts); joined into evidence.har with the report. Off
   * with `--no-evidence`.
   */
  readonly evidence: EvidenceLog | undefined
  readonly #evidenceParts: ReturnType<typeof evidenceParts>
  #evidenceBlock: EvidenceBlock | undefined

  constructor(
    readonly config: RunConfig,
    readonly baseline: Baseline | undefined,
    /** The report directory, this run's alone until its report is written (report-dir-lock.ts). */
    readonly dirLock?: ReportDirLock,
  ) {
    this.endsAt = this.startedAt.getTime() + config.runTimeoutMs
    this.rate = rateShare(config.maxRps)
    mkdirSync(config.reportDir, { recursive: true })
    // A ledger of a run that ended without its report is the only list of what it left: kept, never started over.
    const kept = keepStaleLedger(config.reportDir)
    if (kept !== undefined) {
      const whose = kept.runId !== undefined ? `run ${kept.runId}` : 'a run'
      const remedy = `\`shop-conformance cleanup --ledger ${kept.file}\` removes what it left on the shop`
      this.keptLedger = `the ledger of ${whose}, which ended without writing its report, is kept as ${kept.file}: ${remedy}`
      this.notes.push(this.keptLedger)
    }
    const ledgerFile = resolve(config.reportDir, LEDGER_FILE)
    const shop = config.baseUrl !== undefined ? { baseUrl: config.baseUrl } : {}
    writeFileSync(
      ledgerFile,
      ledgerHeadLine({ run: this.id, ...shop, store: config.storeCode, startedAt: this.startedAt.toISOString() }),
    )
    this.ledgerFile = ledgerFile
    this.ledger = new Ledger(ledgerFile)
    this.#evidenceParts = evidenceParts(config.reportDir, this.id)
    removeStaleEvidenceParts(config.reportDir, this.id)
    if (!config.evidence) removeEarlierEvidence(config.reportDir)
    this.evidence = config.evidence
      ? new EvidenceLog(this.#evidenceParts.main, {
          runId: this.id,
          callerOf: (token, authorization) => this.#callerClass(token, authorization),
          during: () => this.#phase,
          thread: 'main',
          tokenName: (t) => {
            if (t === this.adminToken) return 'admin'
            return this.pre !== undefined ? seedTokenName(this.pre.seed, t) : undefined
          },
        })
      : undefined
  }

  /**
   * Where the worker or a cleanup process writes its part of the run's evidence; undefined: none is written
   * (`--no-evidence`).
   */
  evidencePart(thread: 'worker' | 'cleanup'): string | undefined {
    return this.evidence === undefined ? undefined : this.#evidenceParts[thread]
  }

  /**
   * When the checks are stopped, so that stopping, cleanup and the reports fit before the printed end: earlier when the
   * reports need more than WRITE_RESERVE_MS at this machine's load (budgetWriting).
   */
  get stopAt(): number {
    return this.endsAt - stopReserveMs(this.config.runTimeoutMs) - (this.#writeReserveMs - WRITE_RESERVE_MS)
  }

  /** By when cleanup must be over, so the reports are written before the printed end. */
  get cleanupBy(): number {
    return this.endsAt - this.#writeReserveMs
  }

  /** Kept before the printed end for writing the reports: WRITE_RESERVE_MS, or what budgetWriting found they take. */
  #writeReserveMs = WRITE_RESERVE_MS

  /**
   * When the printed end is near (every few seconds, and before the cleanup): how long the reports will take to write
   * on this machine at its load now, from their first step timed on the results so far (stopping.ts, writeReserveMs),
   * is kept for them — the checks are stopped and the cleanup cut off that much earlier. A loaded machine wrote a 15 s
   * run's reports 1.4 s past its end, a large report (answers of 20 kB) 5 s past it.
   */
  budgetWriting(): void {
    if (this.endsAt - Date.now() > BUDGET_WITHIN_MS) return
    const started = performance.now()
    this.secrets.redactedJson([...this.results.values()])
    const redactedJsonMs = performance.now() - started
    const parts = Object.values(this.#evidenceParts)
    const evidenceBytes =
      this.evidence === undefined
        ? 0
        : parts.reduce((sum, p) => sum + (statSync(p, { throwIfNoEntry: false })?.size ?? 0), 0)
    const overload = defined(loadavg()[0], 'the load average of the last minute') / availableParallelism()
    // Never less than found before: a sample taken while the machine is busier is the one to go by.
    this.#writeReserveMs = Math.max(this.#writeReserveMs, writeReserveMs({ redactedJsonMs, evidenceBytes, overload }))
  }

  headline(): string {
    const c = this.config
    return (
      `${SUITE.name} ${SUITE.version}: run ${this.id}, seed ${c.seed}${c.seedGiven ? '' : ' (random; repeat with --seed)'}` +
      `${c.readOnly ? ', read-only' : ''}${c.insecure ? ', TLS certificates NOT verified (--insecure)' : ''}; ends by ${new Date(this.endsAt).toISOString()} at the latest (cleanup and reports included; ${REPORTS_DEPEND_ON})\n`
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
    requireVendorModules(this.config.modules, this.vendor)
    this.plan = buildPlan(suiteWith({ vendor: this.vendor }))
  }

  /** The target up (the bundled one loaded only when needed), then the preflight; refused → a run error, false. */
  async start(): Promise<boolean> {
    const config = this.config
    const target = await this.#targetUp()
    // Every password and token given is a secret before the first request.
    const limitedAdmin = target.limitedAdmin ?? config.limitedAdmin
    for (const [signIn, who] of [
      [target.admin, 'admin'],
      [config.customer, CONFIGURED_CUSTOMER],
      [limitedAdmin, 'limited admin'],
    ] as const) {
      if (signIn === undefined) continue
      if (isGivenToken(signIn)) this.secrets.add(signIn.token, `${who} token given as ${signIn.setting}`)
      else this.secrets.add(signIn.password, `${who} password`)
    }
    this.#phase = 'preflight'
    // The schema's reading, begun as soon as the admin's token is known (shop-schema.ts requestSchemaEarly).
    let schemaClient: TargetClient | undefined
    let early: EarlySchema | undefined
    try {
      const onAdminToken = (token: string) => {
        this.adminToken = token
        this.secrets.add(token, 'admin token')
        if (early !== undefined) return
        schemaClient = this.#client(this.secrets)
        early = requestSchemaEarly(config.targetSchema, config.storeCode, schemaClient, token)
      }
      const pre = await preflight({ ...config, ...target, limitedAdmin }, this.id, {
        registrar: customerRegistrar(this.ledger),
        ledgerFile: this.ledgerFile,
        onAdminToken,
        ...(this.rate !== undefined ? { rate: this.rate } : {}),
      })
      const evidenceFile = this.evidencePart('worker')
      this.pre = evidenceFile === undefined ? pre : { ...pre, seed: { ...pre.seed, evidenceFile } }
      for (const [value, label] of this.pre.secrets.entries()) this.secrets.add(value, label)
      this.deadlines = { used: this.pre.deadlinesUsed, slowestMs: this.pre.seed.slowestMs ?? {} }
      if (this.pre.signedIn !== undefined) this.notes.push(this.pre.signedIn)
      await this.#readSchema(this.pre, schemaClient, early)
      return true
    } catch (err) {
      if (!(err instanceof PreflightError)) throw err
      this.runErrors.push(err.message)
      return false
    } finally {
      this.#phase = undefined
      // What was requested early and never read (the preflight failed) is cut off: no request outlives the start.
      if (early !== undefined && early.size > 0) {
        defined(schemaClient, 'the client the schema was requested early with').stop()
        await Promise.allSettled(early.values())
      }
      await schemaClient?.close()
    }
  }

  /**
   * A shard that got none of the selection's suite files (more shards than files): no preflight, no request to the
   * shop; its report names the target as its sibling shards' do (the bundled one started, asked nothing), so that
   * `report merge` takes it with them.
   */
  async startEmpty(suiteFiles: number): Promise<void> {
    this.emptyShard = { suiteFiles }
    await this.#targetUp()
  }

  async #targetUp(): Promise<NonNullable<Run['target']>> {
    if (this.config.baseUrl === undefined) {
      const { startReferenceTarget } = await import('../../reference-target/index.ts')
      this.bundled = await startReferenceTarget({ host: '127.0.0.1', port: 0 })
      // Its limited admin too, so the default run judges the acl check.
      this.target = {
        baseUrl: this.bundled.url,
        admin: this.bundled.admin,
        limitedAdmin: { ...this.bundled.limitedAdmin, resources: [...this.bundled.limitedAdmin.resources] },
      }
    } else
      this.target = {
        baseUrl: this.config.baseUrl,
        admin: defined(this.config.admin, 'the admin sign-in of a configured target'),
      }
    return this.target
  }

  /**
   * Whom a request of the main process's was sent as: the run's own callers as far as it knows them, else by its
   * recorded header.
   */
  #callerClass(token: string | undefined, authorization: string | undefined): CallerClass {
    const own = (t: string): CallerClass | undefined => {
      if (t === this.adminToken) return 'admin'
      return this.pre !== undefined ? seedCaller(this.pre.seed, t) : undefined
    }
    return callerClass(token, authorization, own)
  }

  /** The shop's schema, with the run's tokens: its findings for the report, its extension operations for the plan. */
  async #readSchema(pre: PreflightResult, earlyClient?: TargetClient, early?: EarlySchema): Promise<void> {
    const { seed, secrets } = pre
    const config = this.config
    const client = earlyClient ?? this.#client(secrets)
    try {
      const tokens = {
        admin: seed.tokens.admin,
        ...(seed.tokens.customer !== undefined ? { customer: seed.tokens.customer } : {}),
      }
      this.#phase = READING_SCHEMA
      this.schema = await readShopSchema(
        {
          setting: config.targetSchema,
          baseUrl: this.#baseUrl,
          storeCode: config.storeCode,
          timeoutMs: config.timeoutMs,
          pathAliases: config.pathAliases,
          tokens,
        },
        client,
        early,
      )
    } finally {
      if (earlyClient === undefined) await client.close()
    }
    this.plan = buildPlan(
      suiteWith({
        operations: this.schema.operations,
        probeWrites: config.extensionsProbeWrites,
        ...(this.vendor !== undefined ? { vendor: this.vendor } : {}),
      }),
    )
  }

  /**
   * What the checks' session told of its deadlines: the report says the longest of each kind, the cleanup starts from
   * them.
   */
  tellDeadlines(told: RunDeadlines): void {
    const slowestMs = { ...(this.deadlines?.slowestMs ?? {}) }
    for (const [kind, ms] of Object.entries(told.slowestMs) as [CallKind, number][])
      slowestMs[kind] = Math.max(ms, slowestMs[kind] ?? 0)
    this.deadlines = {
      used: this.deadlines === undefined ? told.used : longestDeadlines(this.deadlines.used, told.used),
      slowestMs,
    }
  }

  /** The target's base URL, once it is up (#targetUp): every request of the run is sent after. */
  get #baseUrl(): string {
    return defined(this.target, 'the target, up before any request').baseUrl
  }

  /** A client of the run's (the schema read, the cleanup): its deadlines start from what the shop has shown so far. */
  #client(secrets: Secrets): TargetClient {
    const c = this.config
    const slowestMs = this.deadlines?.slowestMs
    return new TargetClient({
      baseUrl: this.#baseUrl,
      timeoutMs: c.timeoutMs,
      maxTimeoutMs: c.maxTimeoutMs,
      ...(slowestMs !== undefined ? { slowestMs } : {}),
      concurrency: c.concurrency,
      secrets,
      insecure: c.insecure,
      ...(this.rate !== undefined ? { rate: this.rate } : {}),
    })
  }

  stop(why: Stop): boolean {
    if (this.stopped !== undefined) return false
    this.stopped = why
    this.stoppedAt = Date.now()
    return true
  }

  /**
   * The run's writes that may still be in flight when its cleanup starts (cut off by the stop, or left behind by its
   * process): each was sent by the stop (or by now), and the shop may still make what it asked for until its deadline —
   * the longest a write of the run was given (`--timeout-ms` or more) — counted from then. The cleanup waits for them,
   * but never past half the time it has left.
   */
  writesInFlight(): { endBy: number; waitUntil: number } {
    const now = Date.now()
    // The longest deadline a write was given so far (a heavy one's follows the shop's slowest answers): at least
    // --timeout-ms.
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
    const lines = Ledger.read(this.ledgerFile)
    if (this.config.readOnly || lines.length === 0) return { removed: [], leftovers: [] }
    const token = this.pre?.seed.tokens.admin ?? this.adminToken
    if (token === undefined)
      return leftWith(lines, 'not removed: the run ended before it had an admin token to remove it with')
    const client = this.#client(this.pre?.secrets ?? this.secrets)
    const cutOff = setTimeout(() => client.stop(), Math.max(0, this.cleanupBy - Date.now()))
    this.#phase = 'cleanup'
    try {
      return await cleanUp(lines, client, token, this.config.storeCode, {
        id: this.id,
        ledger: this.ledger,
        writesInFlight: this.writesInFlight(),
      })
    } finally {
      this.#phase = undefined
      clearTimeout(cutOff)
      await client.close()
    }
  }

  /** The report of what is known now: the results so far, the cleanup's outcome, the scope the runner ran. */
  report(scope: RunScope, cleanup: CleanupOutcome): Report {
    const report = draftReport(this, Ledger.read(this.ledgerFile), scope, cleanup)
    if (this.evidence === undefined) return report
    this.evidence.close()
    const parts = this.#evidenceParts
    const probeSettings = this.pre !== undefined ? probeSettingsOf(this.pre.seed) : undefined
    const operations = this.schema?.operations ?? []
    const session = this.pre !== undefined ? recordedSession(this.pre.seed) : undefined
    const joining = {
      reportDir: this.config.reportDir,
      report,
      operations,
      probeSettings,
      probeWrites: this.config.extensionsProbeWrites,
      pathAliases: this.config.pathAliases,
      secrets: this.secrets,
      session,
    }
    // Once: a signal after the report was drafted drafts it again, and the parts are gone by then.
    this.#evidenceBlock ??= writeEvidence([parts.main, parts.worker, parts.cleanup], joining)
    return { ...report, evidence: this.#evidenceBlock }
  }

  /** Lets another run have the report directory: once this run's report is written, or it will not be. */
  releaseDir(): void {
    this.dirLock?.release()
  }

  async close(): Promise<void> {
    this.serverErrors.close()
    this.evidence?.close()
    await this.bundled?.close()
  }
}
