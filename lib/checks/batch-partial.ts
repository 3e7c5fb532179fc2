/**
 * The check `batch-partial`: batch price operations exclude and report invalid items and apply the valid
 * ones; the price/cost information calls and cost-delete refuse unknown skus (spec § Errors 1–3, § Catalog:
 * prices and costs; bodies per platform conventions § Batch prices).
 *
 * Every row works on products of its own (labels `batch <endpoint> …`, skus carrying the run id), so the
 * rows can run concurrently without touching each other's prices. Only the products are recorded in the
 * ledger (by the provisioner): every price this check stores lives on one of them and goes with it.
 *
 * The judging functions (`judgeMixedAnswer`, `judgeKnownSkusAnswer`, `judgeUnknownSkuAnswer`) are pure, so
 * they can be proven on a real instance's recorded answers.
 *
 * The parts live in `batch-partial/`: the operations, the items' values, stored prices, quoting, the pure
 * judgements (of an answer and of a read-back), the calls to the target, and the rows (items; information
 * and cost-delete). This file is the check and what the tests import.
 */
import { SetupError } from '../setup/provision.ts'
import type { EndpointRow } from '../spec/types.ts'
import type { Session } from '../shop/session.ts'
import { judgeCostDelete, judgeInformation } from './batch-partial/information.ts'
import { judgeItems } from './batch-partial/items.ts'
import type { Operation } from './batch-partial/operations.ts'
import type { Judged } from './batch-partial/target.ts'
import type { Verdict } from '../results/verdict.ts'
import type { Check } from './types.ts'
import { BATCH_RULES } from '../spec/rules.ts'

export {
  batchServerError,
  judgeKnownSkusAnswer,
  judgeMixedAnswer,
  judgeReadBack,
  judgeUnknownSkuAnswer,
} from './batch-partial/judgements.ts'
export { BATCH_ROWS, type PlannedItem } from './batch-partial/operations.ts'

/**
 * What the row's `batch` says the call does, as the check judges it; undefined for a row that is no batch price
 * operation.
 */
export function operationOf(row: EndpointRow): Operation | undefined {
  const b = row.batch
  if (b === undefined) return undefined
  // Labels of what the check makes: the path's last segment, and the replace told from its update.
  const key = `${row.path.split('/').pop() ?? row.path}${b.op === 'replace' ? '-replace' : ''}`
  if (b.op === 'information') return { kind: 'information', key, family: b.prices }
  if (b.op === 'cost-delete') return { kind: 'cost-delete', key }
  return { kind: 'items', key, family: b.prices, op: b.op }
}

function judgeOperation(row: EndpointRow, op: Operation, session: Session): Promise<Judged> {
  switch (op.kind) {
    case 'items':
      return judgeItems(row, op, session)
    case 'information':
      return judgeInformation(op, session)
    case 'cost-delete':
      return judgeCostDelete(session)
  }
}

async function batchPartial(row: EndpointRow, session: Session): Promise<Verdict> {
  const op = operationOf(row)
  if (op === undefined) return { status: 'skipped', message: 'not a batch price operation', exchanges: [] }
  let judged: Judged
  try {
    judged = await judgeOperation(row, op, session)
  } catch (err) {
    if (err instanceof SetupError) {
      return { status: 'skipped', message: `not judged: ${err.message}`, exchanges: err.exchanges, reason: err.reason }
    }
    throw err
  }
  return batchVerdict(judged)
}

/**
 * A row's judgement as its verdict: failed on a problem, else not judged where a call it needs was not answered, else
 * passed. Pure.
 */
export function batchVerdict(judged: Judged): Verdict {
  const { problems, warnings, exchanges, details } = judged
  const extra = warnings.length > 0 ? { warnings } : {}
  if (problems.length > 0) return { status: 'failed', message: problems.join('; '), exchanges, details, ...extra }
  if (judged.unanswered !== undefined)
    return {
      status: 'skipped',
      message: `not judged: ${judged.unanswered.text}`,
      exchanges,
      details,
      ...extra,
      reason: judged.unanswered.reason,
    }
  if (judged.unjudged !== undefined)
    return {
      status: 'skipped',
      message: `not fully judged: ${judged.unjudged}`,
      exchanges,
      details,
      ...extra,
      reason: 'unusable-answer',
    }
  return { status: 'passed', message: judged.summary, exchanges, details, ...extra }
}

export const batchPartialCheck: Check = {
  name: 'batch-partial',
  description:
    'Batch price calls exclude and report invalid items and apply the valid ones; information calls and cost-delete refuse unknown skus.',
  spec: ['Errors 1–3', 'Endpoints › Endpoint lists by module › Catalog: prices and costs'],
  rules: Object.values(BATCH_RULES),
  appliesTo: (row) => (operationOf(row) !== undefined ? true : 'not a batch price operation'),
  run: batchPartial,
}
