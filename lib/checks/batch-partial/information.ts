import { unanswered } from '../../shop/answer-text.ts'
/** The rows of the information calls and cost-delete: known skus answered (or deleted), unknown ones refused. */
import { isSuccess, provisionerOf } from '../../setup/provision.ts'
import type { Exchange } from '../../results/exchange.ts'
import type { Answer } from '../../shop/request.ts'
import type { Session } from '../../shop/session.ts'
import { batchServerError, judgeKnownSkusAnswer, judgeUnknownSkuAnswer } from './judgements.ts'
import { serverErrorOf } from '../../shop/server-error.ts'
import { PATHS, type Operation, type Price, type PriceFamily } from './operations.ts'
import { json, quoteOutcome, quoteReply } from './quote.ts'
import { normalise, of, sameValues, storedOf, type Stored } from './stored.ts'
import { arrayAnswer, establish, send, type Judged, type JudgedCall } from './target.ts'
import { tagEvidence } from '../../shop/request-channel.ts'
import { validPrice, Values } from './values.ts'

/** An information call: known skus answer their prices, a known and an unknown sku are refused. */
export async function judgeInformation(
  op: Extract<Operation, { kind: 'information' }>,
  session: Session,
): Promise<Judged> {
  const p = provisionerOf(session)
  const { family } = op
  const prefix = `batch ${op.key}`
  const v = new Values(p, prefix)
  const [known1, known2] = await Promise.all([p.product(`${prefix} known 1`), p.product(`${prefix} known 2`)])
  const skus = [known1.sku, known2.sku]
  // Base prices come with the products; the other prices are stored first, so there is something to answer.
  // Not verified through the call under test (its answer is what is judged); what the set-up call answered
  // is quoted when the prices are missing.
  let stored: Answer | undefined
  if (family !== 'base') {
    stored = await establish(
      p,
      family,
      [validPrice(family, v, known1.sku, 'known 1'), validPrice(family, v, known2.sku, 'known 2', 1)],
      `store the ${family} prices to ask for`,
      false,
    )
  }
  const unknownSku = p.builders.sku(`${prefix} no such sku`)
  const path = PATHS[family].info
  const known = await send(session, 'POST', path, { skus }, 'known skus')
  // What storing them answered is quoted where they are missing: told to the evidence, as the set-up call is no
  // judged one.
  if (stored !== undefined)
    tagEvidence(known.exchange, { _observed: { before: { status: stored.status, body: stored.body } } })
  const mixed = await send(session, 'POST', path, { skus: [known1.sku, unknownSku] }, 'unknown sku')
  tagEvidence(mixed.exchange, { _items: [{ valid: true }, { valid: false, kind: 'unknown sku' }] })
  return judgeInformationCalls(family, { known, mixed, unknownSku, ...(stored !== undefined ? { stored } : {}) })
}

/** An information call's two calls as the judgement reads them. */
interface InformationCalls {
  /** The call naming only known skus (stored prices), and the call naming one of them and `unknownSku`. */
  known: JudgedCall
  mixed: JudgedCall
  unknownSku: string
  /** What storing the known skus' prices answered (the families but base). */
  stored?: Pick<Answer, 'status' | 'body'>
}

/** An information call judged from its calls. Pure. */
export function judgeInformationCalls(family: PriceFamily, calls: InformationCalls): Judged {
  const { known, mixed, unknownSku, stored } = calls
  const skus = skusOf(known)
  const exchanges: Exchange[] = [known.exchange, mixed.exchange]
  const problems: string[] = []
  let unjudged: string | undefined
  let missed: Judged['unanswered']
  if (known.answer === undefined)
    missed = {
      reason: unanswered(known).reason,
      text: `the call naming known skus got no answer: ${unanswered(known).text}`,
    }
  else if (serverErrorOf(known.answer) !== undefined)
    missed = batchServerError('the call naming known skus', known.answer)
  else if (isSuccess(known.answer) && !Array.isArray(known.answer.body)) {
    unjudged = `the call naming known skus answered ${quoteReply(known.answer)}: not the platform's list of prices, and the spec does not show what it returns`
  } else {
    const why = judgeKnownSkusAnswer('information', skus, known.answer)
    if (why !== undefined)
      problems.push(
        stored !== undefined
          ? `${why} (the set-up POST ${PATHS[family].update} storing them answered ${quoteReply(stored)})`
          : why,
      )
  }
  const mixedSkus = skusOf(mixed)
  if (mixed.answer === undefined)
    missed ??= {
      reason: unanswered(mixed).reason,
      text: `the call naming an unknown sku got no answer: ${unanswered(mixed).text}`,
    }
  else {
    const why = judgeUnknownSkuAnswer('information', mixedSkus, [unknownSku], mixed.answer)
    if (why !== undefined) problems.push(why)
  }
  const entries = Array.isArray(known.answer?.body) ? (known.answer.body as unknown[]).length : 0
  const summary = `two known skus answered their prices (${known.answer?.status}, ${entries} entries); a known and an unknown sku were refused (${quoteOutcome(mixed)})`
  return {
    problems,
    warnings: [],
    exchanges,
    details: { skus, unknownSku },
    summary,
    ...(unjudged !== undefined ? { unjudged } : {}),
    ...(missed !== undefined ? { unanswered: missed } : {}),
  }
}

/** The skus a call of this check named (its `{skus}` body). */
export function skusOf(call: Pick<JudgedCall, 'exchange'>): string[] {
  const body = call.exchange.request.body as { skus?: unknown } | undefined
  return Array.isArray(body?.skus) ? body.skus.map(String) : []
}

/** cost-delete: known skus are deleted; a known and an unknown sku are refused and nothing is deleted. */
export async function judgeCostDelete(session: Session): Promise<Judged> {
  const p = provisionerOf(session)
  const prefix = 'batch cost-delete'
  const v = new Values(p, prefix)
  const [known1, known2] = await Promise.all([p.product(`${prefix} known 1`), p.product(`${prefix} known 2`)])
  const cost1 = validPrice('cost', v, known1.sku, 'known 1')
  const cost2 = validPrice('cost', v, known2.sku, 'known 2')
  await establish(p, 'cost', [cost1, cost2], 'store the costs to delete', true)
  const unknownSku = p.builders.sku(`${prefix} no such sku`)
  const readCosts = async (
    sku: string,
    role: 'known skus read back' | 'unknown sku read back',
    before?: Price,
  ): Promise<JudgedCall> => {
    const o = await send(session, 'POST', PATHS.cost.info, { skus: [sku] }, role)
    // The cost the run stored, which a refused cost-delete must leave: told to the evidence for `judge --har`.
    if (before !== undefined) tagEvidence(o.exchange, { _observed: { before } })
    return o
  }

  // Known skus only: success, and the cost is gone.
  const first = await send(session, 'POST', PATHS.cost.delete, { skus: [known1.sku] }, 'known skus')
  const firstRead = knownDeleteToReadBack(first) ? await readCosts(known1.sku, 'known skus read back') : undefined
  // A known and an unknown sku: an error, and the known sku's cost is still there.
  const second = await send(session, 'POST', PATHS.cost.delete, { skus: [known2.sku, unknownSku] }, 'unknown sku')
  tagEvidence(second.exchange, { _items: [{ valid: true }, { valid: false, kind: 'unknown sku' }] })
  const secondRead =
    second.answer !== undefined ? await readCosts(known2.sku, 'unknown sku read back', cost2) : undefined
  const reads = {
    ...(firstRead !== undefined ? { firstRead } : {}),
    ...(secondRead !== undefined ? { secondRead } : {}),
  }
  return judgeCostDeleteCalls({ first, second, ...reads, unknownSku, kept: cost2 })
}

/** Whether the cost-delete of a known sku is read back: it succeeded, so its cost must be gone. */
export function knownDeleteToReadBack(first: JudgedCall): boolean {
  if (first.answer === undefined || serverErrorOf(first.answer) !== undefined) return false
  return judgeKnownSkusAnswer('cost-delete', skusOf(first), first.answer) === undefined
}

/** A cost-delete's calls as the judgement reads them: each call, and its read-back where one was made. */
interface CostDeleteCalls {
  first: JudgedCall
  firstRead?: JudgedCall
  second: JudgedCall
  secondRead?: JudgedCall
  unknownSku: string
  /** The known sku's cost the call naming the unknown sku must leave (read back only where that call was answered). */
  kept?: Price
}

/** cost-delete judged from its calls: the delete of a known sku, then the one naming an unknown sku. Pure. */
export function judgeCostDeleteCalls(calls: CostDeleteCalls): Judged {
  const { first, firstRead, second, secondRead, unknownSku } = calls
  const [known1 = ''] = skusOf(first)
  const mixedSkus = skusOf(second)
  const known2 = mixedSkus.find((s) => s !== unknownSku) ?? ''
  const exchanges: Exchange[] = [first, firstRead, second, secondRead].flatMap((c) =>
    c !== undefined ? [c.exchange] : [],
  )
  const known = judgeKnownDelete(first, firstRead, known1)
  const mixed = judgeMixedDelete(calls, mixedSkus, known2)
  const problems = [...known.problems, ...mixed.problems]
  // The first part's reasons before the second's, as the calls were made.
  const unjudged = known.unjudged ?? mixed.unjudged
  const missed = known.missed ?? mixed.missed
  const summary = `a known sku's cost deleted (${quoteOutcome(first)}); a known and an unknown sku refused (${quoteOutcome(second)}) and nothing deleted`
  return {
    problems,
    warnings: [],
    exchanges,
    details: { skus: [known1, known2], unknownSku },
    summary,
    ...(unjudged !== undefined && problems.length === 0 ? { unjudged } : {}),
    ...(missed !== undefined ? { unanswered: missed } : {}),
  }
}

/** What one cost-delete call shows: its problems, why what it did is not known, or that it got no answer. */
interface DeleteFindings {
  problems: string[]
  unjudged?: string
  missed?: Judged['unanswered']
}

/** A read-back's stored costs of the sku, or why what the cost-delete did is not known (no list came). */
function readBackCosts(o: JudgedCall, sku: string): { left?: Stored[]; unjudged?: string } {
  if (o.answer === undefined || !arrayAnswer(o.answer)) {
    return {
      unjudged: `the read-back POST ${PATHS.cost.info} of ${sku} answered ${quoteOutcome(o)}, so what the cost-delete did is not known`,
    }
  }
  return { left: of(storedOf('cost', o.answer.body), sku) }
}

/** The cost-delete of a known sku: a success, and its cost gone where it was read back. */
function judgeKnownDelete(first: JudgedCall, firstRead: JudgedCall | undefined, known1: string): DeleteFindings {
  if (first.answer === undefined)
    return {
      problems: [],
      missed: {
        reason: unanswered(first).reason,
        text: `the cost-delete of a known sku got no answer: ${unanswered(first).text}`,
      },
    }
  if (serverErrorOf(first.answer) !== undefined)
    return { problems: [], missed: batchServerError('the cost-delete of a known sku', first.answer) }
  const why = judgeKnownSkusAnswer('cost-delete', [known1], first.answer)
  if (why !== undefined) return { problems: [why] }
  const { left, unjudged } = firstRead !== undefined ? readBackCosts(firstRead, known1) : {}
  const problems =
    left !== undefined && left.length > 0
      ? [
          `the cost-delete of ${known1} answered ${quoteReply(first.answer)} but its cost is still there: ${json(left.map((s) => s.raw))}`,
        ]
      : []
  return { problems, ...(unjudged !== undefined ? { unjudged } : {}) }
}

/**
 * The cost-delete naming a known and an unknown sku: refused, and the known sku's cost still there — known only where
 * both the read-back and the cost it must find are.
 */
function judgeMixedDelete(calls: CostDeleteCalls, mixedSkus: string[], known2: string): DeleteFindings {
  const { second, secondRead, unknownSku } = calls
  if (second.answer === undefined)
    return {
      problems: [],
      missed: {
        reason: unanswered(second).reason,
        text: `the cost-delete naming an unknown sku got no answer: ${unanswered(second).text}`,
      },
    }
  const why = judgeUnknownSkuAnswer('cost-delete', mixedSkus, [unknownSku], second.answer)
  const { left, unjudged } = secondRead !== undefined ? readBackCosts(secondRead, known2) : {}
  const want = calls.kept !== undefined ? normalise('cost', calls.kept) : undefined
  const deleted =
    left !== undefined &&
    want !== undefined &&
    !left.some((s) => s.key === want.key && sameValues(s.values, want.values))
  const problems: string[] = []
  if (why !== undefined) problems.push(deleted ? `${why}; it also deleted the cost of the known sku ${known2}` : why)
  else if (deleted)
    problems.push(
      `the cost-delete naming the unknown sku ${unknownSku} was refused (${quoteReply(second.answer)}) but deleted the cost of the known sku ${known2} anyway (read back ${json(left.map((s) => s.raw))})`,
    )
  return { problems, ...(unjudged !== undefined ? { unjudged } : {}) }
}
