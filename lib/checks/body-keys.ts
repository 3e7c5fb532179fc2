import { provisionerOf, SetupError } from '../setup/provision.ts'
import type { EndpointRow } from '../spec/types.ts'
import { scenarioOf, type Scenario } from '../setup/families/index.ts'
import { defined } from '../base/defined.ts'
import type { Exchange } from '../results/exchange.ts'
import type { Session } from '../shop/session.ts'
import { sendPrepared, validCall, type SentCall } from './scenario-call.ts'
import type { Verdict } from '../results/verdict.ts'
import type { Check } from './types.ts'
import { BODY_KEYS_RULES } from '../spec/rules.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import { tagEvidence } from '../shop/request-channel.ts'
import type { Outcome } from '../shop/request.ts'
import {
  bodyKeysRules,
  combine,
  judgeDocumentedAnswer,
  judgeDocumentedRefusal,
  judgePathWins,
  judgeRefusal,
  judgeUnchanged,
  requiredParams,
  type Part,
} from './body-keys-judgements.ts'

/**
 * The documented top-level body keys are accepted and give the documented return type; a required key that is
 * missing or under another name is refused with a 4xx (naming the key where the answer names a field) and
 * changes nothing. Whether a path parameter wins over a contradicting body value is shown, as a warning. The run
 * makes the calls; body-keys-judgements.ts judges their answers.
 */
async function bodyKeys(row: EndpointRow, session: Session): Promise<Verdict> {
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
    parts.push(await documentedCall(row, session, scenario, valid, keep))
  } catch (err) {
    if (!(err instanceof SetupError)) throw err
    return {
      status: 'skipped',
      message: `not judged: ${err.message}`,
      exchanges: [...exchanges, ...err.exchanges],
      reason: err.reason,
    }
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
      const [missing, renamed] = variantsOf(key)
      for (const [variant, body] of [
        [missing, withoutKey],
        [renamed, { ...withoutKey, [`${key}Renamed`]: prepared.body?.[key] }],
      ] as const) {
        const sent = await sendPrepared(session, row, prepared, body, `${BODY_KEYS_PROBE}${variant}`)
        keep(sent)
        const observed = prepared.observe !== undefined ? { before, after: await prepared.observe() } : undefined
        // What was read before and after is told to the run's evidence: `judge --har` compares it as here.
        if (observed !== undefined) tagEvidence(sent.outcome.exchange, { _observed: observed })
        parts.push(judgeMissingKey(key, variant, sent.outcome, observed, warnings))
      }
    } catch (err) {
      if (!(err instanceof SetupError)) throw err
      parts.push({ status: 'skipped', text: `missing "${key}" not judged: ${err.message}`, reason: err.reason })
      exchanges.push(...err.exchanges)
    }
  }

  if (scenario.pathConflict !== undefined && parts[0]?.status !== 'skipped')
    parts.push(await pathWins(row, session, scenario, warnings, keep))

  return { ...combine(parts, exchanges, warnings), rules: bodyKeysRules(row) }
}

/** The path parameter against a contradicting body value (judgePathWins): shown, never failed. */
async function pathWins(
  row: EndpointRow,
  session: Session,
  scenario: Scenario,
  warnings: string[],
  keep: (s: SentCall) => void,
): Promise<Part> {
  try {
    const conflict = defined(
      await scenario.pathConflict?.(provisionerOf(session), `${endpointText(row)} path wins`),
      'the path conflict of a scenario that has one (asked only then)',
    )
    const sent = await sendPrepared(session, row, conflict.call, conflict.call.body, `${BODY_KEYS_PROBE}${PATH_WINS}`)
    keep(sent)
    const answer = sent.outcome.answer
    const accepted = answer !== undefined && answer.status >= 200 && answer.status < 300
    const honoured = accepted ? await conflict.honoured(answer) : undefined
    tagEvidence(sent.outcome.exchange, {
      _conflict: {
        bodyKey: conflict.bodyKey,
        pathParam: conflict.pathParam,
        ...(honoured !== undefined ? { honoured } : {}),
      },
    })
    const judged = judgePathWins(conflict, sent.outcome, honoured)
    if (judged.warning !== undefined) warnings.push(judged.warning)
    return judged.part
  } catch (err) {
    if (!(err instanceof SetupError)) throw err
    return {
      status: 'skipped',
      text: `path parameter against a contradicting body not shown: ${err.message}`,
      applies: false,
    }
  }
}

/**
 * The documented call judged; refused where the target may refuse for reasons of its own, the same call without a body
 * on fresh data tells.
 */
async function documentedCall(
  row: EndpointRow,
  session: Session,
  scenario: Scenario,
  valid: SentCall,
  keep: (s: SentCall) => void,
): Promise<Part> {
  const keys = Object.keys(valid.body ?? {}).join(', ')
  const judged = judgeDocumentedAnswer(row, keys, valid.outcome)
  if (judged !== 'refused') return judged
  if (scenario.mayRefuseForBusinessReasons !== true) return judgeDocumentedRefusal(keys, valid.outcome)
  const fresh = await scenario.prepare(provisionerOf(session), `${endpointText(row)} empty body`)
  const bare = await sendPrepared(session, row, fresh, {}, `${BODY_KEYS_PROBE}${EMPTY_BODY}`)
  keep(bare)
  return judgeDocumentedRefusal(keys, valid.outcome, bare.outcome)
}

/**
 * How the run's evidence tags the check's own calls (`_probe`): `body-keys: ` and what the call is (`judge --har` reads
 * them).
 */
export const BODY_KEYS_PROBE = 'body-keys: '
export const PATH_WINS = 'path wins'
export const EMPTY_BODY = 'empty body'

/** The two calls of a required key: without it, and with it under another name. */
export function variantsOf(key: string): [missing: string, renamed: string] {
  return [`missing "${key}"`, `"${key}" under another name ("${key}Renamed")`]
}

/** A call without a required key (or with it renamed), judged: refused, and the state it would change unchanged. */
export function judgeMissingKey(
  key: string,
  variant: string,
  outcome: Pick<Outcome, 'answer' | 'failure'>,
  observed: { before?: unknown; after?: unknown } | undefined,
  warnings: string[],
): Part {
  const refusal = judgeRefusal(outcome, key)
  if (refusal.warning !== undefined) warnings.push(`${variant}: ${refusal.warning}`)
  const part: Part = {
    status: refusal.status,
    text: `${variant} ${refusal.text}`,
    ...(refusal.reason !== undefined ? { reason: refusal.reason } : {}),
  }
  return observed !== undefined ? judgeUnchanged(part, observed.before, observed.after) : part
}

export const bodyKeysCheck: Check = {
  name: 'body-keys',
  description:
    'Documented body keys are accepted; a missing or renamed required key is refused and changes nothing; path parameters win.',
  spec: [
    'Endpoints › Endpoints with detailed shape',
    "Endpoints (notation: top-level body keys are the contract method's parameters)",
  ],
  rules: [BODY_KEYS_RULES.keys],
  appliesTo: (row) =>
    (row.params ?? []).some((p) => p.in === 'body')
      ? true
      : 'not shown: the spec gives no request body for this endpoint',
  run: bodyKeys,
}
