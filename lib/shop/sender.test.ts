/**
 * The one sender, without a target: the client's send is replaced by a function of the request, and what was sent
 * is counted. A plan's calls go once per session whoever asks; a sequence goes as its plan says (the groups in
 * order, a fresh request after a success where it says so, a caller without a token never sent as anyone else).
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { Outcome, RequestSpec } from './request.ts'
import { Session, type SessionSeed } from './session.ts'
import { sendCall, sendPlan, sendSequence, type PreparedProbe } from './sender.ts'
import type { PlannedCall, SequencePlan, Unbuilt } from './probe.ts'
import { STAND_IN_SEED } from './testing.ts'

const SEED: SessionSeed = {
  ...STAND_IN_SEED,
  concurrency: 4,
  pathAliases: [{ from: '/V1/stockmedia', to: '/V1/adobestock' }],
  tokens: { admin: 'admin-token', customer: 'customer-token' },
  malformedToken: 'malformed-token',
  calibration: {
    noRoute: [{ status: 404, key: 'message:Request does not match any route.' }],
    unknownStore: [],
    exchanges: [],
  },
}

const sessions: Session[] = []
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.client.close()
})

const answer = (status: number, body: unknown): Outcome => ({
  answer: { status, headers: {}, body, json: true, text: JSON.stringify(body) },
  exchange: { request: { method: 'GET', url: 'http://127.0.0.1:9/x', headers: {} }, durationMs: 1 },
})

/** A session whose client answers by `reply`, and remembers what it was sent, in order. */
function stand(
  reply: (spec: RequestSpec) => Outcome = () => answer(200, {}),
  seed: Partial<SessionSeed> = {},
): { session: Session; sent: RequestSpec[] } {
  const session = new Session({ ...SEED, ...seed })
  sessions.push(session)
  const sent: RequestSpec[] = []
  Object.assign(session.client, { send: (spec: RequestSpec) => (sent.push(spec), Promise.resolve(reply(spec))) })
  return { session, sent }
}

const call = (
  caller: PlannedCall['request']['caller'],
  store: 'first' | 'second' = 'first',
  path = '/V1/modules',
): PlannedCall => ({ request: { caller, store }, call: { method: 'GET', path } })
const who = (spec: RequestSpec) => (spec.token === undefined ? 'none' : spec.token.replace(/-token$/, ''))

describe('sendPlan and sendCall', () => {
  it("send each call once per session, whichever plan asks for it, with the caller's token under its store code, after aliases", async () => {
    const { session, sent } = stand()
    await sendPlan(session, { calls: [call('none'), call('admin', 'second', '/V1/stockmedia/asset/list')] })
    const again = await sendPlan(session, { calls: [call('none')] })
    expect(sent.map((s) => `${who(s)} ${s.store} ${s.path}`)).toEqual([
      'none default /V1/modules',
      'admin all /V1/adobestock/asset/list',
    ])
    expect(again.calls.size).toBe(1)
  })

  it("read each answer against the target's calibration, so a judge needs nothing of the session", async () => {
    const { session } = stand((spec) =>
      spec.token === undefined ? answer(404, { message: 'Request does not match any route.' }) : answer(200, []),
    )
    expect(await sendCall(session, call('none'))).toMatchObject({ noRoute: true, unknownStore: false })
    expect(await sendCall(session, call('admin'))).toMatchObject({ noRoute: false })
  })

  it('send no write in read-only mode, and nothing as a caller the run has no token for: each says why', async () => {
    const { session, sent } = stand(undefined, {
      readOnly: true,
      tokens: { admin: 'admin-token' },
    })
    const write = await sendCall(session, {
      request: { caller: 'admin', store: 'first' },
      call: { method: 'POST', path: '/V1/cmsPage', body: {} },
    })
    expect(write).toMatchObject({
      unavailable: 'read-only mode sends no POST requests',
      unavailableReason: 'read-only',
    })
    expect(await sendCall(session, call('customer'))).toMatchObject({ unavailableReason: 'no-customer-token' })
    expect(await sendCall(session, call('limited admin'))).toMatchObject({ unavailableReason: 'not-configured' })
    expect(sent).toEqual([])
  })

  it('record what a call creates before it leaves, tell the record when it leaves, and settle it with the outcome', async () => {
    const { session, sent } = stand(() => answer(200, 7))
    const events: string[] = []
    await sendCall(
      session,
      {
        request: { caller: 'admin', store: 'first' },
        call: { method: 'POST', path: '/V1/carts', body: {}, creates: 'cart' },
      },
      {
        record: () => (
          events.push('recorded'),
          {
            sent: () => events.push('sent'),
            settle: (outcome) => events.push(`settled ${JSON.stringify(outcome.answer?.body)}`),
          }
        ),
      },
    )
    // The client tells a request's `onSent` as it leaves its queue: here, the stand's send.
    sent[0]!.onSent?.()
    expect(events).toEqual(['recorded', 'settled 7', 'sent'])
    expect(sent[0]!.onSent).toBeTypeOf('function')
  })
})

describe('sendSequence', () => {
  const plan = (more: Partial<SequencePlan> = {}): SequencePlan => ({
    method: 'DELETE',
    template: '/V1/cmsPage/:pageId',
    groups: [['none', 'malformed', 'customer'], ['limited admin'], ['admin']],
    witness: 'admin',
    again: 'fresh',
    optional: ['limited admin', 'other customer'],
    fallback: [call('none'), call('admin')],
    ...more,
  })
  /** A preparer that makes request n for its n-th call, with the session's tokens. */
  const preparer = (
    tokens: Record<string, string | undefined> = {
      none: undefined,
      malformed: 'malformed-token',
      customer: 'customer-token',
      admin: 'admin-token',
    },
  ) => {
    let n = 0
    return {
      made: () => n,
      prepare: (): Promise<PreparedProbe> =>
        Promise.resolve({
          path: `/V1/cmsPage/${++n}`,
          tokens: new Map(Object.entries(tokens)) as PreparedProbe['tokens'],
        }),
    }
  }

  it('sends the groups in order, the witness last, and a fresh request after a group in which a caller got a success', async () => {
    const { session, sent } = stand((spec) =>
      spec.token === 'admin-token' || spec.token === undefined ? answer(200, true) : answer(401, {}),
    )
    const p = preparer()
    const answers = await sendSequence(session, plan(), p)
    // The limited admin has no token here: an optional caller is left out. No token got a success: the witness gets
    // request 2.
    expect(sent.map((s) => `${who(s)} ${s.path}`)).toEqual([
      'none /V1/cmsPage/1',
      'malformed /V1/cmsPage/1',
      'customer /V1/cmsPage/1',
      'admin /V1/cmsPage/2',
    ])
    expect([...answers.probes.keys()]).toEqual(['none', 'malformed', 'customer', 'admin'])
    expect(answers.witness).toBe('admin')
    // Only the witness is not told to expect a refusal (its 401 may be an expired token).
    expect(sent.map((s) => s.refusalExpected === true)).toEqual([true, true, true, false])
  })

  // Issue 29.6: the callers without a token assigned the product to the website, and what the others sent the same
  // request got was about that, not about them.
  it('after a success that may use the request up, asks each other caller of the group whose answer it may explain again with one of its own', async () => {
    const done = new Set<string>()
    // An open endpoint: whoever asks first gets the success; the same request again gets 400.
    const { session, sent } = stand((spec) => {
      if (spec.token === 'customer-token') return answer(401, {})
      if (done.has(spec.path)) return answer(400, { message: 'Could not assign' })
      done.add(spec.path)
      return answer(200, true)
    })
    const answers = await sendSequence(session, plan(), preparer())
    expect(sent.map((s) => `${who(s)} ${s.path}`)).toEqual([
      'none /V1/cmsPage/1',
      'malformed /V1/cmsPage/1',
      'customer /V1/cmsPage/1',
      'malformed /V1/cmsPage/2',
      'admin /V1/cmsPage/3',
    ])
    expect([...answers.probes].map(([caller, p]) => `${caller} ${p.answer?.status}`)).toEqual([
      'none 200',
      'malformed 200',
      'customer 401',
      'admin 200',
    ])
    // A shop that refuses as it should gets nothing more: see the first test (one request, then the witness's).
  })

  // Issue 29.7: a real 2.4.7 answered a partial source transfer, sent while other requests rebuilt the same stock's
  // index, 400 "Table inventory_stock_2_replica already exits".
  it('sends the sequences of one lane one after another, their preparations included; others side by side', async () => {
    const events: string[] = []
    const { session } = stand(() => answer(200, true))
    const hooks = (name: string) => ({
      prepare: async (): Promise<PreparedProbe> => {
        events.push(`prepare ${name}`)
        await new Promise((r) => setTimeout(r, 5))
        return {
          path: `/V1/cmsPage/${name}`,
          tokens: new Map([['admin', 'admin-token']]),
          record: () => ({ sent: () => {}, settle: () => events.push(`answered ${name}`) }),
        }
      },
    })
    const one = (template: string, lane?: string) =>
      plan({ template, groups: [['admin']], again: 'reuse', ...(lane !== undefined ? { lane } : {}) })
    await Promise.all([
      sendSequence(session, one('/V1/a', 'index'), hooks('a')),
      sendSequence(session, one('/V1/b', 'index'), hooks('b')),
      sendSequence(session, one('/V1/c'), hooks('c')),
    ])
    expect(events.filter((e) => !e.endsWith(' c'))).toEqual(['prepare a', 'answered a', 'prepare b', 'answered b'])
    expect(events.indexOf('prepare c')).toBeLessThan(events.indexOf('answered a'))
  })

  it('reuses the request where the plan says a success uses nothing up', async () => {
    const { session, sent } = stand((spec) => (spec.token === undefined ? answer(200, true) : answer(400, {})))
    await sendSequence(session, plan({ again: 'reuse' }), preparer())
    expect(sent.map((s) => s.path)).toEqual(['/V1/cmsPage/1', '/V1/cmsPage/1', '/V1/cmsPage/1', '/V1/cmsPage/1'])
  })

  it('never sends a caller without a token as anyone else: it is recorded as not sent', async () => {
    const { session, sent } = stand((spec) => (spec.token === 'admin-token' ? answer(200, true) : answer(401, {})))
    const answers = await sendSequence(
      session,
      plan({ again: 'reuse' }),
      preparer({ none: undefined, malformed: 'malformed-token', admin: 'admin-token' }),
    )
    expect(sent.map(who)).toEqual(['none', 'malformed', 'admin'])
    // Recorded first, before anything is sent.
    expect([...answers.probes.keys()]).toEqual(['customer', 'none', 'malformed', 'admin'])
    expect(answers.probes.get('customer')).toMatchObject({ unavailableReason: 'no-customer-token' })
  })

  it("sends the fallback's placeholder calls where no valid request can be made, and says why", async () => {
    const { session, sent } = stand()
    const unbuilt: Unbuilt = {
      message: 'no valid request could be made: set-up failed',
      reason: 'setup-failed',
      exchanges: [],
    }
    const answers = await sendSequence(session, plan(), { prepare: () => Promise.resolve(unbuilt) })
    expect(answers.unbuilt).toEqual(unbuilt)
    expect(sent.map((s) => `${who(s)} ${s.path}`)).toEqual(['none /V1/modules', 'admin /V1/modules'])
    // Known before anything is sent (read-only mode, no recipe): nothing is prepared.
    const known = stand()
    const p = preparer()
    const read = await sendSequence(
      known.session,
      plan({ unbuildable: { message: 'read-only mode sends no DELETE requests', reason: 'read-only' } }),
      p,
    )
    expect(read.unbuilt).toMatchObject({ reason: 'read-only' })
    expect(p.made()).toBe(0)
  })

  it('stops where a fresh request cannot be made: the callers left are not sent, saying why', async () => {
    const { session, sent } = stand(() => answer(200, true))
    let n = 0
    const tokens = new Map(
      Object.entries({
        none: undefined,
        malformed: 'malformed-token',
        customer: 'customer-token',
        admin: 'admin-token',
      }),
    ) as PreparedProbe['tokens']
    const answers = await sendSequence(session, plan(), {
      prepare: () =>
        Promise.resolve(
          n++ === 0
            ? { path: '/V1/cmsPage/1', tokens }
            : { message: 'the page could not be made again', reason: 'setup-failed', exchanges: [] },
        ),
    })
    expect(sent).toHaveLength(3)
    expect(answers.probes.get('admin')).toMatchObject({
      unavailable: 'the page could not be made again',
      unavailableReason: 'setup-failed',
    })
  })
})
