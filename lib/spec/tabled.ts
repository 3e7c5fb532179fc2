/**
 * Where the shapes the spec tables (§ Resources and their fields; their JSON Schemas in schemas.ts) appear:
 * by contract type name, and the body keys whose shape a section heading names while the key's row gives no
 * type.
 */
import type { ShapeName } from './shapes.ts'

/** Shapes the spec tables, by contract type name. */
export const TABLED_TYPES: Readonly<Record<string, ShapeName>> = {
  CreditmemoInterface: 'creditmemo',
  OrderAddressInterface: 'orderAddress',
  AttributeSetInterface: 'attributeSet',
}

/** A body key whose shape the spec tables; `array`: the key is a list of such objects. */
interface TabledBodyKey {
  schema: ShapeName
  array?: true
}

const REFUND_PARTS: Readonly<Record<string, TabledBodyKey>> = {
  arguments: { schema: 'refundArguments' },
  comment: { schema: 'refundComment' },
  items: { schema: 'refundItem', array: true },
}

/**
 * Body keys the detail table lists without a type whose shape a heading tables: "Quote billing / cart address
 * (`address` in the guest billing-address body)", and "Refund request parts" (`arguments`, `comment`,
 * `items[]`) of the two refunds. By endpoint (`METHOD path`), then key.
 */
export const TABLED_BODY_KEYS: Readonly<Record<string, Readonly<Record<string, TabledBodyKey>>>> = {
  'POST /V1/guest-carts/:cartId/billing-address': { address: { schema: 'cartAddress' } },
  'POST /V1/invoice/:invoiceId/refund': REFUND_PARTS,
  'POST /V1/order/:orderId/refund': REFUND_PARTS,
}
