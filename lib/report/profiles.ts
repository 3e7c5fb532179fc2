import { readdirSync } from 'node:fs'
import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defined } from '../base/defined.ts'
import { UsageError } from '../base/usage-error.ts'
import {
  baselineFromReport,
  isProfileName,
  oneLine,
  readBaseline,
  type Baseline,
  type ProfileHead,
} from './baseline.ts'
import type { BaselineEntry } from './model.ts'
import type { Report } from './model.ts'
import type { Result } from '../results/result.ts'

/**
 * Release profiles: a baseline per release of an implementation, shipped in the package, listing what that
 * release fails because it deviates from the spec — each entry with the release and the evidence (the kind of
 * deviation and why, as traced to the exchange and the spec's words). `--baseline platform:2.4.7-p7` gates a
 * shop on that release on "nothing beyond the release's known deviations". A profile is made from a whole run
 * against a fresh install of the release and its traced list (known-deviations.tsv): `baseline --from REPORT
 * --profile NAME --deviations FILE`; without the list, every entry is `untraced` (a proposal's first draft).
 */

type Profile = Baseline & { profile: ProfileHead }

/**
 * The kinds a traced deviation may be: a route the release serves elsewhere or not at all, a behaviour the spec's words
 * rule out, the instance's configuration.
 */
const DEVIATION_KINDS = ['renamed', 'absent', 'behaviour', 'configuration'] as const

/** One line of known-deviations.tsv: `result id <TAB> kind <TAB> why`. */
interface Deviation {
  id: string
  kind: string
  why: string
  line: number
}

// lib/ ships in the package; fixtures/ (where the runs they are made from live) does not.
const SHIPPED = new URL('./profiles/', import.meta.url)

/** The profiles shipped in the package, by name; each file is read and checked as any baseline is. */
export function shippedProfiles(): { file: string; profile: Profile }[] {
  const dir = fileURLToPath(SHIPPED)
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = `${dir}${f}`
      const baseline = readBaseline(file)
      if (baseline.profile === undefined) throw new Error(`${file}: a shipped profile without its "profile" head`)
      return { file, profile: baseline as Profile }
    })
}

/** What `--baseline VALUE` names: a shipped profile (`platform:2.4.7-p7`) or a baseline file. */
export function resolveBaseline(value: string): Baseline {
  if (!isProfileName(value)) return readBaseline(value)
  const shipped = shippedProfiles()
  const found = shipped.find((s) => s.profile.profile.name === value)
  if (found === undefined) {
    throw new UsageError(
      `baseline ${value}: no release profile of that name in this package (it has ${shipped.map((s) => s.profile.profile.name).join(', ')}: \`shop-conformance baseline list\`); a file of that name: ./${value}`,
    )
  }
  return found.profile
}

/** Reads known-deviations.tsv: `#` lines are comments (the first ones, but the column names, say what the list is). */
export function parseDeviations(text: string, path: string): { about: string; deviations: Deviation[] } {
  const fail = (line: number, problem: string): never => {
    throw new UsageError(`deviations ${path}: line ${line}: ${problem}`)
  }
  const head: string[] = []
  const deviations: Deviation[] = []
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1
    if (raw.trim() === '') return
    if (raw.startsWith('#')) {
      // The column names hold tabs; the comment above them says what the list is.
      if (deviations.length === 0 && !raw.includes('\t')) head.push(raw.replace(/^#\s*/, ''))
      return
    }
    const fields = raw.split('\t').map((f) => f.trim())
    if (fields.length !== 3 || fields.some((f) => f === ''))
      return fail(
        line,
        `expected three fields separated by tabs (result id, kind, why), got ${fields.filter((f) => f !== '').length}`,
      )
    const [id, kind, why] = fields as [string, string, string]
    if (!(DEVIATION_KINDS as readonly string[]).includes(kind))
      return fail(line, `kind "${kind}" is none of ${DEVIATION_KINDS.join(', ')}`)
    const first = deviations.find((d) => d.id === id)
    if (first !== undefined) return fail(line, `"${id}" is listed on line ${first.line} already`)
    deviations.push({ id, kind, why, line })
  })
  return { about: head.join(' '), deviations }
}

interface ProfileRequest {
  /** `platform:2.4.8`: the release is what follows the colon. */
  name: string
  /** Each entry's reason, for a profile without a traced list. */
  reason?: string
  /** The traced list: each failure of the run must be on it, and each of its lines must fail in the run. */
  deviations?: { file: string; text: string }
}

/**
 * A profile of the spec's failures of `report` (an extension's are not the spec's: no release deviates from the
 * spec by them). With the traced list, its entries in the list's order, each with the line's kind and why; the
 * run and the list must agree, so a profile never lists what its own run passed.
 */
export function profileFromReport(
  report: Pick<Report, 'results' | 'run' | 'suite' | 'spec' | 'startedAt' | 'partial' | 'certification'>,
  request: ProfileRequest,
  reportName: string,
): Profile {
  if (!isProfileName(request.name))
    throw new UsageError(
      `baseline --profile: "${request.name}" is no profile name: PRODUCT:RELEASE, such as platform:2.4.8`,
    )
  // What a release fails is known from a run that judged everything: a slice or a read-only run would leave out
  // what it did not judge, and a shop on that release would find its deviations "new".
  const narrowed = narrowing(report)
  if (narrowed !== undefined)
    throw new UsageError(
      `baseline --profile: ${reportName} is of a run that is ${narrowed}: make a profile from a whole run in full mode`,
    )
  const release = request.name.slice(request.name.indexOf(':') + 1)
  const made = {
    run: report.run.id,
    suite: report.suite.version,
    spec: report.spec.version,
    date: report.startedAt.slice(0, 10),
  }
  const specResults = report.results.filter((r) => r.extension !== true)
  if (request.deviations === undefined) {
    const byId = new Map(specResults.map((r) => [r.id, r]))
    const entries = baselineFromReport(
      { results: specResults },
      request.reason,
      new Date(report.startedAt),
    ).entries.map((e): BaselineEntry => {
      const failed = defined(byId.get(e.id), 'the result a baseline entry was made from')
      return { ...e, release, evidence: { kind: 'untraced', why: oneLine(failed.message) } }
    })
    const about = `release ${release}: the spec's failures of run ${made.run}, not traced yet (each entry's evidence is the run's message)`
    return { version: 1, profile: { name: request.name, release, about, madeFrom: made }, entries }
  }
  const { file, text } = request.deviations
  const { about, deviations } = parseDeviations(text, file)
  const status = new Map(specResults.map((r) => [r.id, r.status]))
  const untraced = specResults
    .filter((r) => r.status === 'failed' && !deviations.some((d) => d.id === r.id))
    .map((r) => r.id)
  if (untraced.length > 0) {
    throw new UsageError(
      `deviations ${file}: ${untraced.length} of the spec's failures of ${reportName} are not on it (${untraced.slice(0, 3).join('; ')}${untraced.length > 3 ? '; …' : ''}): trace each and add its line`,
    )
  }
  const passing = deviations.find((d) => status.get(d.id) !== 'failed')
  if (passing !== undefined) {
    throw new UsageError(
      `deviations ${file}: line ${passing.line} (${passing.id}) ${unfailedWords(status.get(passing.id))} in ${reportName}: a profile lists only what its run fails`,
    )
  }
  const entries = deviations.map(
    (d): BaselineEntry => ({
      id: d.id,
      reason: `${release} known deviation (${d.kind}): ${expanded(d, deviations)}`,
      release,
      evidence: { kind: d.kind, why: d.why },
    }),
  )
  return {
    version: 1,
    profile: {
      name: request.name,
      release,
      about: about || `release ${release}: its known deviations from the spec`,
      madeFrom: { ...made, deviations: basename(file) },
    },
    entries,
  }
}

/**
 * What a run that is no whole run in full mode is (a profile is made from whole runs only); undefined for a whole one.
 */
function narrowing(report: Pick<Report, 'run' | 'partial' | 'certification'>): string | undefined {
  if (report.run.readOnly) return 'read-only'
  if (report.partial !== undefined) return 'cut short'
  return report.certification?.scope.whole === false ? report.certification.scope.text : undefined
}

/** What a deviation's result was in the run, when it did not fail. */
function unfailedWords(status: Result['status'] | undefined): string {
  if (status === undefined) return 'is no result'
  return status === 'passed' ? 'passed' : 'was not judged'
}

/** `same as base-prices-information` with the why it refers to: a reason must read on its own in every format. */
function expanded(d: Deviation, all: readonly Deviation[]): string {
  const ref = /^same as (.+)$/.exec(d.why)?.[1]
  if (ref === undefined) return d.why
  const endpoint = (id: string) => defined(id.split(' › ')[0], 'the first part of a split id')
  const meant = all.filter(
    (o) => o !== d && !o.why.startsWith('same as ') && (endpoint(o.id) === ref || endpoint(o.id).endsWith(`/${ref}`)),
  )
  const [only, ...more] = meant
  return only !== undefined && more.length === 0 ? `same as ${ref} — ${only.why}` : d.why
}

/** The shipped profiles as `baseline list` shows them. */
export function profilesListing(): string {
  const lines: string[] = []
  for (const { file, profile } of shippedProfiles()) {
    const p = profile.profile
    const kinds = new Map<string, number>()
    for (const e of profile.entries)
      kinds.set(e.evidence?.kind ?? 'untraced', (kinds.get(e.evidence?.kind ?? 'untraced') ?? 0) + 1)
    lines.push(
      `${p.name} — ${profile.entries.length} entries (${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ')})`,
      `  ${p.about}`,
      `  made from run ${p.madeFrom.run} (suite ${p.madeFrom.suite}, spec ${p.madeFrom.spec}, ${p.madeFrom.date})${p.madeFrom.deviations !== undefined ? ` and its traced list ${p.madeFrom.deviations}` : ''}`,
      `  ${file}`,
      '',
    )
  }
  lines.push(
    'Gate on one: shop-conformance run --baseline NAME (a stale entry: the shop does better than its release there).',
  )
  return `${lines.join('\n')}\n`
}
