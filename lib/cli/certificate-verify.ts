import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { KeyObject } from 'node:crypto'
import { readTar } from '../base/tar.ts'
import { UsageError } from '../base/usage-error.ts'
import { parseBaseline, type Baseline } from '../report/baseline.ts'
import {
  PACKAGE_FILES,
  certificationProblems,
  digestProblems,
  manifestProblems,
  statementProblems,
  type Manifest,
} from '../report/certificate.ts'
import type { Report } from '../report/model.ts'
import { emptyRegistry, registryProblems, type Registry } from '../report/registry.ts'
import { ed25519PublicKey, keyIdOf, parseSignatureFile, verifyReport } from '../report/sign.ts'
import { recordingOf, type Recording } from '../run/rejudge.ts'
import { args, readJson, readText, required, type CommandIo } from './command-io.ts'
import { rejudgeCheck } from './certificate-rejudge.ts'

/**
 * `verify --package FILE [--pub PUBLIC.pem | --registry DIR]`: a certification package checked offline, each check on
 * its own line — the signature, every digest, the statement against the report, the report's certification against its
 * own results, and its results against the packaged evidence judged again by the installed suite (lib/run/rejudge.ts:
 * nothing is sent). Exit 0 only when every check holds.
 */

interface PackageCheck {
  name: 'package' | 'signature' | 'digests' | 'statement' | 'certification' | 're-judge'
  problems: string[]
  /** What the check found when it holds, or more of what it found wrong (lines `diff` would print). */
  detail: string[]
}

export interface PackageVerdict {
  checks: PackageCheck[]
  manifest?: Manifest
  /** The signer's key id, and whether a key the verifier trusts (not the package's own) verified it. */
  signer?: { keyId: string; trusted: boolean }
}

/**
 * Where the verifier's trusted keys come from: one given, or a registry's keys/<key id>.pem; neither: the package's own
 * key.
 */
type Trust =
  | { publicKey: KeyObject }
  | { keyOf(keyId: string, implementation: string): KeyObject | undefined; where: string }
  | undefined

/**
 * The key the verifier trusts for the signer's key id: the one given, the registry's, or none when it trusts no key.
 */
function trustedKey(trust: Trust, keyId: string, implementation: string): KeyObject | undefined {
  if (trust === undefined) return undefined
  return 'publicKey' in trust ? trust.publicKey : trust.keyOf(keyId, implementation)
}

/** Why the packaged report.json is no report the package's checks can read; none when it is one. */
function reportShapeProblems(report: Report | undefined): string[] {
  if (report === undefined) return ['no readable report.json']
  if (!Array.isArray(report.results) || typeof report.certification !== 'object' || typeof report.plan !== 'object')
    return ['report.json is no shop-conformance report with results, plan and certification']
  return []
}

/** The package's checks as they are made: each with its problems (none: it holds) and what it found. */
class CheckList {
  readonly checks: PackageCheck[] = []

  add(name: PackageCheck['name'], problems: string[], detail: string[] = []): void {
    this.checks.push({ name, problems, detail })
  }

  /** A part changed into something the check cannot read is that check failed, never a crash of the verifier. */
  guarded(name: PackageCheck['name'], problems: () => string[], detail: () => string[]): void {
    try {
      this.add(name, problems(), detail())
    } catch (err) {
      this.add(name, [`cannot be checked: ${(err as Error).message.split('\n')[0]}`])
    }
  }
}

/** The checks, pure: the package's bytes and the trusted key in, a verdict per check out. */
export async function verifyPackage(archive: Buffer, trust: Trust, now = new Date()): Promise<PackageVerdict> {
  const list = new CheckList()
  let files: Map<string, Buffer>
  try {
    files = packageFiles(archive)
  } catch (err) {
    list.add('package', [`not a certification package: ${(err as Error).message}`])
    return { checks: list.checks }
  }
  const manifest = jsonOf(files, PACKAGE_FILES.manifest) as Manifest | undefined
  const signatureData = jsonOf(files, PACKAGE_FILES.signature)
  const report = jsonOf(files, PACKAGE_FILES.report) as Report | undefined
  const evidence = recordingIn(jsonOf(files, PACKAGE_FILES.evidence))
  const shapeProblems = packageShapeProblems(manifest, signatureData, report, evidence)
  list.add('package', shapeProblems, [`${files.size} files: ${[...files.keys()].join(', ')}`])
  // A missing manifest or report is among the shape's problems; the compiler is told so again.
  if (shapeProblems.length > 0 || manifest === undefined || report === undefined)
    return { checks: list.checks, ...(manifest !== undefined ? { manifest } : {}) }
  const m = manifest
  const signer = signatureCheck(list, signatureData, m, trust)
  list.add('digests', digestProblems(m, files), [`${m.files.length} files, each its SHA-256`])
  const r = report
  list.guarded(
    'statement',
    () => statementProblems(m.statement, r),
    () => [`${m.statement.target.name} ${m.statement.target.version}: ${m.statement.verdict}, ${m.statement.scope}`],
  )
  certificationCheck(list, files.get(PACKAGE_FILES.baseline), r)
  try {
    list.checks.push(await rejudgeCheck(r, m, evidence as Omit<Recording, 'file'>, now))
  } catch (err) {
    list.add('re-judge', [`cannot be checked: ${(err as Error).message.split('\n')[0]}`])
  }
  return { checks: list.checks, manifest: m, ...(signer !== undefined ? { signer } : {}) }
}

/** Why the package is not one the checks can read: a manifest, signature, report or evidence missing or unreadable. */
function packageShapeProblems(
  manifest: Manifest | undefined,
  signatureData: unknown,
  report: Report | undefined,
  evidence: ReturnType<typeof recordingIn>,
): string[] {
  return [
    ...(manifest === undefined
      ? ['no readable manifest.json']
      : manifestProblems(manifest).map((p) => `manifest.json ${p}`)),
    ...(signatureData === undefined ? ['no readable signature.json'] : []),
    ...reportShapeProblems(report),
    ...('problem' in evidence ? [`no readable evidence.har: ${evidence.problem}`] : []),
  ]
}

/**
 * The signature: over the manifest's canonical JSON, with the key the verifier trusts (or, trusting none, the
 * package's own). The signer it names, unless signature.json cannot be read.
 */
function signatureCheck(list: CheckList, signatureData: unknown, m: Manifest, trust: Trust): PackageVerdict['signer'] {
  const keyId = m.statement.keyId
  try {
    const sig = parseSignatureFile(signatureData, PACKAGE_FILES.signature)
    const own =
      sig.publicKey !== '' ? ed25519PublicKey(sig.publicKey, `${PACKAGE_FILES.signature} publicKey`) : undefined
    const trusted = trustedKey(trust, keyId, m.statement.target.name)
    const key = trusted ?? own
    const problems: string[] = []
    if (trust !== undefined && trusted === undefined)
      problems.push(`key ${keyId} is not among ${'where' in trust ? trust.where : 'the keys given'}`)
    else if (key === undefined) problems.push('no key to check it with (signature.json names none: pass --pub)')
    else problems.push(...keyProblems(m, sig, key, trusted !== undefined))
    list.add('signature', problems, [
      trusted !== undefined
        ? `Ed25519, key ${keyId}`
        : `Ed25519, key ${keyId}: the package's own key — who holds it only a key you trust says (--pub, --registry)`,
    ])
    return { keyId, trusted: trusted !== undefined }
  } catch (err) {
    list.add('signature', [err instanceof UsageError ? err.message : String(err)])
    return undefined
  }
}

/** What is wrong with the signature under `key`: another key than the statement names, or a manifest changed. */
function keyProblems(
  m: Manifest,
  sig: ReturnType<typeof parseSignatureFile>,
  key: KeyObject,
  trusted: boolean,
): string[] {
  const keyId = m.statement.keyId
  const problems: string[] = []
  if (keyIdOf(key) !== keyId)
    problems.push(
      `the statement names key ${keyId}, the ${trusted ? 'key given' : "signature's key"} is ${keyIdOf(key)}`,
    )
  const outcome = verifyReport(m as unknown as Record<string, unknown>, sig, key)
  if (outcome.ok) return problems
  if (outcome.reason !== 'report changed') return [...problems, outcome.message]
  const how = outcome.message.replace(/^report changed since it was signed /, '')
  return [...problems, `manifest.json changed since it was signed (${how})`]
}

/** The report's certification against its own results, with the packaged baseline (an unreadable one fails it). */
function certificationCheck(list: CheckList, baselineBytes: Buffer | undefined, r: Report): void {
  let baseline: Baseline | undefined
  try {
    baseline =
      baselineBytes !== undefined ? parseBaseline(baselineBytes.toString('utf8'), PACKAGE_FILES.baseline) : undefined
  } catch (err) {
    list.add('certification', [(err as Error).message])
  }
  if (!list.checks.some((c) => c.name === 'certification'))
    list.guarded(
      'certification',
      () => certificationProblems(r, baseline),
      () => [`${r.certification.verdict}: follows from report.json's results`],
    )
}

/** The packaged evidence as a recording, or what makes it none. */
function recordingIn(data: unknown): Omit<Recording, 'file'> | { problem: string } {
  try {
    return recordingOf(data)
  } catch (err) {
    return { problem: (err as Error).message }
  }
}

function jsonOf(files: ReadonlyMap<string, Buffer>, name: string): unknown {
  const bytes = files.get(name)
  if (bytes === undefined) return undefined
  try {
    return JSON.parse(bytes.toString('utf8'))
  } catch {
    return undefined
  }
}

/** The verifier's trust: `--pub`, or `--registry DIR` (its keys/<key id>.pem), or neither. */
function trustOf(command: string, pub: string | undefined, registry: string | undefined): Trust {
  if (pub !== undefined && registry !== undefined) throw new UsageError(`${command}: --pub or --registry, not both`)
  if (pub !== undefined) return { publicKey: ed25519PublicKey(readText(pub, 'public key'), `public key ${pub}`) }
  return registry === undefined ? undefined : registryTrust(registry, readRegistry(registry, 'refuse').signers)
}

const REGISTRY_FILE = 'registry.json'

/** A registry's registry.json, checked against its schema; a directory without one is an empty registry, or refused. */
export function readRegistry(dir: string, missing: 'empty' | 'refuse'): Registry {
  const file = join(dir, REGISTRY_FILE)
  if (!existsSync(file)) {
    if (missing === 'empty') return emptyRegistry(new Date())
    throw new UsageError(`registry: ${dir} holds no ${REGISTRY_FILE}`)
  }
  const data = readJson(file, 'registry')
  const problems = registryProblems(data)
  if (problems.length > 0) throw new UsageError(`registry ${file}: not a registry (${problems.join('; ')})`)
  return data as Registry
}

/**
 * A registry's keys (keys/KEYID.pem, each checked to be the key of its id), each trusted only for the implementations
 * it signs for.
 */
export function registryTrust(dir: string, signers: Registry['signers']): Trust {
  return {
    where: `the keys registry ${dir} lists for the package's implementation`,
    keyOf: (keyId, implementation) => {
      const file = join(dir, 'keys', `${keyId}.pem`)
      if (!/^[0-9a-f]{64}$/.test(keyId) || !(signers[implementation] ?? []).includes(keyId) || !existsSync(file))
        return undefined
      const key = ed25519PublicKey(readText(file, 'public key'), `public key ${file}`)
      return keyIdOf(key) === keyId ? key : undefined
    },
  }
}

/** A package's files by name (gzip-compressed or not); an Error saying why it is no archive. */
export function packageFiles(archive: Buffer): Map<string, Buffer> {
  const tar = archive[0] === 0x1f && archive[1] === 0x8b ? gunzipSync(archive) : archive
  return new Map(readTar(tar).map((f) => [f.name, f.bytes]))
}

/**
 * The verdict as the command prints it: one line per check (✓ holds, ✗ failed: why), the details of a failed re-judge
 * after.
 */
export function verdictLines(file: string, verdict: PackageVerdict): string[] {
  const lines: string[] = []
  for (const c of verdict.checks) {
    if (c.problems.length === 0) lines.push(`✓ ${c.name}: ${c.detail.join('; ')}`)
    else lines.push(`✗ ${c.name} failed: ${c.problems.join('; ')}`)
  }
  const rejudged = verdict.checks.find((c) => c.name === 're-judge')
  if (rejudged !== undefined && rejudged.problems.length > 0) lines.push(...rejudged.detail.map((l) => `    ${l}`))
  const failed = verdict.checks.filter((c) => c.problems.length > 0)
  const s = verdict.manifest?.statement
  if (failed.length === 0 && s !== undefined) {
    lines.push(
      `verify ${file}: the package holds: ${s.target.name} ${s.target.version} ${s.verdict} (suite ${s.suite.version}, spec ${s.spec.version}, run ${s.run.id}), signed by key ${s.keyId}${verdict.signer?.trusted === true ? '' : ' (not a key you named)'}`,
    )
  } else
    lines.push(
      `verify ${file}: ${failed.length} check${failed.length === 1 ? '' : 's'} failed: ${failed.map((c) => c.name).join(', ')}`,
    )
  return lines
}

export async function verifyPackageCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values } = args('verify', argv, {
    package: { type: 'string' },
    pub: { type: 'string' },
    registry: { type: 'string' },
  })
  const file = required('verify', values.package, '--package FILE')
  const trust = trustOf('verify', values.pub, values.registry)
  let archive: Buffer
  try {
    archive = readFileSync(file)
  } catch (err) {
    throw new UsageError(
      `verify: --package ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    )
  }
  const verdict = await verifyPackage(archive, trust)
  io.out(`${verdictLines(file, verdict).join('\n')}\n`)
  return verdict.checks.every((c) => c.problems.length === 0) ? 0 : 1
}
