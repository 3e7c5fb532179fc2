/**
 * Signing a report and verifying it (node:crypto's Ed25519), and the canonical form the signature covers. Keys
 * made by openssl, and openssl verifying: sign-openssl.test.ts.
 */
import { createHash, generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { UsageError } from '../base/usage-error.ts'
import {
  canonicalJson,
  ed25519PrivateKey,
  ed25519PublicKey,
  parseSignatureFile,
  reportDigest,
  signReport,
  verifyReport,
} from './sign.ts'

function nodeKeys() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  return {
    priv: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    pub: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  }
}

/** A report-like object: the functions take any JSON object, and a small one keeps the test fast. */
const report = {
  suite: { name: 'shop-conformance', version: '0.1.0' },
  spec: { version: '2.4.9' },
  summary: { passed: 1, failed: 1, skipped: 0 },
  results: [
    {
      id: 'GET /V1/modules › access',
      status: 'failed',
      message: 'admin endpoint: “no token” let through\n',
      durationMs: 12.5,
      spec: ['Authentication 1–4'],
      details: { signature: 'kept: only the top-level field is excluded' },
    },
    {
      id: 'GET /V1/x › route',
      status: 'passed',
      message: 'ok',
      durationMs: 0,
      spec: [],
      exchanges: [{ response: { body: null } }],
    },
  ],
}

describe('canonicalJson and reportDigest', () => {
  it('sorts keys, drops whitespace, and keeps values as JSON writes them', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x"\n', 1.5, { d: {}, c: [] }], é: 'é', A: -0.1 })).toBe(
      '{"A":-0.1,"a":[true,null,"x\\"\\n",1.5,{"c":[],"d":{}}],"b":1,"é":"é"}',
    )
  })

  it("leaves out the report's own top-level signature field, and only that", () => {
    expect(canonicalJson({ signature: { digest: 'x' }, z: { signature: 1 } })).toBe('{"z":{"signature":1}}')
    expect(reportDigest({ ...report, signature: { digest: 'abc' } })).toBe(reportDigest(report))
  })

  it('is the SHA-256 hex of the canonical form, independent of indentation and key order', () => {
    const d = reportDigest(report)
    expect(d).toMatch(/^[0-9a-f]{64}$/)
    expect(d).toBe(createHash('sha256').update(canonicalJson(report)).digest('hex'))
    const reordered = JSON.parse(
      JSON.stringify(
        { results: report.results, summary: report.summary, spec: report.spec, suite: report.suite },
        null,
        4,
      ),
    ) as Record<string, unknown>
    expect(reportDigest(reordered)).toBe(d)
  })

  it('hashes a report far larger than one batch as its whole canonical form, a character cut nowhere', () => {
    // Multi-byte characters at every offset: a piece split inside a surrogate pair would change the UTF-8 bytes.
    const results = Array.from({ length: 3000 }, (_, i) => ({
      ...report.results[0]!,
      id: `${'é😀'.repeat(i % 7)} ${i}`,
      durationMs: i,
    }))
    const big = { ...report, results }
    expect(canonicalJson(big).length).toBeGreaterThan(500_000)
    expect(reportDigest(big)).toBe(createHash('sha256').update(canonicalJson(big)).digest('hex'))
  })

  it('changes with any value', () => {
    const d = reportDigest(report)
    const changed = JSON.parse(JSON.stringify(report)) as typeof report
    changed.results[1]!.status = 'failed'
    expect(reportDigest(changed)).not.toBe(d)
    expect(reportDigest({ ...report, summary: { ...report.summary, failed: 0 } })).not.toBe(d)
  })
})

describe('signing and verifying', () => {
  it('signs and verifies with keys made by node:crypto (PKCS#8 / SPKI PEM)', () => {
    const { priv, pub } = nodeKeys()
    const sig = signReport(report, ed25519PrivateKey(priv, 'key'), new Date('2026-01-02T03:04:05Z'))
    expect(sig).toEqual({
      algorithm: 'Ed25519',
      digest: reportDigest(report),
      signature: expect.stringMatching(/^[A-Za-z0-9+/]{86}==$/),
      publicKey: pub,
      signedAt: '2026-01-02T03:04:05.000Z',
    })
    const file = parseSignatureFile(JSON.parse(JSON.stringify(sig)), 'sig')
    expect(verifyReport(report, file, ed25519PublicKey(pub, 'pub'))).toEqual({
      ok: true,
      digest: sig.digest,
      signedAt: sig.signedAt,
    })
    // A private key PEM also serves as the public key (its public half).
    expect(verifyReport(report, file, ed25519PublicKey(priv, 'pub')).ok).toBe(true)
  })

  it('says the report changed when a value changed', () => {
    const { priv, pub } = nodeKeys()
    const sig = signReport(report, ed25519PrivateKey(priv, 'key'))
    const outcome = verifyReport(
      { ...report, summary: { ...report.summary, failed: 0 } },
      sig,
      ed25519PublicKey(pub, 'pub'),
    )
    expect(outcome).toMatchObject({
      ok: false,
      reason: 'report changed',
      message: expect.stringMatching(
        /^report changed since it was signed \(digest [0-9a-f]{64}, signed [0-9a-f]{64}\)$/,
      ),
    })
  })

  it('says the signature does not match for another key or an edited signature file', () => {
    const a = nodeKeys()
    const b = nodeKeys()
    const sig = signReport(report, ed25519PrivateKey(a.priv, 'key'))
    expect(verifyReport(report, sig, ed25519PublicKey(b.pub, 'pub'))).toMatchObject({
      ok: false,
      reason: 'signature mismatch',
      message: 'signature does not verify with the given public key (signed with another key)',
    })
    const forged = {
      ...sig,
      signature: Buffer.from(Buffer.from(sig.signature, 'base64').map((x, i) => (i === 0 ? x ^ 1 : x))).toString(
        'base64',
      ),
    }
    expect(verifyReport(report, forged, ed25519PublicKey(a.pub, 'pub'))).toMatchObject({
      ok: false,
      reason: 'signature mismatch',
    })
    // A signature file whose digest was edited to match a changed report still fails: the signature covers the content.
    const changed = { ...report, spec: { version: '9.9.9' } }
    expect(
      verifyReport(changed, { ...sig, digest: reportDigest(changed) }, ed25519PublicKey(a.pub, 'pub')),
    ).toMatchObject({ ok: false, reason: 'signature mismatch' })
  })

  it('refuses keys that are not Ed25519 or not keys, in one line', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
    const rsaPem = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    expect(() => ed25519PrivateKey(rsaPem, 'key k.pem')).toThrow(
      new UsageError('key k.pem: an rsa key, not Ed25519 (make one with: openssl genpkey -algorithm ed25519)'),
    )
    expect(() =>
      ed25519PublicKey(rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'public key p.pem'),
    ).toThrow(new UsageError('public key p.pem: an rsa key, not Ed25519'))
    expect(() => ed25519PrivateKey('not a key', 'key k.pem')).toThrow(/^key k\.pem: not a private key \(/)
    expect(() => ed25519PrivateKey(nodeKeys().pub, 'key k.pem')).toThrow(/^key k\.pem: not a private key/)
    expect(() => ed25519PublicKey('', 'public key p.pem')).toThrow(/^public key p\.pem: not a public key/)
  })

  it('refuses a signature file of the wrong shape', () => {
    const ok = { algorithm: 'Ed25519', digest: 'a'.repeat(64), signature: 'AAAA', publicKey: '', signedAt: '' }
    expect(parseSignatureFile(ok, 's')).toEqual(ok)
    expect(() => parseSignatureFile([], 's')).toThrow(
      new UsageError('s: not a signature file (expected a JSON object)'),
    )
    expect(() => parseSignatureFile({ ...ok, algorithm: 'RSA' }, 's')).toThrow(
      new UsageError('s: algorithm "RSA" is not supported (only Ed25519)'),
    )
    expect(() => parseSignatureFile({ ...ok, digest: 'xyz' }, 's')).toThrow(
      new UsageError('s: "digest" is not a SHA-256 hex digest'),
    )
    expect(() => parseSignatureFile({ ...ok, signature: 'not base64!' }, 's')).toThrow(
      new UsageError('s: "signature" is not base64'),
    )
  })
})
