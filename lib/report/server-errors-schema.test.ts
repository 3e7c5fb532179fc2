/**
 * report.json's `serverErrors` against its JSON Schema (server-errors.schema.json, shipped beside the other formats'
 * schemas: lib/package/pack.test.ts): the block a run writes is valid, and a broken one is refused with what is
 * wrong. The run's own block is validated by the whole run of lib/cli/server-errors.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { sampleServerErrors, serverErrorsProblems } from './testing.ts'
import { serverErrorsBlock } from '../results/server-errors.ts'

describe("the JSON Schema of report.json's serverErrors", () => {
  it('holds for the block a run writes, with entries and without', () => {
    expect(serverErrorsProblems(sampleServerErrors())).toEqual([])
    expect(serverErrorsProblems(serverErrorsBlock({ entries: [], unlisted: {} }))).toEqual([])
    expect(serverErrorsProblems(serverErrorsBlock({ entries: [], unlisted: { 500: 4000 } }))).toEqual([])
  })

  it('refuses a broken one, saying where', () => {
    const sample = sampleServerErrors()
    const withBody = sample.entries.find((e) => e.body !== undefined)!
    const broken = (patch: Record<string, unknown>) =>
      serverErrorsProblems({ ...sample, entries: [{ ...withBody, ...patch }] })
    expect(broken({ caller: 'admin token abc123' })).toEqual([
      expect.stringMatching(/^\/entries\/0\/caller must be equal to one of the allowed values/),
    ])
    expect(broken({ status: 404 })).toEqual([expect.stringMatching(/^\/entries\/0\/status must be >= 500/)])
    expect(broken({ bodyChars: 20000 })).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/entries\/0 must NOT be valid/)]),
    )
    expect(broken({ token: 'abc' })).toEqual([
      expect.stringMatching(/^\/entries\/0 must NOT have additional properties/),
    ])
    expect(broken({ firstAt: 'yesterday' })).toEqual([
      expect.stringMatching(/^\/entries\/0\/firstAt must match format "date-time"/),
    ])
    expect(broken({ origin: 'spec', endpoint: undefined })).toEqual([
      expect.stringMatching(/^\/entries\/0 must have property endpoint when property origin is present/),
    ])
    const { text: _text, ...untold } = sample
    expect(serverErrorsProblems(untold)).toEqual([expect.stringMatching(/must have required property 'text'/)])
    expect(serverErrorsProblems({ ...sample, unlisted: { 404: 1 } })).not.toEqual([])
  })
})
