/**
 * Steps the sales workflows share: orders and invoices made as set-up, refunds judged with the target's
 * business refusals told apart, and the credit memo read back.
 */
import { describeAnswer, isSuccess, orderItems, type PlacedOrder } from '../setup/provision.ts'
import type { Answer } from '../shop/request.ts'
import { sameNumber, type SpecCall, type StepScope } from './steps.ts'
import { isObject } from '../base/is-object.ts'
import { endpointText } from '../spec/endpoint-id.ts'

export type OrderItem = PlacedOrder['items'][number]
export interface RefundedItem {
  order_item_id: number
  qty: number
}

/** What the sales steps leave for the next ones; a sales workflow's state extends it. */
export interface SalesState {
  orderId: number
  orderItems: OrderItem[]
  invoiceId: number
  creditmemoId: number
  refundedItems: RefundedItem[]
}

/**
 * The reason a refund refusal is not a finding: the target's own business rule (nothing paid to refund, a
 * payment method that cannot refund per invoice), with the setting that chose the payment method.
 */
function refundRefusal(setting: string, paymentMethod: string): (a: Answer) => string {
  return (a) =>
    `the target refused the refund for a business reason of its own — ${describeAnswer(a)} — not a fault of the endpoint's shape. ` +
    `The order was paid with "${paymentMethod}" (setting ${setting}); choose a payment method this shop can refund this way.`
}

/** The order read back and invoiced (set-up): leaves the order items and the invoice id in the state. */
export async function invoiceOrder(s: StepScope<SalesState>, orderId: number): Promise<string> {
  const order = await s.readOrder(orderId)
  const items = orderItems(order)
  if (items.length === 0)
    s.notJudged(
      `the order ${orderId} read back (GET /V1/orders/${orderId}) lists no items with an item_id`,
      'unusable-answer',
    )
  const invoiceId = await s.setup(() => s.fx.invoice(orderId))
  s.keep('orderItems', items)
  s.keep('invoiceId', invoiceId)
  return `order ${orderId} invoiced: invoice ${invoiceId}`
}

/**
 * A refund call: a success with an int id (a digit string is a warning) that names a credit memo of the order
 * — read back with `GET /V1/creditmemo/:id`, since an id that names nothing is no refund.
 */
export async function refund(
  s: StepScope<SalesState>,
  call: SpecCall,
  options: { orderId: number; setting: string; paymentMethod: string },
): Promise<number> {
  const answer = await s.call(call, { kind: 'credit memo', label: `credit memo of order ${options.orderId}` })
  s.expectSuccess(call, answer, { refusal: refundRefusal(options.setting, options.paymentMethod) })
  const id = s.judgeId(answer.body, 'the answer (the new credit memo id)')
  s.made(id)
  const read: SpecCall = { method: 'GET', path: `/V1/creditmemo/${id}`, actor: 'admin' }
  const memo = await s.call(read)
  if (!isSuccess(memo))
    s.fail(
      `answered ${JSON.stringify(answer.body)} as the new credit memo id, but ${endpointText(read)} answered ${describeAnswer(memo)}: the refund made no credit memo with that id`,
    )
  if (
    isObject(memo.body) &&
    memo.body.order_id !== undefined &&
    memo.body.order_id !== null &&
    !sameNumber(memo.body.order_id, options.orderId)
  ) {
    s.fail(
      `answered ${id} as the new credit memo id, but credit memo ${id} belongs to order ${JSON.stringify(memo.body.order_id)}, not to the refunded order ${options.orderId}`,
    )
  }
  s.keep('creditmemoId', id)
  return id
}

/**
 * `GET /V1/creditmemo/:id`: a credit memo (schema), of the order (and invoice), listing each refunded item with
 * the quantity refunded. Amounts are compared with what the target itself reported, never with constants.
 */
export async function readCreditmemo(
  s: StepScope,
  expected: { id: number; orderId: number; invoiceId?: number; items: RefundedItem[] },
): Promise<string> {
  const call: SpecCall = { method: 'GET', path: `/V1/creditmemo/${expected.id}`, actor: 'admin' }
  const answer = await s.call(call)
  s.expectSuccess(call, answer)
  s.judge(answer.body, { kind: 'tabled', shape: 'creditmemo' }, 'the credit memo')
  const memo = answer.body
  if (!isObject(memo)) s.fail(`the credit memo is ${JSON.stringify(memo)}, not an object`)
  const wrong: string[] = []
  // A read of the run's own credit memo carries its id (issue 9: an answer without it is no such read).
  if (!sameNumber(memo.entity_id, expected.id))
    wrong.push(`entity_id ${JSON.stringify(memo.entity_id ?? null)} (asked for ${expected.id})`)
  if (!sameNumber(memo.order_id, expected.orderId))
    wrong.push(`order_id ${JSON.stringify(memo.order_id ?? null)} where the refunded order is ${expected.orderId}`)
  if (expected.invoiceId !== undefined && !sameNumber(memo.invoice_id, expected.invoiceId)) {
    wrong.push(
      `invoice_id ${JSON.stringify(memo.invoice_id ?? null)} where the refunded invoice is ${expected.invoiceId}`,
    )
  }
  const items = Array.isArray(memo.items) ? memo.items.filter(isObject) : []
  for (const want of expected.items) {
    const seen = items.filter((i) => sameNumber(i.order_item_id, want.order_item_id))
    if (seen.length === 0) wrong.push(`no item with order_item_id ${want.order_item_id} (the item refunded)`)
    else if (!seen.some((i) => sameNumber(i.qty, want.qty)))
      wrong.push(
        `item of order_item_id ${want.order_item_id} has qty ${seen.map((i) => JSON.stringify(i.qty ?? null)).join(', ')} where ${want.qty} was refunded`,
      )
  }
  if (wrong.length > 0) s.fail(`credit memo ${expected.id}: ${wrong.join('; ')}`)
  // Money, as a note only (the spec states no arithmetic), compared with what the target itself reported.
  moneyNotes(s, memo, expected.items)
  return `credit memo ${expected.id} is a credit memo of order ${expected.orderId}${expected.invoiceId !== undefined ? ` and invoice ${expected.invoiceId}` : ''} listing ${expected.items.map((i) => `order item ${i.order_item_id} × ${i.qty}`).join(', ')}`
}

function moneyNotes(s: StepScope, memo: Record<string, unknown>, refunded: RefundedItem[]): void {
  const items = Array.isArray(memo.items) ? memo.items.filter(isObject) : []
  for (const want of refunded) {
    const row = items.find((i) => sameNumber(i.order_item_id, want.order_item_id))
    if (row === undefined || typeof row.price !== 'number' || typeof row.row_total !== 'number') continue
    if (!sameNumber(row.row_total, row.price * want.qty)) {
      s.warnings.push(
        `credit memo item of order item ${want.order_item_id}: row_total ${row.row_total} is not price ${row.price} × qty ${want.qty}`,
      )
    }
  }
}

/** A refund body's `items[]`: every item of the order with its whole ordered quantity. */
export function wholeOrder(items: OrderItem[]): RefundedItem[] {
  return items.map((i) => ({ order_item_id: i.item_id, qty: i.qty_ordered }))
}
