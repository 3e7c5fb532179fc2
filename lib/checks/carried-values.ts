/**
 * What a saved or read resource must carry beyond its shape: the id of the entity the run asked for, the values
 * a save set. Pure.
 */
import { describeValue } from './judge-shape.ts'
import { isObject } from '../base/is-object.ts'
import { scalarText } from '../base/text.ts'
import type { Rule } from '../spec/rules.ts'

const PLAIN_NUMBER = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/

function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined
  return typeof v === 'string' && PLAIN_NUMBER.test(v) ? Number(v) : undefined
}

function sameSetValue(sent: unknown, seen: unknown): boolean {
  if (sent === null || sent === undefined || isObject(sent)) return true
  if (Array.isArray(sent))
    return Array.isArray(seen) && seen.length === sent.length && sent.every((v, i) => sameSetValue(v, seen[i]))
  const [a, b] = [asNumber(sent), asNumber(seen)]
  if (a !== undefined && b !== undefined) return Math.abs(a - b) < 1e-6
  if (typeof sent === 'boolean' || typeof seen === 'boolean') return sent === seen
  return typeof seen === 'string' || typeof seen === 'number' ? scalarText(sent).trim() === String(seen).trim() : false
}

/**
 * How an answer fails to carry the values a call set or asked for (empty: it carries them all), compared as
 * the platform normalises them: numbers as numbers or digit strings, lists element by element, text as sent.
 * Values the call left unset (null) and nested objects are not compared.
 */
export function missingValues(answer: unknown, expected: Readonly<Record<string, unknown>>): string[] {
  if (!isObject(answer)) return [`the answer is ${describeValue(answer)}, not an object`]
  const out: string[] = []
  for (const [k, sent] of Object.entries(expected)) {
    if (sameSetValue(sent, answer[k])) continue
    out.push(
      answer[k] === undefined || answer[k] === null
        ? `no ${k} (expected ${describeValue(sent)})`
        : `${k} ${describeValue(answer[k])} where ${describeValue(sent)} was expected`,
    )
  }
  return out
}

/**
 * What an answer must carry beside its shape, judged: undefined when it carries it all, else the one sentence every
 * verdict of the rule says (the shape check's on a scenario's call, a workflow step's on its own).
 */
export function judgeCarried(
  what: string,
  answer: unknown,
  carries: { values: Readonly<Record<string, unknown>>; rule: Rule },
): string | undefined {
  const missing = missingValues(answer, carries.values)
  return missing.length === 0
    ? undefined
    : `${what} does not carry what it must (${carries.rule.text}): ${missing.join('; ')}`
}
