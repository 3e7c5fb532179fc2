/**
 * `npm run bench [-- --quick] [--runs N] [--warmup N] [--config NAME ...] [--out FILE] [--keep] [--cpu-prof DIR]
 * [--write-docs] [--from BENCH.json]`: what a full conformance run costs, against the reference target started once
 * per configuration in a process of its own. `--quick`: one run per configuration and no warm-up; `--cpu-prof DIR`:
 * V8 CPU profiles of the suite process (one file per thread; `node --import tsx lib/bench/profile.ts FILE`
 * summarises one); `--write-docs`: the table into docs/performance.md (docs-table.ts); `--from`: measure nothing,
 * take an earlier bench.json's figures.
 *
 * Per configuration and run: the suite as a child process (request log + stats on), the target's CPU time over
 * the run from /proc, then the floor — the same request sequence replayed by a bare undici loop at the same
 * concurrency. Prints a table and writes reports/bench.json (median, min, max over the runs of each figure).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { REFERENCE_ADMIN } from '../../reference-target/index.ts'
import { ROOT, parseBenchArgs, selectedConfigurations, type BenchArgs, type BenchConfiguration } from './args.ts'
import { heavyAnswered, shopBoundMs, timeoutsOf } from './slow-shops.ts'
import { DOCS_FILE, measuredCommit, withBenchBlock, type BenchRecord } from './docs-table.ts'
import { figures, machine, summarise, type ConfigurationResult, type RunFigures } from './figures.ts'
import { phases, processCpuMs, runSuite, startTarget } from './measure.ts'
import { replayLog } from './replay.ts'
import { table, tableNotes } from './table.ts'

/**
 * `warmup` runs first, measured the same way and then dropped: the target's JIT, tsx's transform cache and the
 * file system cache are warm for the runs that count (a cold first run is an outlier of its own).
 */
async function benchConfiguration(
  config: BenchConfiguration,
  runs: number,
  warmup: number,
  work: string,
  options: { nodeArgs?: string[]; log: (t: string) => void },
): Promise<RunFigures[]> {
  const target = await startTarget(ROOT, config.latencyMs, config.targetArgs)
  const admin = { ...REFERENCE_ADMIN }
  const out: RunFigures[] = []
  try {
    for (let k = 1; k <= warmup + runs; k++) {
      const warm = k <= warmup
      const i = k - warmup
      const label = warm ? `warm-up ${k}/${warmup}` : `run ${i}/${runs}`
      const dir = join(work, `${config.name}-${warm ? `warmup${k}` : i}`)
      mkdirSync(dir, { recursive: true })
      const cpuBefore = processCpuMs(target.pid)
      const runArgs = config.pace !== undefined ? ['--pace', config.pace] : []
      const run = await runSuite(ROOT, {
        baseUrl: target.url,
        concurrency: config.concurrency,
        admin,
        dir,
        runArgs,
        ...(options.nodeArgs !== undefined ? { nodeArgs: options.nodeArgs } : {}),
      })
      const cpuAfterRun = processCpuMs(target.pid)
      if (run.exitCode !== 0 && run.exitCode !== 1)
        throw new Error(
          `${config.name} ${label}: the suite could not run (exit ${run.exitCode}): ${run.stderr.trim().split('\n').slice(-3).join(' / ')}`,
        )
      if (run.stats.firstRequestMs === null || run.stats.lastRequestMs === null)
        throw new Error(`${config.name} ${label}: no request was logged`)
      // A slow shop's run is measured against the shop's own bound (slow-shops.ts), not a replay.
      const slow =
        config.heavyMs === undefined
          ? undefined
          : { heavy: heavyAnswered(run.log), timeouts: timeoutsOf(readReport(dir)) }
      const floor =
        slow === undefined
          ? await replayLog(run.log, target.url, admin, config.concurrency)
          : { wallMs: shopBoundMs(config, slow.heavy), failed: 0, requests: 0, cpuMs: 0, sameStatus: 1 }
      if (slow !== undefined)
        options.log(
          `  ${config.name}: ${slow.heavy} heavy writes of ${config.heavyMs} ms answered; the shop's bound ${(floor.wallMs / 1000).toFixed(1)} s; ${slow.timeouts} results not judged for a timeout\n`,
        )
      const cpuAfterFloor = processCpuMs(target.pid)
      if (floor.failed > 0) options.log(`  (replay: ${floor.failed} of ${floor.requests} requests got no answer)\n`)
      const f = figures(
        {
          requests: run.log.length,
          wallMs: run.wallMs,
          firstRequestMs: run.stats.firstRequestMs,
          lastRequestMs: run.stats.lastRequestMs,
          floorWallMs: floor.wallMs,
          cpuMs: run.stats.cpuUserMs + run.stats.cpuSystemMs,
          rssMb: run.stats.maxRssMb,
          targetCpuMs: cpuAfterRun - cpuBefore,
          floorTargetCpuMs: cpuAfterFloor - cpuAfterRun,
          floorClientCpuMs: floor.cpuMs,
          floorSameStatus: floor.sameStatus,
          exitCode: run.exitCode,
          phases: phases(run.log),
          ...(slow !== undefined ? { heavyAnswered: slow.heavy, timeouts: slow.timeouts } : {}),
        },
        config,
      )
      if (!warm) out.push(f)
      options.log(
        `  ${config.name} ${label}: ${f.requests} requests, wall ${s(f.suiteWallMs)} (start-up ${s(f.startupMs)}, requests ${s(f.requestPhaseMs)}` +
          ` [preflight ${s(f.preflightMs ?? 0)}, suite start ${s(f.suiteStartMs ?? 0)}, checks ${s(f.checksMs ?? 0)}, cleanup ${s(f.cleanupMs ?? 0)}], tail ${s(f.tailMs)}), floor ${s(f.floorWallMs)} (${Math.round(f.floorSameStatus * 100)}% same status), ratio ${f.ratio}` +
          `${f.latencyRatio !== null ? `, latencyRatio ${f.latencyRatio}` : ''}, exit ${f.exitCode}\n`,
      )
    }
  } finally {
    await target.stop()
  }
  return out
}

async function main(argv: string[]): Promise<number> {
  let args: BenchArgs
  try {
    args = parseBenchArgs(argv)
  } catch (err) {
    process.stderr.write(`bench: ${(err as Error).message}\n`)
    return 2
  }
  const record =
    args.from !== undefined ? (JSON.parse(readFileSync(args.from, 'utf8')) as BenchRecord) : await measure(args)
  if (args.from === undefined) {
    mkdirSync(dirname(args.out), { recursive: true })
    writeFileSync(args.out, `${JSON.stringify(record, null, 2)}\n`)
  }
  process.stdout.write(
    `\n${table(record.configurations)}\n${tableNotes(record.runsPerConfiguration, record.warmupRunsPerConfiguration, record.machine, record.configurations)}`,
  )
  if (args.from === undefined) process.stdout.write(`Written: ${args.out}\n`)
  if (args.writeDocs) {
    const file = join(ROOT, DOCS_FILE)
    try {
      writeFileSync(file, withBenchBlock(readFileSync(file, 'utf8'), record))
    } catch (err) {
      process.stderr.write(`bench: ${(err as Error).message}\n`)
      return 2
    }
    process.stdout.write(
      `Written: the table of ${record.configurations.map((c) => c.name).join(' ')} in ${DOCS_FILE}\n`,
    )
  }
  return 0
}

/** The report a run wrote (its results: a slow shop's timeouts are counted from them). */
function readReport(dir: string): { results?: { status?: string; reason?: string }[] } {
  try {
    return JSON.parse(readFileSync(join(dir, 'report', 'report.json'), 'utf8')) as {
      results?: { status?: string; reason?: string }[]
    }
  } catch {
    return {}
  }
}

/** Every configuration asked for (by default all but the slow shops, which take minutes), measured in turn. */
async function measure(args: BenchArgs): Promise<BenchRecord> {
  const configs = selectedConfigurations(args.configs)
  const mach = machine()
  const log = (t: string) => void process.stderr.write(t)
  log(
    `bench: ${configs.map((c) => c.name).join(', ')}; ${args.runs} run${args.runs > 1 ? 's' : ''} each after ${args.warmup} warm-up; ${mach.cpus} × ${mach.model}, node ${mach.node}; load average ${mach.loadAverageAtStart.join(' ')}\n`,
  )
  const commit = measuredCommit(ROOT)
  const date = new Date().toISOString().slice(0, 10)
  const work = mkdtempSync(join(tmpdir(), 'shop-bench-'))
  const nodeArgs = args.cpuProf !== undefined ? ['--cpu-prof', `--cpu-prof-dir=${args.cpuProf}`] : undefined
  const results: ConfigurationResult[] = []
  try {
    for (const config of configs) {
      const runs = await benchConfiguration(config, args.runs, args.warmup, work, {
        log,
        ...(nodeArgs !== undefined ? { nodeArgs } : {}),
      })
      results.push(summarise(config, runs, mach))
    }
  } finally {
    if (!args.keep) rmSync(work, { recursive: true, force: true })
    else log(`bench: run directories kept in ${work}\n`)
  }
  return {
    machine: mach,
    runsPerConfiguration: args.runs,
    warmupRunsPerConfiguration: args.warmup,
    configurations: results,
    ...(commit !== undefined ? { commit } : {}),
    date,
  }
}

function s(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2))
}
