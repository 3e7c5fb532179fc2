import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, test } from 'vitest'
import type { LoggedRequest } from './request-log.ts'
import { planReplay, sameStatusShare, sendPlan, substitute, type ReplayCredentials } from './replay.ts'

const creds: ReplayCredentials = {
  admin: { username: 'admin', password: 'Admin-Pw-1!' },
  nonce: 'n0nce',
  tokens: { admin: 'A-TOKEN', customer: 'C-TOKEN', disposable: 'D-TOKEN', malformed: 'shop-conformance-malformed-ff' },
}

const line = (over: Partial<LoggedRequest>): LoggedRequest => ({ startMs: 0, endMs: 1, thread: 'worker', method: 'GET', path: '/V1/x', store: 'default', caller: 'none', ...over })

describe('planReplay', () => {
  test('in start order, tokens by label, placeholders back to values, base path and query kept', () => {
    const plan = planReplay(
      [
        line({ startMs: 5, caller: 'customer', path: '/V1/carts/mine', query: 'a=1' }),
        line({ startMs: 1, method: 'POST', path: '/V1/integration/admin/token', body: { username: 'admin', password: '[password admin]' } }),
        line({ startMs: 3, method: 'PUT', caller: 'admin', store: 'all', body: { password: '[password 2]', token: '[token disposable]', sku: 'sc-1' } }),
        line({ startMs: 4, caller: 'malformed' }),
      ],
      '/shop/',
      creds,
    )
    expect(plan.map((p) => [p.method, p.path, p.headers.authorization])).toEqual([
      ['POST', '/shop/rest/default/V1/integration/admin/token', undefined],
      ['PUT', '/shop/rest/all/V1/x', 'Bearer A-TOKEN'],
      ['GET', '/shop/rest/default/V1/x', 'Bearer shop-conformance-malformed-ff'],
      ['GET', '/shop/rest/default/V1/carts/mine?a=1', 'Bearer C-TOKEN'],
    ])
    expect(JSON.parse(plan[0]!.body!)).toEqual({ username: 'admin', password: 'Admin-Pw-1!' })
    expect(JSON.parse(plan[1]!.body!)).toEqual({ password: 'Bench-2-n0nceaA1!', token: 'D-TOKEN', sku: 'sc-1' })
    expect(plan[1]!.headers['content-type']).toBe('application/json')
    expect(plan[2]!.body).toBeUndefined()
  })

  test('other tokens: the token request issues one, its users wait for it (keyed by thread)', () => {
    const plan = planReplay(
      [line({ method: 'POST', path: '/V1/integration/customer/token', issuesOtherToken: 1, startMs: 1 }), line({ caller: 'other', otherToken: 1, startMs: 2 })],
      '/',
      creds,
    )
    expect(plan[0]!.issuesOther).toBe('worker:1')
    expect(plan[1]!.awaitsOther).toBe('worker:1')
    expect(plan[1]!.headers.authorization).toBeUndefined()
  })

  test('sameStatusShare compares in start order', () => {
    const log = [line({ startMs: 2, status: 404 }), line({ startMs: 1, status: 200 }), line({ startMs: 3 })]
    expect(sameStatusShare(log, [200, 400, undefined])).toBeCloseTo(1 / 3)
    expect(sameStatusShare(log, [200, 404, 200])).toBeCloseTo(2 / 3)
  })

  test('substitute leaves ordinary strings alone', () => {
    expect(substitute({ a: ['[password 1]', 'x', 3, null] }, creds)).toEqual({ a: ['Bench-1-n0nceaA1!', 'x', 3, null] })
  })
})

describe('sendPlan', () => {
  test('sends every request once with its method, headers and body, and hands an issued token to its users', async () => {
    const seen: { method: string; url: string; auth?: string; body: string }[] = []
    const server = createServer(async (req: IncomingMessage, res) => {
      let body = ''
      for await (const chunk of req) body += chunk
      seen.push({ method: req.method!, url: req.url!, ...(req.headers.authorization !== undefined ? { auth: req.headers.authorization } : {}), body })
      res.setHeader('content-type', 'application/json')
      res.end(req.url!.endsWith('/token') ? JSON.stringify('ISSUED-TOKEN') : '{}')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const plan = planReplay(
        [
          line({ startMs: 1, method: 'POST', path: '/V1/integration/customer/token', body: { username: 'u', password: '[password 1]' }, issuesOtherToken: 1 }),
          line({ startMs: 2, caller: 'other', otherToken: 1, path: '/V1/customers/me' }),
          ...Array.from({ length: 20 }, (_, i) => line({ startMs: 3 + i, caller: 'admin', path: `/V1/item/${i}` })),
        ],
        '/',
        creds,
      )
      const result = await sendPlan(origin, plan, 4)
      expect(result.requests).toBe(22)
      expect(result.failed).toBe(0)
      expect(result.statuses).toEqual({ 200: 22 })
      expect(result.perRequest).toEqual(new Array(22).fill(200))
      expect(seen).toHaveLength(22)
      expect(seen.find((s) => s.url === '/rest/default/V1/customers/me')?.auth).toBe('Bearer ISSUED-TOKEN')
      expect(JSON.parse(seen.find((s) => s.url.endsWith('/token'))!.body)).toEqual({ username: 'u', password: 'Bench-1-n0nceaA1!' })
      expect(seen.filter((s) => s.auth === 'Bearer A-TOKEN')).toHaveLength(20)
    } finally {
      await new Promise((r) => server.close(r))
    }
  })
})
