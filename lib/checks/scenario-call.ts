import { provisionerOf, refuseWriteInReadOnly } from '../setup/provision.ts'
import { scenarioOf, type PreparedCall } from '../setup/families/index.ts'
import { fillTemplate } from '../spec/paths.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Outcome } from '../shop/request.ts'
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

/** Sends a prepared call of the row's endpoint, with the documented body or `body` instead. */
export async function sendPrepared(session: Session, row: EndpointRow, prepared: PreparedCall, body = prepared.body): Promise<SentCall> {
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
  const ticket = creates === undefined ? undefined : fx.ledger.request({ kind: creates.kind, label: `${creates.kind} made by ${endpointText(row)}`, ...(key !== undefined ? { key } : {}) }, { queued: true })
  const outcome = await session.send({
    ...(ticket !== undefined ? { onSent: () => ticket.sent() } : {}),
    method: row.method,
    path,
    store: session.seed.storeCode,
    ...(token !== undefined ? { token } : {}),
    ...(body !== undefined ? { body } : {}),
    ...(prepared.query !== undefined ? { query: prepared.query } : {}),
  })
  const answer = outcome.answer
  ticket?.settle(outcome, answer !== undefined && answer.status >= 200 && answer.status < 300 ? creates?.idOf(answer.body) : undefined)
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
    return sendPrepared(session, row, await scenario.prepare(provisionerOf(session), `${endpointText(row)} valid`))
  })
}
