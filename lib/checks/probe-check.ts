/**
 * A probe check as the runner calls every check (`run(row, session)`): its plan, sent by the shop's one sender with
 * what only the checks' side knows (how a valid request is made, what the ledger records), then its judge.
 */
import type { EndpointRow } from '../spec/types.ts'
import type { Session } from '../shop/session.ts'
import { sendPlan, type SendHooks } from '../shop/sender.ts'
import { provisionerOf } from '../setup/provision.ts'
import { endpointText } from '../spec/endpoint-id.ts'
import type { ProbePlan } from '../shop/probe.ts'
import { toId } from '../setup/provision.ts'
import { isObject } from '../base/is-object.ts'
import { ENTITY_KINDS, type EntityKind } from '../setup/ledger.ts'
import { sequenceHooks } from './access-sequence.ts'
import { probeSettingsOf } from './probe.ts'
import type { ProbeCheck } from './types.ts'

/** The kind with its `run`: plan, send, judge. */
export function probeCheck(kind: Omit<ProbeCheck, 'run'>): ProbeCheck {
  return {
    ...kind,
    async run(row, session) {
      const settings = probeSettingsOf(session.seed)
      const plan = kind.probes(row, settings)
      return kind.judge(row, await sendPlan(session, plan, hooksFor(session, row, plan)), settings)
    },
  }
}

/**
 * What the sender needs from the checks' side at a row: the valid request's set-up, and the ledger for what a probe
 * creates.
 */
function hooksFor(session: Session, row: EndpointRow, plan: ProbePlan): SendHooks {
  return {
    ...(plan.sequence !== undefined && plan.sequence.unbuildable === undefined ? sequenceHooks(session, row) : {}),
    record(planned, store) {
      // A kind of the ledger's (the plans take it from the conventions' `probeCreates` and MINE_ADMIN_REQUESTS).
      const kind = planned.call.creates as EntityKind | undefined
      if (kind === undefined || !Object.hasOwn(ENTITY_KINDS, kind)) return undefined
      const label = `${kind} made by the ${planned.request.caller} probe of ${endpointText(row)}${store !== session.seed.storeCode ? ` under store ${store}` : ''}`
      const ticket = provisionerOf(session).ledger.request({ kind, label })
      return {
        sent: () => ticket.sent(),
        settle(outcome) {
          const body = outcome.answer?.body
          const created =
            outcome.answer !== undefined && outcome.answer.status >= 200 && outcome.answer.status < 300
              ? (toId(body) ?? toId(isObject(body) ? body.id : undefined))
              : undefined
          ticket.settle(outcome, created === undefined ? undefined : String(created))
        },
      }
    },
  }
}
