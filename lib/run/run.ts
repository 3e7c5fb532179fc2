import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createVitest, type Vitest } from 'vitest/node'
import type { ReferenceTarget } from '../../fixtures/reference-target/index.ts'
import { Ledger, ledgerEntities } from '../../fixtures/ledger.ts'
import { CHECK_KINDS, CHECKS } from '../checks/index.ts'
import { applyAliases } from '../target/aliases.ts'
import { describeFingerprint } from '../target/fingerprint.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import { MODULES } from '../spec/modules.ts'
import { SPEC_VERSION } from '../spec/version.ts'
import { TargetClient } from '../target/client.ts'
import type { Credentials, RunConfig } from '../target/config.ts'
import { preflight, PreflightError, type PreflightResult } from '../target/preflight.ts'
import { Secrets } from '../target/secrets.ts'
import { summarise, sortResults, type Report } from '../report/model.ts'
import { terminalSummary } from '../report/text.ts'
import { writeReports } from '../report/write.ts'
import { applyBaseline, baselinedIds, baselineSummary, exitStatusWithBaseline, readBaseline, type BaselineOutcome } from '../report/baseline.ts'
import { conformance, moduleStatements } from '../report/certify.ts'
import { cleanUp, type CleanupOutcome } from './cleanup.ts'
import { moduleIdOf, ResultCollector, type Progress } from './collector.ts'
import { notApplicableResults, type Result } from './result.ts'
import { benchHooks } from '../bench/hooks.ts'

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const SUITE_VERSION = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version

export interface RunIo {
  out(text: string): void
  err(text: string): void
}

/**
 * Exit status of the run contract: 0 no failure, 1 a check failed (or the deadline cut the run short),
 * 2 the run could not be made; 130/143 interrupted by SIGINT/SIGTERM (a partial report is written).
 */
export type ExitStatus = 0 | 1 | 2 | 130 | 143

type Stop = 'SIGINT' | 'SIGTERM' | 'deadline'

/**
 * A whole conformance run: target (the bundled one when none is configured) → preflight → the suites under
 * vitest → cleanup of what the run created → report files → summary. Once a request has been sent the
 * report is always written: after failures, at the deadline, and on SIGINT/SIGTERM (marked partial).
 */
export async function runConformance(config: RunConfig, io: RunIo): Promise<ExitStatus> {
  benchHooks() // SHOP_REQUEST_LOG / SHOP_BENCH_STATS (npm run bench); nothing without them
  // A bad baseline is a bad setting: refused before anything is sent.
  const baseline = config.baseline !== undefined ? readBaseline(config.baseline) : undefined
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`
  const startedAt = new Date()
  mkdirSync(config.reportDir, { recursive: true })
  const ledgerFile = resolve(config.reportDir, 'ledger.jsonl')
  writeFileSync(ledgerFile, '')
  const ledger = new Ledger(ledgerFile)

  let bundled: ReferenceTarget | undefined
  let target: { baseUrl: string; admin: Credentials }
  if (config.baseUrl === undefined) {
    // Loaded only when needed: a run against a real shop should not pay for the bundled target.
    const { startReferenceTarget } = await import('../../fixtures/reference-target/index.ts')
    bundled = await startReferenceTarget({ host: '127.0.0.1', port: 0 })
    target = { baseUrl: bundled.url, admin: bundled.admin }
  } else {
    target = { baseUrl: config.baseUrl, admin: config.admin! }
  }
  const secrets = new Secrets()
  secrets.add(target.admin.password, 'admin password')
  secrets.add(config.customer?.password, 'customer password')
  io.out(
    `shop-conformance ${SUITE_VERSION}: run ${runId}, seed ${config.seed}${config.seedGiven ? '' : ' (random; repeat with --seed)'}` +
      `${config.readOnly ? ', read-only' : ''}${config.insecure ? ', TLS certificates NOT verified (--insecure)' : ''}; ends by ${new Date(startedAt.getTime() + config.runTimeoutMs).toISOString()} at the latest\n`,
  )

  const runErrors: string[] = []
  let results: Result[] = []
  let pre: PreflightResult | undefined
  let stopped: Stop | undefined
  let cleanup: CleanupOutcome = { removed: [], leftovers: [] }
  let vitest: Vitest | undefined
  let collector: ResultCollector | undefined
  let modulesRun: string[] = []
  const notes: string[] = []
  const stop = (why: Stop) => {
    if (stopped !== undefined) return
    stopped = why
    if (collector !== undefined) collector.cancelled = true
    io.err(`shop-conformance: ${why === 'deadline' ? `deadline of ${config.runTimeoutMs} ms reached` : `${why} received`}: stopping, cleaning up and writing a partial report\n`)
    void vitest?.cancelCurrentRun(why as string as 'keyboard-input')
  }
  const onSigint = () => stop('SIGINT')
  const onSigterm = () => stop('SIGTERM')
  process.on('SIGINT', onSigint)
  process.on('SIGTERM', onSigterm)
  const deadline = setTimeout(() => stop('deadline'), config.runTimeoutMs)
  try {
    // Vitest starts (vite, the module graph) while the preflight talks to the target: neither waits for the other.
    collector = new ResultCollector(config.progress ? terminalProgress(io) : {})
    const starting = suiteRunner(config, collector)
    try {
      pre = await preflight({ ...config, ...target }, runId, { ledger, ledgerFile })
      for (const [value, label] of pre.secrets.entries()) secrets.add(value, label)
    } catch (err) {
      if (!(err instanceof PreflightError)) throw err
      runErrors.push(err.message)
    }
    vitest = await starting
    // Vitest's logger exits the process on SIGINT/SIGTERM; here an interrupt must clean up and write the
    // partial report first, so only the run's own handlers stay.
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      for (const listener of process.listeners(signal)) if (listener !== onSigint && listener !== onSigterm) process.off(signal, listener)
    }
    if (pre === undefined || stopped !== undefined) await vitest.close()
    else {
      vitest.provide('shopSession', pre.seed)
      modulesRun = await modulesOfThisRun(vitest)
      vitest.provide('shopModules', modulesRun)
      await vitest.start()
      await vitest.close()
      const selected = CHECKS.filter((c) => config.checks.length === 0 || config.checks.includes(c.name))
      results = [
        ...collector.results,
        ...notApplicableResults(CATALOG.filter((r) => modulesRun.includes(r.module)), selected, (p) => applyAliases(p, config.pathAliases)),
      ]
      runErrors.push(...collector.errors)
      notes.push(...collector.notes)
    }
    if (pre !== undefined && !config.readOnly) cleanup = await cleanUpAfter(config, target.baseUrl, pre, ledger)
  } finally {
    clearTimeout(deadline)
    process.off('SIGINT', onSigint)
    process.off('SIGTERM', onSigterm)
    await bundled?.close()
  }
  if (stopped !== undefined) runErrors.push(stopped === 'deadline' ? `the run reached its deadline (${config.runTimeoutMs} ms) and was cut short` : `the run was interrupted (${stopped})`)

  const finishedAt = new Date()
  const rowOrder = new Map(CATALOG.map((r, i) => [`${r.method} ${r.path}`, i]))
  const report: Report = {
    suite: { name: 'shop-conformance', version: SUITE_VERSION },
    spec: { version: SPEC_VERSION },
    target: {
      baseUrl: target.baseUrl,
      storeCode: config.storeCode,
      secondStoreCode: config.secondStoreCode,
      bundledReferenceTarget: bundled !== undefined,
      ...(config.insecure ? { tlsVerification: 'off (--insecure)' as const } : {}),
    },
    run: {
      id: runId,
      seed: config.seed,
      readOnly: config.readOnly,
      concurrency: config.concurrency,
      timeoutMs: config.timeoutMs,
      modules: config.modules,
      checks: config.checks,
      ...(config.shard !== undefined ? { shard: `${config.shard.index}/${config.shard.count}` } : {}),
      pathAliases: config.pathAliases,
    },
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    ...(stopped !== undefined ? { partial: { reason: stopped } } : {}),
    summary: summarise(results, new Set(CATALOG.map((r) => `${r.method} ${r.path}`))),
    calibration: {
      noRoute: pre?.seed.calibration.noRoute.map(describeFingerprint) ?? [],
      unknownStore: pre?.seed.calibration.unknownStore.map(describeFingerprint) ?? [],
    },
    created: ledgerEntities(Ledger.read(ledgerFile)).flatMap(({ kind, id, label, state }) => (state === 'created' ? [{ kind, id, label }] : [])),
    cleanup: { removed: cleanup.removed.length, leftovers: cleanup.leftovers },
    runErrors,
    ...(notes.length > 0 ? { notes } : {}),
    results: sortResults(results, rowOrder, CHECK_KINDS),
  }
  const baselined = baseline !== undefined ? applyBaseline(report, baseline) : undefined
  if (baselined !== undefined) report.baseline = { file: config.baseline!, ...baselineCounts(baselined) }
  report.certification = certification(report.results, runErrors, baselined !== undefined ? baselinedIds(baselined) : undefined)
  const written = await writeReports(config.reportDir, report, secrets)
  if (pre === undefined) {
    io.err(`shop-conformance: ${runErrors[0]}\n`)
    return 2
  }
  io.out(secrets.redactText(terminalSummary(written, config.reportDir)))
  if (baselined !== undefined) io.out(baselineSummary(baselined, { allowStale: config.allowStale }))
  if (stopped === 'SIGINT') return 130
  if (stopped === 'SIGTERM') return 143
  if (baselined !== undefined) return exitStatusWithBaseline(report, baselined, { allowStale: config.allowStale })
  return report.summary.failed > 0 || runErrors.length > 0 ? 1 : 0
}

function baselineCounts(o: BaselineOutcome) {
  return {
    newFailures: o.newFailures.map((r) => r.id),
    baselinedFailures: o.baselinedFailures.map((r) => r.id),
    stale: o.stale.map((e) => e.id),
    unjudged: o.unjudged.map((e) => e.id),
    notInThisRun: o.unknown.map((e) => e.id),
  }
}

function certification(results: readonly Result[], runErrors: readonly string[], baselined: ReadonlySet<string> | undefined): Report['certification'] {
  return { ...conformance(results, { runErrors, ...(baselined !== undefined ? { baselined } : {}) }), modules: moduleStatements(results, baselined !== undefined ? { baselined } : {}) }
}

/** One vitest run of the selected suites, in one worker so one client and one concurrency bound serve it all. */
function suiteRunner(config: RunConfig, collector: ResultCollector): Promise<Vitest> {
  const modules = config.modules.length > 0 ? config.modules : MODULES.map((m) => m.id)
  return createVitest(
    'test',
    {
      config: false,
      root: PROJECT_ROOT,
      watch: false,
      include: modules.map((m) => `suites/${m}.conformance.ts`),
      reporters: [collector],
      provide: { shopChecks: config.checks },
      pool: 'threads',
      maxWorkers: 1,
      isolate: false,
      maxConcurrency: config.concurrency,
      // Transformed suite and lib modules cached on disk (node_modules/.experimental-vitest-cache): a warm start skips vite's transforms.
      experimental: { fsModuleCache: true },
      // Each request has its own deadline; this only stops a check whose requests queue behind many others.
      testTimeout: config.timeoutMs * 50 + 60_000,
      hookTimeout: config.timeoutMs * 5 + 10_000,
      passWithNoTests: true,
      ...(config.shard !== undefined ? { shard: `${config.shard.index}/${config.shard.count}` } : {}),
    },
    {},
    {},
  ).then((v) => v)
}

/** The modules whose suite files this run (or this shard, by vitest's own sharding) will run. */
async function modulesOfThisRun(vitest: Vitest): Promise<string[]> {
  let specs = await vitest.getRelevantTestSpecifications()
  if (vitest.config.shard !== undefined) {
    const Sequencer = vitest.config.sequence.sequencer
    specs = await new Sequencer(vitest).shard(specs)
  }
  return specs.map((s) => moduleIdOf(s.moduleId))
}

/** Removes what the run created, after the checks (also after failures and interrupts). */
async function cleanUpAfter(config: RunConfig, baseUrl: string, pre: PreflightResult, ledger: Ledger): Promise<CleanupOutcome> {
  const client = new TargetClient({ baseUrl, timeoutMs: config.timeoutMs, concurrency: config.concurrency, secrets: pre.secrets, insecure: config.insecure })
  try {
    return await cleanUp(Ledger.read(ledger.file!), client, pre.seed.tokens.admin, config.storeCode, { id: pre.seed.runId, ledger })
  } finally {
    await client.close()
  }
}

/** On stderr: each failure as it comes, then a line per module as it finishes. */
function terminalProgress(io: RunIo): Progress {
  return {
    onResult: (r) => {
      if (r.status === 'failed') io.err(`  ✗ ${r.id} — ${r.message.length > 160 ? `${r.message.slice(0, 160)}…` : r.message}\n`)
    },
    onModuleEnd: (file, results) => io.err(progressLine(file, results)),
  }
}

function progressLine(file: string, results: Result[]): string {
  const judged = results.filter((r) => r.applicable !== false)
  const count = (status: string) => judged.filter((r) => r.status === status).length
  const failed = count('failed')
  const skipped = count('skipped')
  return `  ${moduleIdOf(relative(PROJECT_ROOT, file)).padEnd(30)} ${String(judged.length).padStart(4)} checks  ${count('passed')} passed${failed > 0 ? `, ${failed} FAILED` : ''}${skipped > 0 ? `, ${skipped} not judged` : ''}\n`
}
