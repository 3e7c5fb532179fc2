/**
 * The recording answering again (lib/shop/replay.ts): which recorded exchange answers a request, and what is a miss.
 * A workflow run on a whole recording: lib/run/rejudge.test.ts, lib/cli/judge.test.ts.
 */
import { describe, expect, it } from 'vitest'
import type { HarEntry } from '../results/har.ts'
import { ReplayTransport } from './replay.ts'

const ORIGIN = 'http://shop.test'

/** A recorded entry: `METHOD path` answered `status` `body`, with the suite's fields given. */
function entry(
  call: string,
  status: number,
  body: unknown,
  fields: Partial<HarEntry> & { sent?: unknown } = {},
): HarEntry {
  const [method, path] = call.split(' ') as [string, string]
  const { sent, ...tags } = fields
  return {
    request: {
      method,
      url: `${ORIGIN}/rest/default${path}`,
      headers: [],
      ...(sent !== undefined ? { postData: { mimeType: 'application/json', text: JSON.stringify(sent) } } : {}),
    },
    response: {
      status,
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      content: { size: 0, mimeType: 'application/json', ...(status !== 0 ? { text: JSON.stringify(body) } : {}) },
    },
    _caller: 'admin',
    ...tags,
  } as unknown as HarEntry
}

/** What the transport answers a request (`token`: the stand-in's name), as status and parsed body. */
async function ask(
  transport: ReplayTransport,
  call: string,
  options: { token?: string; step?: string; body?: unknown } = {},
) {
  const [method, path] = call.split(' ') as [string, string]
  const headers: Record<string, string> =
    options.token !== undefined ? { authorization: `Bearer replay:${options.token}` } : {}
  const res = await transport.request(
    {
      origin: ORIGIN,
      path: `/rest/default${path}`,
      method,
      headers,
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      signal: new AbortController().signal,
    },
    options.step !== undefined ? { step: options.step } : {},
  )
  let text = ''
  for await (const chunk of res.body) text += String(chunk)
  return {
    status: res.statusCode,
    body: JSON.parse(text) as unknown,
    type: res.headers['content-type'],
    retryAfter: res.headers['retry-after'],
  }
}

describe('a recording answering again', () => {
  it('answers the recorded request: method, URL, token, step and body; a redacted value stands for any string', async () => {
    const transport = new ReplayTransport([
      entry(
        'POST /V1/customers',
        200,
        { id: 7 },
        {
          _token: 'admin',
          _step: 'register customer A',
          sent: { customer: { email: 'a@example.com' }, password: '[redacted]' },
        },
      ),
    ])
    expect(
      await ask(transport, 'POST /V1/customers', {
        token: 'admin',
        step: 'register customer A',
        body: { customer: { email: 'a@example.com' }, password: 'S3cret!x' },
      }),
    ).toMatchObject({ status: 200, body: { id: 7 }, type: 'application/json' })
    expect(transport.misses).toEqual([])
    // Used once: the same request again, or another body, step or token, is a miss — answered, never judged.
    expect(
      (
        await ask(transport, 'POST /V1/customers', {
          token: 'admin',
          step: 'register customer A',
          body: { customer: { email: 'a@example.com' }, password: 'x' },
        })
      ).status,
    ).toBe(404)
    expect(transport.misses).toEqual(['POST /rest/default/V1/customers as admin'])
  })

  it("tells two customers redacted alike apart by their tokens' names, and gives each answer once, in the order sent", async () => {
    const transport = new ReplayTransport([
      entry('POST /V1/integration/customer/token', 200, '[redacted customer token]', { _issued: 'worker.1' }),
      entry('GET /V1/carts/mine', 200, { id: 1 }, { _token: 'worker.1' }),
      entry('GET /V1/carts/mine', 200, { id: 2 }, { _token: 'worker.2' }),
      entry('GET /V1/carts/mine', 200, { id: 1, items_count: 1 }, { _token: 'worker.1' }),
    ])
    // A token call's answer is the stand-in its later requests are known by.
    expect((await ask(transport, 'POST /V1/integration/customer/token')).body).toBe('replay:worker.1')
    expect((await ask(transport, 'GET /V1/carts/mine', { token: 'worker.2' })).body).toEqual({ id: 2 })
    expect((await ask(transport, 'GET /V1/carts/mine', { token: 'worker.1' })).body).toEqual({ id: 1 })
    expect((await ask(transport, 'GET /V1/carts/mine', { token: 'worker.1' })).body).toEqual({ id: 1, items_count: 1 })
    expect(transport.misses).toEqual([])
  })

  it("never answers with another workflow's exchange; its own, or set-up's, before a check's", async () => {
    const transport = new ReplayTransport([
      entry(
        'GET /V1/orders/4',
        200,
        { state: 'other' },
        { _token: 'admin', _checks: ['workflow credit-memo › 02 read'] },
      ),
      entry('GET /V1/orders/4', 200, { state: 'check' }, { _token: 'admin', _checks: ['GET /V1/orders/:id › shape'] }),
      entry(
        'GET /V1/orders/4',
        200,
        { state: 'ours' },
        { _token: 'admin', _checks: ['workflow order-address › 03 read'] },
      ),
    ])
    transport.forWorkflow('order-address')
    expect((await ask(transport, 'GET /V1/orders/4', { token: 'admin' })).body).toEqual({ state: 'ours' })
    expect((await ask(transport, 'GET /V1/orders/4', { token: 'admin' })).body).toEqual({ state: 'check' })
    expect((await ask(transport, 'GET /V1/orders/4', { token: 'admin' })).status).toBe(404)
  })

  it('gives a recorded failure as the failure it was, and counts an answer recorded only in part as a miss', async () => {
    // A long body is recorded as the text of its start (lib/results/har.ts).
    const cut = entry('GET /V1/orders', 200, undefined, { _token: 'admin' })
    cut.response.content.text = '[{"id":1},… [20000 more characters not recorded]'
    const transport = new ReplayTransport([
      entry('GET /V1/orders/5', 0, undefined, {
        _token: 'admin',
        _error: 'no complete answer within 10000 ms (TimeoutError)',
      }),
      entry('GET /V1/orders/6', 0, undefined, { _token: 'admin', _error: 'connection failed: ECONNRESET' }),
      cut,
    ])
    await expect(ask(transport, 'GET /V1/orders/5', { token: 'admin' })).rejects.toMatchObject({ name: 'TimeoutError' })
    await expect(ask(transport, 'GET /V1/orders/6', { token: 'admin' })).rejects.toMatchObject({ code: 'ECONNRESET' })
    // A 429 the run gave up on after waiting as Retry-After asked: given up on at once, its repeats not recorded.
    const gaveUp = entry(
      'GET /V1/orders/7',
      429,
      { message: 'slow down' },
      { _token: 'admin', _error: 'the target answered 429 Too Many Requests 3 times' },
    )
    const answered429 = entry('GET /V1/orders/8', 429, { message: 'slow down' }, { _token: 'admin' })
    for (const e of [gaveUp, answered429]) e.response.headers.push({ name: 'Retry-After', value: '2' })
    const limited = new ReplayTransport([gaveUp, answered429])
    expect((await ask(limited, 'GET /V1/orders/7', { token: 'admin' })).retryAfter).toBeUndefined()
    expect((await ask(limited, 'GET /V1/orders/8', { token: 'admin' })).retryAfter).toBe('2')
    expect(transport.misses).toEqual([])
    await ask(transport, 'GET /V1/orders', { token: 'admin' }).catch(() => undefined)
    expect(transport.misses).toEqual(['GET /rest/default/V1/orders as admin (its answer recorded only in part)'])
  })
})
