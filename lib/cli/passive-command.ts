/**
 * `judge --har FILE --passive`: traffic the suite did not send, judged from a HAR capture (a browser's network panel,
 * a proxy's, `proxy`'s own) without sending a request, written in every format into `--report-dir` as `run` writes
 * its report. The judging is lib/checks/passive.ts, the report lib/run/passive-report.ts; here the flags, the file
 * and the output. `proxy` judges its capture with `judgeCapture` at its end.
 */
import { defined } from '../base/defined.ts'
import { UsageError } from '../base/usage-error.ts'
import { ensureWritableDir } from '../base/output-dir.ts'
import { plural } from '../base/text.ts'
import { judgePassively, type ObservedEntry } from '../checks/passive.ts'
import { exchangeOfEntry, type HarEntry } from '../results/har.ts'
import { CALLER_CLASSES } from '../results/exchange.ts'
import { headline } from '../report/certify.ts'
import { writeReports } from '../report/write.ts'
import { passiveReport } from '../run/passive-report.ts'
import { lockReportDir } from '../run/report-dir-lock.ts'
import type { TokenHint } from '../shop/exchange-identity.ts'
import { Secrets } from '../shop/secrets.ts'
import type { PathAlias } from '../settings/config.ts'
import { args, readText, required, type CommandIo } from './command-io.ts'

/** What a passive judgement of a capture is given besides the file. */
interface CaptureJudging {
  /** The target's URL below which `/rest/{store}` is; else the HAR's own (a run's evidence names it), else inferred. */
  baseUrl?: string
  hints: readonly TokenHint[]
  reportDir: string
}

/** `judge --har FILE --passive [--base-url URL] [--token-class PREFIX=admin|customer ...] [--report-dir DIR]`. */
export async function runPassiveJudge(
  argv: string[],
  io: CommandIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { values } = args('judge', argv, {
    har: { type: 'string' },
    passive: { type: 'boolean' },
    'base-url': { type: 'string' },
    'token-class': { type: 'string', multiple: true },
    'report-dir': { type: 'string' },
  })
  const har = required('judge', values.har, '--har FILE')
  const baseUrl = values['base-url']
  if (baseUrl !== undefined && !/^https?:\/\/[^/]+/.test(baseUrl))
    throw new UsageError(`judge: --base-url must be an http(s) URL, not "${baseUrl}"`)
  const hints = tokenHints('judge', values['token-class'] ?? [])
  const reportDir = values['report-dir'] ?? env.SHOP_REPORT_DIR ?? 'reports'
  return judgeCapture(har, { ...(baseUrl !== undefined ? { baseUrl } : {}), hints, reportDir }, io)
}

/** `--token-class TOKEN-PREFIX=admin|customer`, each: a token that starts so is of that class. */
export function tokenHints(command: string, flags: readonly string[]): TokenHint[] {
  return flags.map((flag) => {
    const m = /^(.+)=(admin|customer)$/.exec(flag)
    if (m === null)
      throw new UsageError(
        `${command}: --token-class must be TOKEN-PREFIX=admin or TOKEN-PREFIX=customer, not "${flag}"`,
      )
    return {
      prefix: defined(m[1], 'the prefix group of the token-class pattern'),
      caller: m[2] as 'admin' | 'customer',
    }
  })
}

/**
 * Judges a HAR capture passively into `reportDir` (every format, as `run` writes) and prints its verdict; the exit
 * status.
 */
export async function judgeCapture(file: string, judging: CaptureJudging, io: CommandIo): Promise<number> {
  const startedAt = new Date()
  const capture = readHar(file)
  ensureWritableDir(judging.reportDir, '--report-dir / SHOP_REPORT_DIR')
  const baseUrl = judging.baseUrl ?? capture.run?.target?.baseUrl
  const pathAliases = capture.run?.pathAliases ?? []
  const calibration = capture.run?.calibration
  const judgement = judgePassively(capture.entries, {
    ...(baseUrl !== undefined ? { base: baseUrl } : {}),
    hints: judging.hints,
    pathAliases,
    ...(calibration !== undefined ? { calibration } : {}),
  })
  const report = passiveReport(judgement, {
    har: file,
    baseUrl: baseUrl ?? inferredBase(capture.entries) ?? '',
    pathAliases,
    calibration: calibration ?? { noRoute: ['404 "Request does not match any route."'], unknownStore: [] },
    startedAt,
    finishedAt: new Date(),
  })
  // What the capture holds of tokens is redacted by its class, as a run's own are: the report never holds one.
  const secrets = new Secrets()
  for (const [token, caller] of judgement.tokens) secrets.add(token, caller === 'unknown' ? 'token' : `${caller} token`)
  const lock = lockReportDir(judging.reportDir, '--report-dir / SHOP_REPORT_DIR', 'shop-conformance judge --passive')
  let written
  try {
    written = await writeReports(judging.reportDir, report, secrets)
  } finally {
    lock.release()
  }
  const failed = written.results.filter((r) => r.status === 'failed')
  io.out(`${headline(written.certification)}\n`)
  for (const r of failed.slice(0, 20)) io.out(`  failed: ${r.id} — ${r.message}\n`)
  if (failed.length > 20) io.out(`  … and ${plural(failed.length - 20, 'more failure')}: report.html\n`)
  io.out(`exit ${written.exit.status}: ${written.exit.reason} · reports in ${judging.reportDir}\n`)
  return written.exit.status === 0 ? 0 : 1
}

/**
 * What a HAR says of the run that recorded it (a suite's evidence.har: `log._run`) or of the proxy's target
 * (`log._proxy`).
 */
interface CaptureFacts {
  target?: { baseUrl?: string }
  pathAliases?: PathAlias[]
  calibration?: { noRoute: string[]; unknownStore: string[] }
}

/**
 * A HAR file's entries as observed exchanges. A capture the proxy was killed in the middle of writing lacks the end
 * of its JSON: read as the entries it holds. Bad input is one line.
 */
export function readHar(file: string): { entries: ObservedEntry[]; run?: CaptureFacts } {
  const text = readText(file, 'HAR')
  type HarLog = { log?: { entries?: unknown; _run?: CaptureFacts; _proxy?: CaptureFacts } }
  const log = (parse(text) ?? parse(`${text.replace(/,?\s*$/, '')}\n]}}`)) as HarLog | undefined
  if (log === undefined) throw new UsageError(`HAR ${file}: not JSON`)
  const entries = log.log?.entries
  if (!Array.isArray(entries)) throw new UsageError(`HAR ${file}: no log.entries list (not a HAR file)`)
  const observed = entries.map((e, i) => {
    const entry = e as HarEntry
    if (
      typeof entry?.request?.url !== 'string' ||
      typeof entry.request.method !== 'string' ||
      typeof entry.response?.status !== 'number'
    ) {
      throw new UsageError(`HAR ${file}: entry ${i + 1} has no request method and URL or no response status`)
    }
    const given = (entry.response.content ?? { size: 0, mimeType: '' }) as HarEntry['response']['content'] & {
      encoding?: string
    }
    // A browser exports some bodies base64-encoded (HAR's `encoding`): read as the text they are.
    const decoded =
      given.encoding === 'base64' && given.text !== undefined
        ? Buffer.from(given.text, 'base64').toString('utf8')
        : undefined
    const content = decoded !== undefined ? { ...given, text: decoded } : given
    const request = { ...entry.request, headers: entry.request.headers ?? [] }
    const fixed = { ...entry, request, response: { ...entry.response, headers: entry.response.headers ?? [], content } }
    const caller = CALLER_CLASSES.includes(entry._caller) ? { caller: entry._caller } : {}
    const bodyKept = content.text !== undefined || content.size === 0 || entry.response.status === 204
    return { exchange: exchangeOfEntry(fixed), startedDateTime: entry.startedDateTime ?? '', bodyKept, ...caller }
  })
  const facts = log.log?._run ?? log.log?._proxy
  return { entries: observed, ...(facts !== undefined ? { run: facts } : {}) }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The target's URL as the traffic shows it: the origin and path before the first `/rest/`. */
function inferredBase(entries: readonly ObservedEntry[]): string | undefined {
  for (const e of entries) {
    const m = /^(https?:\/\/[^/]+(?:\/.*?)?)\/rest\//.exec(e.exchange.request.url)
    if (m !== null) return m[1]
  }
  return undefined
}
