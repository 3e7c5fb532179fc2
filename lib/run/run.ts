import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startVitest } from 'vitest/node'
import type { ReferenceTarget } from '../../fixtures/reference-target/index.ts'
import { Ledger } from '../../fixtures/ledger.ts'
import { CHECK_KINDS } from '../checks/index.ts'
import { describeFingerprint } from '../target/fingerprint.ts'
import { CATALOG } from '../spec/catalog/index.ts'
import { MODULES } from '../spec/modules.ts'
import { SPEC_VERSION } from '../spec/version.ts'
import type { Credentials, RunConfig } from '../target/config.ts'
import { preflight, PreflightError, type PreflightResult } from '../target/preflight.ts'
import { Secrets } from '../target/secrets.ts'
import { summarise, sortResults, type Report } from '../report/model.ts'
import { terminalSummary } from '../report/text.ts'
import { writeReports } from '../report/write.ts'
import { moduleIdOf, ResultCollector } from './collector.ts'
import type { Result } from './result.ts'

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const SUITE_VERSION = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version

export interface RunIo {
  out(text: string): void
  err(text: string): void
}

/** Exit status of the run contract: 0 no failure, 1 a check failed, 2 the run could not be made. */
export type ExitStatus = 0 | 1 | 2

/**
 * A whole conformance run: target (the bundled one when none is configured) → preflight → the suites under
 * vitest → report files → summary. The report is written whenever a request was sent, also when the run
 * stops early.
 */
export async function runConformance(config: RunConfig, io: RunIo): Promise<ExitStatus> {
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`
  const startedAt = new Date()
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
  const base = { ...config, ...target }
  let secrets = new Secrets()
  secrets.add(target.admin.password, 'admin password')
  secrets.add(config.customer?.password, 'customer password')
  const runErrors: string[] = []
  let results: Result[] = []
  let pre: PreflightResult | undefined
  const ledgerFile = resolve(config.reportDir, 'ledger.jsonl')
  mkdirSync(config.reportDir, { recursive: true })
  writeFileSync(ledgerFile, '')
  const ledger = new Ledger(ledgerFile)
  io.out(`shop-conformance ${SUITE_VERSION}: run ${runId}, seed ${config.seed}${config.seedGiven ? '' : ' (random; repeat with --seed)'}\n`)
  try {
    try {
      pre = await preflight(base, runId, { onCreated: (e) => ledger.record(e), ledgerFile })
      for (const [value, label] of pre.secrets.entries()) secrets.add(value, label)
    } catch (err) {
      if (!(err instanceof PreflightError)) throw err
      runErrors.push(err.message)
    }
    if (pre !== undefined) {
      const collector = await runSuites(config, pre, (file, moduleResults) => io.err(progressLine(file, moduleResults)))
      results = collector.results
      runErrors.push(...collector.errors)
    }
  } finally {
    await bundled?.close()
  }

  const finishedAt = new Date()
  const rowOrder = new Map(CATALOG.map((r, i) => [`${r.method} ${r.path}`, i]))
  const report: Report = {
    suite: { name: 'shop-conformance', version: SUITE_VERSION },
    spec: { version: SPEC_VERSION },
    target: { baseUrl: target.baseUrl, storeCode: config.storeCode, secondStoreCode: config.secondStoreCode, bundledReferenceTarget: bundled !== undefined },
    run: { id: runId, seed: config.seed, concurrency: config.concurrency, timeoutMs: config.timeoutMs, modules: config.modules, checks: config.checks, pathAliases: config.pathAliases },
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    summary: summarise(results, new Set(CATALOG.map((r) => `${r.method} ${r.path}`))),
    calibration: {
      noRoute: pre?.seed.calibration.noRoute.map(describeFingerprint) ?? [],
      unknownStore: pre?.seed.calibration.unknownStore.map(describeFingerprint) ?? [],
    },
    created: Ledger.read(ledgerFile).map(({ kind, id, label }) => ({ kind, id, label })),
    runErrors,
    results: sortResults(results, rowOrder, CHECK_KINDS),
  }
  const written = await writeReports(config.reportDir, report, secrets)
  if (pre === undefined) {
    io.err(`shop-conformance: ${runErrors[0]}\n`)
    return 2
  }
  io.out(secrets.redactText(terminalSummary(written, config.reportDir)))
  return report.summary.failed > 0 || runErrors.length > 0 ? 1 : 0
}

async function runSuites(config: RunConfig, pre: PreflightResult, onModuleEnd: (file: string, results: Result[]) => void): Promise<ResultCollector> {
  const modules = config.modules.length > 0 ? config.modules : MODULES.map((m) => m.id)
  const collector = new ResultCollector(onModuleEnd)
  const vitest = await startVitest(
    'test',
    [],
    {
      config: false,
      root: PROJECT_ROOT,
      watch: false,
      include: modules.map((m) => `suites/${m}.conformance.ts`),
      reporters: [collector],
      provide: { shopSession: pre.seed, shopChecks: config.checks },
      // One worker, one client, one concurrency bound for the whole run; tests overlap inside it.
      pool: 'threads',
      maxWorkers: 1,
      isolate: false,
      maxConcurrency: config.concurrency,
      // Each request has its own deadline; this only stops a check whose requests queue behind many others.
      testTimeout: config.timeoutMs * 50 + 60_000,
      hookTimeout: config.timeoutMs * 5 + 10_000,
      passWithNoTests: true,
    },
    { cacheDir: join(PROJECT_ROOT, 'node_modules/.vite-shop-conformance') },
  )
  await vitest.close()
  return collector
}

function progressLine(file: string, results: Result[]): string {
  const judged = results.filter((r) => r.applicable !== false)
  const count = (status: string) => judged.filter((r) => r.status === status).length
  const failed = count('failed')
  const skipped = count('skipped')
  return `  ${moduleIdOf(relative(PROJECT_ROOT, file)).padEnd(30)} ${String(judged.length).padStart(4)} checks  ${count('passed')} passed${failed > 0 ? `, ${failed} FAILED` : ''}${skipped > 0 ? `, ${skipped} not judged` : ''}\n`
}
