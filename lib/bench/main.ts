/**
 * `npm run bench [-- --quick] [--runs N] [--warmup N] [--config NAME ...] [--out FILE] [--keep] [--cpu-prof DIR]`: what a
 * full conformance run costs, against the reference target started once per configuration in a process of its own.
 * `--quick`: one run per configuration and no warm-up; `--cpu-prof DIR`: V8 CPU profiles of the suite process (one
 * file per thread; `node --import tsx lib/bench/profile.ts FILE` summarises one).
 *
 * Per configuration and run: the suite as a child process (request log + stats on), the target's CPU time over
 * the run from /proc, then the floor — the same request sequence replayed by a bare undici loop at the same
 * concurrency. Prints a table and writes reports/bench.json (median, min, max over the runs of each figure).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, release, tmpdir, type as osType } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { REFERENCE_ADMIN } from '../../fixtures/reference-target/index.ts'
import { phases, processCpuMs, runSuite, spread, startTarget, type Phases, type Spread } from './measure.ts'
import { replayLog } from './replay.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

export interface BenchConfiguration {
  name: string
  concurrency: number
  latencyMs: number
}

export const CONFIGURATIONS: readonly BenchConfiguration[] = [
  { name: 'c1', concurrency: 1, latencyMs: 0 },
  { name: 'c4', concurrency: 4, latencyMs: 0 },
  { name: 'c16', concurrency: 16, latencyMs: 0 },
  { name: 'c16-latency20', concurrency: 16, latencyMs: 20 },
]

/** The measurements of one run of one configuration. */
export interface RunFigures {
  requests: number
  suiteWallMs: number
  startupMs: number
  requestPhaseMs: number
  /** Last answer → exit: cleanup of the worker, reports, summary. */
  tailMs: number
  /** Within the request phase, from the request log (see measure.ts `phases`). */
  preflightMs: number | null
  suiteStartMs: number | null
  checksMs: number | null
  cleanupMs: number | null
  floorWallMs: number
  ratio: number
  requestsPerSecond: number
  suiteCpuMs: number
  peakRssMb: number
  targetCpuMs: number
  floorTargetCpuMs: number
  /** CPU time of the bare client while replaying (the bench process). */
  floorClientCpuMs: number
  /** Share of the replayed requests answered with the status the run got (the floor replays, it does not judge). */
  floorSameStatus: number
  latencyRatio: number | null
  exitCode: number | null
}

export interface ConfigurationResult {
  name: string
  concurrency: number
  latencyMs: number
  runs: number
  requests: Spread | null
  suiteWallMs: Spread | null
  floorWallMs: Spread | null
  ratio: Spread | null
  requestsPerSecond: Spread | null
  peakRssMb: Spread | null
  startupMs: Spread | null
  targetCpuMs: Spread | null
  /** Suite wall / (requests × latency / concurrency); null without latency. */
  latencyRatio: Spread | null
  requestPhaseMs: Spread | null
  tailMs: Spread | null
  preflightMs: Spread | null
  suiteStartMs: Spread | null
  checksMs: Spread | null
  cleanupMs: Spread | null
  suiteCpuMs: Spread | null
  floorTargetCpuMs: Spread | null
  floorClientCpuMs: Spread | null
  machine: Machine
  perRun: RunFigures[]
}

export interface Machine {
  cpus: number
  model: string
  node: string
  os: string
  loadAverageAtStart: number[]
}

export function machine(): Machine {
  return {
    cpus: cpus().length,
    model: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    os: `${osType()} ${release()}`,
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
  }
}

/** Figures of one run from what was measured (pure: tested). */
export function figures(
  m: {
    requests: number
    wallMs: number
    firstRequestMs: number
    lastRequestMs: number
    floorWallMs: number
    cpuMs: number
    rssMb: number
    targetCpuMs: number
    floorTargetCpuMs: number
    floorClientCpuMs?: number
    floorSameStatus?: number
    exitCode: number | null
    phases?: Phases | null
  },
  config: Pick<BenchConfiguration, 'concurrency' | 'latencyMs'>,
): RunFigures {
  const requestPhaseMs = m.lastRequestMs - m.firstRequestMs
  const ideal = (m.requests * config.latencyMs) / config.concurrency
  return {
    requests: m.requests,
    suiteWallMs: round(m.wallMs),
    startupMs: round(m.firstRequestMs),
    requestPhaseMs: round(requestPhaseMs),
    tailMs: round(Math.max(0, m.wallMs - m.lastRequestMs)),
    preflightMs: m.phases != null ? round(m.phases.preflightMs) : null,
    suiteStartMs: m.phases != null ? round(m.phases.suiteStartMs) : null,
    checksMs: m.phases != null ? round(m.phases.checksMs) : null,
    cleanupMs: m.phases != null ? round(m.phases.cleanupMs) : null,
    floorWallMs: round(m.floorWallMs),
    ratio: round(requestPhaseMs / m.floorWallMs, 2),
    requestsPerSecond: round(m.requests / (requestPhaseMs / 1000)),
    suiteCpuMs: round(m.cpuMs),
    peakRssMb: round(m.rssMb),
    targetCpuMs: round(m.targetCpuMs),
    floorTargetCpuMs: round(m.floorTargetCpuMs),
    floorClientCpuMs: round(m.floorClientCpuMs ?? 0),
    floorSameStatus: round(m.floorSameStatus ?? 1, 3),
    latencyRatio: config.latencyMs > 0 ? round(m.wallMs / ideal, 2) : null,
    exitCode: m.exitCode,
  }
}

export function summarise(config: BenchConfiguration, runs: RunFigures[], mach: Machine): ConfigurationResult {
  const of = (k: keyof RunFigures) => spread(runs.map((r) => r[k]).filter((v): v is number => typeof v === 'number'))
  return {
    name: config.name,
    concurrency: config.concurrency,
    latencyMs: config.latencyMs,
    runs: runs.length,
    requests: of('requests'),
    suiteWallMs: of('suiteWallMs'),
    floorWallMs: of('floorWallMs'),
    ratio: of('ratio'),
    requestsPerSecond: of('requestsPerSecond'),
    peakRssMb: of('peakRssMb'),
    startupMs: of('startupMs'),
    targetCpuMs: of('targetCpuMs'),
    latencyRatio: of('latencyRatio'),
    requestPhaseMs: of('requestPhaseMs'),
    tailMs: of('tailMs'),
    preflightMs: of('preflightMs'),
    suiteStartMs: of('suiteStartMs'),
    checksMs: of('checksMs'),
    cleanupMs: of('cleanupMs'),
    suiteCpuMs: of('suiteCpuMs'),
    floorTargetCpuMs: of('floorTargetCpuMs'),
    floorClientCpuMs: of('floorClientCpuMs'),
    machine: mach,
    perRun: runs,
  }
}

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
  const target = await startTarget(ROOT, config.latencyMs)
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
      const run = await runSuite(ROOT, { baseUrl: target.url, concurrency: config.concurrency, admin, dir, ...(options.nodeArgs !== undefined ? { nodeArgs: options.nodeArgs } : {}) })
      const cpuAfterRun = processCpuMs(target.pid)
      if (run.exitCode !== 0 && run.exitCode !== 1) throw new Error(`${config.name} ${label}: the suite could not run (exit ${run.exitCode}): ${run.stderr.trim().split('\n').slice(-3).join(' / ')}`)
      if (run.stats.firstRequestMs === null || run.stats.lastRequestMs === null) throw new Error(`${config.name} ${label}: no request was logged`)
      const floor = await replayLog(run.log, target.url, admin, config.concurrency)
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

export function table(results: readonly ConfigurationResult[]): string {
  const header = ['configuration', 'requests', 'wall s', 'start-up s', 'suite start s', 'requests s', 'floor s', 'ratio', 'req/s', 'suite CPU s', 'RSS MB', 'target CPU s', 'target busy', 'latencyRatio']
  const med = (x: Spread | null, f: (n: number) => string) => (x === null ? '—' : f(x.median))
  const range = (x: Spread | null, f: (n: number) => string) => (x === null ? '—' : x.min === x.max ? f(x.median) : `${f(x.median)} (${f(x.min)}–${f(x.max)})`)
  const sec = (n: number) => (n / 1000).toFixed(2)
  const rows = results.map((r) => [
    r.latencyMs > 0 ? `c${r.concurrency}, ${r.latencyMs} ms latency` : `c${r.concurrency}`,
    med(r.requests, (n) => String(Math.round(n))),
    range(r.suiteWallMs, sec),
    med(r.startupMs, sec),
    med(r.suiteStartMs, sec),
    med(r.requestPhaseMs, sec),
    med(r.floorWallMs, sec),
    range(r.ratio, (n) => n.toFixed(2)),
    med(r.requestsPerSecond, (n) => String(Math.round(n))),
    med(r.suiteCpuMs, sec),
    range(r.peakRssMb, (n) => String(Math.round(n))),
    med(r.targetCpuMs, sec),
    // The target is one thread: its CPU time over the request phase says how close it is to being the bottleneck.
    r.targetCpuMs !== null && r.requestPhaseMs !== null ? `${Math.round((r.targetCpuMs.median / r.requestPhaseMs.median) * 100)}%` : '—',
    range(r.latencyRatio, (n) => n.toFixed(2)),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n'
}

interface BenchArgs {
  runs: number
  warmup: number
  configs: string[]
  out: string
  keep: boolean
  cpuProf?: string
}

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = { runs: 5, warmup: 1, configs: [], out: join(ROOT, 'reports', 'bench.json'), keep: false }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    const value = () => {
      const v = argv[++i]
      if (v === undefined) throw new Error(`${a} needs a value`)
      return v
    }
    if (a === '--quick') {
      args.runs = 1
      args.warmup = 0
    } else if (a === '--runs') args.runs = Math.max(1, Number.parseInt(value(), 10) || 1)
    else if (a === '--warmup') args.warmup = Math.max(0, Number.parseInt(value(), 10) || 0)
    else if (a === '--config') args.configs.push(value())
    else if (a === '--out') args.out = resolve(value())
    else if (a === '--keep') args.keep = true
    else if (a === '--cpu-prof') args.cpuProf = resolve(value())
    else throw new Error(`unknown argument "${a}" (usage: npm run bench -- [--quick] [--runs N] [--warmup N] [--config ${CONFIGURATIONS.map((c) => c.name).join('|')} ...] [--out FILE] [--keep] [--cpu-prof DIR])`)
  }
  for (const c of args.configs) if (!CONFIGURATIONS.some((k) => k.name === c)) throw new Error(`unknown configuration "${c}" (${CONFIGURATIONS.map((k) => k.name).join(', ')})`)
  return args
}

async function main(argv: string[]): Promise<number> {
  let args: BenchArgs
  try {
    args = parseBenchArgs(argv)
  } catch (err) {
    process.stderr.write(`bench: ${(err as Error).message}\n`)
    return 2
  }
  const configs = CONFIGURATIONS.filter((c) => args.configs.length === 0 || args.configs.includes(c.name))
  const mach = machine()
  const log = (t: string) => void process.stderr.write(t)
  log(`bench: ${configs.map((c) => c.name).join(', ')}; ${args.runs} run${args.runs > 1 ? 's' : ''} each after ${args.warmup} warm-up; ${mach.cpus} × ${mach.model}, node ${mach.node}; load average ${mach.loadAverageAtStart.join(' ')}\n`)
  const work = mkdtempSync(join(tmpdir(), 'shop-bench-'))
  const nodeArgs = args.cpuProf !== undefined ? ['--cpu-prof', `--cpu-prof-dir=${args.cpuProf}`] : undefined
  const results: ConfigurationResult[] = []
  try {
    for (const config of configs) {
      const runs = await benchConfiguration(config, args.runs, args.warmup, work, { log, ...(nodeArgs !== undefined ? { nodeArgs } : {}) })
      results.push(summarise(config, runs, mach))
    }
  } finally {
    if (!args.keep) rmSync(work, { recursive: true, force: true })
    else log(`bench: run directories kept in ${work}\n`)
  }
  mkdirSync(dirname(args.out), { recursive: true })
  writeFileSync(args.out, `${JSON.stringify({ machine: mach, runsPerConfiguration: args.runs, warmupRunsPerConfiguration: args.warmup, configurations: results }, null, 2)}\n`)
  process.stdout.write(
    `\n${table(results)}\nMedians over ${args.runs} run${args.runs > 1 ? 's' : ''} per configuration${args.warmup > 0 ? ` after ${args.warmup} warm-up run${args.warmup > 1 ? 's' : ''} (dropped)` : ''} (min–max where they differ); ` +
      `load average at start ${mach.loadAverageAtStart.join(' ')} on ${mach.cpus} CPUs: on a shared machine single runs are noisy.\n`,
  )
  process.stdout.write(`wall = process start to exit; start-up = process start to first request; suite start = preflight's last answer to the worker's first request (vitest starting, suites loading; inside "requests");\n`)
  process.stdout.write(`requests = first request to last answer; floor = the same requests replayed by a bare undici loop;\n`)
  process.stdout.write(`ratio = requests / floor; req/s over the request phase; target busy = the reference target's CPU time over the request phase (one thread: 100% = it is the bottleneck).\n`)
  process.stdout.write(`Written: ${args.out}\n`)
  return 0
}

function round(n: number, digits = 1): number {
  const f = 10 ** digits
  return Math.round(n * f) / f
}

function s(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2))
}
