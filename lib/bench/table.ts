/** The table `npm run bench` prints, and the notes under it that say what its columns mean. */
import { defined } from '../base/defined.ts'
import type { ConfigurationResult, Machine } from './figures.ts'
import type { Spread } from './measure.ts'
import { slowShopCells, slowShopNotes } from './slow-shops.ts'

/** The table's header and, per configuration, its cells: the one source of the printed table and of the docs' table. */
export function tableCells(results: readonly ConfigurationResult[]): { header: string[]; rows: string[][] } {
  if (results.length > 0 && results.every((r) => r.heavyMs !== undefined)) return slowShopCells(results)
  const header = [
    'configuration',
    'requests',
    'wall s',
    'start-up s',
    'suite start s',
    'requests s',
    'floor s',
    'ratio',
    'req/s',
    'suite CPU s',
    'RSS MB',
    'target CPU s',
    'target busy',
    'latencyRatio',
  ]
  const med = (x: Spread | null, f: (n: number) => string) => (x === null ? '—' : f(x.median))
  const range = (x: Spread | null, f: (n: number) => string) => {
    if (x === null) return '—'
    return x.min === x.max ? f(x.median) : `${f(x.median)} (${f(x.min)}–${f(x.max)})`
  }
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
    r.targetCpuMs !== null && r.requestPhaseMs !== null
      ? `${Math.round((r.targetCpuMs.median / r.requestPhaseMs.median) * 100)}%`
      : '—',
    range(r.latencyRatio, (n) => n.toFixed(2)),
  ])
  return { header, rows }
}

/** The table `npm run bench` prints: the cells in aligned columns. */
export function table(results: readonly ConfigurationResult[]): string {
  const { header, rows } = tableCells(results)
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((row) => defined(row[i], 'a cell of a row as long as the header').length)),
  )
  const line = (cells: string[]) =>
    cells
      .map((c, i) => {
        const width = defined(widths[i], 'the width of a column of the header')
        return i === 0 ? c.padEnd(width) : c.padStart(width)
      })
      .join('  ')
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n'
}

/** What the table's figures are (medians over how many runs, on what load) and what each column measures. */
export function tableNotes(
  runs: number,
  warmup: number,
  mach: Machine,
  results: readonly ConfigurationResult[] = [],
): string {
  if (results.length > 0 && results.every((r) => r.heavyMs !== undefined))
    return slowShopNotes(runs, mach.loadAverageAtStart, mach.cpus)
  return (
    `Medians over ${runs} run${runs > 1 ? 's' : ''} per configuration${warmup > 0 ? ` after ${warmup} warm-up run${warmup > 1 ? 's' : ''} (dropped)` : ''} (min–max where they differ); ` +
    `load average at start ${mach.loadAverageAtStart.join(' ')} on ${mach.cpus} CPUs: on a shared machine single runs are noisy.\n` +
    `wall = process start to exit; start-up = process start to first request; suite start = preflight's last answer to the worker's first request (vitest starting, suites loading; inside "requests");\n` +
    `requests = first request to last answer; floor = the same requests replayed by a bare undici loop;\n` +
    `ratio = requests / floor; req/s over the request phase; target busy = the reference target's CPU time over the request phase (one thread: 100% = it is the bottleneck).\n`
  )
}
