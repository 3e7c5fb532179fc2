import { UsageError } from '../base/usage-error.ts'
import { terminalSummary } from '../report/text.ts'
import type { HarEntry } from '../results/har.ts'
import { rejudge, type RecordedRun } from '../run/rejudge.ts'
import { args, readJson, required, writeReportDir, type CommandIo } from './command-io.ts'

/**
 * `judge --har FILE [--report-dir DIR]`: a run's evidence.har judged again by the installed suite, sending nothing
 * (lib/run/rejudge.ts), into every format as `run` writes them; the exit status is the judged report's, as a run's.
 * With `--passive` the command is passive-command.ts's (traffic the suite did not send): main.ts sends it there.
 */
export async function judgeCommand(argv: string[], io: CommandIo, where: { env: NodeJS.ProcessEnv }): Promise<number> {
  const { values } = args('judge', argv, { har: { type: 'string' }, 'report-dir': { type: 'string' } })
  const file = required('judge', values.har, '--har FILE')
  const out = values['report-dir'] ?? where.env.SHOP_REPORT_DIR ?? 'reports'
  const { run, entries } = readRecording(file)
  const report = await rejudge({ file, run, entries })
  const written = await writeReportDir('judge', out, [file], report, '--report-dir')
  io.out(terminalSummary(written, out))
  return written.exit.status
}

/** The HAR's `_run` header and entries; one line for a file that is none (a HAR of other traffic: no `_run`). */
function readRecording(file: string): { run: RecordedRun; entries: HarEntry[] } {
  const data = readJson(file, 'judge: --har')
  const log = (data as { log?: { entries?: unknown; _run?: Partial<RecordedRun> } } | null)?.log
  if (typeof log !== 'object' || log === null || !Array.isArray(log.entries)) throw new UsageError(`judge: --har ${file}: not a HAR file (no log.entries list)`)
  const run = log._run
  if (typeof run !== 'object' || run === null) {
    throw new UsageError(`judge: --har ${file}: a HAR file, but not the evidence of a shop-conformance run (no log._run header): judge --har judges the evidence.har a run writes`)
  }
  const lacking = (['id', 'suite', 'target', 'calibration', 'operations'] as const).filter((k) => typeof run[k] !== 'object' && typeof run[k] !== 'string')
  if (lacking.length > 0) throw new UsageError(`judge: --har ${file}: its _run header lacks ${lacking.join(', ')}`)
  const entries = log.entries as HarEntry[]
  const broken = entries.findIndex((e) => typeof e?.request?.url !== 'string' || typeof e.response?.status !== 'number' || typeof e._caller !== 'string')
  if (broken >= 0) throw new UsageError(`judge: --har ${file}: entry ${broken + 1} is not an entry a run writes (no request URL, response status or _caller)`)
  return { run: run as RecordedRun, entries }
}
