/**
 * Where the shapes the spec tables (§ Resources and their fields; their JSON Schemas in schemas.ts) appear:
 * by contract type name, and the body keys whose shape a section heading names while the key's row gives no
 * type.
 */
import type { ShapeName } from './shapes.ts'
import type { EndpointRow } from './types.ts'

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

/**
 * The section whose table defines an endpoint's request and return: its 17 rows (a catalog row's `sections` name it).
 */
const DETAIL_SECTION = 'Endpoints › Endpoints with detailed shape'

/**
 * Whether the spec's detail table defines the endpoint's request (parameters, body keys) and return. Only there is
 * a call the spec documents: a server error to it fails the endpoint's detail check. Everywhere else the body is
 * the suite's reading of the platform ("Request-body and response shapes of listed endpoints not tabled in the
 * detail section: not shown"), and a server error to it fails nothing.
 */
export function requestTabled(row: Pick<EndpointRow, 'sections'>): boolean {
  return row.sections.includes(DETAIL_SECTION)
}
