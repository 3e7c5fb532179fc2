import { readFileSync, statSync } from 'node:fs'
import { rename, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { gunzipSync } from 'node:zlib'
import type { Report } from '../report/model.ts'
import { writeReports } from '../report/write.ts'
import { UsageError } from '../base/usage-error.ts'
import { Secrets } from '../shop/secrets.ts'
import { ensureWritableDir } from '../base/output-dir.ts'
import { lockReportDir } from '../run/report-dir-lock.ts'

/**
 * What the commands on reports share (commands.ts, baseline-commands.ts): where they print, how they read their
 * flags and files, how they write a report directory. Every problem is one UsageError line naming the file.
 */

export interface CommandIo {
  out(text: string): void
  err(text: string): void
}

/**
 * Writes every format of a report made from `inputs` into `out`: not a directory of an input, nor one a run is writing.
 */
export async function writeReportDir(
  command: string,
  out: string,
  inputs: readonly string[],
  report: Report,
  flag = '--out',
): Promise<Report> {
  if (inputs.map((p) => resolve(dirname(reportPath(p)))).includes(resolve(out))) {
    throw new UsageError(`${command}: ${flag} ${out} holds one of the inputs; write the report elsewhere`)
  }
  ensureWritableDir(out, `${command}: ${flag}`)
  // Not into a directory a run is writing: the last writer's report would win.
  const lock = lockReportDir(out, `${command}: ${flag}`, `shop-conformance ${command}`)
  try {
    // The inputs are written reports, already redacted.
    return await writeReports(out, report, new Secrets())
  } finally {
    lock.release()
  }
}

// ---- input helpers: every problem is one UsageError line naming the file ----

/** A report path, or a report directory holding report.json. */
export function reportPath(path: string): string {
  try {
    if (statSync(path).isDirectory()) return join(path, 'report.json')
  } catch {
    // Not there: readReport says so.
  }
  return path
}

/** Why what report.json holds is no shop-conformance report; undefined when it is one. */
function reportProblem(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'not a JSON object'
  const r = data as Partial<Report>
  if (!Array.isArray(r.results)) return 'no "results" list'
  if (
    typeof r.spec?.version !== 'string' ||
    typeof r.target?.baseUrl !== 'string' ||
    typeof r.run?.id !== 'string' ||
    typeof r.summary !== 'object'
  )
    return 'no spec version, target, run id or summary'
  const malformed = r.results.some(
    (x) =>
      typeof x?.id !== 'string' ||
      !['passed', 'failed', 'skipped', 'error'].includes(x.status) ||
      typeof x.check !== 'string',
  )
  return malformed ? 'a result without an id, check or status' : undefined
}

/** Reads report.json (or a directory holding one) and checks it is a report. */
export function readReport(path: string): Report {
  const file = reportPath(path)
  const data = readJson(file, 'report')
  const problem = reportProblem(data)
  if (problem !== undefined) throw new UsageError(`report ${file}: not a shop-conformance report (${problem})`)
  return data as Report
}

/**
 * A report of a run, not one judged without a target: a passive report (traffic the suite did not send) states a
 * few rules at a few endpoints, and a re-judged one restates a recording — neither is a run to merge with shards or
 * to set beside implementations' runs. One line, exit 2, naming what to give instead.
 */
export function runReport(command: string, path: string): Report {
  const report = readReport(path)
  const file = reportPath(path)
  if (report.mode === 'passive')
    throw new UsageError(
      `${command}: ${file} is a passive report (judged from traffic the suite did not send): not a run of the suite; give the reports of runs`,
    )
  if (report.mode === 'rejudged')
    throw new UsageError(
      `${command}: ${file} is a re-judged report (a recording judged again, nothing sent): give the report of the run it recorded (${report.recording?.runId ?? 'its run'}); compare the two with diff`,
    )
  return report
}

/**
 * The file's text; a gzip-compressed file (report.json.gz: how CI keeps reports, and the vendored real runs) is read
 * uncompressed.
 */
export function readText(path: string, what: string): string {
  let bytes: Buffer
  try {
    bytes = readFileSync(path)
  } catch (err) {
    const e = err as NodeJS.ErrnoException
    throw new UsageError(`${what} ${path}: cannot read it (${e.code ?? e.message})`)
  }
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes.toString('utf8')
  try {
    return gunzipSync(bytes).toString('utf8')
  } catch (err) {
    throw new UsageError(`${what} ${path}: not readable gzip (${(err as Error).message})`)
  }
}

export function readJson(path: string, what: string): unknown {
  const text = readText(path, what)
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new UsageError(`${what} ${path}: not JSON (${(err as Error).message.split('\n')[0]})`)
  }
}

export async function writeWhole(path: string, text: string | Buffer, what: string): Promise<void> {
  ensureWritableDir(dirname(resolve(path)), `${what} ${path}`)
  try {
    await writeFile(`${path}.tmp`, text)
    await rename(`${path}.tmp`, path)
  } catch (err) {
    const e = err as NodeJS.ErrnoException
    throw new UsageError(`${what} ${path}: cannot write it (${e.code ?? e.message})`)
  }
}

type Options = NonNullable<ParseArgsConfig['options']>

export function args<O extends Options>(command: string, argv: string[], options: O, positionals = false) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: positionals })
  } catch (err) {
    const [firstLine = ''] = (err as Error).message.split('\n')
    const message = firstLine.replace(/\. To specify a positional argument.*$/, '')
    throw new UsageError(`${command}: ${message}`)
  }
}

export function required(command: string, value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`${command}: ${flag} is required`)
  return value
}

export function oneOf<T extends string>(command: string, flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`${command}: ${flag} must be ${allowed.join(' or ')}, not "${value}"`)
  return value as T
}
