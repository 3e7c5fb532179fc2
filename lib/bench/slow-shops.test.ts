/** The slow shops' figures and table (slow-shops.ts): from a run's request log and report, against the shop's bound. */
import { describe, expect, test } from 'vitest'
import { CONFIGURATIONS } from './args.ts'
import { figures, summarise, type Machine } from './figures.ts'
import type { LoggedRequest } from './request-log.ts'
import { heavyAnswered, shopBoundMs, slowShopCells, timeoutsOf } from './slow-shops.ts'
import { tableCells } from './table.ts'

const MACHINE: Machine = { cpus: 2, model: 'x', node: 'v20', os: 'Linux', loadAverageAtStart: [1, 1, 1] }
const q = (method: string, path: string, status?: number): LoggedRequest => ({
  thread: 'worker',
  startMs: 0,
  endMs: 1,
  method,
  path,
  store: 'default',
  caller: 'admin',
  ...(status !== undefined ? { status } : {}),
})

describe('slow shops', () => {
  test('count the heavy writes the shop answered below 400, and the results not judged for a timeout', () => {
    const log = [
      q('PUT', '/V1/guest-carts/abc/order', 200),
      q('POST', '/V1/products', 401),
      q('POST', '/V1/products', 200),
      q('POST', '/V1/order/3/invoice'),
      q('GET', '/V1/orders/1', 200),
    ]
    expect(heavyAnswered(log)).toBe(2)
    expect(
      timeoutsOf({
        results: [
          { status: 'skipped', reason: 'timeout' },
          { status: 'skipped', reason: 'read-only' },
          { status: 'passed' },
        ],
      }),
    ).toBe(1)
    expect(timeoutsOf({})).toBe(0)
  })

  test("are bounded by the shop: heavy writes over the busy shop's two cores; the best fixed bound's wall for the slowed shop", () => {
    const busy = CONFIGURATIONS.find((c) => c.name === 'busy-shop')!
    const tenants = CONFIGURATIONS.filter((c) => c.group === 'slow-tenants')
    expect(shopBoundMs(busy, 147)).toBe(367_500)
    const run = (wallMs: number, heavy: number, config: (typeof CONFIGURATIONS)[number]) =>
      figures(
        {
          requests: 2000,
          wallMs,
          firstRequestMs: 500,
          lastRequestMs: wallMs - 100,
          floorWallMs: shopBoundMs(config, heavy),
          cpuMs: 1,
          rssMb: 1,
          targetCpuMs: 1,
          floorTargetCpuMs: 0,
          exitCode: 0,
          heavyAnswered: heavy,
          timeouts: 0,
        },
        config,
      )
    const results = [
      summarise(busy, [run(374_000, 147, busy)], MACHINE),
      ...tenants.map((c, i) => summarise(c, [run([330_000, 600_000, 300_000, 420_000][i]!, 147, c)], MACHINE)),
    ]
    const { header, rows } = slowShopCells(results)
    expect(header).toEqual([
      'configuration',
      'requests',
      'heavy writes',
      'wall s',
      'bound s',
      'wall / bound',
      'not judged: timeout',
      'exit',
    ])
    expect(rows).toEqual([
      ['busy shop, c8, adaptive', '2000', '147', '374.0', '367.5', '1.02', '0', '0'],
      // Against the best fixed run of the same bench: c8's 300 s.
      ['slow tenants, c8, adaptive', '2000', '147', '330.0', '300.0', '1.10', '0', '0'],
      ['slow tenants, c4, fixed', '2000', '147', '600.0', '—', '—', '0', '0'],
      ['slow tenants, c8, fixed', '2000', '147', '300.0', '—', '—', '0', '0'],
      ['slow tenants, c16, fixed', '2000', '147', '420.0', '—', '—', '0', '0'],
    ])
    // The bench's table of slow shops is this one; the default configurations keep theirs.
    expect(tableCells(results).header).toEqual(header)
  })
})
