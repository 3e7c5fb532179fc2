import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeAnswer, quoteText } from './answer-text.ts'

const observed = (name: string) =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, '../../fixtures/observations/responses-2.4.7', `${name}.json`), 'utf8'),
  ) as { response: { status: number; body: unknown } }

describe("quoting a target's text", () => {
  it('quotes a text once, in curly quotes when it has straight ones of its own', () => {
    expect(quoteText('No such entity with id = 5')).toBe('"No such entity with id = 5"')
    expect(quoteText('"Email" uses too many characters.')).toBe('“"Email" uses too many characters.”')
    expect(quoteText('x'.repeat(200))).toBe(`"${'x'.repeat(120)}…"`)
  })

  it('never doubles the quotes of a real platform error', () => {
    const { status, body } = observed('customer-email-local-part-65').response
    const said = describeAnswer({ status, body, text: JSON.stringify(body) })
    expect(said).toBe('400 “"Email" uses too many characters.”')
    expect(said).not.toContain('""')
  })
})
