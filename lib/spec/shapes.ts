/**
 * JSON Schemas (draft-07, for ajv 8) of every shape the spec tables (§ Resources and their fields).
 *
 * Rules every schema follows, so that the checks built on them stay within what the spec says:
 * - Types exactly as the spec writes them: every number field is `number` (the spec does not separate
 *   integer from decimal), strings are `string`, `extension_attributes` is a free object, `street` an array
 *   whose element is not constrained (the spec: "element shape is an empty object").
 * - A listed field may be absent or `null` (the platform omits unset fields and sends some as null): no
 *   `required`, and every listed field's type admits `null`. A present, non-null value of the wrong type fails.
 * - A field the spec does not list does not fail (no `additionalProperties: false`); `listedFields()` gives
 *   the listed names so that a check can warn about the others.
 * - Each schema is self-contained (nested shapes are inlined, no `$ref`), so a check may compile any one of
 *   them alone or add them all to one Ajv instance. Nothing here creates an Ajv instance.
 */
import type { SchemaObject } from 'ajv'

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#'
const ID_BASE = 'https://shop-conformance.invalid/spec/schemas/'

type FieldType = 'string' | 'number' | 'object' | 'array'

/** A listed field: its spec type, or null. */
const field = (type: FieldType, extra: Record<string, unknown> = {}): SchemaObject => ({
  type: [type, 'null'],
  ...extra,
})
const str = (): SchemaObject => field('string')
const num = (): SchemaObject => field('number')
const freeObject = (): SchemaObject => field('object')
/** `street`: an array; the spec leaves the element unspecified ("element shape is an empty object"). */
const street = (): SchemaObject => field('array')

function fields(
  strings: readonly string[],
  numbers: readonly string[],
  others: Record<string, SchemaObject> = {},
): Record<string, SchemaObject> {
  const props: Record<string, SchemaObject> = {}
  for (const n of strings) props[n] = str()
  for (const n of numbers) props[n] = num()
  Object.assign(props, others)
  return props
}

interface ShapeOptions {
  name: string
  title: string
  description: string
  properties: Record<string, SchemaObject>
}

function shape({ name, title, description, properties }: ShapeOptions): SchemaObject {
  return { $schema: DRAFT_07, $id: `${ID_BASE}${name}.json`, title, description, type: 'object', properties }
}

/** A schema as a nested element: no `$schema`/`$id`, so it can be inlined in another schema. */
function inline(schema: SchemaObject, nullable: boolean): SchemaObject {
  const { $schema: _s, $id: _i, type, ...rest }: Readonly<Record<string, unknown>> = schema
  return { ...rest, type: nullable ? [type, 'null'] : type }
}

// --- Credit memo (`CreditmemoInterface`) --------------------------------------------------------------

const creditmemoComment = shape({
  name: 'creditmemo-comment',
  title: 'Credit memo comment object',
  description: 'Spec § Resources and their fields › Credit memo: "Comment object".',
  properties: fields(
    ['comment', 'created_at'],
    ['entity_id', 'is_customer_notified', 'is_visible_on_front', 'parent_id'],
    { extension_attributes: freeObject() },
  ),
})

const creditmemoItem = shape({
  name: 'creditmemo-item',
  title: 'Credit memo item object',
  description: 'Spec § Resources and their fields › Credit memo: "Item object".',
  properties: fields(
    ['additional_data', 'description', 'name', 'sku', 'weee_tax_applied'],
    [
      'base_cost',
      'base_discount_amount',
      'base_discount_tax_compensation_amount',
      'base_price',
      'base_price_incl_tax',
      'base_row_total',
      'base_row_total_incl_tax',
      'base_tax_amount',
      'base_weee_tax_applied_amount',
      'base_weee_tax_applied_row_amnt',
      'base_weee_tax_disposition',
      'base_weee_tax_row_disposition',
      'discount_amount',
      'discount_tax_compensation_amount',
      'entity_id',
      'order_item_id',
      'parent_id',
      'price',
      'price_incl_tax',
      'product_id',
      'qty',
      'row_total',
      'row_total_incl_tax',
      'tax_amount',
      'weee_tax_applied_amount',
      'weee_tax_applied_row_amount',
      'weee_tax_disposition',
      'weee_tax_row_disposition',
    ],
    { extension_attributes: freeObject() },
  ),
})

const creditmemo = shape({
  name: 'creditmemo',
  title: 'Credit memo (CreditmemoInterface)',
  description: 'Spec § Resources and their fields › Credit memo (`CreditmemoInterface`, body key `entity`).',
  properties: fields(
    [
      'base_currency_code',
      'created_at',
      'discount_description',
      'global_currency_code',
      'increment_id',
      'order_currency_code',
      'store_currency_code',
      'transaction_id',
      'updated_at',
    ],
    [
      'adjustment',
      'adjustment_negative',
      'adjustment_positive',
      'base_adjustment',
      'base_adjustment_negative',
      'base_adjustment_positive',
      'base_discount_amount',
      'base_discount_tax_compensation_amount',
      'base_grand_total',
      'base_shipping_amount',
      'base_shipping_discount_tax_compensation_amnt',
      'base_shipping_incl_tax',
      'base_shipping_tax_amount',
      'base_subtotal',
      'base_subtotal_incl_tax',
      'base_tax_amount',
      'base_to_global_rate',
      'base_to_order_rate',
      'billing_address_id',
      'creditmemo_status',
      'discount_amount',
      'discount_tax_compensation_amount',
      'email_sent',
      'entity_id',
      'grand_total',
      'invoice_id',
      'order_id',
      'shipping_address_id',
      'shipping_amount',
      'shipping_discount_tax_compensation_amount',
      'shipping_incl_tax',
      'shipping_tax_amount',
      'state',
      'store_id',
      'store_to_base_rate',
      'store_to_order_rate',
      'subtotal',
      'subtotal_incl_tax',
      'tax_amount',
    ],
    {
      extension_attributes: freeObject(),
      comments: field('array', { items: inline(creditmemoComment, false) }),
      items: field('array', { items: inline(creditmemoItem, false) }),
    },
  ),
})

// --- Addresses ----------------------------------------------------------------------------------------

const orderAddress = shape({
  name: 'order-address',
  title: 'Order address (OrderAddressInterface)',
  description: 'Spec § Resources and their fields › Order address (`OrderAddressInterface`, body key `entity`).',
  properties: fields(
    [
      'address_type',
      'city',
      'company',
      'country_id',
      'email',
      'fax',
      'firstname',
      'lastname',
      'middlename',
      'postcode',
      'prefix',
      'region',
      'region_code',
      'suffix',
      'telephone',
      'vat_id',
      'vat_request_date',
      'vat_request_id',
    ],
    [
      'customer_address_id',
      'customer_id',
      'entity_id',
      'parent_id',
      'region_id',
      'vat_is_valid',
      'vat_request_success',
    ],
    { street: street(), extension_attributes: freeObject() },
  ),
})

const cartAddress = shape({
  name: 'cart-address',
  title: 'Quote billing / cart address',
  description:
    'Spec § Resources and their fields › Quote billing / cart address (`address` in the guest billing-address body).',
  properties: fields(
    [
      'city',
      'company',
      'country_id',
      'email',
      'fax',
      'firstname',
      'lastname',
      'middlename',
      'postcode',
      'prefix',
      'region',
      'region_code',
      'suffix',
      'telephone',
      'vat_id',
    ],
    ['customer_address_id', 'customer_id', 'id', 'region_id', 'same_as_billing', 'save_in_address_book'],
    {
      custom_attributes: field('array', {
        items: { type: 'object', properties: { attribute_code: str(), value: str() } },
      }),
      street: street(),
      extension_attributes: freeObject(),
    },
  ),
})

// --- Attribute set ------------------------------------------------------------------------------------

const attributeSet = shape({
  name: 'attribute-set',
  title: 'Attribute set (AttributeSetInterface)',
  description: 'Spec § Resources and their fields › Attribute set (`AttributeSetInterface`).',
  properties: fields(['attribute_set_name'], ['attribute_set_id', 'entity_type_id', 'sort_order'], {
    extension_attributes: freeObject(),
  }),
})

// --- Refund request parts -----------------------------------------------------------------------------

const refundArguments = shape({
  name: 'refund-arguments',
  title: 'Refund request: arguments',
  description: 'Spec § Resources and their fields › Refund request parts: `arguments`.',
  properties: fields([], ['adjustment_negative', 'adjustment_positive', 'shipping_amount'], {
    extension_attributes: freeObject(),
  }),
})

const refundComment = shape({
  name: 'refund-comment',
  title: 'Refund request: comment',
  description: 'Spec § Resources and their fields › Refund request parts: `comment`.',
  properties: fields(['comment'], ['is_visible_on_front'], { extension_attributes: freeObject() }),
})

const refundItem = shape({
  name: 'refund-item',
  title: 'Refund request: items[] element',
  description: 'Spec § Resources and their fields › Refund request parts: `items[]` (one element).',
  properties: fields([], ['order_item_id', 'qty'], { extension_attributes: freeObject() }),
})

export const TABLED_SHAPES = {
  creditmemo,
  creditmemoComment,
  creditmemoItem,
  orderAddress,
  cartAddress,
  attributeSet,
  refundArguments,
  refundComment,
  refundItem,
} as const satisfies Record<string, SchemaObject>

export type ShapeName = keyof typeof TABLED_SHAPES

const LISTED: Readonly<Record<ShapeName, readonly string[]>> = Object.fromEntries(
  Object.entries(TABLED_SHAPES).map(([name, schema]) => [
    name,
    Object.freeze(Object.keys(schema.properties as object)),
  ]),
) as Record<ShapeName, readonly string[]>

/** The field names the spec lists for a shape (top level of the schema), in the schema's order. */
export function listedFields(schemaName: ShapeName): readonly string[] {
  return LISTED[schemaName]
}

/**
 * The values a call sets under a tabled type's fields (`extension_attributes` aside): what the saved resource must
 * carry.
 */
export function tabledValues(schemaName: ShapeName, sent: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(
    listedFields(schemaName)
      .filter((k) => k !== 'extension_attributes' && Object.hasOwn(sent, k))
      .map((k) => [k, sent[k]]),
  )
}
