/**
 * The run's evidence.har, joined from the parts its threads wrote as their requests finished (lib/shop/evidence.ts):
 * the main process's (preflight, the shop's schema, cleanup), the worker's (the checks and workflows), an interrupted
 * run's cleanup process's. Entries in the order they were sent, each completed with what only the run knows at its
 * end: the spec endpoint and store code (lib/shop/exchange-identity.ts, with the run's path aliases and the shop's
 * extension operations) and the planned checks whose results hold it. Written whole or not at all (a temporary file,
 * then renamed), synchronously — an interrupted run's 'exit' path writes it too — and streamed: no part is read
 * whole, one entry is held at a time.
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import type { Redactor } from '../results/redactor.ts'
import type { HarEntry } from '../results/har.ts'
import type { EvidenceBlock, Report } from '../report/model.ts'
import type { EvidenceLine } from '../shop/evidence.ts'
import { endpointMatcher, identify } from '../shop/exchange-identity.ts'
import type { PathAlias } from '../settings/config.ts'
import type { ProbeSettings } from '../checks/probe.ts'
import type { RecordedSession } from '../shop/replay.ts'
import { defined } from '../base/defined.ts'

export const EVIDENCE_FILE = 'evidence.har'

/** Where each thread of run `runId` writes its part (hidden beside the report until the run joins them). */
export function evidenceParts(reportDir: string, runId: string): { main: string; worker: string; cleanup: string } {
  const part = (thread: string) => join(reportDir, `.evidence-${runId}-${thread}.jsonl`)
  return { main: part('main'), worker: part('worker'), cleanup: part('cleanup') }
}

interface Joining {
  reportDir: string
  /** The report as drafted: the HAR's log names its run, suite, spec and target from it. */
  report: Pick<Report, 'suite' | 'spec' | 'target' | 'run' | 'startedAt' | 'calibration' | 'plan'>
  /**
   * The shop's extension operations as its schema declared them (their access class too: what their checks judge by).
   */
  operations: readonly { method: string; path: string }[]
  /** What the run planned its probes with (lib/checks/probe.ts); undefined when it never got a token. */
  probeSettings?: ProbeSettings | undefined
  /** `--extensions-probe-writes`: the extension kinds' plans depend on it. */
  probeWrites?: boolean
  /**
   * What of the session the workflows ran on they need to run again on the recording; undefined when it never got a
   * token.
   */
  session?: RecordedSession | undefined
  pathAliases: readonly PathAlias[]
  /** Every secret the main process knows, redacted once more as text, as every report file is. */
  secrets: Redactor
}

/** Where an entry's line is: its part, its number there, its place in the file. */
interface Located {
  startedDateTime: string
  part: number
  n: number
  offset: number
  length: number
}

/** Joins the run's parts into evidence.har and removes them: what the report says of it. */
export function writeEvidence(parts: readonly string[], joining: Joining): EvidenceBlock {
  const present = parts.filter((p) => existsSync(p))
  const located: Located[] = []
  const served = new Map<string, string[]>()
  const told = new Map<string, Extract<EvidenceLine, { tagged: number }>['fields']>()
  present.forEach((file, part) =>
    forEachLine(file, (line, offset, length) => {
      const at = ENTRY_START.exec(line.subarray(0, 200).toString('utf8'))
      if (at !== null)
        return void located.push({
          startedDateTime: defined(at[2], 'the time ENTRY_START captures'),
          part,
          n: Number(at[1]),
          offset,
          length,
        })
      const tag = JSON.parse(line.toString('utf8')) as Exclude<EvidenceLine, { n: number }>
      if ('tagged' in tag)
        return void told.set(`${part} ${tag.tagged}`, { ...told.get(`${part} ${tag.tagged}`), ...tag.fields })
      for (const n of tag.entries) served.set(`${part} ${n}`, [...(served.get(`${part} ${n}`) ?? []), tag.served])
    }),
  )
  // ISO times of one clock compare as text; sent at the same millisecond, each part's own order.
  located.sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime) || a.part - b.part || a.n - b.n)

  const file = join(joining.reportDir, EVIDENCE_FILE)
  const out = openSync(`${file}.tmp`, 'w')
  const fds = present.map((p) => openSync(p, 'r'))
  let bytes = 0
  const write = (text: string) => (bytes += writeSync(out, text))
  try {
    const endpointOf = endpointMatcher(joining.pathAliases, joining.operations)
    const base = joining.report.target.baseUrl
    write(`{"log":${JSON.stringify(logHead(joining)).slice(0, -1)},"entries":[\n`)
    located.forEach((l, i) => {
      const buffer = Buffer.alloc(l.length)
      readSync(defined(fds[l.part], 'the descriptor of an evidence part'), buffer, 0, l.length, l.offset)
      const { entry } = JSON.parse(buffer.toString('utf8')) as Extract<EvidenceLine, { n: number }>
      const { store, endpoint, origin } = identify(
        { ...entry.request, headers: {} },
        { endpointOf, base, caller: entry._caller },
      )
      const checks = served.get(`${l.part} ${l.n}`)
      const completed: HarEntry = {
        ...entry,
        ...told.get(`${l.part} ${l.n}`),
        ...(endpoint !== undefined
          ? { _endpoint: endpoint, _origin: defined(origin, 'the origin of a matched endpoint') }
          : {}),
        ...(store !== undefined ? { _store: store } : {}),
        ...(checks !== undefined ? { _checks: checks } : {}),
      }
      write(`${i === 0 ? '' : ',\n'}${joining.secrets.redactText(JSON.stringify(completed))}`)
    })
    write('\n]}}\n')
  } finally {
    for (const fd of fds) closeSync(fd)
    closeSync(out)
  }
  renameSync(`${file}.tmp`, file)
  for (const p of present) rmSync(p, { force: true })
  return { file: EVIDENCE_FILE, entries: located.length, bytes }
}

/**
 * The parts an earlier run into `reportDir` left when it was killed before joining them (`kill -9`, a machine gone
 * down): removed by the next run, which holds the directory's lock, so no live run writes them. They were hidden
 * files of a run that wrote no report; its ledger is what is kept (stale-ledger.ts).
 */
export function removeStaleEvidenceParts(reportDir: string, runId: string): void {
  for (const name of readdirSync(reportDir)) {
    const part = PART_NAME.exec(name)
    if (part !== null && part[1] !== runId) rmSync(join(reportDir, name), { force: true })
  }
}

/** How a part of run `$1` is named (evidenceParts). */
const PART_NAME = /^\.evidence-(.+)-(?:main|worker|cleanup)\.jsonl$/

/** A report directory's evidence.har of an earlier run, removed by a run that writes none (`--no-evidence`). */
export function removeEarlierEvidence(reportDir: string): void {
  rmSync(join(reportDir, EVIDENCE_FILE), { force: true })
}

/** How an entry's line of a part starts (lib/shop/evidence.ts writes `{ n, entry }`, the entry's start first). */
const ENTRY_START = /^\{"n":(\d+),"entry":\{"startedDateTime":"([^"]+)"/

/**
 * The HAR's log without its entries: the creator, and the run it records — what `judge --har` needs to plan again as
 * the run planned (lib/run/rejudge.ts): its settings, what it selected, the checks it planned (a check planned since
 * is not recorded), the calibration its answers are read against, the shop's extension operations, and what of its
 * session its workflows run again with (lib/shop/replay.ts).
 */
function logHead({ report, operations, probeSettings, probeWrites, session }: Joining) {
  return {
    version: '1.2',
    creator: { name: report.suite.name, version: report.suite.version },
    comment: `The exchanges of run ${report.run.id} of ${report.suite.name} ${report.suite.version} against ${report.target.baseUrl}, redacted as its report is: no token, password or secret; each entry's caller as its class (_caller).`,
    _run: {
      id: report.run.id,
      startedAt: report.startedAt,
      suite: report.suite,
      spec: report.spec,
      target: report.target,
      seed: report.run.seed,
      readOnly: report.run.readOnly,
      pathAliases: report.run.pathAliases,
      calibration: report.calibration,
      operations,
      concurrency: report.run.concurrency,
      timeoutMs: report.run.timeoutMs,
      modules: report.plan.modules,
      checks: report.run.checks,
      ...(report.run.extensions !== undefined ? { extensions: report.run.extensions } : {}),
      ...(probeSettings !== undefined ? { probeSettings } : {}),
      probeWrites: probeWrites ?? false,
      planned: report.plan.selected.map((p) => p.id),
      ...(session !== undefined ? { session } : {}),
    },
    pages: [],
  }
}

/** Each line of a file with its byte offset and length, read a chunk at a time. */
function forEachLine(file: string, each: (line: Buffer, offset: number, length: number) => void): void {
  const fd = openSync(file, 'r')
  try {
    const size = fstatSync(fd).size
    const chunk = Buffer.alloc(1 << 20)
    let carried = Buffer.alloc(0)
    let at = 0
    while (at < size) {
      const read = readSync(fd, chunk, 0, chunk.length, at)
      if (read === 0) break
      const data = carried.length === 0 ? chunk.subarray(0, read) : Buffer.concat([carried, chunk.subarray(0, read)])
      const start = at - carried.length
      let from = 0
      for (let nl = data.indexOf(10); nl >= 0; nl = data.indexOf(10, from)) {
        if (nl > from) each(data.subarray(from, nl), start + from, nl - from)
        from = nl + 1
      }
      // A line cut by the chunk's end waits for the next; one cut by a thread's end (a crash) is left out.
      carried = Buffer.from(data.subarray(from))
      at += read
    }
  } finally {
    closeSync(fd)
  }
}
