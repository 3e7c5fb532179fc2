import { isDeepStrictEqual } from 'node:util'
import { provisionerOf, SetupError } from '../../fixtures/provision.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Answer, Exchange } from '../target/client.ts'
import type { Session } from '../target/session.ts'
import { clipJson, describeOutcome } from '../target/answer-text.ts'
import { expectationFor, judgeShape } from './judge-shape.ts'
import { scenarioFor, sendPrepared, validCall, type SentCall } from './scenario-call.ts'
import type { Check, Status, Verdict } from './types.ts'

/** One rule of the check, judged. */
export interface Part {
  status: Status
  text: string
  /** False for a rule that does not apply here (a key the caller's token supplies): neither judged nor missing. */
  applies?: false
}

/**
 * The documented top-level body keys are accepted and give the documented return type; a required key that is
 * missing or under another name is refused with a 4xx (naming the key where the answer names a field) and
 * changes nothing; a path parameter wins over a contradicting body value.
 */
export async function bodyKeys(row: EndpointRow, session: Session): Promise<Verdict> {
  const scenario = scenarioFor(row)
  if (scenario === undefined) throw new Error(`no scenario for ${row.method} ${row.path}`)
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

  const required = (row.params ?? []).filter((p) => p.in === 'body' && p.required === true).map((p) => p.name)
  for (const key of required) {
    const why = scenario.tokenSupplied?.[key]
    if (why !== undefined) {
      parts.push({ status: 'skipped', text: `missing "${key}" not judged: ${why}`, applies: false })
      continue
    }
    try {
      const prepared = await scenario.prepare(fx, `${row.method} ${row.path} without ${key}`)
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
        let part: Part = { status: refusal.ok ? 'passed' : 'failed', text: `${variant} ${refusal.text}` }
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
      parts.push({ status: 'skipped', text: `missing "${key}" not judged: ${err.message}` })
      exchanges.push(...err.exchanges)
    }
  }

  const refusedForItsOwnReasons = parts[0]?.status === 'skipped'
  if (scenario.pathConflict !== undefined && refusedForItsOwnReasons) {
    parts.push({ status: 'skipped', text: 'path parameter rule not judged: the target refuses this call for a reason of its own (above)' })
  } else if (scenario.pathConflict !== undefined) {
    try {
      const conflict = await scenario.pathConflict(fx, `${row.method} ${row.path} path wins`)
      const sent = await sendPrepared(session, row, conflict.call)
      keep(sent)
      const answer = sent.outcome.answer
      if (answer === undefined || answer.status < 200 || answer.status >= 300) {
        parts.push({ status: 'failed', text: `the call with a contradicting body ${conflict.bodyKey} was not accepted (${quote(sent)})` })
      } else {
        const honoured = await conflict.honoured(answer)
        parts.push(
          honoured === true
            ? { status: 'passed', text: `path parameter :${conflict.pathParam} honoured over body ${conflict.bodyKey}` }
            : { status: 'failed', text: `path parameter :${conflict.pathParam} not honoured over body ${conflict.bodyKey}: ${honoured}` },
        )
      }
    } catch (err) {
      if (!(err instanceof SetupError)) throw err
      parts.push({ status: 'skipped', text: `path parameter rule not judged: ${err.message}` })
    }
  }

  return combine(parts, exchanges, warnings)
}

async function judgeDocumentedCall(row: EndpointRow, session: Session, valid: SentCall, warnings: string[], keep: (s: SentCall) => void): Promise<Part> {
  const keys = Object.keys(valid.body ?? {}).join(', ')
  const answer = valid.outcome.answer
  if (answer === undefined) return { status: 'failed', text: `documented keys (${keys}): no answer (${quote(valid)})` }
  if (answer.status >= 200 && answer.status < 300) {
    // Only whether the return type is right matters here; the shape check reports its warnings.
    const shape = judgeShape(answer.body, expectationFor(row))
    if (shape.status === 'failed') return { status: 'failed', text: `documented keys (${keys}) accepted, but the answer is not ${row.returns}: ${shape.failures.join('; ')}` }
    return { status: 'passed', text: `documented keys (${keys}) accepted (${answer.status})` }
  }
  const scenario = scenarioFor(row)!
  if (scenario.mayRefuseForBusinessReasons === true) {
    // Refused with every documented key: the keys, or a rule of the target's own? The same call with no
    // body at all, on fresh data, tells: refused too means the reason is not the keys.
    const fresh = await scenario.prepare(provisionerOf(session), `${row.method} ${row.path} empty body`)
    const bare = await sendPrepared(session, row, fresh, {})
    keep(bare)
    if (bare.outcome.answer !== undefined && (bare.outcome.answer.status < 200 || bare.outcome.answer.status >= 300)) {
      return { status: 'skipped', text: `not judged: the target refused the call for a reason of its own, with or without the documented keys (${quote(valid)}; empty body: ${quote(bare)})` }
    }
    return { status: 'failed', text: `documented keys (${keys}) refused (${quote(valid)}) while the same call without a body was accepted` }
  }
  return { status: 'failed', text: `documented keys (${keys}) refused: ${quote(valid)}` }
}

/** A missing required key must be refused as bad input; where the answer names a field, it must name this key. */
function judgeRefusal(sent: SentCall, key: string): { ok: boolean; text: string; warning?: string } {
  const answer = sent.outcome.answer
  if (answer === undefined) return { ok: false, text: `got no answer (${quote(sent)})` }
  if (answer.status >= 200 && answer.status < 300) return { ok: false, text: `was accepted (${quote(sent)})` }
  if (answer.status >= 500) return { ok: false, text: `answered ${quote(sent)}: bad input must be refused with a 4xx` }
  if (answer.status < 400) return { ok: false, text: `answered ${quote(sent)}, not a 4xx refusal` }
  const named = fieldsNamed(answer)
  if (named.length === 0) return { ok: true, text: `refused (${quote(sent)})`, warning: 'the refusal does not name the missing key' }
  if (named.some((f) => sameKey(f, key))) return { ok: true, text: `refused, naming it (${quote(sent)})` }
  return { ok: false, text: `refused, but for another field (${named.join(', ')}): ${quote(sent)}` }
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
  }
}

function notJudged(err: SetupError, exchanges: Exchange[]): Verdict {
  return { status: 'skipped', message: `not judged: ${err.message}`, exchanges: [...exchanges, ...err.exchanges] }
}

function quote(sent: SentCall): string {
  return describeOutcome(sent.outcome)
}

export const bodyKeysCheck: Check = {
  name: 'body-keys',
  description: 'Documented body keys are accepted; a missing or renamed required key is refused and changes nothing; path parameters win.',
  spec: ['Endpoints › Endpoints with detailed shape', 'Endpoints (notation: top-level body keys are the contract method\'s parameters)'],
  appliesTo: (row) => ((row.params ?? []).some((p) => p.in === 'body') ? true : 'not shown: the spec gives no request body for this endpoint'),
  run: bodyKeys,
}
