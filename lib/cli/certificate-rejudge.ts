/**
 * The re-judge check of `verify --package` (certificate-verify.ts): the report's results against the packaged
 * evidence judged again by the installed suite (lib/run/rejudge.ts: nothing is sent).
 */
import { PACKAGE_FILES, type Manifest } from '../report/certificate.ts'
import { diffReports, diffText } from '../report/diff.ts'
import type { Report } from '../report/model.ts'
import { rejudge, type Recording } from '../run/rejudge.ts'
import { SUITE } from '../spec/version.ts'

/**
 * The re-judge line of the package's verdict: certificate-verify.ts's PackageCheck, named here so that neither file
 * imports the other.
 */
interface RejudgeCheck {
  name: 're-judge'
  problems: string[]
  detail: string[]
}

/**
 * The report's results against the packaged evidence judged again, result by result (id, status, reason). A result the
 * installed suite cannot judge from a recording (`not-recorded`: docs/reports.md) is not compared: counted, said.
 * Judged again by another suite version than the statement's, the results cannot be held to the statement's: the
 * check fails saying so, and lists the differences the installed version finds, as `diff` does.
 */
export async function rejudgeCheck(
  report: Report,
  manifest: Manifest,
  { run, entries }: Omit<Recording, 'file'>,
  now: Date,
): Promise<RejudgeCheck> {
  if (run.id !== report.run.id)
    return rejudgeFailed(`evidence.har is of run ${run.id}, report.json of run ${report.run.id}`)
  let again: Report
  try {
    again = await rejudge({ file: PACKAGE_FILES.evidence, run, entries }, now)
  } catch (err) {
    return rejudgeFailed(`evidence.har cannot be judged again: ${(err as Error).message.split('\n')[0]}`)
  }
  const judged = new Map(again.results.map((x) => [x.id, x]))
  const { differing, unjudgeable, kinds } = compareResults(report, judged)
  const compared = report.results.length - unjudgeable
  const taken =
    unjudgeable > 0
      ? `; ${unjudgeable} taken as signed: suite ${SUITE.version} does not judge ${[...kinds].join(', ')} from a recording`
      : ''
  const named = manifest.statement.suite.version
  if (named !== SUITE.version) return otherSuiteCheck(report, again, judged, named, differing.length)
  if (differing.length > 0) {
    return {
      name: 're-judge',
      problems: [
        `${differing.length} of ${report.results.length} results differ from the evidence judged again: ${differing.slice(0, 3).join('; ')}${differing.length > 3 ? '; …' : ''}`,
      ],
      detail: differing,
    }
  }
  return {
    name: 're-judge',
    problems: [],
    detail: [`${compared} results equal the evidence judged again by suite ${SUITE.version}${taken}`],
  }
}

/** The re-judge check failed for one reason, with nothing more to show. */
function rejudgeFailed(problem: string): RejudgeCheck {
  return { name: 're-judge', problems: [problem], detail: [] }
}

/**
 * The report's results against those judged again, by id: each that differs (or is on one side only), said as a
 * line; those the installed suite does not judge from a recording counted, with their check kinds, not compared.
 */
function compareResults(
  report: Report,
  judged: ReadonlyMap<string, Report['results'][number]>,
): { differing: string[]; unjudgeable: number; kinds: Set<string> } {
  const differing: string[] = []
  let unjudgeable = 0
  const kinds = new Set<string>()
  for (const x of report.results) {
    const y = judged.get(x.id)
    if (y === undefined) differing.push(`${x.id}: not planned by suite ${SUITE.version}`)
    else if (y.status === x.status && y.reason === x.reason) continue
    else if (y.reason === 'not-recorded' && x.applicable !== false) {
      unjudgeable++
      kinds.add(x.check)
    } else
      differing.push(
        `${x.id}: report ${x.status}${x.reason !== undefined ? ` (${x.reason})` : ''}, judged again ${y.status}${y.reason !== undefined ? ` (${y.reason})` : ''}`,
      )
  }
  for (const id of judged.keys())
    if (!report.results.some((x) => x.id === id)) differing.push(`${id}: only judged again (not in report.json)`)
  return { differing, unjudgeable, kinds }
}

/**
 * Judged again by another suite version than the statement's `named`: the results cannot be held to the statement's,
 * so the check fails saying so, and lists the differences the installed version finds (those it does not judge from
 * a recording left out), as `diff` does.
 */
function otherSuiteCheck(
  report: Report,
  again: Report,
  judged: ReadonlyMap<string, Report['results'][number]>,
  named: string,
  differing: number,
): RejudgeCheck {
  const only = (r: Report) => ({
    ...r,
    results: r.results.filter((x) => judged.get(x.id)?.reason !== 'not-recorded'),
  })
  const diff = diffText(diffReports(only(report), only(again)), {
    a: `report.json (suite ${named})`,
    b: `evidence.har judged again by suite ${SUITE.version}`,
  })
  return {
    name: 're-judge',
    problems: [
      `the statement names suite ${named}, this is suite ${SUITE.version}: verify with it (npx shop-conformance@${named} verify --package FILE); judged again by ${SUITE.version}, ${differing} results differ`,
    ],
    detail: diff.trimEnd().split('\n'),
  }
}
