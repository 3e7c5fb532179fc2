/**
 * A certification package end to end (issue 32, docs/certification.md): the whole clean run against the bundled
 * reference target (shared with cli.test.ts) certified with a key from `keygen`, verified offline; then each part
 * tampered with in turn — a result's status in report.json, an exchange's answer in evidence.har, the statement's
 * verdict, the signature — as it is (the digests or the signature catch it) and signed again by a signer who lies (the
 * re-judge, the certification or the statement catches it). The package's pure parts: lib/report/certificate.test.ts.
 */
import { mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { readTar, writeTar } from '../base/tar.ts'
import { certify } from '../report/certify.ts'
import { packagedFile, type Manifest } from '../report/certificate.ts'
import type { Report } from '../report/model.ts'
import { ed25519PrivateKey, ed25519PublicKey, signReport } from '../report/sign.ts'
import type { HarEntry } from '../results/har.ts'
import { verifyPackage, type PackageVerdict } from './certificate-verify.ts'
import { cli, sharedCli } from './testing.ts'

type Files = Map<string, Buffer>

const json = <T>(files: Files, name: string) => JSON.parse(files.get(name)!.toString('utf8')) as T
const failedChecks = (v: PackageVerdict) => v.checks.filter((c) => c.problems.length > 0).map((c) => c.name)

describe('a certification package of a whole run', { timeout: 600_000 }, () => {
  /** The clean run, a key, and its package: made once for the tests below. */
  const made = (async () => {
    const run = await sharedCli(['run'])
    expect(run.status, run.stderr).toBe(0)
    const keygen = await cli(['keygen', '--out', 'keys'])
    expect(keygen.status, keygen.stderr).toBe(0)
    const keys = join(keygen.dir, 'keys')
    const pkg = join(keygen.dir, 'reference.tar.gz')
    const certified = await cli([
      'certify',
      '--report',
      join(run.dir, 'reports'),
      '--key',
      join(keys, 'private.pem'),
      '--out',
      pkg,
    ])
    return { run, keys, pkg, certified, dir: keygen.dir }
  })()

  it('keygen writes a pair and its id; certify packs the run; verify --package holds, each check on its line', async () => {
    const { keys, pkg, certified, dir } = await made
    const keyId = readFileSync(join(keys, 'key-id'), 'utf8').trim()
    expect(keyId).toMatch(/^[0-9a-f]{64}$/)
    expect(certified.status, certified.stderr).toBe(0)
    expect(certified.stdout).toMatch(
      new RegExp(
        `^certified shop-conformance reference target \\S+: conforms \\(945 of 945 required checks passed, suite \\S+\\), key ${keyId} → .*reference\\.tar\\.gz \\(\\d+ bytes\\)\\n$`,
      ),
    )
    const files = new Map(readTar(gunzipSync(readFileSync(pkg))).map((f) => [f.name, f.bytes]))
    expect([...files.keys()]).toEqual(['manifest.json', 'signature.json', 'report.json', 'evidence.har'])
    const verified = await cli(['verify', '--package', pkg, '--pub', join(keys, 'public.pem')])
    expect(verified.status, verified.stdout + verified.stderr).toBe(0)
    const lines = verified.stdout.trimEnd().split('\n')
    expect(lines.map((l) => l.split(':')[0])).toEqual([
      '✓ package',
      '✓ signature',
      '✓ digests',
      '✓ statement',
      '✓ certification',
      '✓ re-judge',
      `verify ${pkg}`,
    ])
    expect(lines[5]).toMatch(/^✓ re-judge: \d{4} results equal the evidence judged again by suite \S+$/)
    expect(lines[6]).toContain(`conforms (suite `)
    expect(lines[6]).toMatch(new RegExp(`signed by key ${keyId}$`))
    // Without a key to trust, the package's own verifies it, and the outcome says whose it is not.
    const untrusted = await cli(['verify', '--package', pkg])
    expect(untrusted.status).toBe(0)
    expect(untrusted.stdout).toMatch(/signed by key [0-9a-f]{64} \(not a key you named\)\n$/)
    // Another key fails the signature, one line naming it, exit 1.
    await cli(['keygen', '--out', join(dir, 'other')])
    const other = await cli(['verify', '--package', pkg, '--pub', join(dir, 'other', 'public.pem')])
    expect(other.status).toBe(1)
    expect(other.stdout).toMatch(
      /^✗ signature failed: the statement names key [0-9a-f]{64}, the key given is [0-9a-f]{64}; signature does not verify with the given public key/m,
    )
    expect(other.stdout).toMatch(/: 1 check failed: signature\n$/)
  })

  it('catches each part tampered with, as it is and signed again by the same key', async () => {
    const { keys, pkg } = await made
    const original: Files = new Map(readTar(gunzipSync(readFileSync(pkg))).map((f) => [f.name, f.bytes]))
    const publicKey = ed25519PublicKey(readFileSync(join(keys, 'public.pem'), 'utf8'), 'public.pem')
    const privateKey = ed25519PrivateKey(readFileSync(join(keys, 'private.pem'), 'utf8'), 'private.pem')
    const verify = (files: Files) =>
      verifyPackage(
        gzipSync(
          writeTar(
            [...files].map(([name, bytes]) => ({ name, bytes })),
            0,
          ),
        ),
        { publicKey },
      )
    /**
     * `files` with the manifest's digests made anew and the manifest signed again: what a signer who lies hands over.
     */
    const resigned = (files: Files, statement: (s: Manifest['statement']) => void = () => {}): Files => {
      const manifest = json<Manifest>(files, 'manifest.json')
      manifest.files = manifest.files.map((f) => packagedFile(f.name, files.get(f.name)!))
      statement(manifest.statement)
      const sig = {
        keyId: manifest.statement.keyId,
        ...signReport(manifest as unknown as Record<string, unknown>, privateKey),
      }
      return new Map(files)
        .set('manifest.json', Buffer.from(JSON.stringify(manifest)))
        .set('signature.json', Buffer.from(JSON.stringify(sig)))
    }
    expect(failedChecks(await verify(original))).toEqual([])

    // A result's status in report.json: passed → failed at an access check the recording judges.
    const report = json<Report>(original, 'report.json')
    const access = report.results.find(
      (r) => r.check === 'access' && r.status === 'passed' && r.id.startsWith('GET /V1/modules'),
    )!
    const flipped = structuredClone(report)
    flipped.results.find((r) => r.id === access.id)!.status = 'failed'
    const withFlipped = new Map(original).set('report.json', Buffer.from(JSON.stringify(flipped)))
    expect(failedChecks(await verify(withFlipped))).toEqual(['digests', 'certification', 're-judge'])
    expect(failedChecks(await verify(resigned(withFlipped)))).toEqual(['certification', 're-judge'])
    // Its certification and the statement made to match: the evidence judged again still says passed.
    flipped.certification = {
      ...flipped.certification,
      ...certify({ results: flipped.results, runErrors: flipped.runErrors, plan: flipped.plan }),
    }
    const consistent = new Map(original).set('report.json', Buffer.from(JSON.stringify(flipped)))
    const lie = await verify(
      resigned(consistent, (s) =>
        Object.assign(s, {
          verdict: 'does not conform',
          counts: { ...s.counts, passed: s.counts.passed - 1, failed: 1, percent: flipped.certification.percent },
        }),
      ),
    )
    expect(failedChecks(lie)).toEqual(['re-judge'])
    expect(lie.checks.find((c) => c.name === 're-judge')!.problems[0]).toBe(
      `1 of ${report.results.length} results differ from the evidence judged again: ${access.id}: report failed, judged again passed`,
    )

    // An exchange's answer in evidence.har: the anonymous caller of that access check let through (the admin's answer).
    const har = json<{ log: { entries: HarEntry[] } }>(original, 'evidence.har')
    const served = har.log.entries.filter((e) => e._checks?.includes(access.id))
    const anonymous = served.find((e) => e._caller === 'none')!
    anonymous.response = structuredClone(served.find((e) => e._caller === 'admin')!.response)
    const withAnswer = new Map(original).set('evidence.har', Buffer.from(JSON.stringify(har)))
    expect(failedChecks(await verify(withAnswer))).toEqual(['digests', 're-judge'])
    const answered = await verify(resigned(withAnswer))
    expect(failedChecks(answered)).toEqual(['re-judge'])
    expect(answered.checks.find((c) => c.name === 're-judge')!.problems[0]).toMatch(
      new RegExp(
        `^1 of \\d+ results differ .*${access.id.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: report passed, judged again failed$`,
      ),
    )

    // The statement's verdict.
    const manifest = json<Manifest>(original, 'manifest.json')
    const withVerdict = new Map(original).set(
      'manifest.json',
      Buffer.from(JSON.stringify({ ...manifest, statement: { ...manifest.statement, verdict: 'does not conform' } })),
    )
    expect(failedChecks(await verify(withVerdict))).toEqual(['signature', 'statement'])
    expect((await verify(withVerdict)).checks.find((c) => c.name === 'signature')!.problems[0]).toMatch(
      /^manifest\.json changed since it was signed/,
    )
    expect(failedChecks(await verify(resigned(original, (s) => (s.verdict = 'does not conform'))))).toEqual([
      'statement',
    ])
    // A statement naming another suite version: verify says which to verify with.
    const version = await verify(resigned(original, (s) => (s.suite = { ...s.suite, version: '9.9.9' })))
    expect(failedChecks(version)).toEqual(['statement', 're-judge'])
    expect(version.checks.find((c) => c.name === 're-judge')!.problems[0]).toMatch(
      /^the statement names suite 9\.9\.9, this is suite \S+: verify with it \(npx shop-conformance@9\.9\.9 verify --package FILE\); judged again by \S+, 0 results differ$/,
    )

    // The signature: one byte of it changed.
    const sig = json<{ signature: string }>(original, 'signature.json')
    const bytes = Buffer.from(sig.signature, 'base64')
    bytes[0] = bytes[0]! ^ 1
    const withSignature = new Map(original).set(
      'signature.json',
      Buffer.from(JSON.stringify({ ...sig, signature: bytes.toString('base64') })),
    )
    expect(failedChecks(await verify(withSignature))).toEqual(['signature'])

    // A result made unreadable, signed again: the checks that read it fail, the verifier does not crash.
    const unreadable = structuredClone(report)
    ;(unreadable.results as unknown[])[0] = null
    expect(
      failedChecks(
        await verify(resigned(new Map(original).set('report.json', Buffer.from(JSON.stringify(unreadable))))),
      ),
    ).toEqual(['certification', 're-judge'])

    // A file added, one removed, and no archive at all.
    expect(failedChecks(await verify(new Map(original).set('notes.txt', Buffer.from('trust me'))))).toEqual(['digests'])
    const without = new Map(original)
    without.delete('evidence.har')
    expect(failedChecks(await verify(without))).toEqual(['package'])
    expect((await verifyPackage(Buffer.from('not a package'), { publicKey })).checks[0]!.problems[0]).toMatch(
      /^not a certification package: /,
    )
  })

  it('refuses, one line and exit 2, a report whose evidence is missing, and a target name the report contradicts', async () => {
    const { run, keys, dir } = await made
    const bare = join(dir, 'bare')
    mkdirSync(bare)
    copyFileSync(join(run.dir, 'reports', 'report.json'), join(bare, 'report.json'))
    const missing = await cli([
      'certify',
      '--report',
      bare,
      '--key',
      join(keys, 'private.pem'),
      '--out',
      join(dir, 'x.tar.gz'),
    ])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toMatch(
      /^shop-conformance: certify: .*report\.json: its evidence .*evidence\.har is missing: a certification is re-judged from it\n$/,
    )
    const renamed = await cli([
      'certify',
      '--report',
      join(run.dir, 'reports'),
      '--key',
      join(keys, 'private.pem'),
      '--out',
      join(dir, 'x.tar.gz'),
      '--target-name',
      'Other',
    ])
    expect(renamed.status).toBe(2)
    expect(renamed.stderr).toMatch(
      /^shop-conformance: certify: --target-name Other, but .* names it shop-conformance reference target\n$/,
    )
    writeFileSync(join(dir, 'junk.tar.gz'), 'junk')
    const junk = await cli(['verify', '--package', join(dir, 'junk.tar.gz')])
    expect(junk.status).toBe(1)
    expect(junk.stdout).toMatch(/^✗ package failed: not a certification package: /)
  })

  it("packs the baseline a run was judged with, found by the run's path or --baseline; another file is refused", async () => {
    const { keys, dir } = await made
    const baseline = JSON.stringify({
      version: 1,
      entries: [{ id: 'GET /V1/modules › access', reason: 'ticket SHOP-1' }],
    })
    writeFileSync(join(dir, 'baseline.json'), baseline)
    // A run given the baseline by a path of its own directory (cli runs each command in a directory of its own).
    const run = await cli(['run', '--baseline', join(dir, 'baseline.json')])
    expect(run.report!.baseline!.file).toBe(join(dir, 'baseline.json'))
    const pkg = join(dir, 'with-baseline.tar.gz')
    const packed = await cli([
      'certify',
      '--report',
      join(run.dir, 'reports'),
      '--key',
      join(keys, 'private.pem'),
      '--out',
      pkg,
    ])
    expect(packed.status, packed.stderr).toBe(0)
    const files = new Map(readTar(gunzipSync(readFileSync(pkg))).map((f) => [f.name, f.bytes]))
    expect(files.get('baseline.json')!.toString()).toBe(baseline)
    expect(json<Manifest>(files, 'manifest.json').statement.baseline).toEqual({
      name: join(dir, 'baseline.json'),
      file: 'baseline.json',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    const verified = await cli(['verify', '--package', pkg, '--pub', join(keys, 'public.pem')])
    expect(verified.status, verified.stdout).toBe(0)
    // Another baseline file in its place: refused; a changed baseline.json in the package is caught by its digest (this
    // one excuses no failure either way: the certification stands as it was).
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ version: 1, entries: [] }))
    const other = await cli([
      'certify',
      '--report',
      join(run.dir, 'reports'),
      '--key',
      join(keys, 'private.pem'),
      '--out',
      pkg,
      '--baseline',
      join(dir, 'other.json'),
    ])
    expect(other.status).toBe(2)
    expect(other.stderr).toMatch(
      /^shop-conformance: certify: --baseline .*other\.json is not the baseline .* was judged with \(its entries differ\)\n$/,
    )
    const publicKey = ed25519PublicKey(readFileSync(join(keys, 'public.pem'), 'utf8'), 'public.pem')
    files.set('baseline.json', Buffer.from(JSON.stringify({ version: 1, entries: [] })))
    const changed = await verifyPackage(
      gzipSync(
        writeTar(
          [...files].map(([name, bytes]) => ({ name, bytes })),
          0,
        ),
      ),
      { publicKey },
    )
    expect(failedChecks(changed)).toEqual(['digests'])
  })
})
