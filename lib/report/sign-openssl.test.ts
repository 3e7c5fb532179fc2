/**
 * A signature interoperable with openssl (a process): keys openssl made sign and verify, and openssl verifies
 * what the suite signed, over the canonical bytes. The rest of signing and verifying: sign.test.ts.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { canonicalJson, ed25519PrivateKey, ed25519PublicKey, signReport, verifyReport } from './sign.ts'

const dir = mkdtempSync(join(tmpdir(), 'shop-conformance-sign-openssl-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

/**
 * Keys sorted, a number with a fraction, text beyond ASCII and a newline: what the canonical bytes must carry alike.
 */
const report = {
  suite: { name: 'shop-conformance' },
  results: [
    {
      status: 'failed',
      message: 'admin endpoint: “no token” let through\n',
      durationMs: 12.5,
      id: 'GET /V1/modules › access',
    },
  ],
}

it.skipIf(!hasOpenssl)('works with keys made by openssl, and openssl verifies the signature', () => {
  const key = join(dir, 'openssl.pem')
  const pub = join(dir, 'openssl.pub.pem')
  execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519', '-out', key])
  execFileSync('openssl', ['pkey', '-in', key, '-pubout', '-out', pub])
  const sig = signReport(report, ed25519PrivateKey(readFileSync(key, 'utf8'), key))
  expect(sig.publicKey).toBe(readFileSync(pub, 'utf8'))
  expect(verifyReport(report, sig, ed25519PublicKey(readFileSync(pub, 'utf8'), pub)).ok).toBe(true)
  // Interoperable: openssl checks the same signature over the canonical bytes.
  writeFileSync(join(dir, 'canonical.json'), canonicalJson(report))
  writeFileSync(join(dir, 'sig.bin'), Buffer.from(sig.signature, 'base64'))
  const out = execFileSync('openssl', [
    'pkeyutl',
    '-verify',
    '-pubin',
    '-inkey',
    pub,
    '-rawin',
    '-in',
    join(dir, 'canonical.json'),
    '-sigfile',
    join(dir, 'sig.bin'),
  ]).toString()
  expect(out).toMatch(/Signature Verified Successfully/)
})
