import { clip, clipJson } from '../base/text.ts'
import type { Answer, Outcome } from './request.ts'
import type { UnansweredReason } from '../results/verdict.ts'

/**
 * An error answer's message with its placeholders filled in (platform conventions, Errors: `%fieldName` from
 * `parameters.fieldName`, `%1` from `parameters[0]`), or undefined when the body carries no message.
 */
export function messageText(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined
  const { message, parameters } = body as { message?: unknown; parameters?: unknown }
  if (typeof message !== 'string') return undefined
  if (Array.isArray(parameters))
    return message.replace(/%(\d+)/g, (m, i: string) =>
      parameters[Number(i) - 1] !== undefined ? parameterText(parameters[Number(i) - 1]) : m,
    )
  if (parameters !== null && typeof parameters === 'object') {
    return message.replace(/%([A-Za-z_]\w*)/g, (m, name: string) => {
      const v = (parameters as Record<string, unknown>)[name]
      return v === undefined ? m : parameterText(v)
    })
  }
  return message
}

/** A parameter as the message shows it: a scalar as itself, an object or a list as its JSON (not `[object Object]`). */
function parameterText(value: unknown): string {
  return value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/**
 * A target's own text as messages quote it, cut short: in straight quotes, or in curly ones when it has
 * straight quotes of its own — the platform's `"Email" uses too many characters.` would read as
 * `""Email" uses too many characters."`, quoted twice over.
 */
export function quoteText(text: string, max = 120): string {
  const t = clip(text, max)
  return t.includes('"') ? `“${t}”` : `"${t}"`
}

/** `404 "No such entity with id = 5"`, `200 [1,2]`, `500 (empty body)`: an answer as messages quote it. */
export function describeAnswer(answer: Pick<Answer, 'status' | 'body' | 'text'>): string {
  const message = messageText(answer.body)
  if (message !== undefined) return `${answer.status} ${quoteText(message)}`
  if (answer.text.trim() === '') return `${answer.status} (empty body)`
  return `${answer.status} ${clipJson(answer.body)}`
}

/** An outcome as messages quote it: the answer, or what happened instead. */
export function describeOutcome(outcome: Pick<Outcome, 'answer' | 'failure'>): string {
  return outcome.answer !== undefined ? describeAnswer(outcome.answer) : (outcome.failure?.message ?? 'no answer')
}

/**
 * Why a judged call has no answer, as a not-judged reason and in words: a call that timed out, a target that went
 * away, a connection that failed or was cut — none of it is an answer that could fail the shop. A slow shop is not
 * a failing shop: the words name the setting that gives it more time.
 */

export function unanswered(outcome: Pick<Outcome, 'failure'>): { reason: UnansweredReason; text: string } {
  const failure = outcome.failure
  const message = failure?.message ?? 'no answer'
  if (failure?.kind === 'deadlock') return { reason: 'deadlock', text: message }
  if (failure?.kind === 'timeout')
    return {
      reason: 'timeout',
      text: `${message}: a slow answer is not judged as a failing one (--timeout-ms / SHOP_TIMEOUT_MS gives every call more time, --max-timeout-ms / SHOP_MAX_TIMEOUT_MS lets a kind's deadline grow further)`,
    }
  if (failure?.kind === 'target-gone') return { reason: 'target-gone', text: message }
  return { reason: 'no-answer', text: message }
}
