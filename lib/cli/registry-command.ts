import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { defined } from '../base/defined.ts'
import { UsageError } from '../base/usage-error.ts'
import { PACKAGE_FILES, sha256 } from '../report/certificate.ts'
import { reportHtml } from '../report/html.ts'
import type { Report } from '../report/model.ts'
import { admit, registryHtml } from '../report/registry.ts'
import { packageFiles, readRegistry, registryTrust, verdictLines, verifyPackage } from './certificate-verify.ts'
import { args, required, writeWhole, type CommandIo } from './command-io.ts'

/**
 * `registry add PACKAGE --registry DIR` and `registry verify DIR` (docs/certification.md): the registry's files written
 * and read; what is added or refused, and the page, are lib/report/registry.ts.
 */
export async function registryCommand(argv: string[], io: CommandIo): Promise<number> {
  const [sub, ...rest] = argv
  if (sub === 'add') return add(rest, io)
  if (sub === 'verify') return verifyRegistry(rest, io)
  throw new UsageError(
    sub === undefined
      ? 'registry: a subcommand is required (registry add PACKAGE --registry DIR, registry verify DIR)'
      : `registry: unknown subcommand "${sub}" (known: add, verify)`,
  )
}

async function add(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = args('registry add', argv, { registry: { type: 'string' } }, true)
  const dir = required('registry add', values.registry, '--registry DIR')
  const [file, ...more] = positionals
  if (file === undefined || more.length > 0)
    throw new UsageError(
      `registry add: one package expected (registry add PACKAGE --registry DIR), got ${positionals.length}`,
    )
  const archive = readBytes(file, 'registry add:')
  mkdirSync(dir, { recursive: true })
  const registry = readRegistry(dir, 'empty')
  // A listed implementation's packages verify with its listed keys only; a new one's with the package's own key,
  // which then becomes the name's signer (the keeper reviews that first submission).
  const unverified = await verifyPackage(archive, undefined)
  const said = unverified.manifest?.statement
  // Another key for a listed name, the same package or run again: refused before anything else is said of it.
  const outcome =
    said !== undefined
      ? admit(registry, said, { bytes: archive.length, sha256: sha256(archive) }, new Date())
      : undefined
  if (outcome !== undefined && 'refusal' in outcome) {
    io.out(`registry add: refused ${file}: ${outcome.refusal}\n`)
    return 1
  }
  const listed = said !== undefined ? registry.signers[said.target.name] : undefined
  const verdict = listed !== undefined ? await verifyPackage(archive, registryTrust(dir, registry.signers)) : unverified
  // No statement, no outcome: a package without a readable manifest is refused here too.
  if (said === undefined || outcome === undefined || verdict.checks.some((c) => c.problems.length > 0)) {
    io.out(`${verdictLines(file, verdict).join('\n')}\nregistry add: refused ${file}: it does not verify\n`)
    return 1
  }
  const statement = said
  const implementation = defined(
    outcome.registry.implementations.find((i) => i.name === statement.target.name),
    'the implementation admit() has just listed',
  )
  const entry = defined(
    implementation.certifications.find((c) => c.runId === statement.run.id),
    'the certification admit() has just listed',
  )
  // The package verified: it holds every file a package has.
  const files = packageFiles(archive)
  const fileText = (name: string) => defined(files.get(name), `${name} of a verified package`).toString('utf8')
  const report = JSON.parse(fileText(PACKAGE_FILES.report)) as Report
  const ownKey = JSON.parse(fileText(PACKAGE_FILES.signature)) as { publicKey: string }
  mkdirSync(join(dir, 'keys'), { recursive: true })
  const keyFile = join(dir, 'keys', `${statement.keyId}.pem`)
  if (!existsSync(keyFile)) await writeWhole(keyFile, ownKey.publicKey, 'registry add:')
  mkdirSync(join(dir, 'packages'), { recursive: true })
  await writeWhole(join(dir, entry.package.file), archive, 'registry add:')
  mkdirSync(join(dir, entry.report.replace(/\/report\.html$/, '')), { recursive: true })
  await writeWhole(join(dir, entry.report), reportHtml(report), 'registry add:')
  await writeWhole(join(dir, 'registry.json'), `${JSON.stringify(outcome.registry, null, 2)}\n`, 'registry add:')
  await writeWhole(join(dir, 'index.html'), registryHtml(outcome.registry), 'registry add:')
  io.out(
    `registry add: ${statement.target.name} ${statement.target.version} ${statement.verdict} (suite ${statement.suite.version}) → ${join(dir, entry.package.file)}; ${listed === undefined ? `key ${statement.keyId} now signs for ${statement.target.name}` : `signed by its listed key ${statement.keyId}`}\n`,
  )
  return 0
}

async function verifyRegistry(argv: string[], io: CommandIo): Promise<number> {
  const { positionals } = args('registry verify', argv, {}, true)
  const [dir, ...more] = positionals
  if (dir === undefined || more.length > 0)
    throw new UsageError(
      `registry verify: one registry directory expected (registry verify DIR), got ${positionals.length}`,
    )
  const registry = readRegistry(dir, 'refuse')
  const lines: string[] = []
  let failed = 0
  for (const i of registry.implementations) {
    for (const c of i.certifications) {
      const path = join(dir, c.package.file)
      const what = `${i.name} ${c.version} (suite ${c.suite.version}, run ${c.runId})`
      const archive = existsSync(path) ? readFileSync(path) : undefined
      const problems: string[] = []
      if (archive === undefined) problems.push(`${c.package.file} is missing`)
      else {
        if (sha256(archive) !== c.package.sha256)
          problems.push(
            `${c.package.file} is not the package listed (sha256 ${sha256(archive)}, listed ${c.package.sha256})`,
          )
        const verdict = await verifyPackage(archive, registryTrust(dir, registry.signers))
        const s = verdict.manifest?.statement
        problems.push(...verdict.checks.flatMap((k) => k.problems.map((p) => `${k.name}: ${p}`)))
        if (
          s !== undefined &&
          (s.target.name !== i.name ||
            s.target.version !== c.version ||
            s.verdict !== c.verdict ||
            s.run.id !== c.runId ||
            s.suite.version !== c.suite.version)
        ) {
          problems.push(
            `registry.json lists it as ${i.name} ${c.version} ${c.verdict} (suite ${c.suite.version}, run ${c.runId}); the package states ${s.target.name} ${s.target.version} ${s.verdict} (suite ${s.suite.version}, run ${s.run.id})`,
          )
        }
      }
      if (problems.length > 0) failed++
      lines.push(problems.length === 0 ? `✓ ${what}: ${c.verdict}` : `✗ ${what}: ${problems.join('; ')}`)
    }
  }
  const total = lines.length
  lines.push(
    `registry verify ${dir}: ${failed === 0 ? `all ${total} packages hold` : `${failed} of ${total} packages fail`}`,
  )
  io.out(`${lines.join('\n')}\n`)
  return failed === 0 ? 0 : 1
}

function readBytes(file: string, what: string): Buffer {
  try {
    return readFileSync(file)
  } catch (err) {
    throw new UsageError(
      `${what} ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    )
  }
}
