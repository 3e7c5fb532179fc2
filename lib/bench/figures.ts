/**
 * The figures of a run from what was measured, and of a configuration over its runs (median, min, max), with
 * the machine they were measured on: what reports/bench.json holds. Pure but for `machine()`: tested.
 */
import { cpus, loadavg, release, type as osType } from 'node:os'
import type { BenchConfiguration } from './args.ts'
import { spread, type Phases, type Spread } from './measure.ts'

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
  /** A slow shop's: the heavy writes it answered below 400 (slow-shops.ts). */
  heavyAnswered?: number
  /** A slow shop's: results not judged for a timeout. */
  timeouts?: number
}

export interface ConfigurationResult {
  name: string
  concurrency: number
  latencyMs: number
  /** A slow shop's configuration: what its table reads (slow-shops.ts). */
  heavyMs?: number
  pace?: 'fixed'
  group?: string
  heavyAnswered: Spread | null
  timeouts: Spread | null
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
    heavyAnswered?: number
    timeouts?: number
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
    ...(m.heavyAnswered !== undefined ? { heavyAnswered: m.heavyAnswered } : {}),
    ...(m.timeouts !== undefined ? { timeouts: m.timeouts } : {}),
  }
}

export function summarise(config: BenchConfiguration, runs: RunFigures[], mach: Machine): ConfigurationResult {
  const of = (k: keyof RunFigures) => spread(runs.map((r) => r[k]).filter((v): v is number => typeof v === 'number'))
  return {
    name: config.name,
    concurrency: config.concurrency,
    latencyMs: config.latencyMs,
    ...(config.heavyMs !== undefined ? { heavyMs: config.heavyMs } : {}),
    ...(config.pace !== undefined ? { pace: config.pace } : {}),
    ...(config.group !== undefined ? { group: config.group } : {}),
    heavyAnswered: of('heavyAnswered'),
    timeouts: of('timeouts'),
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

function round(n: number, digits = 1): number {
  const f = 10 ** digits
  return Math.round(n * f) / f
}
