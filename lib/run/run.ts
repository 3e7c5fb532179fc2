import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createVitest, type Vitest } from 'vitest/node'
import type { ReferenceTarget } from '../../fixtures/reference-target/index.ts'
import { Ledger, ledgerEntities } from '../setup/ledger.ts'
import { applyAliases } from '../shop/aliases.ts'
import { describeFingerprint } from '../shop/fingerprint.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import { MODULES } from '../spec/modules.ts'
import { SPEC_VERSION, SUITE } from '../spec/version.ts'
import { TargetClient } from '../shop/client.ts'
import type { Credentials, LimitedAdmin, RunConfig } from '../settings/config.ts'
import { preflight, PreflightError, type PreflightResult } from '../shop/preflight.ts'
import { Secrets } from '../shop/secrets.ts'
import { summarise, sortResults } from '../report/model.ts'
import { terminalSummary } from '../report/text.ts'
import { writeReports } from '../report/write.ts'
import { readBaseline } from '../report/baseline.ts'
import { completeReport, type ReportDraft } from '../report/complete.ts'
import { splitIdOf } from '../report/merge.ts'
import type { ExitStatus } from '../report/outcome.ts'
import { cleanUp, type CleanupOutcome } from '../setup/cleanup.ts'
import { moduleIdOf, ResultCollector, type Progress } from './collector.ts'
import type { Result } from '../results/result.ts'
import { flagLimits, notApplicableResults, PLAN, planBlock, selectionOf, selectPlan } from '../plan/plan.ts'
import { RunStopper, within, type Stop } from './stopping.ts'
import { ResultInbox } from './stream.ts'

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

export interface RunIo {
  out(text: string): void
  err(text: string): void
}

export type { ExitStatus } from '../report/outcome.ts'

/** How long the worker has to say it stopped, and vitest to close, once a run is being stopped. */
const STOP_ACK_MS = 1_500
const VITEST_CLOSE_MS = 1_500

/**
 * A whole conformance run: target (the bundled one when none is configured) → preflight → the suites under
 * vitest → cleanup of what the run created → report files → summary. Once a request has been sent the
 * report is always written: after failures, at the deadline, and on SIGINT/SIGTERM (marked partial).
 */
export async function runConformance(config: RunConfig, io: RunIo): Promise<ExitStatus> {
  // A bad baseline is a bad setting: refused before anything is sent.
  const baseline = config.baseline !== undefined ? readBaseline(config.baseline) : undefined
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`
  const startedAt = new Date()
  mkdirSync(config.reportDir, { recursive: true })
  const ledgerFile = resolve(config.reportDir, 'ledger.jsonl')
  writeFileSync(ledgerFile, '')
  const ledger = new Ledger(ledgerFile)

  let bundled: ReferenceTarget | undefined
  let target: { baseUrl: string; admin: Credentials; limitedAdmin?: LimitedAdmin }
  if (config.baseUrl === undefined) {
    // Loaded only when needed: a run against a real shop should not pay for the bundled target.
    const { startReferenceTarget } = await import('../../fixtures/reference-target/index.ts')
    bundled = await startReferenceTarget({ host: '127.0.0.1', port: 0 })
    // Its limited admin too, so the default run judges the acl check.
    target = { baseUrl: bundled.url, admin: bundled.admin, limitedAdmin: { ...bundled.limitedAdmin, resources: [...bundled.limitedAdmin.resources] } }
  } else {
    target = { baseUrl: config.baseUrl, admin: config.admin! }
  }
  const secrets = new Secrets()
  secrets.add(target.admin.password, 'admin password')
  secrets.add(config.customer?.password, 'customer password')
  secrets.add(target.limitedAdmin?.password ?? config.limitedAdmin?.password, 'limited admin password')
  const runErrors: string[] = []
  let results: Result[] = []
  let pre: PreflightResult | undefined
  let cleanup: CleanupOutcome = { removed: [], leftovers: [] }
  let vitest: Vitest | undefined
  let modulesRun: string[] = []
  const notes: string[] = []
  const collector = new ResultCollector(config.progress ? terminalProgress(io) : {})
  // On a stop the worker hands over every result it had judged, so a run cut short keeps every finished one.
  const inbox = new ResultInbox(runId)
  const stopper = new RunStopper(startedAt.getTime(), config.runTimeoutMs, (why: Stop) => {
    collector.cancelled = true
    io.err(`shop-conformance: ${why === 'deadline' ? `the run's deadline is near (it ends by ${new Date(stopper.endsAt).toISOString()})` : `${why} received`}: stopping, cleaning up and writing a partial report\n`)
    // The worker stops its requests (and hands over what it judged) before vitest is told to cancel.
    void inbox.stop(STOP_ACK_MS).then(() => vitest?.cancelCurrentRun('keyboard-input'))
  })
  io.out(
    `${SUITE.name} ${SUITE.version}: run ${runId}, seed ${config.seed}${config.seedGiven ? '' : ' (random; repeat with --seed)'}` +
      `${config.readOnly ? ', read-only' : ''}${config.insecure ? ', TLS certificates NOT verified (--insecure)' : ''}; ends by ${new Date(stopper.endsAt).toISOString()} at the latest (cleanup and reports included)\n`,
  )
  try {
    // Vitest starts (vite, the module graph) while the preflight talks to the target: neither waits for the other.
    const starting = suiteRunner(config, collector)
    try {
      pre = await preflight({ ...config, ...target }, runId, { ledger, ledgerFile })
      for (const [value, label] of pre.secrets.entries()) secrets.add(value, label)
    } catch (err) {
      if (!(err instanceof PreflightError)) throw err
      runErrors.push(err.message)
    }
    vitest = await starting
    stopper.ownSignals()
    if (pre === undefined || stopper.stopped !== undefined) await within(vitest.close(), VITEST_CLOSE_MS)
    else {
      vitest.provide('shopSession', pre.seed)
      modulesRun = await modulesOfThisRun(vitest)
      vitest.provide('shopModules', modulesRun)
      await Promise.race([vitest.start(), stopper.whenStopped])
      // After a stop the worker's requests are cut off, so its tests end at once; a vitest that still does
      // not close in time is left behind (the process exits when the report is written).
      if (stopper.stopped !== undefined) {
        await inbox.stop(STOP_ACK_MS)
        await within(vitest.close(), VITEST_CLOSE_MS)
      } else await vitest.close()
      results = [
        ...unite(inbox.results, collector.results),
        ...notApplicableResults(selectPlan(PLAN, { ...selectionOf(config.modules, config.checks), modules: modulesRun }), (p) => applyAliases(p, config.pathAliases)),
      ]
      runErrors.push(...collector.errors)
      notes.push(...collector.notes)
    }
    if (pre !== undefined && !config.readOnly) cleanup = await cleanUpAfter(config, target.baseUrl, pre, ledger, stopper.cleanupBy)
  } finally {
    stopper.dispose()
    await inbox.close()
    await bundled?.close()
  }
  const stopped = stopper.stopped
  if (stopped !== undefined) runErrors.push(stopped === 'deadline' ? `the run reached its deadline (${config.runTimeoutMs} ms, cleanup and reports included) and was cut short` : `the run was interrupted (${stopped})`)

  const finishedAt = new Date()
  const rowOrder = new Map(CATALOG.map((r, i) => [`${r.method} ${r.path}`, i]))
  // A shard selected its share of the modules (vitest's sharding decided which).
  const selection = { ...selectionOf(config.modules, config.checks), ...(config.shard !== undefined ? { modules: modulesRun } : {}) }
  const plan = planBlock(PLAN, selection, [...flagLimits(PLAN, config.modules, config.checks), ...(config.shard !== undefined ? [`shard ${config.shard.index}/${config.shard.count}`] : [])])
  const draft: ReportDraft = {
    suite: { ...SUITE },
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
    plan,
    results: sortResults(results, rowOrder, plan),
  }
  const report = completeReport(draft, {
    made: pre !== undefined,
    ...(baseline !== undefined ? { baseline: { file: config.baseline!, baseline, allowStale: config.allowStale } } : {}),
  })
  // Shards are separate processes: what they share (settings, seed, target) is what names their run.
  if (config.shard !== undefined) report.run.splitId = splitIdOf(report)
  const written = await writeReports(config.reportDir, report, secrets)
  if (pre === undefined) {
    io.err(`shop-conformance: ${runErrors[0]}\n`)
    return 2
  }
  io.out(secrets.redactText(terminalSummary(written, config.reportDir)))
  return report.exit.status
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

/**
 * Removes what the run created, after the checks (also after failures and interrupts), by `by` at the
 * latest: what is not removed by then is cut off and listed as left over, so the run still ends when it said.
 */
async function cleanUpAfter(config: RunConfig, baseUrl: string, pre: PreflightResult, ledger: Ledger, by: number): Promise<CleanupOutcome> {
  const client = new TargetClient({ baseUrl, timeoutMs: config.timeoutMs, concurrency: config.concurrency, secrets: pre.secrets, insecure: config.insecure })
  const cutOff = setTimeout(() => client.stop(), Math.max(0, by - Date.now()))
  try {
    return await cleanUp(Ledger.read(ledger.file!), client, pre.seed.tokens.admin, config.storeCode, { id: pre.seed.runId, ledger })
  } finally {
    clearTimeout(cutOff)
    await client.close()
  }
}

/** Each result once: after a stop the worker hands over everything it judged, and vitest had reported some of it. */
function unite(...lists: Result[][]): Result[] {
  return [...new Map(lists.flat().map((r) => [r.id, r])).values()]
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
