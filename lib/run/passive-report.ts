/**
 * A passive judgement's report (`judge --har FILE --passive`, `proxy`), drafted from what the traffic showed: every
 * check of the suite's plan, judged where an observed exchange showed its rule (lib/checks/passive.ts), else skipped
 * `not-observed`; what does not apply as in a run. Its `mode` is `passive`, its certification `passive: not a
 * certification` (lib/report/complete.ts judges it so), its `passive` block the coverage every format shows. Pure: no
 * file, no target.
 */
import { CHECKS } from '../checks/index.ts'
import type { PassiveJudgement } from '../checks/passive.ts'
import { NOT_OBSERVED } from '../checks/passive.ts'
import { applyAliases } from '../shop/aliases.ts'
import { resultId, toResult, type Result } from '../results/result.ts'
import { serverErrorsBlock } from '../results/server-errors.ts'
import { completeReport } from '../report/complete.ts'
import { sortResults, summarise, type Report } from '../report/model.ts'
import { notApplicableResults, PLAN, planBlock, rowOfPlanned } from '../plan/plan.ts'
import type { PathAlias } from '../settings/config.ts'
import { SPEC_VERSION, SUITE } from '../spec/version.ts'

/** What a passive report says of where the traffic came from. */
interface PassiveSource {
  /** The capture: the HAR file judged (`judge`), or the proxy's. */
  har: string
  /** The target's URL: given (`--base-url`, the proxy's `--target`) or read from the traffic. */
  baseUrl: string
  pathAliases: readonly PathAlias[]
  calibration: { noRoute: string[]; unknownStore: string[] }
  startedAt: Date
  finishedAt: Date
}

/** What a passive judgement judges at all: the other kinds and the workflows need requests of the suite's own. */
const JUDGED_KINDS = new Set(['route', 'access', 'shape', 'batch-partial'])

export function passiveReport(judgement: PassiveJudgement, source: PassiveSource): Report {
  const verdicts = new Map(judgement.verdicts.map((v) => [resultId(v.row, v.check), v]))
  const kinds = new Map(CHECKS.map((k) => [k.name, k]))
  const alias = (p: string) => applyAliases(p, source.pathAliases)
  const results: Result[] = PLAN.checks
    .filter((p) => p.origin === 'spec')
    .map((p) => {
      const row = rowOfPlanned(p)
      const kind = kinds.get(p.kind)
      const judged = verdicts.get(p.id)
      if (row === undefined || kind === undefined) return workflowNotObserved(p.id, p.module)
      const why = JUDGED_KINDS.has(p.kind)
        ? 'no exchange of the traffic at this endpoint'
        : `the ${p.kind} check needs requests of the suite's own, never judged from traffic`
      const unseen = {
        status: 'skipped' as const,
        message: `${NOT_OBSERVED}: ${why}`,
        exchanges: [],
        reason: 'not-observed' as const,
      }
      const verdict = judged?.verdict ?? unseen
      const target = alias(row.path)
      return toResult(row, kind, verdict, 0, target !== row.path ? target : undefined)
    })
  const all = [...results, ...notApplicableResults(PLAN, alias)]
  const plan = planBlock(PLAN, {}, [])
  const stores = judgement.coverage.endpoints.flatMap((e) => e.stores)
  const draft = {
    mode: 'passive' as const,
    passive: judgement.coverage,
    suite: { ...SUITE },
    spec: { version: SPEC_VERSION },
    target: {
      baseUrl: source.baseUrl,
      storeCode: mostCommon(stores) ?? '',
      secondStoreCode: '',
      bundledReferenceTarget: false,
    },
    run: {
      id: `passive-${source.startedAt.toISOString().replace(/[-:.TZ]/g, '')}`,
      seed: 0,
      // Nothing was sent: a passive judgement only reads.
      readOnly: true,
      concurrency: 0,
      timeoutMs: 0,
      modules: [],
      checks: [],
      pathAliases: source.pathAliases.map((a) => ({ ...a })),
    },
    startedAt: source.startedAt.toISOString(),
    finishedAt: source.finishedAt.toISOString(),
    durationMs: source.finishedAt.getTime() - source.startedAt.getTime(),
    summary: summarise(all),
    calibration: source.calibration,
    created: [],
    cleanup: { removed: 0, leftovers: [] },
    runErrors: [],
    notes: [`judged passively from ${source.har}: ${judgement.coverage.text}; no request was sent`],
    plan,
    serverErrors: serverErrorsBlock(judgement.serverErrors),
    results: sortResults(all, plan),
  }
  return completeReport(draft, { made: true })
}

/** A workflow step: a sequence of the suite's own calls, never judged from traffic. */
function workflowNotObserved(id: string, module: string): Result {
  const name = /^workflow (\S+)/.exec(id)?.[1] ?? id
  return {
    id,
    module,
    endpoint: { method: '-', path: `(workflow ${name})` },
    check: 'workflow',
    status: 'skipped',
    message: `${NOT_OBSERVED}: a workflow's steps are the suite's own calls in order, never judged from traffic`,
    durationMs: 0,
    spec: [],
    exchanges: [],
    reason: 'not-observed',
  }
}

function mostCommon(values: readonly string[]): string | undefined {
  const counts = new Map<string, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0]
}
