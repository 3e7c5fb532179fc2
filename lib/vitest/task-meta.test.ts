/**
 * What a finished test carried to the run's reporter, read in one place and checked (issue 24.3): a result of
 * this version is taken as it is; one that is not — a status it does not know, another test's id, no exchanges
 * — is an error of the run and the test's result an error of the suite, never a crash of the reporter and never
 * a verdict read from it; a test that ended without any result is an error of the suite too.
 */
import { describe, expect, it } from 'vitest'
import type { TestCase, TestModule } from 'vitest/node'
import type { Result } from '../results/result.ts'
import {
  carryServerErrors,
  dropServerErrors,
  outcomeOf,
  problemOfResult,
  problemOfServerErrors,
  readRunHead,
} from './task-meta.ts'
import type { RunnerTask } from 'vitest'
import { sampleServerErrors } from '../report/testing.ts'
import type { ServerErrorList } from '../results/server-errors.ts'

const NAME = 'GET /V1/directory/countries › route'
const RESULT: Result = {
  id: NAME,
  module: 'directory',
  endpoint: { method: 'GET', path: '/V1/directory/countries' },
  check: 'route',
  status: 'failed',
  message: 'no such route',
  durationMs: 3,
  spec: ['2.1'],
  exchanges: [],
}

/** A finished test as the reporter sees it: its name, module, meta and vitest's state of it. */
function finished(
  meta: Record<string, unknown>,
  state: { state: string; errors?: { message: string }[] } = { state: 'failed' },
): TestCase {
  return {
    name: NAME,
    module: { moduleId: '/x/suites/directory.conformance.ts' },
    meta: () => meta,
    result: () => state,
  } as unknown as TestCase
}

describe("a finished test's outcome", () => {
  it('is the result it carried, with its notes', () => {
    expect(outcomeOf(finished({ shopResult: RESULT, shopNotes: ['renewed the admin token'] }), false)).toEqual({
      result: RESULT,
      notes: ['renewed the admin token'],
    })
  })

  it('is an error of the run and of the suite when the result it carried is not one this version makes', () => {
    const o = outcomeOf(finished({ shopResult: { ...RESULT, status: 'ok' } }), false)
    expect(o.runError).toBe(
      `${NAME}: the result it carried cannot be read (its status "ok" is none of passed, failed, skipped, error)`,
    )
    expect(o.result).toMatchObject({ id: NAME, module: 'directory', check: 'route', status: 'error' })
    expect(o.result!.message).toMatch(
      /^error of the suite \(a bug of the suite, not a finding about the shop\): .*its status "ok"/,
    )
  })

  it('is an error when its notes are not lines of text, whatever its result', () => {
    expect(outcomeOf(finished({ shopResult: RESULT, shopNotes: 'renewed' }), false)).toMatchObject({
      runError: `${NAME}: the notes it carried are not lines of text`,
      result: { status: 'error' },
    })
  })

  it('is an error of the suite when the test ended without a result, and nothing when it was filtered out or stopped', () => {
    expect(
      outcomeOf(finished({}, { state: 'failed', errors: [{ message: 'TypeError: x is undefined' }] }), false).result,
    ).toMatchObject({
      status: 'error',
      message:
        'error of the suite (a bug of the suite, not a finding about the shop): the check ended without a verdict: TypeError: x is undefined',
    })
    expect(outcomeOf(finished({}, { state: 'skipped' }), false)).toEqual({ notes: [] })
    expect(outcomeOf(finished({}, { state: 'failed' }), true)).toEqual({ notes: [] })
  })
})

describe('the server errors a test carried from the worker', () => {
  const list: ServerErrorList = { entries: sampleServerErrors().entries, unlisted: { 500: 2 } }

  it('ride on the test that finished next, with a result or without one (a stopped run keeps them); nothing when none', () => {
    const task = { meta: {} } as RunnerTask
    carryServerErrors(task, { entries: [], unlisted: {} })
    expect(task.meta).toEqual({})
    carryServerErrors(task, list)
    expect(outcomeOf(finished({ ...task.meta, shopResult: RESULT }), false)).toEqual({
      result: RESULT,
      notes: [],
      serverErrors: list,
    })
    expect(outcomeOf(finished({ ...task.meta }, { state: 'skipped' }), true)).toEqual({ notes: [], serverErrors: list })
    // Through a blob on disk, as --merge-reports reads it.
    expect(
      outcomeOf(
        finished(JSON.parse(JSON.stringify({ ...task.meta, shopResult: RESULT })) as Record<string, unknown>),
        false,
      ).serverErrors,
    ).toEqual(list)
    // Once the run has them, the test keeps them no longer (its meta lives to the end of vitest's run).
    const test = finished({ ...task.meta, shopResult: RESULT })
    dropServerErrors(test)
    expect(test.meta()).toEqual({ shopResult: RESULT })
  })

  it('are dropped when not a list this version makes, an error of the run; the result stands', () => {
    const o = outcomeOf(
      finished({
        shopResult: RESULT,
        shopServerErrors: { entries: [{ ...list.entries[0], caller: 'Bearer abc' }], unlisted: {} },
      }),
      false,
    )
    expect(o).toEqual({
      result: RESULT,
      notes: [],
      runError: `${NAME}: the server errors it carried cannot be read (an entry's caller "Bearer abc" is none of none, malformed, customer, other customer, limited admin, admin)`,
    })
    expect(problemOfServerErrors([])).toBe('not an object with a list of entries')
    expect(problemOfServerErrors({ entries: [], unlisted: { 500: '2' } })).toBe('its unlisted answers are not counts')
    expect(problemOfServerErrors({ entries: [{ ...list.entries[0], count: undefined }], unlisted: {} })).toBe(
      'an entry has no status, count or steps',
    )
    expect(problemOfServerErrors({ entries: [{ ...list.entries[0], path: 7 }], unlisted: {} })).toBe(
      'an entry has no path',
    )
  })
})

describe('a result, checked', () => {
  it('passes as this version makes it, extension results included', () => {
    expect(problemOfResult(RESULT, NAME)).toBeUndefined()
    expect(
      problemOfResult(
        {
          ...RESULT,
          status: 'skipped',
          reason: 'read-only',
          applicable: false,
          origin: 'vendor',
          extension: true,
          rules: [{}],
          details: {},
          warnings: ['w'],
        },
        NAME,
      ),
    ).toBeUndefined()
  })

  it.each([
    ['not an object', null],
    ['no message', { ...RESULT, message: 3 }],
    ['its id "GET /V1/other › route" is not the test\'s', { ...RESULT, id: 'GET /V1/other › route' }],
    ['its endpoint is not a method and a path', { ...RESULT, endpoint: 'GET /V1/directory/countries' }],
    ['its duration is not a number', { ...RESULT, durationMs: Number.NaN }],
    ['its spec sections are not a list of text', { ...RESULT, spec: [2.1] }],
    ['its exchanges are not a list of exchanges', { ...RESULT, exchanges: undefined }],
    ['its reason "toString" is not one of the reasons a rule is not judged', { ...RESULT, reason: 'toString' }],
    [
      "its origin is neither absent nor an extension's or a vendor's, with `extension: true`",
      { ...RESULT, origin: 'spec' },
    ],
    [
      "its origin is neither absent nor an extension's or a vendor's, with `extension: true`",
      { ...RESULT, extension: true },
    ],
  ])('refuses one with %s', (problem, value) => {
    expect(problemOfResult(value, NAME)).toBe(problem)
  })
})

describe('the run a test module carries', () => {
  const module = (shopRun: unknown) => ({ meta: () => ({ shopRun }) }) as unknown as TestModule
  const head = {
    run: { id: 'r1', modules: [], checks: [], pathAliases: [] },
    plan: { modules: ['directory'] },
    spec: { version: '2.4.9' },
    target: { baseUrl: 'http://x' },
    runErrors: [],
  }

  it('is none on a module without one, the head when it is whole, and a problem when it is not', () => {
    expect(readRunHead(module(undefined))).toEqual({})
    expect(readRunHead(module(head))).toEqual({ head })
    expect(readRunHead(module({ ...head, plan: {} }))).toEqual({ problem: 'no plan block with its modules' })
    expect(readRunHead(module({ ...head, run: { ...head.run, pathAliases: ['/V1/a=/V1/b'] } }))).toEqual({
      problem: 'its path aliases are not a list of aliases',
    })
  })
})
