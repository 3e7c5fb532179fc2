/** Set-up calls made again — bounded, and never in a way that makes a second entity (retry.ts). */
import { describe, expect, it } from 'vitest'
import type { Outcome, TransportFailureKind } from './request.ts'
import { SETUP_ATTEMPTS, sendRepeating, troubleOf, type Repeat } from './retry.ts'

const exchange = { request: { method: 'POST', url: 'http://t/rest/default/V1/products', headers: {} }, durationMs: 1 }
const answered = (status: number, body: unknown): Outcome => ({
  answer: { status, headers: {}, body, json: true, text: JSON.stringify(body) },
  exchange: { ...exchange, response: { status, headers: {}, body } },
})
const failed = (kind: TransportFailureKind, message: string): Outcome => ({
  failure: { kind, message },
  exchange: { ...exchange, error: message },
})
const TIMEOUT = failed('timeout', 'no complete answer within 10000 ms (TimeoutError)')
const DEADLOCK = answered(400, { message: 'Could not save Source Item Configuration' })
const CREATED = answered(200, { id: 7, sku: 'sc-x' })

/** A target answering `script` in turn (the last answer again once it runs out), counting the calls. */
function scripted(...script: Outcome[]) {
  let calls = 0
  return { send: () => Promise.resolve(script[Math.min(calls++, script.length - 1)]!), calls: () => calls }
}
const ok = (a: { status: number }) => a.status === 200

describe('which answers are worth another attempt', () => {
  it('no answer, a server error and a deadlock refusal; not a refusal that would come again, a success, a gone target', () => {
    expect(troubleOf(TIMEOUT)).toEqual({
      kind: 'no answer',
      made: 'perhaps',
      text: 'no answer (no complete answer within 10000 ms (TimeoutError))',
    })
    expect(troubleOf(failed('connection', 'connection failed: ECONNRESET'))?.made).toBe('perhaps')
    expect(troubleOf(failed('connection', 'connection failed: ECONNREFUSED'))?.made).toBe('nothing')
    expect(troubleOf(answered(503, { message: 'Service Unavailable' }))?.made).toBe('perhaps')
    // A deadlock is worth another attempt, but says nothing the run checked of what the attempt left (deadlock.ts).
    expect(troubleOf(DEADLOCK)).toMatchObject({ kind: 'rolled back', made: 'perhaps' })
    expect(troubleOf(answered(400, { message: 'The stock item was unable to be saved' }))?.kind).toBe('rolled back')
    expect(
      troubleOf(
        answered(400, {
          message: 'SQLSTATE[40001]: Serialization failure: 1213 Deadlock found when trying to get lock',
        }),
      )?.kind,
    ).toBe('rolled back')
    // A shop in developer mode answers a deadlock as a 500 with the database's words: a deadlock, not a server error.
    expect(
      troubleOf(
        answered(500, {
          message: 'SQLSTATE[HY000]: General error: 1205 Lock wait timeout exceeded; try restarting transaction',
        }),
      )?.kind,
    ).toBe('rolled back')
    // A "could not save" wrapper alone is also how the platform refuses an address it does not take: an answer that
    // stands.
    expect(
      troubleOf(answered(400, { message: 'The address failed to save. Verify the address and try again.' })),
    ).toBeUndefined()
    expect(troubleOf(answered(400, { message: 'URL key for specified store already exists.' }))).toBeUndefined()
    expect(troubleOf(answered(401, { message: "The consumer isn't authorized to access %resources." }))).toBeUndefined()
    expect(troubleOf(CREATED)).toBeUndefined()
    expect(troubleOf(failed('target-gone', 'not sent: the target stopped answering'))).toBeUndefined()
    expect(troubleOf(failed('rate-limited', 'the target answered 429'))).toBeUndefined()
  })
})

describe('sendRepeating', () => {
  it('repeats a safe call after no answer and a server error, at most SETUP_ATTEMPTS times, and says what each attempt got', async () => {
    const t = scripted(TIMEOUT, answered(500, { message: 'Internal Error' }), CREATED)
    const r = await sendRepeating(t.send, ok, 'safe', { pauseMs: 1 })
    expect(r.answer?.status).toBe(200)
    expect(r.history).toEqual([
      '1: no answer (no complete answer within 10000 ms (TimeoutError))',
      '2: 500 "Internal Error"',
    ])
    expect(r.exchanges).toHaveLength(3)

    const never = scripted(TIMEOUT)
    const gaveUp = await sendRepeating(never.send, ok, 'safe', { pauseMs: 1 })
    expect(never.calls()).toBe(SETUP_ATTEMPTS)
    expect(gaveUp.answer).toBeUndefined()
    expect(gaveUp.history).toHaveLength(SETUP_ATTEMPTS)
  })

  it('repeats a write that makes something each time only after an outcome that says nothing was made (a refused connection)', async () => {
    const afterRefused = scripted(failed('connection', 'connection failed: ECONNREFUSED'), CREATED)
    expect((await sendRepeating(afterRefused.send, ok, 'if-nothing-made', { pauseMs: 1 })).answer?.status).toBe(200)
    // Not after a deadlock: nothing checked what the attempt left (a creation with a lookup looks first: below).
    const afterDeadlock = scripted(DEADLOCK, CREATED)
    expect((await sendRepeating(afterDeadlock.send, ok, 'if-nothing-made', { pauseMs: 1 })).answer).toBeUndefined()
    expect(afterDeadlock.calls()).toBe(1)
    const afterTimeout = scripted(TIMEOUT, CREATED)
    const r = await sendRepeating(afterTimeout.send, ok, 'if-nothing-made', { pauseMs: 1 })
    expect(afterTimeout.calls()).toBe(1)
    expect(r.answer).toBeUndefined()
  })

  it('never repeats a judged call, nor a refusal that would come again', async () => {
    for (const [repeat, outcome] of [
      ['never', TIMEOUT],
      ['never', DEADLOCK],
      ['safe', answered(400, { message: 'Invalid value' })],
    ] as [Repeat, Outcome][]) {
      const t = scripted(outcome, CREATED)
      await sendRepeating(t.send, ok, repeat, { pauseMs: 1 })
      expect(t.calls()).toBe(1)
    }
  })

  it('before repeating a creation, looks for what the attempt without an answer made, and takes it', async () => {
    const t = scripted(TIMEOUT, CREATED)
    const lookups: string[] = []
    const find = () => {
      lookups.push('looked')
      return Promise.resolve({
        body: { id: 7, sku: 'sc-x' },
        exchanges: [{ ...exchange, request: { ...exchange.request, method: 'GET' } }],
      })
    }
    const r = await sendRepeating(t.send, ok, { find }, { pauseMs: 1 })
    expect(t.calls()).toBe(1)
    expect(lookups).toEqual(['looked'])
    expect(r).toMatchObject({ answer: { status: 200, body: { id: 7, sku: 'sc-x' } }, found: true })
    expect(r.exchanges.map((x) => x.request.method)).toEqual(['POST', 'GET'])
  })

  it('looks once more when a repeat is refused after an attempt that may have made it (the shop was still making it)', async () => {
    const t = scripted(
      TIMEOUT,
      answered(400, { message: 'A customer with the same email address already exists in an associated website.' }),
    )
    let lookups = 0
    const find = () =>
      Promise.resolve(
        ++lookups === 1 ? { exchanges: [] } : { body: { id: 12, email: 'sc.x@example.com' }, exchanges: [exchange] },
      )
    const r = await sendRepeating(t.send, ok, { find }, { pauseMs: 1 })
    expect([t.calls(), lookups]).toEqual([2, 2])
    expect(r).toMatchObject({ answer: { body: { id: 12 } }, found: true })
  })

  // Issue 21: a product creation timed out while still queued at a shop of a few workers; the lookup found nothing
  // yet, the repeat made a second product with the same sku.
  it('after no answer, keeps looking for a while before it repeats: the first attempt may still be queued at the shop', async () => {
    const t = scripted(TIMEOUT, CREATED)
    let lookups = 0
    const find = () =>
      Promise.resolve(++lookups < 3 ? { exchanges: [] } : { body: { id: 7, sku: 'sc-x' }, exchanges: [exchange] })
    const r = await sendRepeating(t.send, ok, { find }, { pauseMs: 1, graceMs: 2_000 })
    expect([t.calls(), lookups]).toEqual([1, 3])
    expect(r).toMatchObject({ found: true, answer: { body: { id: 7 } } })
    // Without the grace it would have sent the creation again.
    const hasty = scripted(TIMEOUT, CREATED)
    let once = 0
    await sendRepeating(
      hasty.send,
      ok,
      { find: () => Promise.resolve(++once < 3 ? { exchanges: [] } : { body: {}, exchanges: [exchange] }) },
      { pauseMs: 1 },
    )
    expect(hasty.calls()).toBe(2)
  })

  it('creates again when the lookup finds nothing, and never looks before the first attempt', async () => {
    const t = scripted(DEADLOCK, CREATED)
    let lookups = 0
    const r = await sendRepeating(
      t.send,
      ok,
      { find: () => (lookups++, Promise.resolve({ exchanges: [] })) },
      { pauseMs: 1 },
    )
    expect([t.calls(), lookups]).toEqual([2, 1])
    expect(r.answer?.status).toBe(200)
    expect(r.found).toBeUndefined()
  })
})
