import { isDeepStrictEqual } from 'node:util'
import { provisionerOf, SetupError } from '../setup/provision.ts'
import type { EndpointRow, ParamSpec } from '../spec/types.ts'
import { scenarioOf, type Scenario } from '../setup/families/index.ts'
import type { Exchange } from '../results/exchange.ts'
import type { Answer } from '../shop/request.ts'
import type { Session } from '../shop/session.ts'
import { clipJson } from '../base/text.ts'
import { describeOutcome, unanswered } from '../shop/answer-text.ts'
import { expectationFor, failuresText, judgeShape } from './judge-shape.ts'
import { sendPrepared, validCall, type SentCall } from './scenario-call.ts'
import type { NotJudgedReason, Status, Verdict } from '../results/verdict.ts'
import type { Check } from './types.ts'
import { BODY_KEYS_RULES } from '../spec/rules.ts'
import { endpointText } from '../spec/endpoint-id.ts'

/** One rule of the check, judged. */
export interface Part {
  status: Status
  text: string
  /** False for a rule that does not apply here (a key the caller's token supplies): neither judged nor missing. */
  applies?: false
  /** Why a skipped rule that applies was not judged. */
  reason?: NotJudgedReason
}

/**
 * The documented top-level body keys are accepted and give the documented return type; a required key that is
 * missing or under another name is refused with a 4xx (naming the key where the answer names a field) and
 * changes nothing. Whether a path parameter wins over a contradicting body value is shown, as a warning.
 */
export async function bodyKeys(row: EndpointRow, session: Session): Promise<Verdict> {
  const scenario = scenarioOf(row)
  if (scenario === undefined) throw new Error(`no scenario for ${endpointText(row)}`)
  const fx = provisionerOf(session)
  const parts: Part[] = []
  const exchanges: Exchange[] = []
  const warnings: string[] = []
  const keep = (sent: SentCall) => exchanges.push(sent.outcome.exchange)

  try {
    const valid = await validCall(session, row)
    keep(valid)
    parts.push(await judgeDocumentedCall(row, session, valid, warnings, keep))
  } catch (err) {
    if (!(err instanceof SetupError)) throw err
    return notJudged(err, exchanges)
  }

  for (const key of requiredParams(row).map((p) => p.name)) {
    const why = scenario.tokenSupplied?.[key]
    if (why !== undefined) {
      parts.push({ status: 'skipped', text: `missing "${key}" not judged: ${why}`, applies: false })
      continue
    }
    try {
      const prepared = await scenario.prepare(fx, `${endpointText(row)} without ${key}`)
      const before = await prepared.observe?.()
      const { [key]: _omitted, ...withoutKey } = prepared.body ?? {}
      for (const [variant, body] of [
        [`missing "${key}"`, withoutKey],
        [`"${key}" under another name ("${key}Renamed")`, { ...withoutKey, [`${key}Renamed`]: prepared.body?.[key] }],
      ] as const) {
        const sent = await sendPrepared(session, row, prepared, body)
        keep(sent)
        const refusal = judgeRefusal(sent, key)
        if (refusal.warning !== undefined) warnings.push(`${variant}: ${refusal.warning}`)
        let part: Part = { status: refusal.status, text: `${variant} ${refusal.text}`, ...(refusal.reason !== undefined ? { reason: refusal.reason } : {}) }
        if (prepared.observe !== undefined) {
          const after = await prepared.observe()
          if (!isDeepStrictEqual(before, after)) {
            part = { status: 'failed', text: `${part.text}, and it changed the target's state (before ${clipJson(before)}, after ${clipJson(after)})` }
          }
        }
        parts.push(part)
      }
    } catch (err) {
      if (!(err instanceof SetupError)) throw err
      parts.push({ status: 'skipped', text: `missing "${key}" not judged: ${err.message}`, reason: err.reason })
      exchanges.push(...err.exchanges)
    }
  }

  if (scenario.pathConflict !== undefined && parts[0]?.status !== 'skipped') parts.push(await pathWins(row, session, scenario, warnings, keep))

  return { ...combine(parts, exchanges, warnings), rules: [BODY_KEYS_RULES.documented(row), ...requiredParams(row).map((p) => BODY_KEYS_RULES.required(p))] }
}

/**
 * That a path parameter wins over a body value of the same meaning is how the platform behaves (platform
 * conventions, Request bodies), not what the spec says: a body that contradicts the path may be refused or
 * either value taken. So it is shown, and a target that lets the body win gets a warning, never a failure.
 */
async function pathWins(row: EndpointRow, session: Session, scenario: Scenario, warnings: string[], keep: (s: SentCall) => void): Promise<Part> {
  const fx = provisionerOf(session)
  const note = (text: string): Part => ({ status: 'skipped', text, applies: false })
  try {
    const conflict = await scenario.pathConflict!(fx, `${endpointText(row)} path wins`)
    const sent = await sendPrepared(session, row, conflict.call)
    keep(sent)
    const answer = sent.outcome.answer
    const what = `the path parameter :${conflict.pathParam} against a contradicting body ${conflict.bodyKey}`
    if (answer === undefined || answer.status < 200 || answer.status >= 300) return note(`${what}: the call was not accepted (${quote(sent)}), which the spec allows`)
    const honoured = await conflict.honoured(answer)
    if (honoured === true) return note(`path parameter :${conflict.pathParam} honoured over body ${conflict.bodyKey}`)
    if (typeof honoured !== 'string') {
      // Another rule broke on the way (a refund that booked no credit memo): its own check or workflow judges it; here it is named, not blamed on the path.
      warnings.push(`${honoured.rule} (seen on the call with a contradicting body ${conflict.bodyKey}): ${honoured.text}`)
      return note(`${what}: ${honoured.rule} (a warning, see warnings)`)
    }
    warnings.push(`path parameter :${conflict.pathParam} not honoured over body ${conflict.bodyKey}: ${honoured} (the platform lets the path win; the spec does not say which wins)`)
    return note(`path parameter :${conflict.pathParam} not honoured over body ${conflict.bodyKey} (a warning, see warnings)`)
  } catch (err) {
    if (!(err instanceof SetupError)) throw err
    return note(`path parameter against a contradicting body not shown: ${err.message}`)
  }
}

function requiredParams(row: EndpointRow): ParamSpec[] {
  return (row.params ?? []).filter((p) => p.in === 'body' && p.required === true)
}

async function judgeDocumentedCall(row: EndpointRow, session: Session, valid: SentCall, warnings: string[], keep: (s: SentCall) => void): Promise<Part> {
  const keys = Object.keys(valid.body ?? {}).join(', ')
  const answer = valid.outcome.answer
  if (answer === undefined) {
    const why = unanswered(valid.outcome)
    return { status: 'skipped', text: `documented keys (${keys}) not judged: no answer (${why.text})`, reason: why.reason }
  }
  if (answer.status >= 200 && answer.status < 300) {
    // Only whether the return type is right matters here; the shape check reports its warnings.
    const shape = judgeShape(answer.body, expectationFor(row))
    if (shape.status === 'failed') return { status: 'failed', text: `documented keys (${keys}) accepted, but the answer is not ${row.returns}: ${failuresText(shape.failures)}` }
    return { status: 'passed', text: `documented keys (${keys}) accepted (${answer.status})` }
  }
  const scenario = scenarioOf(row)!
  if (scenario.mayRefuseForBusinessReasons === true) {
    // Refused with every documented key: the keys, or a rule of the target's own? The same call with no
    // body at all, on fresh data, tells: refused too means the reason is not the keys.
    const fresh = await scenario.prepare(provisionerOf(session), `${endpointText(row)} empty body`)
    const bare = await sendPrepared(session, row, fresh, {})
    keep(bare)
    if (bare.outcome.answer !== undefined && (bare.outcome.answer.status < 200 || bare.outcome.answer.status >= 300)) {
      return { status: 'skipped', text: `not judged: the target refused the call for a reason of its own, with or without the documented keys (${quote(valid)}; empty body: ${quote(bare)})`, reason: 'target-refused' }
    }
    return { status: 'failed', text: `documented keys (${keys}) refused (${quote(valid)}) while the same call without a body was accepted` }
  }
  return { status: 'failed', text: `documented keys (${keys}) refused: ${quote(valid)}` }
}

/**
 * A call without a required key must not be accepted ("required"). How it is refused the spec does not show
 * (Errors 4 and 5: statuses and error bodies "not shown"): a 4xx is the platform's way, a 5xx or an error naming
 * another field is worth a warning, not a failure. No answer at all tells nothing.
 */
export function judgeRefusal(sent: SentCall, key: string): { status: Status; text: string; warning?: string; reason?: NotJudgedReason } {
  const answer = sent.outcome.answer
  if (answer === undefined) return { status: 'skipped', text: `not judged: got no answer (${unanswered(sent.outcome).text})`, reason: unanswered(sent.outcome).reason }
  if (answer.status >= 200 && answer.status < 300) return { status: 'failed', text: `was accepted (${quote(sent)})` }
  if (answer.status >= 500 || answer.status < 400) return { status: 'passed', text: `not accepted (${quote(sent)})`, warning: `answered ${quote(sent)} rather than refusing the input with a 4xx, as the platform does` }
  const named = fieldsNamed(answer)
  if (named.length === 0) return { status: 'passed', text: `refused (${quote(sent)})`, warning: 'the refusal does not name the missing key' }
  if (named.some((f) => sameKey(f, key))) return { status: 'passed', text: `refused, naming it (${quote(sent)})` }
  return { status: 'passed', text: `refused (${quote(sent)})`, warning: `the refusal names another field (${named.join(', ')}), not "${key}"` }
}

/** Field names an error answer gives (platform conventions, Errors: `parameters.fieldName`, `errors[]`, `"%fieldName" is required`). */
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
      for (const m of message.matchAll(/"([A-Za-z_][\w.]*)" is required/g)) out.push(m[1]!)
    }
  }
  visit(answer.body)
  const errors = (answer.body as { errors?: unknown } | null)?.errors
  if (Array.isArray(errors)) errors.forEach(visit)
  return [...new Set(out)]
}

/** `useForShipping`, `use_for_shipping` and `UseForShipping` name the same parameter (conventions: snake_case is accepted). */
function sameKey(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/_/g, '').toLowerCase()
  return norm(a) === norm(b)
}

/** The check's verdict from its rules' judgements. */
export function combine(parts: Part[], exchanges: Exchange[], warnings: string[]): Verdict {
  const failed = parts.filter((p) => p.status === 'failed')
  // A rule that applies but could not be judged keeps the whole check from passing: never "passed" on less.
  const unjudged = parts.filter((p) => p.status === 'skipped' && p.applies !== false)
  const status: Status = failed.length > 0 ? 'failed' : unjudged.length > 0 ? 'skipped' : 'passed'
  const lead = status === 'failed' ? failed : status === 'skipped' ? unjudged : parts
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

function notJudged(err: SetupError, exchanges: Exchange[]): Verdict {
  return { status: 'skipped', message: `not judged: ${err.message}`, exchanges: [...exchanges, ...err.exchanges], reason: err.reason }
}

function quote(sent: SentCall): string {
  return describeOutcome(sent.outcome)
}

export const bodyKeysCheck: Check = {
  name: 'body-keys',
  description: 'Documented body keys are accepted; a missing or renamed required key is refused and changes nothing; path parameters win.',
  spec: ['Endpoints › Endpoints with detailed shape', 'Endpoints (notation: top-level body keys are the contract method\'s parameters)'],
  rules: [BODY_KEYS_RULES.keys],
  appliesTo: (row) => ((row.params ?? []).some((p) => p.in === 'body') ? true : 'not shown: the spec gives no request body for this endpoint'),
  run: bodyKeys,
}
