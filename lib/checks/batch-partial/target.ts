/** Talking to the target: the judged calls, the set-up steps, and what judging a row yields. */
import { isSuccess, SetupError, type Provisioner } from '../../setup/provision.ts'
import type { Exchange } from '../../results/exchange.ts'
import type { Answer, Outcome } from '../../shop/request.ts'
import type { Session } from '../../shop/session.ts'
import { PATHS, type PriceFamily, type Price } from './operations.ts'
import { json, quoteReply } from './quote.ts'
import { normalisePlanned, of, sameValues, storedOf, type Stored } from './stored.ts'
import type { UnansweredReason } from '../../results/verdict.ts'

/**
 * A judged call (its exchange is evidence), made by the run's admin; never throws. `role`: what the call is to the
 * check, which the run's evidence tags it with (`_probe: "batch-partial: <role>"`), so `judge --har` finds it.
 */
export async function send(
  session: Session,
  method: string,
  path: string,
  body: unknown,
  role: BatchRole,
): Promise<Outcome> {
  const token = session.tokenFor('admin')
  const probe = `${BATCH_PROBE}${role}`
  return session.send({
    method,
    path: session.targetPath(path),
    store: session.seed.storeCode,
    ...(token !== undefined ? { token } : {}),
    body,
    probe,
  })
}

/** How the run's evidence tags the check's own calls (`_probe`): `batch-partial: ` and what the call is. */
export const BATCH_PROBE = 'batch-partial: '

/**
 * What a judged call is: a batch's mixed, read-back and all-valid calls; an information call's or cost-delete's two,
 * and their read-backs.
 */
export type BatchRole =
  | 'mixed call'
  | 'read-back'
  | 'all-valid call'
  | 'known skus'
  | 'known skus read back'
  | 'unknown sku'
  | 'unknown sku read back'

/**
 * A judged call as the pure judgements read it: its answer or why none came, and whether it is the target's no-route
 * answer.
 */
export type JudgedCall = Pick<Outcome, 'answer' | 'failure' | 'exchange'> & { noRoute?: boolean }

export const arrayAnswer = (a: Answer): boolean => isSuccess(a) && Array.isArray(a.body)

/** The stored prices of `skus` through the family's information call, as a set-up step. */
async function readState(p: Provisioner, family: PriceFamily, skus: string[], step: string): Promise<Stored[]> {
  const { answer } = await p.call(
    step,
    { method: 'POST', path: PATHS[family].info, actor: 'admin', body: { skus } },
    arrayAnswer,
  )
  return storedOf(family, answer.body)
}

/**
 * Stores `prices` through the family's update (a set-up step). With `verify`, reads them back through the
 * information call and refuses to go on unless each is there: the row is then not judged, never passed.
 */
export async function establish(
  p: Provisioner,
  family: PriceFamily,
  prices: Price[],
  step: string,
  verify: boolean,
): Promise<Answer> {
  refuseTwoSpecialPricesPerStore(family, prices)
  const { answer } = await p.call(step, {
    method: 'POST',
    path: PATHS[family].update,
    actor: 'admin',
    body: { prices },
  })
  if (!verify) return answer
  const stored = await readState(p, family, [...new Set(prices.map((x) => String(x.sku)))], `${step}: read back`)
  for (const price of prices) {
    const want = normalisePlanned(family, price)
    const got = of(stored, want.sku).find((s) => s.key === want.key)
    if (got === undefined || !sameValues(got.values, want.values)) {
      // Say what the target's own answer shows: it refused the price, or it said every item was applied.
      const said =
        Array.isArray(answer.body) && answer.body.length > 0
          ? `reported items as invalid (${quoteReply(answer)})`
          : `answered ${quoteReply(answer)}`
      throw new SetupError(
        step,
        `set-up step "${step}": POST ${PATHS[family].update} ${said}, and the read-back does not show ${json(price)} (read back ${got !== undefined ? json(got.raw) : 'nothing under that key'})`,
      )
    }
  }
  return answer
}

/**
 * A shop keeps one special price per sku and store (observations/special-price-two-periods), and the spec does
 * not say it keeps more: a set-up that stores two would read as a write the shop lost. A bug of the suite.
 */
function refuseTwoSpecialPricesPerStore(family: PriceFamily, prices: Price[]): void {
  if (family !== 'special') return
  const seen = new Set<string>()
  for (const price of prices) {
    const key = `${String(price.sku).toLowerCase()} store ${String(price.store_id)}`
    if (seen.has(key))
      throw new Error(`set-up stores two special prices for ${key}: a shop keeps one per sku and store`)
    seen.add(key)
  }
}

export interface Judged {
  problems: string[]
  warnings: string[]
  exchanges: Exchange[]
  details: Record<string, unknown>
  summary: string
  /** Set when the row could not be judged after all (a read-back the judgement needs was refused). */
  unjudged?: string
  /**
   * Set when a call the judgement needs got no answer (a timeout, a target gone) or a server error: why, as a
   * not-judged reason.
   */
  unanswered?: { reason: UnansweredReason | 'server-error'; text: string }
}
