import { plural } from '../base/text.ts'
import { ERROR_WORDS, type CodeOwner } from '../results/crash.ts'
import type { Result } from '../results/result.ts'
import { staleRemedy } from './baseline.ts'
import type { Exit, ExitStatus, Report } from './model.ts'

/**
 * Exit status of `run`: 0 no check failed (with a baseline: no new failure and no stale entry, unless
 * allowed); 1 a check failed, a stale baseline entry, a check whose code threw (an extension's or a vendor's as
 * `--extensions` says), or an error of the run after it started; 2 the run could not be made; 124 the deadline
 * cut the run short; 130/143 interrupted by SIGINT/SIGTERM.
 *
 * A run cut short gets its own status, never 1: it says "we do not know", not "the target fails", so a CI can
 * retry it or give it more time instead of blaming the target (124 is what timeout(1) exits with).
 */
/** The exit status of a run cut short by its deadline or a signal (timeout(1)'s 124; 128 + the signal's number). */
const STOPPED_STATUS: Readonly<Record<Exclude<NonNullable<Report['partial']>['reason'], 'target-gone'>, ExitStatus>> = {
  deadline: 124,
  SIGINT: 130,
  SIGTERM: 143,
}

/** How every format names what cut a run short. */
export function stopWords(reason: NonNullable<Report['partial']>['reason']): string {
  if (reason === 'deadline') return 'the run deadline (--run-timeout-ms)'
  if (reason === 'target-gone') return 'the target, which stopped answering'
  return reason
}

/** How every output says a shard that got none of the selection's suite files (vitest splits a run by suite file). */
export function emptyShardWords(shard: string, suiteFiles: number): string {
  return `empty shard: shard ${shard} got none of the selection's ${plural(suiteFiles, 'suite file')} (the other shards run ${suiteFiles === 1 ? 'it' : 'them'}); nothing was judged or sent to the shop`
}

export function exitOf(
  report: Pick<Report, 'results' | 'runErrors' | 'partial' | 'baseline'> & {
    run?: Pick<Report['run'], 'extensions' | 'shard' | 'emptyShard'>
  },
  made = true,
): Exit {
  if (!made) return { status: 2, reason: `the run could not be made: ${report.runErrors[0] ?? 'no reason recorded'}` }
  const b = report.baseline
  // A failure counts unless the baseline lists it; an extension's (not the spec's) only when the run gates on them.
  const fresh = report.results.filter((r) => r.status === 'failed' && (b === undefined || b.newFailures.includes(r.id)))
  const spec = fresh.filter((r) => r.extension !== true).length
  const extension = fresh.length - spec
  const gate = (report.run?.extensions ?? 'gate') === 'gate'
  const stale = b !== undefined && !b.allowStale ? b.stale.length : 0
  const errors = errorCounts(report.results)
  const notTheSpecs = "not the spec's; --extensions report-only reports them without failing the run"
  let specFailures = ''
  if (spec > 0)
    specFailures =
      b !== undefined ? `${plural(spec, 'new failure')} (not in the baseline)` : `${plural(spec, 'check')} failed`
  const findings = [
    specFailures,
    extension > 0 && gate ? `${plural(extension, 'extension check')} failed (${notTheSpecs})` : '',
    stale > 0 && b !== undefined
      ? `${plural(stale, 'stale baseline entry', 'stale baseline entries')} (now passing: ${staleRemedy(b, stale)})`
      : '',
    errors.spec > 0 ? `${plural(errors.spec, 'check')} errored (${ERROR_WORDS.suite})` : '',
    ...(gate
      ? errors.outside.map(
          (e) => `${plural(e.count, `${e.origin} check`)} errored (${ERROR_WORDS[e.owner]}; ${notTheSpecs})`,
        )
      : []),
  ].filter((t) => t !== '')
  const stop = report.partial?.reason
  if (stop === 'target-gone') {
    // An outage (a staging redeploy, a crashed shop) is no verdict: a CI gate must not blame a pull request for it.
    const why =
      (report.runErrors ?? []).find((e) => e.startsWith('the target stopped answering')) ??
      'the target stopped answering'
    return {
      status: 2,
      reason: `the run was cut short: ${why}${findings.length > 0 ? `; before that, ${findings.join(', ')}` : ''}`,
    }
  }
  if (stop !== undefined) {
    const status = STOPPED_STATUS[stop]
    const what = stop === 'deadline' ? 'cut short by the run deadline (--run-timeout-ms)' : `interrupted by ${stop}`
    return {
      status,
      reason: `${what}: the results cover only what finished${findings.length > 0 ? `; before that, ${findings.join(', ')}` : ''}`,
    }
  }
  const runErrors = report.runErrors.length > 0 ? [plural(report.runErrors.length, 'run error')] : []
  if (findings.length + runErrors.length > 0) return { status: 1, reason: [...findings, ...runErrors].join(', ') }
  const empty = report.run?.emptyShard
  if (empty !== undefined) return { status: 0, reason: emptyShardWords(report.run?.shard ?? '1/1', empty.suiteFiles) }
  const onlyReported = [
    ...(extension > 0 ? [`${plural(extension, 'extension check')} failed`] : []),
    ...errors.outside.map((e) => `${plural(e.count, `${e.origin} check`)} errored`),
  ]
  const reported =
    onlyReported.length > 0 ? `; ${onlyReported.join(', ')}, reported only (--extensions report-only)` : ''
  if (b === undefined) return { status: 0, reason: `no check failed${reported}` }
  const allowed =
    b.allowStale && b.stale.length > 0 ? `, ${plural(b.stale.length, 'stale entry', 'stale entries')} allowed` : ''
  return { status: 0, reason: `no new failure (${b.baselinedFailures.length} baselined${allowed})${reported}` }
}

/**
 * Results whose check's code threw: the spec's (always the suite's own code), and those from outside the spec
 * by origin — an extension operation's checks are the suite's code, a vendor's check the vendor's.
 */
function errorCounts(results: readonly Result[]): {
  spec: number
  outside: { origin: string; owner: CodeOwner; count: number }[]
} {
  const errored = results.filter((r) => r.status === 'error')
  const outside = (['extension', 'vendor'] as const)
    .map((origin) => ({
      origin,
      owner: origin === 'vendor' ? ('vendor' as const) : ('suite' as const),
      count: errored.filter((r) => r.extension === true && r.origin === origin).length,
    }))
    .filter((e) => e.count > 0)
  return { spec: errored.filter((r) => r.extension !== true).length, outside }
}

/**
 * What a report is the story of — decided here, once, and read by every format and command:
 * - `not made`: the run could not be made (exit 2, nothing cut short: a bad setting, the target unreachable,
 *   credentials refused). It judged nothing: its empty list of failures is no baseline, and it states nothing
 *   about the target to sign.
 * - `cut short`: the run started and was stopped before its end (a deadline, a signal, a target that stopped
 *   answering — the last exits 2 too, but it is no run that never started): what it judged stands, the rest is
 *   not judged.
 * - `whole`: the run reached its end.
 */
type RunStory = { kind: 'not made'; text: string } | { kind: 'cut short'; text: string } | { kind: 'whole' }

/** What the story is read from (each optional: a command reads reports of older suites too). */
type StoryFacts = Partial<Pick<Report, 'exit' | 'partial' | 'runErrors'>> & {
  certification?: Pick<Report['certification'], 'required' | 'notJudged'>
}

export function runStory(report: StoryFacts): RunStory {
  const p = report.partial
  if (p !== undefined) {
    const c = report.certification
    const judged = c !== undefined ? `; it judged ${c.required - c.notJudged} of ${c.required} required checks` : ''
    const error =
      p.reason === 'target-gone'
        ? (report.runErrors ?? []).find((e) => e.startsWith('the target stopped answering'))
        : undefined
    const after = p.requests !== undefined ? ` after ${p.requests} requests` : ''
    return {
      kind: 'cut short',
      text: `a run cut short${after} by ${stopWords(p.reason)}${judged}${error !== undefined ? `; its run error: ${error}` : ''}`,
    }
  }
  if (report.exit?.status === 2)
    return { kind: 'not made', text: `a run that never started (exit 2: ${report.exit.reason})` }
  return { kind: 'whole' }
}

/**
 * Why a report is of a run that never started, or undefined (its story is another): such a report
 * judged nothing — its empty list of failures is no baseline, and it states nothing about the target to sign.
 */
export function neverStarted(report: StoryFacts): string | undefined {
  const story = runStory(report)
  return story.kind === 'not made' ? `it is the report of ${story.text}` : undefined
}

/**
 * What the run left on the shop, by kind, and where each is listed — what every format that states a verdict shows
 * after "Left on the shop:" (`150 entities (20 customers, 7 products, …): each listed …`); undefined when nothing was
 * left.
 */
export function leftoversText(
  report: Pick<Report, 'cleanup'> & { target?: Pick<Report['target'], 'bundledReferenceTarget'> },
): string | undefined {
  const leftovers = report.cleanup?.leftovers ?? []
  if (leftovers.length === 0) return undefined
  // The bundled target lives in the run's process: what the interface cannot remove (orders, carts) ends with it.
  const where =
    report.target?.bundledReferenceTarget === true ? ', on the bundled reference target, which ended with the run' : ''
  return `${plural(leftovers.length, 'entity', 'entities')} (${leftoverKinds(leftovers)})${where}: each listed with why in report.json (cleanup.leftovers) and report.html`
}

/** Leftovers counted by kind, the most first: `20 customers, 7 products, 1 category`. */
export function leftoverKinds(leftovers: readonly { kind: string }[]): string {
  const byKind = new Map<string, number>()
  for (const l of leftovers) byKind.set(l.kind, (byKind.get(l.kind) ?? 0) + 1)
  return [...byKind]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([kind, n]) => `${n} ${n === 1 ? kind : `${kind.replace(/y$/, 'ie')}s`}`)
    .join(', ')
}
