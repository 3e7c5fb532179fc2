import { defined } from '../base/defined.ts'
import { plural } from '../base/text.ts'
import { MODULES } from '../spec/modules.ts'
import type { Result } from '../results/result.ts'
import type { PlanBlock } from '../results/plan-block.ts'

/**
 * What a run says about a target, as a whole and module by module: the one place the verdict is made
 * (run and merge store it in report.json; every format reads it from there).
 *
 * "Required" checks are the checks of the suite the run selected (the report's `plan` block, written from lib/plan/:
 * catalog rows × applicable checks + workflow steps), plus any other applicable result it holds; only checks of the
 * spec count (`origin: 'spec'`), never an extension's or a vendor's. A required check without a result (the run was cut
 * short) counts as not judged. "conforms" needs every check of the suite selected, judged and passed; a run error, an
 * unjudged check, a check whose code threw (an error of the suite), or a failure excused by a baseline makes it
 * "incomplete", a selection short of the whole suite (a --module/--check slice, one shard, a merge missing shards)
 * "partial".
 */
export type ConformanceVerdict = 'conforms' | 'does not conform' | 'incomplete' | 'partial' | 'not run' | typeof PASSIVE

/** What a passive report's certification says (docs/passive.md): it judged traffic the suite did not send. */
export const PASSIVE = 'passive: not a certification'

export interface Scope {
  /** Checks of the suite this run selected (its shard's share when sharded). */
  selected: number
  /** Checks of the whole suite, by the same definition. */
  suite: number
  /** True when the run selected every check of the suite. */
  whole: boolean
  /** The modules the run's checks were selected from. */
  modules: string[]
  /** What narrowed the selection: `--module quote`, `--check access`, `shard 1/2`, `shard 2/3 missing`. */
  limitedBy: string[]
  /** `the whole suite: 927 checks` or `partial: 35 of 927 checks selected (--module directory)`. */
  text: string
}

export interface ModuleStatement {
  module: string
  title: string
  verdict: ConformanceVerdict
  passed: number
  failed: number
  /** Required checks whose code threw (the suite's bug): neither passed nor failed. */
  errors: number
  /** Required checks that were skipped or have no result: not judged. */
  notJudged: number
  /** Failures listed in the baseline (they do not fail the run, and do not make it conform either). */
  baselined: number
  /** Checks of this module the run selected, of the module's checks in the whole suite. */
  selected: number
  ofSuite: number
  text: string
}

interface Conformance {
  /** Passed required checks as a percentage of all required checks (0–100, one decimal, never rounded up). */
  percent: number
  required: number
  passed: number
  failed: number
  /** Required checks whose code threw: the suite's errors, never the target's failures, never passed. */
  errors: number
  notJudged: number
  baselined: number
  verdict: ConformanceVerdict
}

export interface Certification extends Conformance {
  scope: Scope
  /** One statement per module the run selected; modules it did not select have none. */
  modules: ModuleStatement[]
  /**
   * The checks whose rule the run could not judge for a setting it lacks (results skipped with reason
   * `not-configured`, counted among `notJudged` too): what each lacks and how to judge it, one line every format
   * shows the same way. Empty when nothing lacked a setting.
   */
  notConfigured: NotConfigured[]
}

export interface NotConfigured {
  /** The check kind, e.g. `acl`. */
  check: string
  /** Its required checks left unjudged for the setting. */
  count: number
  /**
   * `acl — 15 checks not judged: the ACL rule needs …; set …`: every format shows it after its label, NOT_CONFIGURED.
   */
  text: string
}

/** How every format names a result, or a check, left unjudged for a setting the run lacks. */
export const NOT_CONFIGURED = 'not configured'

interface CertifyInput {
  results: readonly Result[]
  runErrors: readonly string[]
  /** What the run selected of the suite, and what narrowed it (report.json `plan`). */
  plan: PlanBlock
  /** Ids of failures the run's baseline lists. */
  baselined?: ReadonlySet<string>
}

export function certify(input: CertifyInput): Certification {
  const { plan } = input
  const ofSpec = <T extends { origin: string }>(xs: readonly T[]) => xs.filter((x) => x.origin === 'spec')
  const suiteSize = (module?: string) =>
    ofSpec(plan.suite)
      .filter((s) => module === undefined || s.module === module)
      .reduce((n, s) => n + s.checks, 0)
  const planned = ofSpec(plan.selected)
  // Results of checks from outside the spec are the run's, not the certification's.
  const elsewhere = new Set(plan.selected.filter((p) => p.origin !== 'spec').map((p) => p.id))
  const results = input.results.filter((r) => !elsewhere.has(r.id) && r.extension !== true)
  const baselined = input.baselined ?? new Set<string>()
  const suite = suiteSize()
  const whole = planned.length === suite
  const scope: Scope = {
    selected: planned.length,
    suite,
    whole,
    modules: [...plan.modules],
    limitedBy: [...plan.limitedBy],
    text: '',
  }
  scope.text = whole ? `the whole suite: ${suite} checks` : `partial: ${selectionText(scope)}`
  const overall = judge(planned, results, baselined, whole)
  const verdict =
    input.runErrors.length > 0 && overall.verdict !== 'does not conform' && overall.verdict !== 'not run'
      ? 'incomplete'
      : overall.verdict
  return {
    ...overall,
    verdict,
    scope,
    notConfigured: notConfiguredOf(results),
    modules: MODULES.filter((m) => plan.modules.includes(m.id)).map(({ id, title }) => {
      const inSuite = suiteSize(id)
      const own = planned.filter((p) => p.module === id)
      const c = judge(
        own,
        results.filter((r) => r.module === id),
        baselined,
        own.length === inSuite,
      )
      return {
        module: id,
        title,
        verdict: c.verdict,
        passed: c.passed,
        failed: c.failed,
        errors: c.errors,
        notJudged: c.notJudged,
        baselined: c.baselined,
        selected: own.length,
        ofSuite: inSuite,
        text: statementText(c, own.length, inSuite),
      }
    }),
  }
}

function judge(
  planned: readonly { id: string }[],
  results: readonly Result[],
  baselined: ReadonlySet<string>,
  whole: boolean,
): Conformance {
  const applicable = results.filter((r) => r.applicable !== false)
  const byId = new Map(applicable.map((r) => [r.id, r]))
  const required = new Set([...planned.map((p) => p.id), ...byId.keys()])
  const status = (id: string) => byId.get(id)?.status
  const count = (test: (id: string) => boolean) => [...required].filter(test).length
  const passed = count((id) => status(id) === 'passed')
  const failed = count((id) => status(id) === 'failed' && !baselined.has(id))
  const excused = count((id) => status(id) === 'failed' && baselined.has(id))
  const errors = count((id) => status(id) === 'error')
  const notJudged = count((id) => status(id) === 'skipped' || status(id) === undefined)
  let verdict: ConformanceVerdict = whole ? 'conforms' : 'partial'
  if (applicable.length === 0) verdict = 'not run'
  else if (failed > 0) verdict = 'does not conform'
  else if (notJudged > 0 || excused > 0 || errors > 0) verdict = 'incomplete'
  return {
    percent: required.size === 0 ? 0 : Math.floor((passed / required.size) * 1000) / 10,
    required: required.size,
    passed,
    failed,
    errors,
    notJudged,
    baselined: excused,
    verdict,
  }
}

/** The not-configured results by check: the first one's message says what the check lacks and how to judge it. */
function notConfiguredOf(results: readonly Result[]): NotConfigured[] {
  const byCheck = new Map<string, Result[]>()
  for (const r of results)
    if (r.status === 'skipped' && r.applicable !== false && r.reason === 'not-configured')
      byCheck.set(r.check, [...(byCheck.get(r.check) ?? []), r])
  return [...byCheck].map(([check, rs]) => {
    const how = defined(rs[0], 'the first result of a check grouped from it').message.replace(
      new RegExp(`^${NOT_CONFIGURED}: `),
      '',
    )
    return {
      check,
      count: rs.length,
      text: `${check} — ${rs.length} check${rs.length === 1 ? '' : 's'} not judged: ${how}`,
    }
  })
}

function statementText(c: Conformance, selected: number, ofSuite: number): string {
  if (c.verdict === 'not run') return 'not run'
  const share = selected < ofSuite ? `partial: ${selected} of ${ofSuite} checks selected` : ''
  if (c.verdict === 'conforms') return `conforms (${c.passed} checks passed)`
  return [
    c.failed > 0 ? plural(c.failed, 'failure') : '',
    c.errors > 0 ? plural(c.errors, 'error') : '',
    c.baselined > 0 ? `${c.baselined} baselined` : '',
    c.notJudged > 0 ? `${c.notJudged} not judged` : '',
    share,
    c.verdict === 'partial' ? `${c.passed} passed` : '',
  ]
    .filter((t) => t !== '')
    .join(', ')
}

/** `97.3%`: one decimal where there is one, as computed (never rounded up). */
export function percentText(c: Pick<Conformance, 'percent'>): string {
  return `${Number.isInteger(c.percent) ? String(c.percent) : c.percent.toFixed(1)}%`
}

/** `35 of 927 checks selected (--module directory)`: what a partial run selected, without the word. */
export function selectionText(scope: Pick<Scope, 'selected' | 'suite' | 'limitedBy'>): string {
  return `${scope.selected} of ${scope.suite} checks selected${scope.limitedBy.length > 0 ? ` (${scope.limitedBy.join('; ')})` : ''}`
}

/**
 * The one-line statement every human-readable format leads with: verdict, percentage, and a partial scope ("partial"
 * once).
 */
export function headline(c: Certification): string {
  if (c.verdict === 'not run') return 'not run'
  if (c.verdict === PASSIVE)
    return `${PASSIVE} · ${c.failed} failed, ${c.passed} passed, ${c.notJudged} not observed · ${c.scope.text}`
  const scope = c.scope.whole ? '' : ` · ${c.verdict === 'partial' ? selectionText(c.scope) : c.scope.text}`
  return `${c.verdict} · ${percentText(c)} of ${c.required} required checks passed${scope}`
}

/**
 * A passive report's certification (report.json `mode: 'passive'`): the counts as judged, the verdict, each module's
 * too, `passive: not a certification` — traffic the suite did not send shows some rules at some endpoints, never
 * that a target conforms.
 */
export function passiveCertification(c: Certification): Certification {
  return {
    ...c,
    verdict: PASSIVE,
    scope: {
      ...c.scope,
      whole: false,
      limitedBy: ['passive'],
      text: `${PASSIVE}: judged from traffic the suite did not send`,
    },
    modules: c.modules.map((m) => ({
      ...m,
      verdict: PASSIVE,
      text: `${PASSIVE}: ${m.passed} passed, ${m.failed} failed, ${m.notJudged} not observed`,
    })),
  }
}
