import { describe, expect, it } from 'vitest'
import { schemaFacts } from './block.ts'
import { compareWithSpec } from './compare.ts'
import { extensionOperations } from './extensions.ts'
import { handmadeSchema } from './testing.ts'

describe('schemaFacts', () => {
  it('off and not published: one line, no finding, no extension operation', () => {
    expect(schemaFacts({ status: 'off' }).block.text).toBe("The shop's schema was not read (--target-schema off).")
    const unpublished = schemaFacts({
      status: 'unpublished',
      source: 'GET x under each caller',
      reason: 'with no token, answered 404 "no route"',
    })
    expect(unpublished).toEqual({
      block: expect.objectContaining({
        status: 'unpublished',
        published: false,
        findings: [],
        text: 'The shop publishes no schema: with no token, answered 404 "no route".',
      }),
      operations: [],
    })
  })

  it("read: the comparison's findings and the extension operations, with the views read", () => {
    const schema = handmadeSchema()
    const facts = schemaFacts({ status: 'read', source: 'the file x.json', schema, notes: ['a note'] })
    expect(facts.operations).toEqual(extensionOperations(schema))
    expect(facts.block).toMatchObject({
      status: 'read',
      published: true,
      callers: ['anon', 'customer', 'admin'],
      findings: compareWithSpec(schema).findings,
      extensionOperations: facts.operations.length,
    })
    expect(facts.block.notes[0]).toBe('a note')
    expect(facts.block.text).toMatch(
      /^The shop's schema \(the file x\.json\): .*Information only: never in the certification, never the exit status\.$/,
    )
  })
})
