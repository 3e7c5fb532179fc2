/** Quoting answers, outcomes and items in the words of a verdict. */
import { clipJson } from '../../base/text.ts'
import { quoteText } from '../../shop/answer-text.ts'
import type { Outcome } from '../../shop/request.ts'
import type { PlannedItem } from './operations.ts'
import { isObject } from '../../base/is-object.ts'

/** A value in a batch verdict: longer than elsewhere, since items and answers are judged by their fields. */
export function json(value: unknown, max = 200): string {
  return clipJson(value, max)
}

/** `404 "No such entity…"` or `200 [...]`. */
export function quoteReply(answer: { status: number; body: unknown }): string {
  const body = answer.body
  if (isObject(body) && typeof body.message === 'string') return `${answer.status} ${quoteText(body.message, 160)}`
  if (body === undefined || body === '') return `${answer.status} (empty body)`
  return `${answer.status} ${json(body, 160)}`
}

export function quoteOutcome(o: Outcome): string {
  return o.answer !== undefined ? quoteReply(o.answer) : `no answer (${o.failure?.message ?? 'transport failure'})`
}

export const itemName = (it: PlannedItem): string =>
  `item ${it.index}${it.kind !== undefined ? ` (${it.kind})` : ''} ${json(it.fields)}`
