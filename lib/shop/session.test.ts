/**
 * What the session's one door does with an answer before any check sees it (issue 21): a read that got no answer is
 * asked once more, a write never; a deadlock is sent once more, and twice is no answer to judge. Without a target:
 * the client's send is replaced by a script of outcomes.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { Outcome, RequestSpec, TransportFailureKind } from './request.ts'
import { Session } from './session.ts'
import { STAND_IN_SEED } from './testing.ts'

const SEED = STAND_IN_SEED

const exchange = (method: string) => ({ request: { method, url: 'http://127.0.0.1:9/rest/default/V1/x', headers: {} }, durationMs: 1 })
const answered = (status: number, body: unknown, method = 'GET'): Outcome => ({ answer: { status, headers: {}, body, json: true, text: JSON.stringify(body) }, exchange: exchange(method) })
const unanswered = (kind: TransportFailureKind, method = 'GET'): Outcome => ({ failure: { kind, message: `${kind} after 1000 ms` }, exchange: exchange(method) })
const DEADLOCK = { message: 'SQLSTATE[40001]: Serialization failure: 1213 Deadlock found when trying to get lock; try restarting transaction' }

const sessions: Session[] = []
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.client.close()
})

/** A session whose client answers each request with the next outcome of the script, and counts what it was sent. */
function scripted(...script: Outcome[]): { session: Session; sent: RequestSpec[] } {
  const session = new Session(SEED)
  sessions.push(session)
  const sent: RequestSpec[] = []
  Object.assign(session.client, {
    send: async (spec: RequestSpec) => {
      sent.push(spec)
      const next = script.shift()
      if (next === undefined) throw new Error('the script ran out: the session sent more than the test expected')
      return next
    },
  })
  return { session, sent }
}

const GET: RequestSpec = { method: 'GET', path: '/V1/x', store: 'default', token: 'admin-token' }
const POST: RequestSpec = { method: 'POST', path: '/V1/x', store: 'default', token: 'admin-token', body: {} }

describe("the session's door", () => {
  it('asks a read that got no answer once more, and says so on the exchange', async () => {
    for (const kind of ['timeout', 'connection', 'protocol'] as const) {
      const { session, sent } = scripted(unanswered(kind), answered(200, { ok: true }))
      const outcome = await session.send(GET)
      expect(sent, kind).toHaveLength(2)
      expect(outcome.answer?.status).toBe(200)
      expect(outcome.exchange.note).toBe(`asked again after no answer (${kind} after 1000 ms)`)
    }
  })

  it('asks it once more only: two timeouts are no answer, left for the check to call not judged', async () => {
    const { session, sent } = scripted(unanswered('timeout'), unanswered('timeout'))
    const outcome = await session.send(GET)
    expect(sent).toHaveLength(2)
    expect(outcome).toMatchObject({ failure: { kind: 'timeout' } })
  })

  it('never repeats a write that got no answer (it may have been made), a target gone, a run stopping, or a set-up call that repeats itself', async () => {
    for (const [spec, kind] of [[POST, 'timeout'], [GET, 'target-gone'], [GET, 'stopped'], [{ ...GET, ownRepeats: true }, 'timeout']] as const) {
      const { session, sent } = scripted(unanswered(kind, spec.method))
      expect((await session.send(spec)).failure?.kind).toBe(kind)
      expect(sent).toHaveLength(1)
    }
  })

  it('sends a call the shop answered with a deadlock once more: its transaction was rolled back, nothing was made', async () => {
    const { session, sent } = scripted(answered(400, DEADLOCK, 'POST'), answered(200, { id: 7 }, 'POST'))
    const outcome = await session.send(POST)
    expect(sent).toHaveLength(2)
    expect(outcome.answer?.body).toEqual({ id: 7 })
    expect(outcome.exchange.note).toMatch(/^sent again after a deadlock \(400 /)
  })

  it('takes a deadlock twice for the run\'s own load: no answer (kind deadlock), never the shop\'s 400 to judge', async () => {
    const { session, sent } = scripted(answered(400, DEADLOCK, 'POST'), answered(400, DEADLOCK, 'POST'))
    const outcome = await session.send(POST)
    expect(sent).toHaveLength(2)
    expect(outcome.answer).toBeUndefined()
    expect(outcome.failure).toMatchObject({ kind: 'deadlock', message: expect.stringMatching(/^the shop answered a database deadlock twice/) })
  })

  it('leaves any other refusal as the shop answered it, sent once', async () => {
    const { session, sent } = scripted(answered(400, { message: '"sku" is required.' }, 'POST'))
    expect((await session.send(POST)).answer?.status).toBe(400)
    expect(sent).toHaveLength(1)
  })
})
