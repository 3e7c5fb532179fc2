import { createHash } from 'node:crypto'
import type { Result } from '../results/result.ts'
import { UsageError } from '../base/usage-error.ts'
import { defined } from '../base/defined.ts'
import { completeReport, type ReportDraft } from './complete.ts'
import { sortResults, summarise, type Report } from './model.ts'
import { canonicalJson, reportDigest } from './sign.ts'
import { implementationOf } from './target.ts'
import { joinLists, serverErrorsBlock } from '../results/server-errors.ts'
import { longestDeadlines, type DeadlinesUsed } from '../results/deadlines.ts'

/**
 * One report from the shards of a split run (`--shard i/n`: each shard ran its share of the suite files
 * against the same target, with the same settings and seed).
 *
 * What makes reports shards of one run is what `splitIdentity` lists — versions, target, seed and every
 * recorded setting, the baseline included — and the same shard count: anything else is refused, naming the
 * first difference. The same shard given twice is taken once when the two are identical (the same file
 * twice) and refused when they differ (two runs of that shard). Shards not given are named; the merged
 * scope then says they are missing, so the verdict is partial. The certification, the baseline's state and
 * the exit are judged anew from the merged results (complete.ts), never copied from a shard.
 */
export interface Merged {
  report: Report
  /** `i/n` of every shard of the split run that was not given. */
  missing: string[]
  /** Names of inputs dropped as identical copies of another. */
  duplicates: string[]
}

export function mergeReports(
  reports: readonly Report[],
  names: readonly string[] = reports.map((_, i) => `report ${i + 1}`),
): Merged {
  const first = reports[0]
  if (first === undefined) throw new UsageError('report merge: no reports given')
  const name = (i: number) => names[i] ?? `report ${i + 1}`
  requireShardsOfOneRun(reports, first, name)
  const { shards, duplicates, missing } = oneReportPerShard(reports, shardOf(first).count, name)
  const results = mergedResults(shards, name)
  const given = shards.map((s) => s.report)
  const draft = mergedDraft(first, given, results, missing)
  const baseline = first.baseline
  const report = completeReport(draft, {
    // Made when any shard was: a shard that could not be made shows as its run errors.
    made: given.some((r) => r.exit?.status !== 2),
    ...(baseline !== undefined
      ? {
          baseline: {
            file: baseline.file,
            baseline: { version: 1, entries: baseline.entries },
            allowStale: baseline.allowStale,
          },
        }
      : {}),
  })
  return { report, missing, duplicates }
}

/** An input's name in a message: the file it was read from, or `report <n>`. */
type NameOf = (i: number) => string

/** A shard given, with the index of the input it came from and its digest. */
interface ShardGiven {
  report: Report
  at: number
  digest: string
}

function shardOf(r: Report): { index: number; count: number } {
  return parseShard(r.run.shard ?? '1/1')
}

/**
 * Refuses reports that are not shards of one run, naming the first difference: a report without a plan (the
 * merge's certification counts from the plans), another shard count, or another identity (splitIdentity).
 */
function requireShardsOfOneRun(reports: readonly Report[], first: Report, name: NameOf): void {
  const count = shardOf(first).count
  const identity = splitIdentity(first)
  reports.forEach((r, i) => {
    // The certification of the merge counts from the shards' plans: a report without one cannot be judged.
    if (typeof r.plan !== 'object' || r.plan === null)
      throw new UsageError(
        `report merge: ${name(i)} has no "plan" block (written by an older shop-conformance): run its shard again`,
      )
    if (i === 0) return
    if (shardOf(r).count !== count)
      throw new UsageError(
        `report merge: ${name(i)} is shard ${r.run.shard ?? '1/1'}, ${name(0)} shard ${first.run.shard ?? '1/1'}: shards of one run are split the same way`,
      )
    // By name: a setting recorded only when given (`--max-rps`) is `none` where it is absent.
    const own = new Map(splitIdentity(r))
    const expected = new Map(identity)
    for (const what of new Set([...expected.keys(), ...own.keys()])) {
      const [value, wanted] = [own.get(what) ?? 'none', expected.get(what) ?? 'none']
      if (value !== wanted)
        throw new UsageError(
          `report merge: ${name(i)} is of ${what} ${value}, ${name(0)} of ${wanted}; only shards of one run can be merged`,
        )
    }
  })
}

/**
 * One report per shard, in shard order: an identical copy is dropped (and named in `duplicates`), a different
 * report of the same shard refused; `missing`: the shards of the `count` not given.
 */
function oneReportPerShard(
  reports: readonly Report[],
  count: number,
  name: NameOf,
): { shards: ShardGiven[]; duplicates: string[]; missing: string[] } {
  const byShard = new Map<number, ShardGiven>()
  const duplicates: string[] = []
  reports.forEach((r, i) => {
    const index = shardOf(r).index
    const digest = reportDigest(r)
    const seen = byShard.get(index)
    if (seen === undefined) byShard.set(index, { report: r, at: i, digest })
    else if (seen.digest === digest) duplicates.push(name(i))
    else
      throw new UsageError(
        `report merge: ${name(seen.at)} and ${name(i)} are both shard ${index}/${count} but differ (runs ${seen.report.run.id} and ${r.run.id}): give each shard once`,
      )
  })
  const shards = [...byShard.entries()].sort(([a], [b]) => a - b).map(([, s]) => s)
  const missing = Array.from({ length: count }, (_, k) => k + 1)
    .filter((k) => !byShard.has(k))
    .map((k) => `${k}/${count}`)
  return { shards, duplicates, missing }
}

/** The shards' results, each id once: a result two shards judged differently is refused. */
function mergedResults(shards: readonly ShardGiven[], name: NameOf): Result[] {
  const byId = new Map<string, { result: Result; from: number }>()
  for (const { report, at } of shards) {
    for (const result of report.results) {
      const seen = byId.get(result.id)
      if (seen === undefined) byId.set(result.id, { result, from: at })
      else if (seen.result.status !== result.status) {
        throw new UsageError(
          `report merge: "${result.id}" is ${seen.result.status} in ${name(seen.from)} and ${result.status} in ${name(at)}`,
        )
      }
    }
  }
  return [...byId.values()].map((x) => x.result)
}

/**
 * The merged report before its verdict: the first shard's suite, spec and target, the run as one (mergedRun), its
 * time from the first start to the last finish, and every shard's facts together. `given`: the shards, in order.
 */
function mergedDraft(
  first: Report,
  given: readonly Report[],
  results: Result[],
  missing: readonly string[],
): ReportDraft {
  const startedAt = new Date(Math.min(...given.map((r) => Date.parse(r.startedAt))))
  const finishedAt = new Date(Math.max(...given.map((r) => Date.parse(r.finishedAt))))
  const all = <T>(pick: (r: Report) => T[]): T[] => given.flatMap(pick)
  const unique = <T>(items: T[]): T[] => [...new Map(items.map((x) => [JSON.stringify(x), x])).values()]
  // An empty shard read no schema (nor the extension operations the plan adds from it): a shard that ran says them.
  const ran =
    given.find((r) => r.run.emptyShard === undefined) ?? defined(given[0], 'the report of the first shard given')
  const cutShort = given.find((r) => r.partial !== undefined)?.partial
  const plan = mergedPlan(ran, given, missing)
  return {
    suite: first.suite,
    spec: first.spec,
    target: first.target,
    run: mergedRun(first, given),
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    // One shard cut short makes the whole partial.
    ...(cutShort !== undefined ? { partial: cutShort } : {}),
    summary: summarise(results),
    calibration: {
      noRoute: unique(all((r) => r.calibration.noRoute)),
      unknownStore: unique(all((r) => r.calibration.unknownStore)),
    },
    created: all((r) => r.created),
    cleanup: {
      removed: given.reduce((n, r) => n + (r.cleanup?.removed ?? 0), 0),
      leftovers: all((r) => r.cleanup?.leftovers ?? []),
    },
    runErrors: all((r) => r.runErrors),
    ...(given.some((r) => (r.notes ?? []).length > 0) ? { notes: all((r) => r.notes ?? []) } : {}),
    plan,
    // Each shard that ran read the same shop's schema: the first one's says it (the extensions' results are merged
    // above).
    ...(ran.schema !== undefined ? { schema: ran.schema } : {}),
    // Each shard's server errors, the same request once (its counts, results and steps joined).
    ...(given.some((r) => r.serverErrors !== undefined) ? { serverErrors: joinedServerErrors(given) } : {}),
    results: sortResults(results, plan),
  }
}

/** The run as one: the first shard's settings, the split's id, every shard's id, and the longest deadlines used. */
function mergedRun(first: Report, given: readonly Report[]): ReportDraft['run'] {
  const { shard: _shard, deadlines: _deadlines, emptyShard: _empty, ...run } = first.run
  // Each shard's deadlines grew with what its shop showed: the merged run used the longest of each kind.
  const deadlines = given
    .map((r) => r.run.deadlines)
    .reduce<DeadlinesUsed | undefined>((a, b) => {
      if (a === undefined) return b
      return b === undefined ? a : longestDeadlines(a, b)
    }, undefined)
  return {
    ...run,
    ...(deadlines !== undefined ? { deadlines } : {}),
    id: splitIdOf(first),
    splitId: splitIdOf(first),
    shards: given.map((r) => ({ shard: r.run.shard ?? '1/1', id: r.run.id })),
  }
}

function joinedServerErrors(given: readonly Report[]): NonNullable<Report['serverErrors']> {
  return serverErrorsBlock(joinLists(given.flatMap((r) => (r.serverErrors !== undefined ? [r.serverErrors] : []))))
}

/**
 * The shards' plans as one: the same suite and kinds (shards of one suite version: those of `ran`, a shard that
 * ran), their modules and selected checks together, and what narrowed them but the shards themselves — plus the
 * shards missing.
 */
function mergedPlan(ran: Report, given: readonly Report[], missing: readonly string[]): Report['plan'] {
  const first = ran.plan
  const modules = new Set(given.flatMap((r) => r.plan.modules))
  const selected = new Map(given.flatMap((r) => r.plan.selected).map((s) => [s.id, s]))
  return {
    kinds: first.kinds,
    suite: first.suite,
    modules: [...first.suite.map((s) => s.module), ...modules].filter(
      (m, i, all) => modules.has(m) && all.indexOf(m) === i,
    ),
    selected: [...selected.values()],
    // Every shard's own narrowing (`-t`, file filters) holds for the merge: a slice in one shard makes the whole
    // partial.
    limitedBy: [
      ...new Set(given.flatMap((r) => r.plan.limitedBy.filter((l) => !/^shard \d+\/\d+$/.test(l)))),
      ...missing.map((m) => `shard ${m} missing`),
    ],
  }
}

/**
 * What identifies one run across its shards, as `[what, value]` pairs in a fixed order: the suite and spec
 * versions, the target, the seed and every recorded setting (the baseline too). Shards are separate
 * processes with run ids of their own; these are what they share (`--shard` requires `--seed` for that).
 */
function splitIdentity(r: Pick<Report, 'suite' | 'spec' | 'target' | 'run' | 'baseline'>): [string, string][] {
  const run = r.run
  const list = (xs: readonly string[]) => (xs.length === 0 ? '(all)' : xs.join(','))
  return [
    ['spec version', r.spec.version],
    ['suite version', r.suite.version],
    ['target', targetKey(r.target)],
    ['seed', String(run.seed)],
    ['--module', list(run.modules)],
    ['--check', list(run.checks)],
    ['read-only', String(run.readOnly)],
    ['--path-alias', list(run.pathAliases.map((a) => `${a.from}=${a.to}`))],
    ['--timeout-ms', String(run.timeoutMs)],
    // Recorded since issue 29: absent, the identity is what it was before.
    ...(run.maxTimeoutMs !== undefined ? [['--max-timeout-ms', String(run.maxTimeoutMs)] as [string, string]] : []),
    ['--concurrency', String(run.concurrency)],
    // Recorded since issue 31, when given: absent, the identity is what it was before.
    ...(run.maxRps !== undefined ? [['--max-rps', String(run.maxRps)] as [string, string]] : []),
    ['TLS verification', r.target.tlsVerification ?? 'on'],
    [
      'baseline',
      r.baseline === undefined
        ? 'none'
        : `${r.baseline.file} (${digestOf(r.baseline.entries)}${r.baseline.allowStale ? ', --allow-stale' : ''})`,
    ],
  ]
}

/** The id every shard of one split run shares: a digest of its identity and shard count. */
export function splitIdOf(r: Pick<Report, 'suite' | 'spec' | 'target' | 'run' | 'baseline'>): string {
  return `split-${digestOf([...splitIdentity(r), ['shards', String(parseShard(r.run.shard ?? '1/1').count)]])}`
}

function digestOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 12)
}

function parseShard(text: string): { index: number; count: number } {
  const [index, count] = text.split('/').map(Number)
  return { index: index ?? 1, count: count ?? 1 }
}

/** The bundled reference target listens on a new port each run: shards against it are one target. */
function targetKey(t: Report['target']): string {
  const what = implementationOf(t)
  return `${what !== undefined ? `${what} at ` : ''}${t.bundledReferenceTarget ? '(bundled reference target)' : t.baseUrl}, store ${t.storeCode}, second store ${t.secondStoreCode}`
}
