import { describe, expect, it } from 'vitest'
import { defined } from './defined.ts'

describe('defined', () => {
  it('hands the value on, and names what is missing when it is not there', () => {
    expect(defined(0, 'the count')).toBe(0)
    expect(defined(null, 'a null kept as a value')).toBeNull()
    expect(() => defined(undefined, 'the row of GET /V1/x')).toThrow(
      "the suite's own invariant broke: the row of GET /V1/x is missing",
    )
  })
})
