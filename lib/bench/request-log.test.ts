import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test } from 'vitest'
import type { Outcome, RequestSpec } from '../shop/request.ts'
import { CallerLabels, readRequestLog, requestLogObserver } from './request-log.ts'

const ADMIN_TOKEN = 'adm1n-t0ken-abcdef0123456789'
const CUSTOMER_TOKEN = 'cust0mer-t0ken-abcdef0123456789'

function answered(status: number, body: unknown): Outcome {
  return {
    answer: { status, headers: {}, body, json: true, text: JSON.stringify(body) },
    exchange: { request: { method: 'POST', url: 'http://x', headers: {} }, durationMs: 1 },
  }
}

const tokenCall = (kind: 'admin' | 'customer', username: string, password: string): RequestSpec => ({
  method: 'POST',
  path: `/V1/integration/${kind}/token`,
  store: 'default',
  body: { username, password },
})

describe('CallerLabels', () => {
  test('labels what it was told and what token answers taught it; never a token', () => {
    const labels = new CallerLabels({ adminUsername: 'admin' })
    labels.learn(tokenCall('admin', 'admin', 'secret-admin-pw'), answered(200, ADMIN_TOKEN))
    labels.learn(tokenCall('customer', 'sc.run1.main.0a1b2c3d@example.com', 'pw-1'), answered(200, CUSTOMER_TOKEN))
    labels.learn(
      tokenCall('customer', 'sc.run1.disposable.4e5f6a7b@example.com', 'pw-2'),
      answered(200, 'disposable-token-0123456789'),
    )
    labels.learn(
      tokenCall('customer', 'sc.run1.isolation-b@example.com', 'pw-3'),
      answered(200, 'other-token-0123456789'),
    )
    labels.learn(tokenCall('customer', 'nobody@example.com', 'pw-4'), answered(401, { message: 'no' }))
    expect(labels.of(ADMIN_TOKEN)).toBe('admin')
    expect(labels.of(CUSTOMER_TOKEN)).toBe('customer')
    expect(labels.of('disposable-token-0123456789')).toBe('disposable')
    expect(labels.of('other-token-0123456789')).toBe('other')
    expect(labels.otherNumber('other-token-0123456789')).toBe(1)
    expect(labels.of(undefined)).toBe('none')
    expect(labels.of('shop-conformance-malformed-00aa11')).toBe('malformed')
    expect(labels.of('never-seen-token')).toBe('other')
  })

  test('scrub: passwords become placeholders (one per password), known tokens their label', () => {
    const labels = new CallerLabels()
    labels.set(ADMIN_TOKEN, 'admin')
    expect(labels.scrub({ username: 'admin', password: 'Admin-pw' }, '/V1/integration/admin/token')).toEqual({
      username: 'admin',
      password: '[password admin]',
    })
    const a = labels.scrub({ customer: { email: 'a@example.com' }, password: 'pw-one' }, '/V1/customers')
    const b = labels.scrub({ username: 'a@example.com', password: 'pw-one' }, '/V1/integration/customer/token')
    const c = labels.scrub(
      { currentPassword: 'pw-one', newPassword: 'pw-two', note: ADMIN_TOKEN },
      '/V1/customers/me/password',
    )
    expect(a).toEqual({ customer: { email: 'a@example.com' }, password: '[password 1]' })
    expect(b).toEqual({ username: 'a@example.com', password: '[password 1]' })
    expect(c).toEqual({ currentPassword: '[password 1]', newPassword: '[password 2]', note: '[token admin]' })
  })
})

describe('requestLogObserver', () => {
  test('one JSON line per request, with times since process start, labels and no secret', () => {
    const file = join(tempDir(), 'log.jsonl')
    const labels = new CallerLabels({ adminUsername: 'admin' })
    const observe = requestLogObserver(file, labels, 'main')
    const t = performance.now()
    observe({
      spec: tokenCall('admin', 'admin', 'Admin-Password-1!'),
      outcome: answered(200, ADMIN_TOKEN),
      startMs: t,
      endMs: t + 2,
    })
    observe({
      spec: { method: 'GET', path: '/V1/modules', store: 'all', token: ADMIN_TOKEN, query: 'a=1' },
      outcome: answered(200, []),
      startMs: t + 3,
      endMs: t + 4,
    })
    observe({
      spec: { method: 'GET', path: '/V1/modules', store: 'default' },
      outcome: {
        failure: { kind: 'timeout', message: 'x' },
        exchange: { request: { method: 'GET', url: 'x', headers: {} }, durationMs: 1 },
      },
      startMs: t + 5,
      endMs: t + 6,
    })
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain(ADMIN_TOKEN)
    expect(text).not.toContain('Admin-Password-1!')
    const lines = readRequestLog(text)
    expect(lines.map((l) => [l.method, l.path, l.store, l.caller, l.status, l.thread])).toEqual([
      ['POST', '/V1/integration/admin/token', 'default', 'none', 200, 'main'],
      ['GET', '/V1/modules', 'all', 'admin', 200, 'main'],
      ['GET', '/V1/modules', 'default', 'none', undefined, 'main'],
    ])
    expect(lines[1]!.query).toBe('a=1')
    expect(lines[0]!.body).toEqual({ username: 'admin', password: '[password admin]' })
    expect(lines[0]!.startMs).toBeCloseTo(t, 2)
    expect(lines[1]!.endMs - lines[1]!.startMs).toBeCloseTo(1, 5)
  })

  test('labels a token with the caller the sending session named, and an unnamed stranger as other', () => {
    const file = join(tempDir(), 'log.jsonl')
    const observe = requestLogObserver(file, new CallerLabels({ adminUsername: 'admin' }), 'worker')
    const t = performance.now()
    const named = [
      [ADMIN_TOKEN, 'admin'],
      [CUSTOMER_TOKEN, 'customer'],
      ['disposable-token-0123456789', 'disposable'],
      ['shop-conformance-malformed-00', 'malformed'],
      [undefined, 'none'],
    ] as const
    for (const [token, caller] of named)
      observe({
        spec: { method: 'GET', path: '/V1/x', store: 'default', ...(token !== undefined ? { token } : {}) },
        outcome: answered(401, {}),
        startMs: t,
        endMs: t,
        caller,
      })
    // Named once, known by its token after: a body carrying it is scrubbed too.
    observe({
      spec: { method: 'POST', path: '/V1/x', store: 'default', token: ADMIN_TOKEN, body: { note: CUSTOMER_TOKEN } },
      outcome: answered(200, {}),
      startMs: t,
      endMs: t,
    })
    observe({
      spec: { method: 'GET', path: '/V1/x', store: 'default', token: 'stranger-0123456789' },
      outcome: answered(401, {}),
      startMs: t,
      endMs: t,
    })
    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain(ADMIN_TOKEN)
    expect(text).not.toContain(CUSTOMER_TOKEN)
    const lines = readRequestLog(text)
    expect(lines.map((l) => l.caller)).toEqual([
      'admin',
      'customer',
      'disposable',
      'malformed',
      'none',
      'admin',
      'other',
    ])
    expect(lines[5]!.body).toEqual({ note: '[token customer]' })
    expect(lines.every((l) => l.thread === 'worker')).toBe(true)
  })
})

/** A directory of the running test's own, removed when it finishes. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'request-log-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
