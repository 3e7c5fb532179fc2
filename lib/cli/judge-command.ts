import { UsageError } from '../base/usage-error.ts'
import { terminalSummary } from '../report/text.ts'
import { recordingOf, rejudge, type Recording } from '../run/rejudge.ts'
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
function readRecording(file: string): Omit<Recording, 'file'> {
  try {
    return recordingOf(readJson(file, 'judge: --har'))
  } catch (err) {
    if (err instanceof UsageError) throw err
    throw new UsageError(`judge: --har ${file}: ${(err as Error).message}`)
  }
}
