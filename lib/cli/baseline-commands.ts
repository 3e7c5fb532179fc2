import { UsageError } from '../base/usage-error.ts'
import { baselineFromReport, baselineJson } from '../report/baseline.ts'
import { completeReport, type ReportDraft } from '../report/complete.ts'
import { neverStarted, runStory } from '../report/outcome.ts'
import { profileFromReport, profilesListing, resolveBaseline } from '../report/profiles.ts'
import { terminalSummary } from '../report/text.ts'
import { EXTENSIONS_MODES } from '../results/schema-block.ts'
import {
  args,
  oneOf,
  readReport,
  readText,
  reportPath,
  required,
  writeReportDir,
  writeWhole,
  type CommandIo,
} from './command-io.ts'

/**
 * `baseline list`: the release profiles shipped in the package.
 * `baseline --from REPORT --out FILE [--reason TEXT] [--profile NAME [--deviations FILE]]`: a baseline listing
 * every failure of the report; with --profile, a release profile of its spec failures (lib/report/profiles.ts).
 */
export async function baselineCommand(argv: string[], io: CommandIo): Promise<number> {
  if (argv[0] === 'list') {
    args('baseline list', argv.slice(1), {})
    io.out(profilesListing())
    return 0
  }
  const { values } = args('baseline', argv, {
    from: { type: 'string' },
    out: { type: 'string' },
    reason: { type: 'string' },
    profile: { type: 'string' },
    deviations: { type: 'string' },
  })
  const from = required('baseline', values.from, '--from REPORT')
  const out = required('baseline', values.out, '--out FILE')
  if (values.deviations !== undefined && values.profile === undefined)
    throw new UsageError(
      'baseline --deviations: only with --profile NAME (a release profile is made from a run and its traced list)',
    )
  // Each traced line gives its entry's reason: one reason for all would say less than the list.
  if (values.deviations !== undefined && values.reason !== undefined)
    throw new UsageError(
      "baseline: --reason or --deviations, not both (each line of the list gives its entry's reason)",
    )
  const report = readReport(from)
  const never = neverStarted(report)
  if (never !== undefined)
    throw new UsageError(`baseline: ${reportPath(from)}: ${never}; baseline the report of a run that was made`)
  if (values.profile !== undefined) {
    const deviations =
      values.deviations !== undefined
        ? { file: values.deviations, text: readText(values.deviations, 'deviations') }
        : undefined
    const profile = profileFromReport(
      report,
      {
        name: values.profile,
        ...(values.reason !== undefined ? { reason: values.reason } : {}),
        ...(deviations !== undefined ? { deviations } : {}),
      },
      reportPath(from),
    )
    await writeWhole(out, baselineJson(profile), 'baseline')
    const skipped = report.results.filter((r) => r.status === 'failed' && r.extension === true).length
    io.out(
      `profile ${profile.profile.name} → ${out}: ${profile.entries.length} spec failure${profile.entries.length === 1 ? '' : 's'} of ${reportPath(from)}${deviations !== undefined ? `, each traced in ${deviations.file}` : ', untraced: trace each (evidence kind and why) before proposing it'}` +
        `${skipped > 0 ? `; ${skipped} extension check failure${skipped === 1 ? '' : 's'} not listed (not the spec's)` : ''}\n`,
    )
    return 0
  }
  const baseline = baselineFromReport(report, values.reason)
  await writeWhole(out, baselineJson(baseline), 'baseline')
  // Cut short, its failures are real, but what it did not reach may fail too: the line says what the list covers.
  const story = runStory(report)
  const cut = story.kind === 'cut short' ? ` (${story.text}: only what it judged is listed)` : ''
  io.out(
    `baseline ${out}: ${baseline.entries.length} failure${baseline.entries.length === 1 ? '' : 's'} of ${reportPath(from)} listed${cut}\n`,
  )
  return 0
}

/**
 * `report rebaseline REPORT --baseline FILE|PROFILE --out DIR [--allow-stale] [--extensions MODE]`: the report
 * judged again with another baseline (a release profile, a file, or one made since) — the same judgement a run
 * makes (lib/report/complete.ts), every format written from it; the exit status is the judged report's.
 */
export async function rebaselineCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = args(
    'report rebaseline',
    argv,
    {
      baseline: { type: 'string' },
      out: { type: 'string' },
      'allow-stale': { type: 'boolean' },
      extensions: { type: 'string' },
    },
    true,
  )
  const [input, ...more] = positionals
  if (input === undefined || more.length > 0)
    throw new UsageError(
      `report rebaseline: one report expected (report rebaseline REPORT --baseline FILE --out DIR), got ${positionals.length}`,
    )
  const given = required('report rebaseline', values.baseline, '--baseline FILE|PROFILE')
  const out = required('report rebaseline', values.out, '--out DIR')
  const extensions =
    values.extensions !== undefined
      ? oneOf('report rebaseline', '--extensions', values.extensions, EXTENSIONS_MODES)
      : undefined
  const report = readReport(input)
  const never = neverStarted(report)
  if (never !== undefined)
    throw new UsageError(`report rebaseline: ${reportPath(input)}: ${never}; there is nothing to judge`)
  if (typeof report.plan !== 'object' || report.plan === null)
    throw new UsageError(
      `report rebaseline: ${reportPath(input)} has no plan block (written by an older suite): run it again`,
    )
  const baseline = resolveBaseline(given)
  const allowStale = values['allow-stale'] === true
  // What a judgement makes (baseline state, certification, extensions' tally, exit) is made anew; the digest on
  // writing.
  const {
    baseline: asRun,
    certification: _certification,
    exit,
    extensions: _tally,
    signature: _digest,
    ...rest
  } = report
  const run = extensions !== undefined ? { ...report.run, extensions } : report.run
  const note = `judged again by \`report rebaseline\` against ${given}${allowStale ? ' (--allow-stale)' : ''}${extensions !== undefined ? ` with --extensions ${extensions}` : ''}; as run it had ${asRun !== undefined ? `baseline ${asRun.file}` : 'no baseline'} and exited ${exit.status}`
  const draft: ReportDraft = { ...rest, run, notes: [...(report.notes ?? []), note] }
  const judged = completeReport(draft, { made: true, baseline: { file: given, baseline, allowStale } })
  const written = await writeReportDir('report rebaseline', out, [input], judged)
  io.out(terminalSummary(written, out))
  return written.exit.status
}
