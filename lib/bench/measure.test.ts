import { describe, expect, test } from 'vitest'
import { CONFIGURATIONS, parseBenchArgs, selectedConfigurations } from './args.ts'
import { figures, summarise, type Machine } from './figures.ts'
import { table } from './table.ts'
import { cpuMsFromStat, phases, processCpuMs, spread } from './measure.ts'
import type { LoggedRequest } from './request-log.ts'
import { placeOf, summariseProfile, type CpuProfile } from './profile.ts'

describe('spread', () => {
  test('median, min and max; the mean of the middle two for an even count; null for nothing', () => {
    expect(spread([5, 1, 3])).toEqual({ median: 3, min: 1, max: 5 })
    expect(spread([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4 })
    expect(spread([7])).toEqual({ median: 7, min: 7, max: 7 })
    expect(spread([])).toBeNull()
  })
})

describe('cpuMsFromStat', () => {
  test('utime + stime (fields 14, 15), counted after the command name even when it holds spaces and parentheses', () => {
    const stat = '4242 (node (my) target) S 1 4242 4242 0 -1 4194304 100 0 0 0 250 30 0 0 20 0 11 0 482964 3133440 360'
    expect(cpuMsFromStat(stat, 100)).toBe(2800)
    expect(cpuMsFromStat(stat, 1000)).toBe(280)
  })

  test('reads this process', () => {
    expect(processCpuMs(process.pid)).toBeGreaterThanOrEqual(0)
  })
})

const machine: Machine = { cpus: 2, model: 'test', node: 'v20', os: 'Linux', loadAverageAtStart: [0, 0, 0] }

describe('figures', () => {
  const measured = {
    requests: 1600,
    wallMs: 5000,
    firstRequestMs: 1000,
    lastRequestMs: 4000,
    floorWallMs: 1500,
    cpuMs: 4000,
    rssMb: 200,
    targetCpuMs: 900,
    floorTargetCpuMs: 800,
    exitCode: 0,
  }

  test('request phase, ratio to the floor, throughput over the request phase, tail', () => {
    const f = figures(measured, { concurrency: 4, latencyMs: 0 })
    expect(f).toMatchObject({
      requests: 1600,
      suiteWallMs: 5000,
      startupMs: 1000,
      requestPhaseMs: 3000,
      tailMs: 1000,
      ratio: 2,
      requestsPerSecond: 533.3,
      latencyRatio: null,
    })
  })

  test('with latency: suite wall over requests × latency / concurrency', () => {
    // ideal = 1600 × 20 / 16 = 2000 ms
    expect(figures(measured, { concurrency: 16, latencyMs: 20 }).latencyRatio).toBe(2.5)
  })

  test('summarise gives every listed key as median/min/max, and the table renders', () => {
    const a = figures(measured, { concurrency: 16, latencyMs: 20 })
    const b = figures({ ...measured, wallMs: 6000 }, { concurrency: 16, latencyMs: 20 })
    const r = summarise({ name: 'c16-latency20', concurrency: 16, latencyMs: 20 }, [a, b], machine)
    for (const key of [
      'requests',
      'suiteWallMs',
      'floorWallMs',
      'ratio',
      'requestsPerSecond',
      'peakRssMb',
      'startupMs',
      'targetCpuMs',
      'latencyRatio',
    ] as const) {
      expect(r[key], key).toEqual(
        expect.objectContaining({ median: expect.any(Number), min: expect.any(Number), max: expect.any(Number) }),
      )
    }
    expect(r.suiteWallMs).toEqual({ median: 5500, min: 5000, max: 6000 })
    expect(r.concurrency).toBe(16)
    expect(r.machine.cpus).toBe(2)
    const t = table([
      r,
      summarise(
        { name: 'c1', concurrency: 1, latencyMs: 0 },
        [figures(measured, { concurrency: 1, latencyMs: 0 })],
        machine,
      ),
    ])
    expect(t).toContain('c16, 20 ms latency')
    expect(t.split('\n')[3]).toMatch(/^c1 .* —$/)
  })
})

describe('phases', () => {
  const r = (thread: 'main' | 'worker', startMs: number, endMs: number): LoggedRequest => ({
    thread,
    startMs,
    endMs,
    method: 'GET',
    path: '/V1/x',
    store: 'default',
    caller: 'none',
  })

  test('preflight, suite start, checks and cleanup from the threads of the log', () => {
    const log = [
      r('main', 100, 110),
      r('main', 110, 130),
      r('worker', 900, 950),
      r('worker', 905, 1500),
      r('main', 1510, 1520),
      r('main', 1530, 1560),
    ]
    expect(phases(log)).toEqual({ preflightMs: 30, suiteStartMs: 770, checksMs: 600, cleanupMs: 50 })
    expect(phases([r('main', 1, 2)])).toBeNull()
    expect(phases([r('worker', 5, 10)])).toEqual({ preflightMs: 0, suiteStartMs: 0, checksMs: 5, cleanupMs: 0 })
  })
})

describe('parseBenchArgs', () => {
  test('five runs after one warm-up by default; --quick one and no warm-up; --config picks', () => {
    expect(parseBenchArgs([])).toMatchObject({ runs: 5, warmup: 1 })
    expect(parseBenchArgs(['--quick'])).toMatchObject({ runs: 1, warmup: 0 })
    expect(parseBenchArgs(['--runs', '3', '--warmup', '0'])).toMatchObject({ runs: 3, warmup: 0 })
    expect(parseBenchArgs(['--config', 'c4', '--config', 'c16']).configs).toEqual(['c4', 'c16'])
    expect(() => parseBenchArgs(['--config', 'c3'])).toThrow(/unknown configuration/)
    expect(() => parseBenchArgs(['--fast'])).toThrow(/unknown argument/)
    // The slow shops take minutes: only when named, a group by its name.
    expect(selectedConfigurations([]).map((c) => [c.concurrency, c.latencyMs])).toEqual([
      [1, 0],
      [4, 0],
      [16, 0],
      [16, 20],
    ])
    expect(CONFIGURATIONS.filter((c) => c.heavyMs !== undefined).map((c) => c.name)).toEqual([
      'busy-shop',
      'slow-tenants',
      'slow-tenants-fixed-c4',
      'slow-tenants-fixed-c8',
      'slow-tenants-fixed-c16',
    ])
    expect(selectedConfigurations(['slow-tenants']).map((c) => [c.concurrency, c.pace])).toEqual([
      [8, undefined],
      [4, 'fixed'],
      [8, 'fixed'],
      [16, 'fixed'],
    ])
    expect(parseBenchArgs(['--config', 'slow-tenants']).configs).toEqual(['slow-tenants'])
  })
})

describe('summariseProfile', () => {
  test('self time per function and place from samples × time deltas; inclusive time up the stack; a timeline', () => {
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 })
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)', ''), children: [2, 4] },
        { id: 2, callFrame: frame('outer', 'file:///p/lib/run/run.ts'), children: [3] },
        { id: 3, callFrame: frame('inner', 'file:///p/node_modules/vitest/dist/x.js') },
        { id: 4, callFrame: frame('(idle)', '') },
      ],
      samples: [3, 3, 2, 4],
      timeDeltas: [1000, 1000, 2000, 5000],
      startTime: 0,
      endTime: 9000,
    }
    const s = summariseProfile(profile, /^outer/, 2)
    expect(s.totalMs).toBe(9)
    expect(s.functions[0]).toEqual(['(idle) :1', 5])
    expect(new Map(s.places)).toEqual(
      new Map([
        ['(idle)', 5],
        ['vitest', 2],
        ['lib/run', 2],
      ]),
    )
    expect(s.inclusive).toEqual([['outer lib/run/run.ts:1', 4]])
    expect(s.timeline.map((t) => t.busyMs)).toEqual([2, 2])
    expect(placeOf('node:internal/x', 'f')).toBe('(node)')
    expect(placeOf('file:///p/node_modules/@vitest/runner/dist/a.js', 'f')).toBe('@vitest/runner')
  })
})
