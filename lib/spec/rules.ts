/**
 * The rules the checks and workflows fail a target for, each with the spec's own words it enforces, quoted
 * exactly as the spec writes them (rules.test.ts finds every quote in the spec). A result carries the rules
 * it judged, so a report can show a failure in the spec's words, not the suite's.
 *
 * What is *not* here is not a rule: a platform convention (platform-conventions.md) says how to talk to a
 * target, and where the suite notes one in a result it is a warning, never a failure.
 */
import type { EndpointRow } from './types.ts'

export interface Rule {
  /** What must hold, in one line. */
  text: string
  /** Words of the spec the rule rests on, each an exact quote (whitespace aside). */
  specWords: readonly string[]
}

const rule = (text: string, ...specWords: string[]): Rule => ({ text, specWords })

// --- route, store code, access -----------------------------------------------------------------------------

const LISTED = 'each line is `METHOD path` — contract (`Interface::method`) — purpose'
const REST_SERVICE = 'The service is an online-store back end exposed as a REST interface.'

export const ROUTE_RULES = {
  served: rule(
    'the endpoint is served at its method and path: the caller its access class admits gets an answer that is not the no-route answer',
    LISTED,
    'Every path begins with `/V1`.',
  ),
  // No rule about server errors: "HTTP status code per error case: not shown". A 5xx of the shop's application is an
  // answer at the method and path (served); the run lists it, and its body is no payload the JSON rule judges.
  json: rule("the answer is JSON (a server error's body aside)", 'Payloads are JSON.'),
  /**
   * A shop's own operation, which the spec does not list: what its schema declares is held to the spec's route rules.
   */
  declared: rule(
    "an operation the shop's schema declares is served at its method and path: its answer is not the no-route answer (a refusal is not one), and is JSON; a server error to the probe's made-up values judges nothing",
    LISTED,
    REST_SERVICE,
    'Payloads are JSON.',
  ),
} as const

export const STORE_CODE_RULES = {
  served: rule(
    'the endpoint is also served under the second store code (not the no-route answer, not the unknown-store answer)',
    'A store code can replace `default`.',
  ),
} as const

export const ACCESS_RULES = {
  admin: rule(
    'an admin endpoint lets an admin token through and refuses no token, a malformed token and a customer token',
    'An unmarked endpoint requires an admin token',
    'Admin: header `Authorization: Bearer <ACCESS_TOKEN>` with an admin token.',
  ),
  self: rule(
    'a self endpoint lets a customer token and an admin token through and refuses no token and a malformed token',
    "(self) = customer token for the caller's own resource, or an admin token",
    'Self: header `Authorization: Bearer <ACCESS_TOKEN>`.',
  ),
  anon: rule(
    'an anonymous endpoint lets a caller without a token through',
    '(anon) = callable without Authorization',
    'Anonymous: no Authorization header is required.',
  ),
} as const

// --- ACL resources and tokens -------------------------------------------------------------------------------

const MUST_CARRY = 'The token must carry the ACL resource named for the endpoint'

export const ACL_RULES = {
  resource: rule(
    'at an endpoint the detail table names an ACL resource for, an admin token whose role lacks that resource is refused (401/403), and one whose role has it is let through',
    `${MUST_CARRY} (resources listed in the detail table, for example \`Shop_Sales::sales_creditmemo\`, \`Shop_Catalog::catalog\`, \`Shop_Cart::manage\`).`,
  ),
  /** The rule at one row, with the detail table's words for its resource. */
  of(row: Pick<EndpointRow, 'acl'>): Rule {
    return rule(
      `an admin token whose role lacks ${row.acl} is refused here (401/403); one whose role has it is let through`,
      MUST_CARRY,
      `admin, ACL \`${row.acl}\``,
    )
  },
} as const

export const TOKEN_RULES = {
  issuing: rule(
    "a token endpoint issues tokens for the caller's credentials only: its answer to a wrong password or an unknown user name carries no token",
    'Tokens are obtained from `POST /V1/integration/admin/token` and `POST /V1/integration/customer/token`, both anonymous.',
    'admin credentials in, access token out',
    'customer credentials in, access token out',
  ),
  revocation: rule(
    'a customer token revoked through the revoke endpoint is refused on a self endpoint (401/403), while a token the customer gets after the revoke is let through',
    'The customer token is revoked through `POST /V1/integration/customer/revoke-customer-token`.',
    "(self) = customer token for the caller's own resource, or an admin token",
  ),
} as const

// --- body keys -----------------------------------------------------------------------------------------------

const TOP_LEVEL_KEYS = "In a body, the top-level keys are the names of the contract method's parameters."

/** How the detail table writes a required body parameter: "`entity` (CreditmemoInterface, required)". */
export function requiredWords(param: { name: string; type?: string }): string {
  return `\`${param.name}\` (${param.type !== undefined && param.type !== 'array' ? `${param.type}, ` : ''}required)`
}

export const BODY_KEYS_RULES = {
  keys: rule(
    'a call with the documented body keys is accepted; one without a required key (or with it under another name) is not, and changes nothing',
    TOP_LEVEL_KEYS,
  ),
  documented(row: EndpointRow): Rule {
    return rule(
      `a call with the documented body keys is accepted and answers ${row.returns ?? 'the documented type'}`,
      TOP_LEVEL_KEYS,
      ...(row.returns !== undefined ? [row.returns] : []),
    )
  },
  required(param: { name: string; type?: string }): Rule {
    return rule(
      `a call without the required body key "${param.name}" (or with it under another name) is not accepted and changes nothing`,
      requiredWords(param),
      TOP_LEVEL_KEYS,
    )
  },
} as const

// --- shapes --------------------------------------------------------------------------------------------------

// Kept literal here so the rules below name a heading the compiler knows is there.
const TYPE_HEADINGS = {
  creditmemo: 'Credit memo (`CreditmemoInterface`, body key `entity`)',
  orderAddress: 'Order address (`OrderAddressInterface`, body key `entity`)',
  cartAddress: 'Quote billing / cart address (`address` in the guest billing-address body)',
  attributeSet: 'Attribute set (`AttributeSetInterface`)',
  creditmemoComment: 'Comment object: `comment` (string), `created_at` (string)',
} as const

/** The heading of each tabled type's section under "Resources and their fields". */
export const TABLED_TYPE_WORDS: Readonly<Record<string, string>> = TYPE_HEADINGS

export const SHAPE_RULES = {
  types: rule(
    'each field of the answer the spec tables has the type it tables (numbers without integer/decimal distinction); an int return is a JSON integer',
    'Resources and their fields',
    'so every field shown as a number is listed as `number`',
  ),
  resource: rule(
    "an answer of a resource type is an object that carries at least one of the type's tabled fields (for a type named without fields: not an empty object)",
    'Resources and their fields',
    'field lists not shown',
  ),
  createdId: rule(
    "a read of a credit memo the run created carries that credit memo's `entity_id`",
    'CreditmemoRepositoryInterface::get — loads a credit memo',
    '`entity_id`',
  ),
  cartAddressId: rule(
    "a read of the cart billing address the run assigned carries that address's `id`",
    'BillingAddressManagementInterface::get — billing address of a quote',
    '`customer_address_id`, `customer_id`, `id`',
  ),
  savedSet: rule(
    'the attribute set answered by a save carries the name, id and sort order the call set',
    'AttributeSetInterface (saved set)',
  ),
  savedAddress: rule(
    'the order address answered by a save carries the values the call set (numbers as numbers or digit strings)',
    'OrderAddressRepositoryInterface::save',
    'body `entity` (OrderAddressInterface, required)',
  ),
} as const

// --- batch prices --------------------------------------------------------------------------------------------

export const BATCH_RULES = {
  perItem: rule(
    'a call mixing valid and invalid items succeeds, reports every invalid item in a result entry and no valid one',
    'Batch price operations (base price, cost, special price, tier price update, delete, replace) do not fail as a whole for invalid items.',
    'Each invalid item is excluded and reported in an array of PriceUpdateResultInterface entries with a problem description',
  ),
  applied: rule(
    'the valid items of a mixed call are applied and the invalid ones are not',
    'Failed items are excluded from the update, delete or replace.',
  ),
  allValid: rule('a call whose items are all valid answers []', 'a fully successful call returns an empty array'),
  replace: rule(
    'the tier-price replace removes the tiers of its skus that are not in the call',
    'removes existing tier prices and sets the new ones',
  ),
  unknownSku: rule(
    'an information call or cost-delete naming an unknown sku raises an error, and a cost-delete then deletes nothing',
    'raise an exception when at least one given sku is unknown',
  ),
  knownSkus: rule(
    'an information call naming only known skus answers them; a cost-delete of known skus deletes their costs',
    'Price and cost information calls, and cost delete',
  ),
} as const

// --- workflows -----------------------------------------------------------------------------------------------

export const TIER_RULES = {
  added: rule(
    'a tier price is added for a customer group, `all` included, through the per-group add',
    'ProductTierPriceManagementInterface::add',
    'the value `all` means all groups',
  ),
  listed: rule(
    "a group's tier list holds the tier added for that group; `all`'s list holds the tier added for all groups (with or without the other groups' tiers)",
    'ProductTierPriceManagementInterface::getList',
    '`customerGroupId` (string, required; the value `all` means all groups)',
    'ProductTierPriceInterface[]',
  ),
} as const

export const CATALOG_READ_RULES = {
  category: rule(
    "a category is read, with or without a store id: an object with a value (CategoryInterface's fields are not shown)",
    'CategoryRepositoryInterface::get',
    '`storeId` (int, default null)',
    'CategoryInterface',
  ),
  defaultGroup: rule(
    "the default customer group is read: an object with a value (GroupInterface's fields are not shown)",
    'GroupManagementInterface::getDefaultGroup',
    'GroupInterface',
  ),
  taxRateCreated: rule(
    "a tax rate is created (the body is the platform's: the spec does not show it)",
    'TaxRateRepositoryInterface::save (create or update)',
  ),
  taxRateRead: rule(
    "a tax rate the run created is read by its id: an object with a value (TaxRateInterface's fields are not shown)",
    'TaxRateRepositoryInterface::get',
    'TaxRateInterface',
  ),
  label: rule(
    'a shipment label is a JSON string',
    'ShipmentManagementInterface::getLabel',
    'string (shipment label)',
    'Payloads are JSON.',
  ),
} as const

export const ATTRIBUTE_SET_RULES = {
  created: rule(
    'an attribute set is created: the answer is an AttributeSetInterface',
    'AttributeSetManagementInterface::create',
    TYPE_HEADINGS.attributeSet,
  ),
  read: rule('the saved attribute set is read by its id', 'GET `/V1/eav/attribute-sets/:attributeSetId`'),
  deleted: rule(
    'a deleted attribute set is no longer read (any answer but a success)',
    'AttributeSetRepositoryInterface::deleteById',
  ),
} as const

export const SALES_RULES = {
  cartCreated: rule(
    'a customer without a cart gets one',
    'CartManagementInterface::createEmptyCartForCustomer (only if the customer has no cart)',
  ),
  estimate: rule(
    "shipping methods are estimated for the customer's cart: a list of ShippingMethodInterface",
    'ShipmentEstimationInterface::estimateByExtendedAddress',
    'ShippingMethodInterface[]',
  ),
  shippingInformation: rule(
    'the shipping and billing information of a cart is saved',
    'ShippingInformationManagementInterface::saveAddressInformation',
  ),
  orderPlaced: rule(
    'an order is placed for the cart, answering the order id',
    'CartManagementInterface::placeOrder',
    'int (order ID)',
  ),
  refund: rule(
    'a refund answers an int that names the credit memo it made, of the refunded order (the one thing a refund makes)',
    'refund for invoice or order',
    'RefundOrderInterface::execute (offline refund)',
    'RefundInvoiceInterface::execute',
  ),
  creditmemoRead: rule(
    'the credit memo read is the one the refund made: its entity_id, its order (and invoice), the items and quantities refunded',
    'CreditmemoRepositoryInterface::get — loads a credit memo',
    TYPE_HEADINGS.creditmemo,
  ),
  comment: rule(
    'a comment is added to the credit memo and listed with it',
    'CreditmemoCommentRepositoryInterface::save',
    'CreditmemoManagementInterface::getCommentsList',
    TYPE_HEADINGS.creditmemoComment,
  ),
  email: rule('the credit memo is emailed', 'CreditmemoManagementInterface::notify — emails the credit memo'),
  cancel: rule('the credit memo is cancelled', 'cancel credit memo (`PUT /V1/creditmemo/:id`)'),
} as const

export const CHECKOUT_RULES = {
  billingAssigned: rule(
    "a guest cart's billing address is assigned, answering the address id",
    'GuestBillingAddressManagementInterface::assign',
    'int (address ID)',
  ),
  useForShipping: rule(
    "useForShipping true makes the billing address the cart's shipping address too; false leaves the shipping address alone",
    '`address` (address object), `useForShipping` (boolean)',
  ),
  guestShipping: rule(
    'the shipping information of a guest cart is saved',
    'GuestShippingInformationManagementInterface::saveAddressInformation',
  ),
  guestOrder: rule(
    'an order is placed for the guest cart, with the billing address assigned to it',
    'GuestCartManagementInterface::placeOrder',
    'place order for a cart',
  ),
} as const

export const SELF_RULES = {
  mine: rule(
    "a customer's `mine` and `me` calls act on that customer's own cart and account only, whatever the body names",
    'A customer token works when the caller owns the resource (paths with `mine`)',
    "(self) = customer token for the caller's own resource, or an admin token",
  ),
} as const
