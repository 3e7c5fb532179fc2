/** What `npm run bench` is asked to do: the configurations it can measure, and its arguments choosing among them. */
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defined } from '../base/defined.ts'

/** The project's root: the suite and the target run from it, and the default --out is under it. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

export interface BenchConfiguration {
  name: string
  concurrency: number
  latencyMs: number
  /** The reference target's flags beyond its port and latency (a variant). */
  targetArgs?: readonly string[]
  /**
   * A slow shop whose heavy writes take this long (the busy-shop and slow-tenants variants): measured against a bound
   * (slow-shops.ts), not against a replay, which would only wait them out again. Run only when named
   * (`--config busy-shop`, `--config slow-tenants`): a run takes minutes.
   */
  heavyMs?: number
  /** `fixed`: the run keeps `concurrency` in flight (`--pace fixed`); default the run's adaptive pace. */
  pace?: 'fixed'
  /**
   * Configurations measured together when the group is named (`--config slow-tenants`): a bound of one is the others'
   * best.
   */
  group?: string
}

export const CONFIGURATIONS: readonly BenchConfiguration[] = [
  { name: 'c1', concurrency: 1, latencyMs: 0 },
  { name: 'c4', concurrency: 4, latencyMs: 0 },
  { name: 'c16', concurrency: 16, latencyMs: 0 },
  { name: 'c16-latency20', concurrency: 16, latencyMs: 20 },
  // A staging shop (PHP's server, 8 workers on 2 busy cores, an order placed in 5 s), with the run's default settings.
  { name: 'busy-shop', concurrency: 8, latencyMs: 0, targetArgs: ['--variant', 'busy-shop'], heavyMs: 5_000 },
  // A shop slowed by its other tenants (a heavy write 15 s however many are in flight): the run's default settings,
  // against the same shop with the run's bound fixed at 4, 8 and 16 — the best of which it must come near.
  ...[undefined, 4, 8, 16].map(
    (fixed): BenchConfiguration => ({
      name: fixed === undefined ? 'slow-tenants' : `slow-tenants-fixed-c${fixed}`,
      concurrency: fixed ?? 8,
      latencyMs: 0,
      targetArgs: ['--variant', 'slow-tenants', '--heavy-ms', '15000'],
      heavyMs: 15_000,
      group: 'slow-tenants',
      ...(fixed !== undefined ? { pace: 'fixed' as const } : {}),
    }),
  ),
]

/** The configurations `--config` names: a configuration's own name, or a group's. */
export function selectedConfigurations(names: readonly string[]): BenchConfiguration[] {
  if (names.length === 0) return CONFIGURATIONS.filter((c) => c.heavyMs === undefined)
  return CONFIGURATIONS.filter((c) => names.includes(c.name) || (c.group !== undefined && names.includes(c.group)))
}

export interface BenchArgs {
  runs: number
  warmup: number
  configs: string[]
  out: string
  keep: boolean
  cpuProf?: string
  /** Write the table into docs/performance.md, between the markers of the configurations measured. */
  writeDocs: boolean
  /** Measure nothing: take the figures of an earlier bench.json (to print or write its table). */
  from?: string
}

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = {
    runs: 5,
    warmup: 1,
    configs: [],
    out: join(ROOT, 'reports', 'bench.json'),
    keep: false,
    writeDocs: false,
  }
  for (let i = 0; i < argv.length; i++) {
    const a = defined(argv[i], 'an argument inside argv')
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
    else if (a === '--write-docs') args.writeDocs = true
    else if (a === '--from') args.from = resolve(value())
    else
      throw new Error(
        `unknown argument "${a}" (usage: npm run bench -- [--quick] [--runs N] [--warmup N] [--config ${[...new Set(CONFIGURATIONS.map((c) => c.group ?? c.name))].join('|')} ...] [--out FILE] [--keep] [--cpu-prof DIR] [--write-docs] [--from BENCH.json])`,
      )
  }
  const known = [...new Set(CONFIGURATIONS.flatMap((k) => [k.name, ...(k.group !== undefined ? [k.group] : [])]))]
  for (const c of args.configs)
    if (!known.includes(c)) throw new Error(`unknown configuration "${c}" (${known.join(', ')})`)
  return args
}
