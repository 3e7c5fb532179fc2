import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import diagnostics_channel from 'node:diagnostics_channel'
import { TargetClient } from './client.ts'
import { REQUEST_CHANNEL, type FinishedRequest } from './request-channel.ts'
import { Secrets } from './secrets.ts'

let server: Server
let base: string
const limitedCalls = new Map<string, number>()
let inFlight = 0
let maxInFlight = 0
const seen: { url?: string; headers: Record<string, unknown>; body: string }[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      seen.push({ url: req.url, headers: req.headers, body })
      const path = req.url!.replace(/^\/shop\/rest\/[^/]+/, '')
      if (path === '/V1/hang') return // never answers
      if (path === '/V1/trickle') {
        // A byte every 50 ms: each within the body's timeout, the whole never done.
        res.writeHead(200, { 'content-type': 'application/json' })
        const drip = setInterval(() => res.write(' '), 50)
        return res.on('close', () => clearInterval(drip))
      }
      if (path === '/V1/reset') return req.socket.destroy()
      const wait = /^\/V1\/wait\/(\d+)$/.exec(path)
      if (wait !== null)
        return setTimeout(
          () => res.writeHead(200, { 'content-type': 'application/json' }).end('"late"'),
          Number(wait[1]),
        )
      if (path === '/V1/html') return res.writeHead(500, { 'content-type': 'text/html' }).end('<html>oops</html>')
      if (path === '/V1/broken-json') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":')
      if (path === '/V1/big') return res.writeHead(200).end('x'.repeat(3000))
      if (path.startsWith('/V1/limited')) {
        const n = (limitedCalls.get(path) ?? 0) + 1
        limitedCalls.set(path, n)
        const retryAfter = path === '/V1/limited-long' ? '3600' : '1'
        if (path === '/V1/limited-always' || path === '/V1/limited-long' || n <= 2)
          return res
            .writeHead(429, { 'retry-after': retryAfter, 'content-type': 'application/json' })
            .end('{"message":"Too many requests"}')
        return res.writeHead(200, { 'content-type': 'application/json' }).end('"ok"')
      }
      if (path === '/V1/slowish') {
        inFlight++
        maxInFlight = Math.max(maxInFlight, inFlight)
        return setTimeout(() => {
          inFlight--
          res.writeHead(200, { 'content-type': 'application/json' }).end('"ok"')
        }, 30)
      }
      res
        .writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'sid=abc123456' })
        .end(JSON.stringify({ token: 'tok-SECRET-987654321', echo: body }))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/shop`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

function client(options: { timeoutMs?: number; concurrency?: number } = {}) {
  const secrets = new Secrets()
  secrets.add('tok-SECRET-987654321', 'admin token')
  return new TargetClient({
    baseUrl: base,
    timeoutMs: options.timeoutMs ?? 2000,
    concurrency: options.concurrency ?? 4,
    secrets,
    maxRecordedBodyChars: 1000,
    maxBodyBytes: 100_000,
  })
}

describe('TargetClient', () => {
  it('builds {base}/rest/{store}/V1 URLs, sends Accept and the token, and records the exchange redacted', async () => {
    const c = client()
    const o = await c.send({
      method: 'POST',
      path: '/V1/echo',
      store: 'all',
      token: 'tok-SECRET-987654321',
      body: { a: 1 },
    })
    expect(seen.at(-1)).toMatchObject({ url: '/shop/rest/all/V1/echo', body: '{"a":1}' })
    expect(seen.at(-1)!.headers).toMatchObject({
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: 'Bearer tok-SECRET-987654321',
    })
    expect(o.answer).toMatchObject({ status: 200, json: true, body: { token: 'tok-SECRET-987654321' } })
    expect(o.exchange.request).toEqual({
      method: 'POST',
      url: `${base}/rest/all/V1/echo`,
      headers: {
        accept: 'application/json',
        authorization: 'Bearer [redacted admin token]',
        'content-type': 'application/json',
      },
      body: { a: 1 },
    })
    expect(o.exchange.response?.body).toEqual({ token: '[redacted admin token]', echo: '{"a":1}' })
    expect(o.exchange.response?.headers['set-cookie']).toBe('[redacted]')
    await c.close()
  })

  it('turns a target that never answers into a timeout, within the deadline', async () => {
    const c = client({ timeoutMs: 300 })
    const o = await c.send({ method: 'GET', path: '/V1/hang', store: 'default' })
    expect(o.answer).toBeUndefined()
    expect(o.failure).toMatchObject({ kind: 'timeout' })
    expect(o.exchange.error).toMatch(/no complete answer within 300 ms/)
    await c.close()
  })

  it('gives each kind of call a deadline that follows its slowest answer: a kind that timed out is waited for longer next, also while in flight', async () => {
    const c = new TargetClient({
      baseUrl: base,
      timeoutMs: 500,
      maxTimeoutMs: 5_000,
      concurrency: 4,
      secrets: new Secrets(),
    })
    expect(c.deadlinesUsed).toEqual({ read: 500, write: 500, heavyWrite: 500 })
    // The first read of 1 s times out at 500 ms; one sent 100 ms later waits on past its first deadline (1.5 s by
    // then) and is answered; so is the next.
    const first = c.send({ method: 'GET', path: '/V1/wait/1000', store: 'default' })
    await new Promise((r) => setTimeout(r, 100))
    const second = c.send({ method: 'GET', path: '/V1/wait/1000', store: 'default' })
    expect((await first).failure).toEqual({
      kind: 'timeout',
      message: 'no complete answer within 500 ms (TimeoutError)',
    })
    expect((await second).answer?.body).toBe('late')
    expect((await c.send({ method: 'GET', path: '/V1/wait/1000', store: 'default' })).answer?.body).toBe('late')
    // The writes have shown nothing slow: theirs is still --timeout-ms.
    expect((await c.send({ method: 'POST', path: '/V1/wait/1000', store: 'default', body: {} })).failure?.message).toBe(
      'no complete answer within 500 ms (TimeoutError)',
    )
    // The longest each kind was given: three times the slowest read (1 s at least); the writes' and heavy writes'
    // floor.
    expect(c.deadlinesUsed.read).toBeGreaterThanOrEqual(3_000)
    expect(c.deadlinesUsed).toMatchObject({ write: 500, heavyWrite: 500 })
    expect(c.deadlineOf('POST', '/V1/anything')).toBeGreaterThanOrEqual(1_500)
    expect(c.slowestMs).toMatchObject({ read: expect.any(Number), write: expect.any(Number) })
    await c.close()
    // Without a ceiling above it, --timeout-ms is every call's deadline, however slow the shop was.
    const fixed = new TargetClient({
      baseUrl: base,
      timeoutMs: 500,
      concurrency: 1,
      secrets: new Secrets(),
      slowestMs: { read: 2_000 },
    })
    expect((await fixed.send({ method: 'GET', path: '/V1/wait/1000', store: 'default' })).failure?.kind).toBe('timeout')
    await fixed.close()
  })

  it('bounds the whole exchange, not only each phase: a body that never ends is cut off at the deadline', async () => {
    const c = client({ timeoutMs: 300 })
    const started = performance.now()
    const o = await c.send({ method: 'GET', path: '/V1/trickle', store: 'default' })
    expect(o.failure).toEqual({ kind: 'timeout', message: 'no complete answer within 300 ms (TimeoutError)' })
    expect(performance.now() - started).toBeLessThan(2000)
    await c.close()
  })

  it('cuts off the requests in flight when stopped, and sends none after', async () => {
    const c = client()
    const inFlight = c.send({ method: 'GET', path: '/V1/hang', store: 'default' })
    await new Promise((r) => setTimeout(r, 50))
    const sent = c.sent
    c.stop()
    expect(await inFlight).toMatchObject({
      failure: { kind: 'stopped', message: 'cut off: the run was being stopped' },
    })
    expect(await c.send({ method: 'GET', path: '/V1/echo', store: 'default' })).toMatchObject({
      failure: { kind: 'stopped', message: 'not sent: the run was being stopped' },
    })
    expect(c.sent).toBe(sent)
    await c.close()
  })

  it('turns refused and reset connections into connection failures', async () => {
    const c = client()
    expect((await c.send({ method: 'GET', path: '/V1/reset', store: 'default' })).failure?.kind).toBe('connection')
    const dead = new TargetClient({
      baseUrl: 'http://127.0.0.1:9',
      timeoutMs: 1000,
      concurrency: 1,
      secrets: new Secrets(),
    })
    const o = await dead.send({ method: 'GET', path: '/V1/x', store: 'default' })
    expect(o.failure).toMatchObject({ kind: 'connection' })
    expect(o.failure?.message).toMatch(/ECONNREFUSED/)
    await Promise.all([c.close(), dead.close()])
  })

  it('keeps non-JSON and broken JSON bodies as text', async () => {
    const c = client()
    expect((await c.send({ method: 'GET', path: '/V1/html', store: 'default' })).answer).toMatchObject({
      status: 500,
      json: false,
      body: '<html>oops</html>',
    })
    expect((await c.send({ method: 'GET', path: '/V1/broken-json', store: 'default' })).answer).toMatchObject({
      status: 200,
      json: false,
      text: '{"a":',
    })
    await c.close()
  })

  it('cuts long bodies in the record, and refuses runaway ones', async () => {
    const c = client()
    const o = await c.send({ method: 'GET', path: '/V1/big', store: 'default' })
    expect(o.answer?.text.length).toBe(3000)
    expect(o.exchange.response?.body).toMatch(/… \[2000 more characters not recorded\]$/)
    const tiny = new TargetClient({
      baseUrl: base,
      timeoutMs: 1000,
      concurrency: 1,
      secrets: new Secrets(),
      maxBodyBytes: 100,
    })
    expect((await tiny.send({ method: 'GET', path: '/V1/big', store: 'default' })).failure?.message).toMatch(
      /larger than 100 bytes/,
    )
    await Promise.all([c.close(), tiny.close()])
  })

  it('never has more requests in flight than its concurrency', async () => {
    const c = client({ concurrency: 3 })
    maxInFlight = 0
    await Promise.all(
      Array.from({ length: 12 }, () => c.send({ method: 'GET', path: '/V1/slowish', store: 'default' })),
    )
    expect(maxInFlight).toBe(3)
    expect(c.sent).toBe(12)
    await c.close()
  })

  it('waits out 429 as Retry-After asks, a bounded number of times', async () => {
    const c = client()
    const o = await c.send({ method: 'GET', path: '/V1/limited', store: 'default' })
    expect(o.answer?.status).toBe(200)
    expect(o.exchange.note).toBe('retried 2 times after 429, waiting as Retry-After asked')
    const always = await c.send({ method: 'GET', path: '/V1/limited-always', store: 'default' })
    expect(always.failure).toMatchObject({
      kind: 'rate-limited',
      message: 'the target answered 429 Too Many Requests 3 times (Retry-After: 1); no answer to judge',
    })
    // An hour is more than the suite waits: no retry, no answer to judge.
    const long = await c.send({ method: 'GET', path: '/V1/limited-long', store: 'default' })
    expect(long.failure?.kind).toBe('rate-limited')
    expect(limitedCalls.get('/V1/limited-long')).toBe(1)
    await c.close()
  })

  it('stops sending once the target has stopped answering', async () => {
    const dead = new TargetClient({
      baseUrl: 'http://127.0.0.1:9',
      timeoutMs: 1000,
      concurrency: 4,
      secrets: new Secrets(),
    })
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, () => dead.send({ method: 'GET', path: '/V1/x', store: 'default' })),
    )
    // Those already in flight when the 20th failed still went out; none after.
    expect(dead.sent).toBeGreaterThanOrEqual(20)
    expect(dead.sent).toBeLessThan(24)
    expect(outcomes.at(-1)!.failure).toMatchObject({ kind: 'target-gone' })
    expect(outcomes.at(-1)!.failure!.message).toMatch(
      /^not sent: the target stopped answering at \S+, after \d+ requests \(20 in a row got no answer; the last: connection failed: ECONNREFUSED/,
    )
    await dead.close()
  })

  it('publishes each finished request on the request channel, with the caller its owner names, only while someone listens', async () => {
    const heard: FinishedRequest[] = []
    const listen = (message: unknown) => heard.push(message as FinishedRequest)
    const client = new TargetClient({
      baseUrl: base,
      timeoutMs: 2000,
      concurrency: 1,
      secrets: new Secrets(),
      callerOf: (t) => (t === 'admin-token-0123456789' ? 'admin' : undefined),
    })
    await client.send({ method: 'GET', path: '/V1/slowish', store: 'default' })
    diagnostics_channel.subscribe(REQUEST_CHANNEL, listen)
    try {
      await client.send({ method: 'GET', path: '/V1/slowish', store: 'default', token: 'admin-token-0123456789' })
      await client.send({ method: 'GET', path: '/V1/slowish', store: 'all', token: 'someone-else-0123456789' })
    } finally {
      diagnostics_channel.unsubscribe(REQUEST_CHANNEL, listen)
    }
    await client.send({ method: 'GET', path: '/V1/slowish', store: 'default' })
    expect(heard.map((h) => [h.spec.store, h.caller, h.outcome.answer?.status])).toEqual([
      ['default', 'admin', 200],
      ['all', undefined, 200],
    ])
    expect(heard[0]!.endMs - heard[0]!.startMs).toBeGreaterThanOrEqual(25)
    await client.close()
  })
})

// The pace's side-by-side groups (pace.test.ts), kept by the client against a server that counts what is in flight.
describe('the client, paced', () => {
  it('sends writes the platform deadlocks on side by side one at a time', async () => {
    let inFlight = 0
    let most = 0
    const server = createServer((req, res) => {
      inFlight++
      most = Math.max(most, inFlight)
      setTimeout(() => {
        inFlight--
        res.setHeader('content-type', 'application/json')
        res.end('{"attribute_set_id": 9}')
      }, 30)
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const client = new TargetClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      timeoutMs: 5_000,
      concurrency: 8,
      secrets: new Secrets(),
    })
    try {
      const sets = Array.from({ length: 4 }, () =>
        client.send({ method: 'POST', path: '/V1/eav/attribute-sets', store: 'default', body: {} }),
      )
      expect((await Promise.all(sets)).every((o) => o.answer?.status === 200)).toBe(true)
      expect(most).toBe(1)
      most = 0
      await Promise.all(
        Array.from({ length: 4 }, () =>
          client.send({ method: 'GET', path: '/V1/eav/attribute-sets/list', store: 'default' }),
        ),
      )
      expect(most).toBeGreaterThan(1)
    } finally {
      await client.close()
      server.close()
    }
  })
})

// A caller the endpoint refuses writes nothing on a shop that refuses as it must: its request waits for no turn.
describe('the client, probing refused callers', () => {
  it("sends the requests of callers an endpoint refuses beside a cart's writes and beside the attribute sets' one at a time", async () => {
    const inFlight = new Map<string, number>()
    const most = new Map<string, number>()
    const server = createServer((req, res) => {
      const path = req.url!.replace(/^\/rest\/[^/]+/, '')
      const key = `${req.headers.authorization === undefined ? 'refused' : 'admitted'} ${path.startsWith('/V1/carts/12') ? 'cart 12' : 'sets'}`
      for (const k of [key, path.startsWith('/V1/carts/12') ? 'cart 12' : 'sets']) {
        inFlight.set(k, (inFlight.get(k) ?? 0) + 1)
        most.set(k, Math.max(most.get(k) ?? 0, inFlight.get(k)!))
      }
      setTimeout(() => {
        for (const k of [key, path.startsWith('/V1/carts/12') ? 'cart 12' : 'sets'])
          inFlight.set(k, inFlight.get(k)! - 1)
        res.statusCode = req.headers.authorization === undefined ? 401 : 200
        res.setHeader('content-type', 'application/json')
        res.end(
          res.statusCode === 401
            ? '{"message":"The consumer isn\'t authorized to access %resources."}'
            : '{"item_id":1}',
        )
        // Long enough that requests sent together are in flight together on a loaded machine (30 ms were not, at load
        // 8).
      }, 300)
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const client = new TargetClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      timeoutMs: 5_000,
      concurrency: 16,
      secrets: new Secrets(),
    })
    try {
      const sent = [
        ...Array.from({ length: 3 }, (_, i) =>
          client.send({ method: 'PUT', path: `/V1/carts/12/items/${i}`, store: 'default', token: 'admin', body: {} }),
        ),
        ...Array.from({ length: 3 }, (_, i) =>
          client.send({
            method: 'PUT',
            path: `/V1/carts/12/items/${i}`,
            store: 'default',
            body: {},
            refusalExpected: true,
          }),
        ),
        ...Array.from({ length: 3 }, () =>
          client.send({ method: 'POST', path: '/V1/eav/attribute-sets', store: 'default', token: 'admin', body: {} }),
        ),
        ...Array.from({ length: 3 }, () =>
          client.send({
            method: 'POST',
            path: '/V1/eav/attribute-sets',
            store: 'default',
            body: {},
            refusalExpected: true,
          }),
        ),
      ]
      expect((await Promise.all(sent)).map((o) => o.answer?.status)).toEqual([
        200, 200, 200, 401, 401, 401, 200, 200, 200, 401, 401, 401,
      ])
      // The admitted writes one at a time; the refused requests all at once, beside them.
      expect([most.get('admitted cart 12'), most.get('admitted sets')]).toEqual([1, 1])
      expect([most.get('refused cart 12'), most.get('refused sets')]).toEqual([3, 3])
      expect([most.get('cart 12'), most.get('sets')]).toEqual([4, 4])
    } finally {
      await client.close()
      server.close()
    }
  })
})

// One cart's writes (serial.ts), kept by the client against a server that counts what is in flight on each cart.
describe('the client, writing to a cart', () => {
  it("never has two writes to one cart in flight, however the cart is addressed; other carts' writes and reads go beside them", async () => {
    const inFlight = new Map<string, number>()
    const most = new Map<string, number>()
    const server = createServer((req, res) => {
      const path = req.url!.replace(/^\/rest\/[^/]+/, '')
      // Cart 12 is the customer's own (`mine` with tok-a) and the admin's `/V1/carts/12`; cart 13 another one.
      let cart = 'other'
      if (/^\/V1\/carts\/(mine|12)\b/.test(path)) cart = '12'
      else if (/^\/V1\/carts\/13\b/.test(path)) cart = '13'
      const keys = req.method === 'GET' ? [`read ${cart}`] : [cart, 'writes']
      for (const key of keys) {
        inFlight.set(key, (inFlight.get(key) ?? 0) + 1)
        most.set(key, Math.max(most.get(key) ?? 0, inFlight.get(key)!))
      }
      setTimeout(() => {
        for (const key of keys) inFlight.set(key, inFlight.get(key)! - 1)
        res.setHeader('content-type', 'application/json')
        res.end(path === '/V1/carts/mine' ? '{"id":12,"items":[]}' : '{"item_id":1}')
      }, 25)
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const client = new TargetClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      timeoutMs: 5_000,
      concurrency: 8,
      secrets: new Secrets(),
    })
    try {
      // The customer's cart read first: the client learns `mine` (tok-a) is cart 12.
      await client.send({ method: 'GET', path: '/V1/carts/mine', store: 'default', token: 'tok-a' })
      const writes = [
        ...Array.from({ length: 3 }, (_, i) =>
          client.send({ method: 'PUT', path: `/V1/carts/mine/items/${i}`, store: 'default', token: 'tok-a', body: {} }),
        ),
        ...Array.from({ length: 3 }, (_, i) =>
          client.send({ method: 'PUT', path: `/V1/carts/12/items/${i}`, store: 'default', token: 'admin', body: {} }),
        ),
        ...Array.from({ length: 3 }, () =>
          client.send({ method: 'POST', path: '/V1/carts/13/coupons/X', store: 'default', token: 'admin', body: {} }),
        ),
        ...Array.from({ length: 3 }, () =>
          client.send({ method: 'GET', path: '/V1/carts/12/totals', store: 'default', token: 'admin' }),
        ),
      ]
      expect((await Promise.all(writes)).every((o) => o.answer?.status === 200)).toBe(true)
      expect([most.get('12'), most.get('13')]).toEqual([1, 1])
      expect(most.get('read 12')).toBeGreaterThan(1)
      // Cart 12's six writes one after another; cart 13's beside them.
      expect(most.get('writes')).toBe(2)
    } finally {
      await client.close()
      server.close()
    }
  })
})
