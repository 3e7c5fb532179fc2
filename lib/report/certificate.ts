import { createHash } from 'node:crypto'
import { canonicalJson } from './sign.ts'
import { certify, type Certification } from './certify.ts'
import { applyBaseline, type Baseline } from './baseline.ts'
import { neverStarted, runStory } from './outcome.ts'
import type { Report } from './model.ts'
import { schemaProblems } from './json-schema.ts'
import MANIFEST_SCHEMA from './certificate.schema.json' with { type: 'json' }

/**
 * A certification package (docs/certification.md): one ustar file holding, in this order, manifest.json (the
 * statement and every other file's SHA-256: certificate.schema.json beside this file), signature.json (Ed25519 over
 * the manifest's canonical JSON), report.json, evidence.har, and baseline.json when the run had a baseline or
 * release profile. What is pure of making and checking one is here; the commands, and the re-judging of the
 * evidence, are lib/cli/certificate-commands.ts.
 */

export const PACKAGE_FILES = {
  manifest: 'manifest.json',
  signature: 'signature.json',
  report: 'report.json',
  evidence: 'evidence.har',
  baseline: 'baseline.json',
} as const

export interface Statement {
  suite: { name: string; version: string }
  spec: { version: string }
  target: { name: string; version: string; baseUrl: string; storeCodes: [string, string] }
  run: { id: string; seed: number; startedAt: string; finishedAt: string }
  scope: string
  verdict: Certification['verdict']
  counts: Pick<Certification, 'required' | 'passed' | 'failed' | 'errors' | 'notJudged' | 'baselined' | 'percent'>
  baseline?: { name: string; file: typeof PACKAGE_FILES.baseline; sha256: string }
  keyId: string
  certifiedAt: string
}

interface PackagedFile {
  name: string
  bytes: number
  sha256: string
}

export interface Manifest {
  format: 'shop-conformance-certification'
  version: 1
  statement: Statement
  files: PackagedFile[]
}

export const sha256 = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex')

/**
 * Why `report` cannot be certified, one line, or undefined: a certification states a verdict on the whole suite from
 * a run's own recorded exchanges, so a run that never started or was cut short, a slice or a shard, a passive report
 * (traffic the suite did not send), one judged again by another suite version, and one without its evidence are not.
 */
export function certificationRefusal(report: Report): string | undefined {
  const never = neverStarted(report)
  if (never !== undefined) return `${never}: it states nothing to certify`
  const c = report.certification as Certification | undefined
  if (c === undefined) return 'it has no certification statement (written by an older suite): run it again'
  if (c.verdict === 'not run') return 'it judged nothing (not run): it states nothing to certify'
  const story = runStory(report)
  if (story.kind === 'cut short') return `it is the report of ${story.text}: a certification is of a whole run`
  const mode = (report as { mode?: string }).mode
  if (mode === 'passive') return 'it is a passive report (traffic the suite did not send): passive: not a certification'
  const recorded = report.recording?.suite.version
  if (mode === 'rejudged' && recorded !== report.suite.version) {
    return `it was judged again by suite ${report.suite.version} from a run of suite ${recorded ?? 'unknown'}: certify the run's own report`
  }
  if (report.run.shard !== undefined || report.run.shards !== undefined)
    return `it is ${report.run.shard !== undefined ? `shard ${report.run.shard}` : 'a merge of shards'}: a certification is of one whole run`
  if (!c.scope.whole) return `it is ${c.scope.text}: a certification is of the whole suite only`
  if (report.evidence === undefined)
    return 'its evidence is missing (the run wrote no evidence.har: --no-evidence?): a certification is re-judged from it'
  return undefined
}

/** The statement of a certifiable report, for the implementation named and the signer's key. */
export function certificateStatement(
  report: Report,
  target: { name: string; version: string },
  keyId: string,
  certifiedAt: Date,
  baseline?: { name: string; bytes: Buffer },
): Statement {
  const c = report.certification
  return {
    suite: { name: report.suite.name, version: report.suite.version },
    spec: { version: report.spec.version },
    target: {
      name: target.name,
      version: target.version,
      baseUrl: report.target.baseUrl,
      storeCodes: [report.target.storeCode, report.target.secondStoreCode],
    },
    run: { id: report.run.id, seed: report.run.seed, startedAt: report.startedAt, finishedAt: report.finishedAt },
    scope: c.scope.text,
    verdict: c.verdict,
    counts: {
      required: c.required,
      passed: c.passed,
      failed: c.failed,
      errors: c.errors,
      notJudged: c.notJudged,
      baselined: c.baselined,
      percent: c.percent,
    },
    ...(baseline !== undefined
      ? { baseline: { name: baseline.name, file: PACKAGE_FILES.baseline, sha256: sha256(baseline.bytes) } }
      : {}),
    keyId,
    certifiedAt: certifiedAt.toISOString(),
  }
}

export function packagedFile(name: string, bytes: Buffer): PackagedFile {
  return { name, bytes: bytes.length, sha256: sha256(bytes) }
}

/**
 * What is wrong with `data` as manifest.json (certificate.schema.json), one line each (the first few); empty when
 * valid.
 */
export const manifestProblems = schemaProblems(MANIFEST_SCHEMA)

/** Where the package's files and the manifest's digests disagree: a file changed, missing, or not listed. */
export function digestProblems(manifest: Manifest, files: ReadonlyMap<string, Buffer>): string[] {
  const problems: string[] = []
  const listed = new Set(manifest.files.map((f) => f.name))
  for (const f of manifest.files) {
    const bytes = files.get(f.name)
    if (bytes === undefined) problems.push(`${f.name} is listed but not in the package`)
    else if (sha256(bytes) !== f.sha256 || bytes.length !== f.bytes)
      problems.push(
        `${f.name} changed: sha256 ${sha256(bytes)} (${bytes.length} bytes), the manifest says ${f.sha256} (${f.bytes} bytes)`,
      )
  }
  for (const name of files.keys()) {
    if (!listed.has(name) && name !== PACKAGE_FILES.manifest && name !== PACKAGE_FILES.signature)
      problems.push(`${name} is in the package but not in the manifest`)
  }
  if (!listed.has(PACKAGE_FILES.report) || !listed.has(PACKAGE_FILES.evidence))
    problems.push('the manifest lists no report.json or evidence.har')
  const baseline = manifest.statement.baseline
  const baselineBytes = baseline !== undefined ? files.get(baseline.file) : undefined
  if (baseline !== undefined && baselineBytes !== undefined && sha256(baselineBytes) !== baseline.sha256)
    problems.push(`${baseline.file}: not the baseline the statement names (sha256 ${baseline.sha256})`)
  if ((baseline !== undefined) !== listed.has(PACKAGE_FILES.baseline))
    problems.push(
      `the statement ${baseline !== undefined ? 'names a baseline the manifest does not list' : 'names no baseline, yet the manifest lists one'}`,
    )
  return problems
}

/**
 * Where the statement does not say what the report says (each field of the statement the report has: all but the
 * signer's).
 */
export function statementProblems(statement: Statement, report: Report): string[] {
  const c = report.certification as Certification | undefined
  if (c === undefined) return ['report.json has no certification']
  const expected = certificateStatement(
    report,
    statement.target,
    statement.keyId,
    new Date(statement.certifiedAt),
    undefined,
  )
  const fields: [string, unknown, unknown][] = [
    ['suite', statement.suite, expected.suite],
    ['spec', statement.spec, expected.spec],
    ['target', statement.target, expected.target],
    ['run', statement.run, expected.run],
    ['scope', statement.scope, expected.scope],
    ['verdict', statement.verdict, expected.verdict],
    ['counts', statement.counts, expected.counts],
  ]
  const problems = fields
    .filter(([, said, is]) => canonicalJson(said) !== canonicalJson(is))
    .map(
      ([field, said, is]) => `the statement's ${field} ${canonicalJson(said)} is not the report's ${canonicalJson(is)}`,
    )
  const named = report.target.name
  if (named !== undefined && named !== statement.target.name)
    problems.push(`the statement names ${statement.target.name}, the report ${named}`)
  if ((statement.baseline !== undefined) !== (report.baseline !== undefined))
    problems.push(
      `the statement ${statement.baseline !== undefined ? 'names a baseline the report was not judged with' : 'names no baseline, the report was judged with one'}`,
    )
  return problems
}

/**
 * Where the report's certification does not follow from its own results (judged again as lib/report/certify.ts
 * judges: its plan, run errors, and the packaged baseline's excused failures).
 */
export function certificationProblems(report: Report, baseline: Baseline | undefined): string[] {
  const excused =
    baseline !== undefined ? new Set(applyBaseline(report, baseline).baselinedFailures.map((r) => r.id)) : undefined
  const again = certify({
    results: report.results,
    runErrors: report.runErrors,
    plan: report.plan,
    ...(excused !== undefined ? { baselined: excused } : {}),
  })
  const said = report.certification
  const keys = ['verdict', 'required', 'passed', 'failed', 'errors', 'notJudged', 'baselined', 'percent'] as const
  return keys
    .filter((k) => said[k] !== again[k])
    .map((k) => `report.json's certification says ${k} ${String(said[k])}, its results give ${String(again[k])}`)
}
