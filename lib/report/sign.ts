import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto'
import { defined } from '../base/defined.ts'
import { UsageError } from '../base/usage-error.ts'
import type { Report } from './model.ts'

/**
 * Signed results. A report's digest is the SHA-256 of its canonical JSON: keys sorted (by UTF-16 code
 * units), no whitespace, numbers and strings as JSON.stringify writes them (RFC 8785 for the values a report
 * holds), and the report's own top-level `signature` field left out, so a report can carry its signature or
 * digest without changing it. Indentation or key order of report.json therefore do not matter; any change of
 * a value does.
 */

interface SignatureFile {
  algorithm: 'Ed25519'
  /** SHA-256 hex of the canonical report. */
  digest: string
  /** Ed25519 signature of the canonical report's UTF-8 bytes, base64. */
  signature: string
  /** SPKI PEM of the signing key. Informational: verification uses the key the verifier trusts. */
  publicKey: string
  signedAt: string
  /**
   * What the signed report states (verdict and scope, e.g. "partial · partial: 35 of 927 checks selected"),
   * for a reader of the .sig; informational: the signature covers the report, which says the same.
   */
  statement?: string
}

export function canonicalJson(value: unknown): string {
  const pieces: string[] = []
  canon(value, true, (piece) => pieces.push(piece))
  return pieces.join('')
}

/**
 * SHA-256 hex of the report's canonical JSON (its `signature` field excluded), hashed as it is made: the whole
 * text at once, with each level's joined pieces before it, was some 25 MB of a run's peak heap.
 */
export function reportDigest(report: Report | Record<string, unknown>): string {
  const hash = createHash('sha256')
  let pending: string[] = []
  let length = 0
  canon(report, true, (piece) => {
    pending.push(piece)
    length += piece.length
    if (length < HASH_BATCH) return
    hash.update(pending.join(''), 'utf8')
    pending = []
    length = 0
  })
  return hash.update(pending.join(''), 'utf8').digest('hex')
}

/** Characters handed to the hash at a time: few calls, and no text of a report's size. */
const HASH_BATCH = 64 * 1024

/** Emits the canonical JSON of `value` piece by piece, in order; each piece is whole (no character split). */
function canon(value: unknown, top: boolean, emit: (piece: string) => void): void {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('canonical JSON: non-finite number')
    if (typeof value === 'bigint') throw new Error('canonical JSON: bigint')
    emit(JSON.stringify(value) ?? 'null')
    return
  }
  if (Array.isArray(value)) {
    emit('[')
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i]
      if (i > 0) emit(',')
      if (v === undefined || typeof v === 'function') emit('null')
      else canon(v, false, emit)
    }
    emit(']')
    return
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return canon((value as { toJSON(): unknown }).toJSON(), top, emit)
  const keys = Object.keys(value)
    .filter((k) => !(top && k === 'signature'))
    .filter((k) => {
      const v = (value as Record<string, unknown>)[k]
      return v !== undefined && typeof v !== 'function'
    })
    .sort()
  emit('{')
  keys.forEach((k, i) => {
    emit(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`)
    canon((value as Record<string, unknown>)[k], false, emit)
  })
  emit('}')
}

/** Loads an Ed25519 private key (PKCS#8 PEM, as `openssl genpkey -algorithm ed25519` writes it). */
export function ed25519PrivateKey(pem: string, name: string): KeyObject {
  let key: KeyObject
  try {
    key = createPrivateKey(pem)
  } catch (err) {
    throw new UsageError(`${name}: not a private key (${firstLine(err)})`)
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new UsageError(
      `${name}: an ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519 (make one with: openssl genpkey -algorithm ed25519)`,
    )
  return key
}

/**
 * Loads an Ed25519 public key (SPKI PEM, as `openssl pkey -pubout` writes it; a private key PEM gives its public half).
 */
export function ed25519PublicKey(pem: string, name: string): KeyObject {
  let key: KeyObject
  try {
    key = createPublicKey(pem)
  } catch (err) {
    throw new UsageError(`${name}: not a public key (${firstLine(err)})`)
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new UsageError(`${name}: an ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519`)
  return key
}

/**
 * A key's id: the SHA-256 hex of its public half as DER SPKI — what `openssl pkey -pubin -in PUBLIC.pem -outform DER |
 * sha256sum` prints —, so anyone holding the public key can compute it.
 */
export function keyIdOf(key: KeyObject): string {
  const spki = (key.type === 'private' ? createPublicKey(key) : key).export({ type: 'spki', format: 'der' })
  return createHash('sha256').update(spki).digest('hex')
}

/** A new Ed25519 key pair as PEM (PKCS#8 private, SPKI public), as `openssl genpkey -algorithm ed25519` makes one. */
export function newEd25519Pair(): { privatePem: string; publicPem: string; keyId: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    keyId: keyIdOf(publicKey),
  }
}

export function signReport(
  report: Report | Record<string, unknown>,
  privateKey: KeyObject,
  now: Date = new Date(),
  statement?: string,
): SignatureFile {
  const canonical = Buffer.from(canonicalJson(report), 'utf8')
  return {
    ...(statement !== undefined ? { statement } : {}),
    algorithm: 'Ed25519',
    digest: createHash('sha256').update(canonical).digest('hex'),
    signature: sign(null, canonical, privateKey).toString('base64'),
    publicKey: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString(),
    signedAt: now.toISOString(),
  }
}

/** Validates a parsed .sig file; a UsageError names the file and what is wrong. */
export function parseSignatureFile(data: unknown, name: string): SignatureFile {
  const o = data as Partial<Record<keyof SignatureFile, unknown>>
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new UsageError(`${name}: not a signature file (expected a JSON object)`)
  if (o.algorithm !== 'Ed25519')
    throw new UsageError(
      `${name}: algorithm ${JSON.stringify(o.algorithm) ?? 'missing'} is not supported (only Ed25519)`,
    )
  if (typeof o.digest !== 'string' || !/^[0-9a-f]{64}$/.test(o.digest))
    throw new UsageError(`${name}: "digest" is not a SHA-256 hex digest`)
  if (typeof o.signature !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(o.signature))
    throw new UsageError(`${name}: "signature" is not base64`)
  return {
    algorithm: 'Ed25519',
    digest: o.digest,
    signature: o.signature,
    publicKey: typeof o.publicKey === 'string' ? o.publicKey : '',
    signedAt: typeof o.signedAt === 'string' ? o.signedAt : '',
    ...(typeof o.statement === 'string' ? { statement: o.statement } : {}),
  }
}

type VerifyOutcome =
  | { ok: true; digest: string; signedAt: string }
  | { ok: false; reason: 'report changed' | 'signature mismatch'; digest: string; message: string }

/**
 * Checks a report against its signature file with the public key the verifier trusts (never the key the
 * file names). "report changed": the report's digest is not the signed one. "signature mismatch": the digest
 * matches but the signature was not made by this key over it (another key, or an edited .sig file).
 */
export function verifyReport(
  report: Report | Record<string, unknown>,
  sig: SignatureFile,
  publicKey: KeyObject,
): VerifyOutcome {
  const canonical = Buffer.from(canonicalJson(report), 'utf8')
  const digest = createHash('sha256').update(canonical).digest('hex')
  if (digest !== sig.digest) {
    return {
      ok: false,
      reason: 'report changed',
      digest,
      message: `report changed since it was signed (digest ${digest}, signed ${sig.digest})`,
    }
  }
  let valid = false
  try {
    valid = verify(null, canonical, publicKey, Buffer.from(sig.signature, 'base64'))
  } catch {
    valid = false
  }
  if (!valid) {
    let signer = ''
    try {
      const named =
        sig.publicKey === ''
          ? undefined
          : createPublicKey(sig.publicKey).export({ type: 'spki', format: 'pem' }).toString()
      if (named !== undefined && named !== publicKey.export({ type: 'spki', format: 'pem' }).toString())
        signer = ' (signed with another key)'
    } catch {
      signer = ''
    }
    return {
      ok: false,
      reason: 'signature mismatch',
      digest,
      message: `signature does not verify with the given public key${signer}`,
    }
  }
  return { ok: true, digest, signedAt: sig.signedAt }
}

function firstLine(err: unknown): string {
  return defined(String((err as Error).message ?? err).split('\n')[0], 'the first line of a split text')
}
