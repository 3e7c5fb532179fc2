import { describe, expect, it } from 'vitest'
import { MALFORMED_TOKEN_PREFIX } from '../results/redactor.ts'
import { Secrets } from './secrets.ts'

describe('Secrets', () => {
  const secrets = new Secrets()
  secrets.add('tok-ADMIN-0123456789', 'admin token')
  secrets.add('p@ss word/1', 'admin password')
  secrets.add('abc', 'too short to be a secret')

  it('replaces every occurrence, also URL-encoded, and keeps the label', () => {
    expect(secrets.redactText('x tok-ADMIN-0123456789 y tok-ADMIN-0123456789')).toBe(
      'x [redacted admin token] y [redacted admin token]',
    )
    expect(secrets.redactText(`u=${encodeURIComponent('p@ss word/1')}`)).toBe('u=[redacted admin password]')
    expect(secrets.redactText('abc')).toBe('abc')
  })

  it('finds a secret whatever characters it holds, and only where it is whole', () => {
    const s = new Secrets()
    s.add('a.b*c(d)[e]?x+$^|\\', 'customer password')
    s.add('tok-1234', 'customer token')
    s.add('tok-1234-longer', 'admin token')
    expect(s.redactText('a.b*c(d)[e]?x+$^|\\ aXb*c(d)[e]?x+$^|\\')).toBe(
      '[redacted customer password] aXb*c(d)[e]?x+$^|\\',
    )
    expect(s.redactText(`q=${encodeURIComponent('a.b*c(d)[e]?x+$^|\\')}&t=tok-1234-longer,tok-1234`)).toBe(
      'q=[redacted customer password]&t=[redacted admin token],[redacted customer token]',
    )
    expect(s.redactText('tok-123 tok-12345')).toBe('tok-123 [redacted customer token]5')
    expect(new Secrets().redactText('tok-1234')).toBe('tok-1234')
  })

  it('redacts deep values, password keys and Authorization headers', () => {
    const out = secrets.redact({
      request: {
        headers: { authorization: 'Bearer tok-ADMIN-0123456789' },
        body: { username: 'admin', password: 'anything' },
      },
      other: { headers: { Authorization: 'Bearer someone-elses-token' } },
      malformed: { headers: { authorization: `Bearer ${MALFORMED_TOKEN_PREFIX}abc123` } },
      list: ['tok-ADMIN-0123456789', 5, null],
    })
    expect(out).toEqual({
      request: {
        headers: { authorization: 'Bearer [redacted admin token]' },
        body: { username: 'admin', password: '[redacted]' },
      },
      other: { headers: { Authorization: '[redacted]' } },
      malformed: { headers: { authorization: `Bearer ${MALFORMED_TOKEN_PREFIX}abc123` } },
      list: ['[redacted admin token]', 5, null],
    })
  })

  it('gives as JSON text exactly what it gives as a copy', () => {
    const value = {
      headers: { authorization: 'Bearer tok-ADMIN-0123456789', cookie: 'c' },
      body: 'p@ss word/1',
      n: [1.5, -0, null, true],
    }
    expect(secrets.redactedJson(value)).toBe(JSON.stringify(secrets.redact(value)))
  })

  it('is idempotent: redacting twice keeps the labels', () => {
    const once = secrets.redact({ headers: { authorization: 'Bearer tok-ADMIN-0123456789' } })
    expect(new Secrets().redact(once)).toEqual({ headers: { authorization: 'Bearer [redacted admin token]' } })
  })
})
