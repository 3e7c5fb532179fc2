import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { defined } from '../base/defined.ts'
import { UsageError } from '../base/usage-error.ts'
import { writeTar } from '../base/tar.ts'
import { isProfileName, parseBaseline } from '../report/baseline.ts'
import {
  PACKAGE_FILES,
  certificateStatement,
  certificationRefusal,
  manifestProblems,
  packagedFile,
  type Manifest,
} from '../report/certificate.ts'
import type { Report } from '../report/model.ts'
import { shippedProfiles } from '../report/profiles.ts'
import { canonicalJson, ed25519PrivateKey, keyIdOf, newEd25519Pair, signReport } from '../report/sign.ts'
import { args, readReport, readText, reportPath, required, writeWhole, type CommandIo } from './command-io.ts'

/**
 * `keygen --out DIR` and `certify --report DIR --key PRIVATE.pem --out FILE`: a signer's key pair, and a certification
 * package made of a whole run's report and evidence (docs/certification.md). What a package holds and how it is
 * checked: lib/report/certificate.ts; `verify --package`: certificate-verify.ts.
 */

/** `keygen --out DIR`: DIR/private.pem (mode 600), DIR/public.pem, DIR/key-id (the public key's SHA-256). */
export async function keygenCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values } = args('keygen', argv, { out: { type: 'string' } })
  const out = required('keygen', values.out, '--out DIR')
  const privateFile = join(out, 'private.pem')
  // Never over a key someone may have signed with: a lost private key is a signer lost.
  if (existsSync(privateFile))
    throw new UsageError(`keygen: ${privateFile} exists; a key is not replaced: choose another --out`)
  mkdirSync(out, { recursive: true })
  const pair = newEd25519Pair()
  await writeWhole(join(out, 'public.pem'), pair.publicPem, 'keygen:')
  await writeWhole(join(out, 'key-id'), `${pair.keyId}\n`, 'keygen:')
  // Readable by its owner only from its first byte; `wx`: never over a file that appeared meanwhile.
  writeFileSync(privateFile, pair.privatePem, { mode: 0o600, flag: 'wx' })
  io.out(
    `keygen: Ed25519 key ${pair.keyId} → ${privateFile} (keep it secret), ${join(out, 'public.pem')} (publish it)\n`,
  )
  return 0
}

/**
 * `certify --report DIR --key PRIVATE.pem --out FILE [--target-name N] [--target-version V] [--baseline FILE]`:
 * refuses, one line, what is no certification (certificationRefusal), a report whose evidence.har is missing or of
 * another run, and a target it cannot name.
 */
export async function certifyCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values } = args('certify', argv, {
    report: { type: 'string' },
    key: { type: 'string' },
    out: { type: 'string' },
    'target-name': { type: 'string' },
    'target-version': { type: 'string' },
    baseline: { type: 'string' },
  })
  const file = reportPath(required('certify', values.report, '--report DIR'))
  const keyFile = required('certify', values.key, '--key PRIVATE.pem')
  const out = required('certify', values.out, '--out FILE')
  const report = readReport(file)
  const refusal = certificationRefusal(report)
  if (refusal !== undefined) throw new UsageError(`certify: ${file}: ${refusal}`)
  const target = targetOf(report, values['target-name'], values['target-version'], file)
  // certificationRefusal refuses a report without evidence.
  const evidenceFile = join(dirname(file), defined(report.evidence, 'the evidence of a report certification took').file)
  if (!existsSync(evidenceFile))
    throw new UsageError(
      `certify: ${file}: its evidence ${evidenceFile} is missing: a certification is re-judged from it`,
    )
  const evidence = readFileSync(evidenceFile)
  const runId = recordedRunId(evidence)
  if (runId !== report.run.id)
    throw new UsageError(
      `certify: ${evidenceFile} is the evidence of run ${runId ?? '(none)'}, not of the report's run ${report.run.id}`,
    )
  const baseline = baselineOf(report, values.baseline, file)
  const key = ed25519PrivateKey(readText(keyFile, 'key'), `key ${keyFile}`)
  const now = new Date()
  const reportBytes = readFileSync(file)
  const files = [
    { name: PACKAGE_FILES.report, bytes: reportBytes },
    { name: PACKAGE_FILES.evidence, bytes: evidence },
    ...(baseline !== undefined ? [{ name: PACKAGE_FILES.baseline, bytes: baseline.bytes }] : []),
  ]
  const manifest: Manifest = {
    format: 'shop-conformance-certification',
    version: 1,
    statement: certificateStatement(report, target, keyIdOf(key), now, baseline),
    files: files.map((f) => packagedFile(f.name, f.bytes)),
  }
  const problems = manifestProblems(manifest)
  if (problems.length > 0) throw new Error(`certify: the manifest made is not valid (${problems.join('; ')})`)
  const signature = {
    keyId: manifest.statement.keyId,
    ...signReport(manifest as unknown as Record<string, unknown>, key, now),
  }
  // Gzipped (`tar -tzf` lists it): a whole run's report and evidence are some 9 MB of JSON, a tenth of that compressed.
  const archive = gzipSync(
    writeTar(
      [
        { name: PACKAGE_FILES.manifest, bytes: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
        { name: PACKAGE_FILES.signature, bytes: Buffer.from(`${JSON.stringify(signature, null, 2)}\n`) },
        ...files,
      ],
      now.getTime() / 1000,
    ),
  )
  await writeWhole(out, archive, 'certify: --out')
  const s = manifest.statement
  io.out(
    `certified ${s.target.name} ${s.target.version}: ${s.verdict} (${s.counts.passed} of ${s.counts.required} required checks passed, suite ${s.suite.version}), key ${s.keyId} → ${out} (${archive.length} bytes)\n`,
  )
  return 0
}

/**
 * The implementation certified: the flags, else what the report names; a flag that contradicts the report is refused.
 */
function targetOf(
  report: Report,
  name: string | undefined,
  version: string | undefined,
  file: string,
): { name: string; version: string } {
  const pick = (flag: string, given: string | undefined, recorded: string | undefined) => {
    if (given !== undefined && recorded !== undefined && given !== recorded)
      throw new UsageError(`certify: --${flag} ${given}, but ${file} names it ${recorded}`)
    const value = given ?? recorded
    if (value === undefined || value === '')
      throw new UsageError(
        `certify: --${flag} is required: ${file} does not name the target's ${flag.replace('target-', '')}`,
      )
    return value
  }
  return {
    name: pick('target-name', name, report.target.name),
    version: pick('target-version', version, report.target.version),
  }
}

/** The run id of an evidence.har's `_run` header, or undefined (not JSON, no header). */
function recordedRunId(evidence: Buffer): string | undefined {
  try {
    const id = (JSON.parse(evidence.toString('utf8')) as { log?: { _run?: { id?: unknown } } }).log?._run?.id
    return typeof id === 'string' ? id : undefined
  } catch {
    return undefined
  }
}

/**
 * The baseline or release profile the run was judged with, as a file: a shipped profile by its name, else `--baseline`
 * or the path the run was given (from where certify runs). Its entries must be the report's: another file is refused.
 */
function baselineOf(
  report: Report,
  given: string | undefined,
  file: string,
): { name: string; bytes: Buffer } | undefined {
  const used = report.baseline
  if (used === undefined) {
    if (given !== undefined)
      throw new UsageError(`certify: --baseline ${given}, but ${file} was judged without a baseline`)
    return undefined
  }
  const path =
    given ??
    (isProfileName(used.file) ? shippedProfiles().find((p) => p.profile.profile.name === used.file)?.file : used.file)
  if (path === undefined || !existsSync(path)) {
    throw new UsageError(
      `certify: ${file} was judged with the baseline ${used.file}, which is not found here: name its file with --baseline FILE`,
    )
  }
  const bytes = readFileSync(path)
  const entries = parseBaseline(bytes.toString('utf8'), path).entries
  if (canonicalJson(entries) !== canonicalJson(used.entries))
    throw new UsageError(`certify: --baseline ${path} is not the baseline ${file} was judged with (its entries differ)`)
  return { name: used.file, bytes }
}
