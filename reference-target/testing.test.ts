/**
 * The test client's repeat of a request reset on a kept-alive socket (issue 31.8: `faults.test.ts` once got
 * ECONNRESET under load where an answer was due). A server that closes its idle sockets closes them all at once;
 * until the client hears of it, each is as stale as the first. This server stands for that moment deterministically:
 * it answers the first request on each socket and resets the socket at any later one.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { attempt } from './testing.ts'
import type { ReferenceTarget } from './index.ts'

let server: Server
let target: ReferenceTarget

beforeAll(async () => {
  const served = new WeakSet<object>()
  server = createServer((req, res) => {
    if (served.has(req.socket)) return req.socket.destroy()
    served.add(req.socket)
    res.setHeader('Content-Type', 'application/json')
    res.end('true')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  target = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } as ReferenceTarget
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('the test client', () => {
  it('repeats a request reset on a kept-alive socket on a fresh socket, not on the next stale one', async () => {
    // Two sockets kept alive, both stale from now on.
    const opened = await Promise.all([attempt(target, 'GET', '/a'), attempt(target, 'GET', '/b')])
    expect(opened.map((a) => ('status' in a ? a.status : a))).toEqual([200, 200])
    expect(await attempt(target, 'GET', '/c')).toMatchObject({ status: 200, body: true })
  })
})
