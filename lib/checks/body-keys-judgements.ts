/**
 * What the body-keys check decides, without the network (batch-partial/judgements.ts is the model), so each is
 * proven on answers a test writes or a real instance recorded: the documented call's answer, a call without a
 * required key (or with it renamed), whether such a call changed anything, the path parameter against a
 * contradicting body, and the check's verdict from its rules' parts.
 */
import { isDeepStrictEqual } from 'node:util'
import type { EndpointRow, ParamSpec } from '../spec/types.ts'
import { BODY_KEYS_RULES, type Rule } from '../spec/rules.ts'
import type { Exchange } from '../results/exchange.ts'
import type { Answer, Outcome } from '../shop/request.ts'
import { clipJson } from '../base/text.ts'
import { describeOutcome, unanswered } from '../shop/answer-text.ts'
import { serverErrorOf } from '../shop/server-error.ts'
import { expectationFor, judgeShape } from './judge-shape.ts'
import { notOfShape } from './shape-words.ts'
import type { NotJudgedReason, Status, Verdict } from '../results/verdict.ts'

/** One rule of the check, judged. */
export interface Part {
  status: Status
  text: string
  /** False for a rule that does not apply here (a key the caller's token supplies): neither judged nor missing. */
  applies?: false
  /** Why a skipped rule that applies was not judged. */
  reason?: NotJudgedReason
}

export function requiredParams(row: EndpointRow): ParamSpec[] {
  return (row.params ?? []).filter((p) => p.in === 'body' && p.required === true)
}

/** The rules a row's verdict judges, in the detail table's words: the documented call, and each required key. */
export function bodyKeysRules(row: EndpointRow): Rule[] {
  return [BODY_KEYS_RULES.documented(row), ...requiredParams(row).map((p) => BODY_KEYS_RULES.required(p))]
}

/**
 * The documented call (`keys`, as sent): accepted with the documented return type (only the type matters here; the
 * shape check reports its warnings). `refused` when the target refused it: the run then tells a refusal of the keys
 * from one of the target's own reasons where the scenario says it may have some.
 */
export function judgeDocumentedAnswer(
  row: EndpointRow,
  keys: string,
  outcome: Pick<Outcome, 'answer' | 'failure'>,
): Part | 'refused' {
  const answer = outcome.answer
  if (answer === undefined) {
    const why = unanswered(outcome)
    return {
      status: 'skipped',
      text: `documented keys (${keys}) not judged: no answer (${why.text})`,
      reason: why.reason,
    }
  }
  // The detail table documents this call: a server error of the shop's application is its failure, whatever the same
  // call without a body gets (no business reason ends in a 5xx); a gateway's or an unavailable shop's is no answer.
  const error = serverErrorOf(answer)
  if (error !== undefined && (error.kind === 'gateway' || error.kind === 'unavailable')) {
    return {
      status: 'skipped',
      text: `documented keys (${keys}) not judged: ${error.text}, no answer of the shop's application`,
      reason: 'server-error',
    }
  }
  if (error !== undefined)
    return {
      status: 'failed',
      text: `documented keys (${keys}) answered ${error.text}, where the detail table documents the call`,
    }
  if (answer.status < 200 || answer.status >= 300) return 'refused'
  const shape = judgeShape(answer.body, expectationFor(row))
  if (shape.status === 'failed')
    return {
      status: 'failed',
      text: `documented keys (${keys}) accepted, but ${notOfShape('the answer', row.returns ?? expectationFor(row), shape.failures)}`,
    }
  return { status: 'passed', text: `documented keys (${keys}) accepted (${answer.status})` }
}

/**
 * The documented call refused: the keys' fault, unless the same call with no body at all (on fresh data, `bare`,
 * where the scenario says the target may refuse for reasons of its own) was refused too — then the reason is not
 * the keys, and the rule is not judged.
 */
export function judgeDocumentedRefusal(
  keys: string,
  valid: Pick<Outcome, 'answer' | 'failure'>,
  bare?: Pick<Outcome, 'answer' | 'failure'>,
): Part {
  if (bare === undefined)
    return { status: 'failed', text: `documented keys (${keys}) refused: ${describeOutcome(valid)}` }
  if (bare.answer !== undefined && (bare.answer.status < 200 || bare.answer.status >= 300)) {
    return {
      status: 'skipped',
      text: `not judged: the target refused the call for a reason of its own, with or without the documented keys (${describeOutcome(valid)}; empty body: ${describeOutcome(bare)})`,
      reason: 'target-refused',
    }
  }
  return {
    status: 'failed',
    text: `documented keys (${keys}) refused (${describeOutcome(valid)}) while the same call without a body was accepted`,
  }
}

/**
 * A call without a required key must not be accepted ("required"). How it is refused the spec does not show
 * (Errors 4 and 5: statuses and error bodies "not shown"): a 4xx is the platform's way, a 5xx or an error naming
 * another field is worth a warning, not a failure. No answer at all tells nothing.
 */
export function judgeRefusal(
  outcome: Pick<Outcome, 'answer' | 'failure'>,
  key: string,
): { status: Status; text: string; warning?: string; reason?: NotJudgedReason } {
  const answer = outcome.answer
  const quoted = describeOutcome(outcome)
  if (answer === undefined)
    return {
      status: 'skipped',
      text: `not judged: got no answer (${unanswered(outcome).text})`,
      reason: unanswered(outcome).reason,
    }
  if (answer.status >= 200 && answer.status < 300) return { status: 'failed', text: `was accepted (${quoted})` }
  if (answer.status >= 500 || answer.status < 400)
    return {
      status: 'passed',
      text: `not accepted (${quoted})`,
      warning: `answered ${quoted} rather than refusing the input with a 4xx, as the platform does`,
    }
  const named = fieldsNamed(answer)
  if (named.length === 0)
    return { status: 'passed', text: `refused (${quoted})`, warning: 'the refusal does not name the missing key' }
  if (named.some((f) => sameKey(f, key))) return { status: 'passed', text: `refused, naming it (${quoted})` }
  return {
    status: 'passed',
    text: `refused (${quoted})`,
    warning: `the refusal names another field (${named.join(', ')}), not "${key}"`,
  }
}

/**
 * A refused call must change nothing: the state read before and after it (the scenario's `observe`) must be the same.
 */
export function judgeUnchanged(part: Part, before: unknown, after: unknown): Part {
  if (isDeepStrictEqual(before, after)) return part
  return {
    status: 'failed',
    text: `${part.text}, and it changed the target's state (before ${clipJson(before)}, after ${clipJson(after)})`,
  }
}

/**
 * That a path parameter wins over a body value of the same meaning is how the platform behaves (platform
 * conventions, Request bodies), not what the spec says: a body that contradicts the path may be refused or
 * either value taken. So it is shown, and a target that lets the body win gets a warning, never a failure.
 * `honoured`: the scenario's reading of an accepted call — true, what happened instead, or another rule that broke.
 */
export function judgePathWins(
  conflict: { pathParam: string; bodyKey: string },
  outcome: Pick<Outcome, 'answer' | 'failure'>,
  honoured?: true | string | { rule: string; text: string },
): { part: Part; warning?: string } {
  const note = (text: string): Part => ({ status: 'skipped', text, applies: false })
  const { pathParam, bodyKey } = conflict
  const what = `the path parameter :${pathParam} against a contradicting body ${bodyKey}`
  const answer = outcome.answer
  if (answer === undefined || answer.status < 200 || answer.status >= 300 || honoured === undefined)
    return { part: note(`${what}: the call was not accepted (${describeOutcome(outcome)}), which the spec allows`) }
  if (honoured === true) return { part: note(`path parameter :${pathParam} honoured over body ${bodyKey}`) }
  if (typeof honoured !== 'string') {
    // Another rule broke on the way (a refund that booked no credit memo): its own check or workflow judges it; here it
    // is named, not blamed on the path.
    return {
      part: note(`${what}: ${honoured.rule} (a warning, see warnings)`),
      warning: `${honoured.rule} (seen on the call with a contradicting body ${bodyKey}): ${honoured.text}`,
    }
  }
  return {
    part: note(`path parameter :${pathParam} not honoured over body ${bodyKey} (a warning, see warnings)`),
    warning: `path parameter :${pathParam} not honoured over body ${bodyKey}: ${honoured} (the platform lets the path win; the spec does not say which wins)`,
  }
}

/**
 * Field names an error answer gives (platform conventions, Errors: `parameters.fieldName`, `errors[]`, `"%fieldName" is
 * required`).
 */
function fieldsNamed(answer: Answer): string[] {
  const out: string[] = []
  const visit = (e: unknown) => {
    if (e === null || typeof e !== 'object') return
    const { message, parameters } = e as { message?: unknown; parameters?: unknown }
    if (parameters !== null && typeof parameters === 'object' && !Array.isArray(parameters)) {
      const field = (parameters as { fieldName?: unknown }).fieldName
      if (typeof field === 'string') out.push(field)
    }
    if (typeof message === 'string') {
      for (const [, field] of message.matchAll(/"([A-Za-z_][\w.]*)" is required/g))
        if (field !== undefined) out.push(field)
    }
  }
  visit(answer.body)
  const errors = (answer.body as { errors?: unknown } | null)?.errors
  if (Array.isArray(errors)) errors.forEach(visit)
  return [...new Set(out)]
}

/**
 * `useForShipping`, `use_for_shipping` and `UseForShipping` name the same parameter (conventions: snake_case is
 * accepted).
 */
function sameKey(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/_/g, '').toLowerCase()
  return norm(a) === norm(b)
}

/** The check's verdict from its rules' judgements. */
export function combine(parts: Part[], exchanges: Exchange[], warnings: string[]): Verdict {
  const failed = parts.filter((p) => p.status === 'failed')
  // A rule that applies but could not be judged keeps the whole check from passing: never "passed" on less.
  const unjudged = parts.filter((p) => p.status === 'skipped' && p.applies !== false)
  let status: Status = 'passed'
  let lead = parts
  if (failed.length > 0) {
    status = 'failed'
    lead = failed
  } else if (unjudged.length > 0) {
    status = 'skipped'
    lead = unjudged
  }
  const rest = parts.filter((p) => !lead.includes(p))
  return {
    status,
    message: [...lead, ...rest].map((p) => p.text).join('; '),
    exchanges,
    details: { rules: parts },
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(status === 'skipped' ? { reason: unjudged[0]?.reason ?? 'setup-failed' } : {}),
  }
}
