/**
 * The one access judgement on recorded answers, no target running: the three answers in the spec's words, and a real
 * 2.4.7 instance's answers (fixtures/observations/access-matrix-2.4.7.tsv) replayed, which must fail nothing.
 */
import { describe, expect, it } from 'vitest'
import { DEFAULT_MATRIX_FILE, OBSERVED_CALLERS, readAccessMatrix } from '../../fixtures/observed-target/matrix.ts'
import {
  ADMISSION,
  admittedCaller,
  judgeAccess,
  judgeCell,
  seenOfAnswer,
  type AccessCell,
  type Seen,
} from './admission.ts'

const who = { who: (c: string) => c }
const cell = (caller: string, expected: AccessCell['expected'], seen: Seen, answer = seen): AccessCell => ({
  caller,
  expected,
  seen,
  answer,
})
/** An admin endpoint's four cells: the refused callers' answers, and the admin's (the witness). */
const admin = (refused: Seen, witness: Seen): AccessCell[] => [
  cell('none', 'refuse', refused),
  cell('malformed', 'refuse', refused),
  cell('customer', 'refuse', refused),
  cell('admin', 'accept', witness),
]

describe('judgeAccess: the three answers', () => {
  it('let through (failed): a caller the class refuses gets a success where the admitted caller gets one', () => {
    const j = judgeAccess(admin('accepted', 'accepted'), 'admin', who)
    expect(j.status).toBe('failed')
    expect(j.message).toMatch(/^none let through \(accepted\) where the spec says refuse; malformed let through/)
  })

  // Issue 29.6: a real shop opened to every caller assigned a product to a website for the callers without a token,
  // and the admin, asked last, got 400 "Could not assign" — the others had already done it.
  it('let through (failed): a success to a caller the class refuses is its own evidence, whatever the admitted caller got', () => {
    for (const witness of ['other 4xx', 'no usable answer', 'refused', 'no-route', 'not sent'] as const) {
      expect(judgeCell('refuse', 'accepted', witness === 'not sent' ? 'not sent' : 'other'), witness).toBe(false)
      const j = judgeAccess(
        witness === 'not sent' ? admin('accepted', witness).slice(0, 3) : admin('accepted', witness),
        'admin',
        who,
      )
      expect(j.status, witness).toBe('failed')
      expect(j.message, witness).toMatch(/^none let through \(accepted\) where the spec says refuse; /)
    }
    expect(judgeAccess(admin('accepted', 'other 4xx'), 'admin', who).message).toMatch(
      /; the caller the spec admits \(admin\) then got other 4xx$/,
    )
  })

  it('refused (passed): 401/403, or any other answer that is not a success where the admitted caller got a success', () => {
    expect(judgeAccess(admin('refused', 'accepted'), 'admin', who).status).toBe('passed')
    // A shop may hide a resource from an unauthorised caller with 404, or refuse it with another 4xx.
    expect(judgeAccess(admin('other 4xx', 'accepted'), 'admin', who).status).toBe('passed')
    expect(judgeAccess(admin('no-route', 'accepted'), 'admin', who).status).toBe('passed')
    // A 401 is a refusal whatever the admitted caller got.
    expect(judgeAccess(admin('refused', 'other 4xx'), 'admin', who).status).toBe('passed')
  })

  it('not judged: only where the admitted caller got no success, or an answer cannot be read', () => {
    const refusedRequest = judgeAccess(admin('other 4xx', 'other 4xx'), 'admin', who)
    expect(refusedRequest).toMatchObject({ status: 'not judged', reason: 'target-refused' })
    expect(refusedRequest.message).toMatch(/the caller the spec admits \(admin\) got no success for the same request/)
    const broken = judgeAccess(admin('no usable answer', 'no usable answer'), 'admin', who)
    expect(broken).toMatchObject({ status: 'not judged', reason: 'unusable-answer' })
    expect(broken.message).toMatch(/got no usable answer, so no answer here is about access/)
    expect(judgeAccess(admin('no-route', 'no-route'), 'admin', who)).toMatchObject({
      status: 'not judged',
      reason: 'route-missing',
    })
  })

  it('never reads a 5xx, a timeout or a reset to a refused caller as "let through"', () => {
    for (const witness of ['success', 'not sent', 'other'] as const) {
      expect(judgeCell('refuse', 'no usable answer', witness), witness).toBeNull()
      expect(judgeCell('refuse', 'not sent', witness), witness).toBeNull()
    }
    expect(judgeAccess(admin('no usable answer', 'accepted'), 'admin', who)).toMatchObject({ status: 'not judged' })
  })

  it('the admitted caller refused is the failure (the spec says its token works)', () => {
    expect(judgeAccess(admin('refused', 'refused'), 'admin', who)).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/admin refused .* where the spec says accept/),
    })
  })

  it('with the witness withheld (a write not sent for safety) the refusals speak for themselves', () => {
    const withheld = admin('refused', 'not sent').slice(0, 3)
    expect(judgeAccess(withheld, 'admin', who).status).toBe('passed')
    expect(judgeAccess(admin('accepted', 'not sent').slice(0, 3), 'admin', who).status).toBe('failed')
    expect(judgeAccess(admin('other 4xx', 'not sent').slice(0, 3), 'admin', who).status).toBe('not judged')
  })

  it('anonymous endpoints: the caller without a token is let through, a 4xx about the data included', () => {
    const anon = [
      cell('none', 'accept', 'other 4xx'),
      cell('malformed', 'not stated', 'refused'),
      cell('customer', 'not stated', 'accepted'),
      cell('admin', 'not stated', 'accepted'),
    ]
    expect(judgeAccess(anon, 'none', who).status).toBe('passed')
    expect(judgeAccess([cell('none', 'accept', 'refused')], 'none', who).status).toBe('failed')
  })
})

describe("judgeAccess on a real 2.4.7 instance's answers (placeholder values, as observed)", () => {
  const rows = readAccessMatrix(DEFAULT_MATRIX_FILE)
  const judged = rows.map((row) => {
    const cls = row.specAccess
    const cells = OBSERVED_CALLERS.map((caller) => {
      const c = row[caller]
      const answer = { status: c.status, json: true, text: '{}' }
      return {
        caller,
        expected: ADMISSION[cls][caller],
        seen: seenOfAnswer(answer, c.kind === 'noroute'),
        answer: String(c.status),
      }
    })
    return { row, j: judgeAccess(cells, admittedCaller(cls), who) }
  })

  it('fails no endpoint: every refusal there is a 401', () => {
    expect(judged.filter(({ j }) => j.status === 'failed').map(({ row }) => `${row.method} ${row.specPath}`)).toEqual(
      [],
    )
  })

  it('passes the 271 endpoints the release serves (the refusals read on their own) and leaves the 7 it does not serve unjudged', () => {
    expect(judged.filter(({ j }) => j.status === 'passed')).toHaveLength(271)
    expect(judged.filter(({ j }) => j.status === 'not judged').every(({ j }) => j.reason === 'route-missing')).toBe(
      true,
    )
  })
})
