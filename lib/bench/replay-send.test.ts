/**
 * The bench's replay sent to a server that records what it gets: every request once, an issued token handed on.
 * Planning it: replay.test.ts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, test } from 'vitest'
import { planReplay, sendPlan } from './replay.ts'
import { creds, line } from './testing.ts'

describe('sendPlan', () => {
  test('sends every request once with its method, headers and body, and hands an issued token to its users', async () => {
    const seen: { method: string; url: string; auth?: string; body: string }[] = []
    const answer = async (req: IncomingMessage, res: ServerResponse) => {
      let body = ''
      for await (const chunk of req) body += chunk
      seen.push({
        method: req.method!,
        url: req.url!,
        ...(req.headers.authorization !== undefined ? { auth: req.headers.authorization } : {}),
        body,
      })
      res.setHeader('content-type', 'application/json')
      res.end(req.url!.endsWith('/token') ? JSON.stringify('ISSUED-TOKEN') : '{}')
    }
    // node:http ignores a handler's promise: the answer's own rejection would go unseen, so it is voided here.
    const server = createServer((req, res) => void answer(req, res))
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const plan = planReplay(
        [
          line({
            startMs: 1,
            method: 'POST',
            path: '/V1/integration/customer/token',
            body: { username: 'u', password: '[password 1]' },
            issuesOtherToken: 1,
          }),
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
      expect(JSON.parse(seen.find((s) => s.url.endsWith('/token'))!.body)).toEqual({
        username: 'u',
        password: 'Bench-1-n0nceaA1!',
      })
      expect(seen.filter((s) => s.auth === 'Bearer A-TOKEN')).toHaveLength(20)
    } finally {
      await new Promise((r) => server.close(r))
    }
  })
})
