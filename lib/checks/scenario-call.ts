import { provisionerOf, refuseWriteInReadOnly } from '../setup/provision.ts'
import { scenarioOf, type PreparedCall } from '../setup/families/index.ts'
import { fillTemplate } from '../spec/paths.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Outcome, RecordedCarries } from '../shop/request.ts'
import { SHAPE_RULES, type Rule } from '../spec/rules.ts'
import type { Session } from '../shop/session.ts'
import { endpointText } from '../spec/endpoint-id.ts'

/** A scenario's call as sent, and what came back. */
export interface SentCall {
  prepared: PreparedCall
  /** The path sent (after aliases). */
  path: string
  body: Record<string, unknown> | undefined
  outcome: Outcome
}

/**
 * Sends a prepared call of the row's endpoint, with the documented body or `body` instead. `probe`: what the run's
 * evidence tags it as (the valid call's entry carries what its answer must carry too: `judge --har` reads both).
 */
export async function sendPrepared(
  session: Session,
  row: EndpointRow,
  prepared: PreparedCall,
  body = prepared.body,
  probe?: string,
): Promise<SentCall> {
  const fx = provisionerOf(session)
  const path = session.targetPath(
    fillTemplate(row.path, (name) => {
      const v = prepared.path[name]
      if (v === undefined) throw new Error(`scenario for ${endpointText(row)} gives no value for :${name}`)
      return v
    }),
  )
  refuseWriteInReadOnly(session, `call ${endpointText(row)}`, row.method, path)
  const token = fx.tokenOf(prepared.actor)
  const creates = scenarioOf(row)?.creates
  const key = creates?.keyOf !== undefined && body !== undefined ? creates.keyOf(body) : undefined
  const ticket =
    creates === undefined
      ? undefined
      : fx.ledger.request(
          {
            kind: creates.kind,
            label: `${creates.kind} made by ${endpointText(row)}`,
            ...(key !== undefined ? { key } : {}),
          },
          { queued: true },
        )
  const outcome = await session.send({
    ...(ticket !== undefined ? { onSent: () => ticket.sent() } : {}),
    method: row.method,
    path,
    store: session.seed.storeCode,
    ...(token !== undefined ? { token } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(prepared.query !== undefined ? { query: prepared.query } : {}),
    ...(probe !== undefined ? { probe } : {}),
    ...(probe !== undefined && prepared.carries !== undefined ? { carries: recordedCarries(prepared.carries) } : {}),
  })
  const answer = outcome.answer
  ticket?.settle(
    outcome,
    answer !== undefined && answer.status >= 200 && answer.status < 300 ? creates?.idOf(answer.body) : undefined,
  )
  return { prepared, path, body, outcome }
}

/**
 * The endpoint called once with real data and its documented keys; the body-keys and shape checks judge the
 * same call, so it is made once per run. Rejects with the SetupError when the data could not be made.
 */
export function validCall(session: Session, row: EndpointRow): Promise<SentCall> {
  return session.memo(`valid call ${endpointText(row)}`, async () => {
    const scenario = scenarioOf(row)
    if (scenario === undefined) throw new Error(`no scenario for ${endpointText(row)}`)
    const prepared = await scenario.prepare(provisionerOf(session), `${endpointText(row)} valid`)
    return sendPrepared(session, row, prepared, prepared.body, VALID_CALL)
  })
}

/** How the run's evidence tags the valid call (`_probe`), which the shape and body-keys checks judge. */
export const VALID_CALL = 'valid call'

/** A call's `carries` as the evidence records it: its rule by its name among SHAPE_RULES. */
function recordedCarries(carries: NonNullable<PreparedCall['carries']>): RecordedCarries {
  const rule = Object.entries(SHAPE_RULES).find(([, r]) => r === carries.rule)?.[0]
  if (rule === undefined)
    throw new Error(`a valid call carries values by a rule not among SHAPE_RULES: ${carries.rule.text}`)
  return { values: carries.values, rule }
}

/**
 * The `carries` of a recorded valid call, its rule found again by its name (undefined: a rule this suite does not
 * know).
 */
export function carriesOf(recorded: RecordedCarries | undefined): PreparedCall['carries'] | undefined {
  if (recorded === undefined) return undefined
  const rule = (SHAPE_RULES as Record<string, Rule>)[recorded.rule]
  return rule === undefined ? undefined : { values: recorded.values, rule }
}
