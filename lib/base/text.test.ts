import { describe, expect, it } from 'vitest'
import { scalarText } from './text.ts'

describe('scalarText', () => {
  it('writes a scalar as String does, and an object or a list as its JSON', () => {
    expect([12, '12', true, null, undefined].map(scalarText)).toEqual(['12', '12', 'true', 'null', 'undefined'])
    expect(scalarText({ id: 1 })).toBe('{"id":1}')
    expect(scalarText([1, 'a'])).toBe('[1,"a"]')
  })
})
