/**
 * Valid requests of the Customer module, on customers and a customer group of the run's own (platform bodies as
 * its API tests send them: AccountManagementTest, CustomerRepositoryTest, GroupRepositoryTest,
 * CustomerGroupConfigTest). Customers are the run's own (never the configured customer); the shop's default
 * group is only ever set to itself. In read-only mode the GETs name what the shop's lists give, or what every
 * install has.
 */
import type { EndpointId } from '../../spec/endpoint-id.ts'
import { randomBytes } from 'node:crypto'
import { idText, SetupError, toId, type Actor, type MadeCustomer, type Provisioner } from '../provision.ts'
import { sendOnce } from '../setup-call.ts'
import { isObject } from '../../base/is-object.ts'
import { itemsOf, searchQuery } from '../../shop/lookup.ts'
import { fit, runMark } from '../identifiers.ts'
import { firstListed, ownCustomerActor, ownOrFound } from './shared.ts'
import type { RequestRecipe } from './types.ts'
import { SEARCH_PAGE } from './search.ts'
import { endpointId } from '../../spec/catalog/index.ts'

type Rec = Record<string, unknown>

const isGroupId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0

// ── customer groups ────────────────────────────────────────────────────────────────────────────────

/**
 * The shop's default customer group in the default scope, which `PUT /V1/customerGroups/default/:id` writes:
 * what store 0 (the admin store, on every install) reads.
 */
function defaultGroup(fx: Provisioner): Promise<Rec & { id: number }> {
  return fx.session.memo('valid request: default customer group', async () => {
    const { answer } = await fx.call(
      'read the default customer group',
      { method: 'GET', path: '/V1/customerGroups/default/0', actor: 'admin' },
      (a) => a.status === 200 && isObject(a.body) && isGroupId(a.body.id),
    )
    return answer.body as Rec & { id: number }
  })
}

/** Group codes are at most 32 characters on the platform (`Group::GROUP_CODE_MAX_LENGTH`). */
function groupDraft(fx: Provisioner, label: string, taxClassId: unknown): Rec {
  return { code: fit(`${runMark(fx.builders.runId)}-`, `customer group ${label}`, 32, '-'), tax_class_id: taxClassId }
}

const GROUP_CREATED = { kind: 'customer group', idOf: (b: unknown) => idText(isObject(b) ? b.id : undefined) } as const

/** The run's own customer group (the default group's tax class: a customer class every shop has), made once. */
function ownGroup(fx: Provisioner): Promise<Rec & { id: number }> {
  return ownOrFound(
    fx,
    'customer group',
    async () => {
      const group = groupDraft(fx, 'shared', (await defaultGroup(fx)).tax_class_id)
      const step = 'create a customer group'
      const { answer } = await fx.create(
        step,
        { method: 'POST', path: '/V1/customerGroups', actor: 'admin', body: { group } },
        { ...GROUP_CREATED, label: 'customer group shared', key: String(group.code) },
      )
      const id = toId(isObject(answer.body) ? answer.body.id : undefined)
      if (id === undefined) throw new SetupError(step, `set-up step "${step}" answered no numeric id`)
      return { ...group, id }
    },
    async () => {
      const found = await firstListed(fx, 'customer group', '/V1/customerGroups/search', SEARCH_PAGE)
      if (!isGroupId(found.id))
        throw new SetupError('find a customer group', 'the first customer group the shop lists has no numeric id')
      return { ...found, id: found.id }
    },
  )
}

// ── customers ──────────────────────────────────────────────────────────────────────────────────────

async function readCustomer(fx: Provisioner, id: number): Promise<Rec> {
  const { answer } = await fx.call(
    'read the customer',
    { method: 'GET', path: `/V1/customers/${id}`, actor: 'admin' },
    (a) => a.status === 200 && isObject(a.body),
  )
  return answer.body as Rec
}

/** A customer of the run's own with one address, its default billing and shipping address. */
interface AddressedCustomer {
  customer: MadeCustomer
  addressId: number
}

function addressedCustomer(fx: Provisioner): Promise<AddressedCustomer> {
  return fx.session.memo('valid request: addressed customer', async () => {
    const customer = await fx.customer('addressed customer')
    const a = fx.builders.address('addressed customer', customer.email)
    // A customer address names its region as an object (the cart addresses name it by a string).
    const address = {
      firstname: a.firstname,
      lastname: a.lastname,
      street: a.street,
      city: a.city,
      postcode: a.postcode,
      country_id: a.country_id,
      region_id: a.region_id,
      region: { region: a.region, region_code: a.region_code, region_id: a.region_id },
      telephone: a.telephone,
      default_billing: true,
      default_shipping: true,
    }
    const step = 'give the customer an address'
    const record = await readCustomer(fx, customer.id)
    const { answer } = await fx.call(step, {
      method: 'PUT',
      path: `/V1/customers/${customer.id}`,
      actor: 'admin',
      body: { customer: { ...record, addresses: [address] } },
    })
    const addresses = isObject(answer.body) && Array.isArray(answer.body.addresses) ? answer.body.addresses : []
    const addressId = toId(isObject(addresses[0]) ? addresses[0].id : undefined)
    if (addressId === undefined)
      throw new SetupError(step, `set-up step "${step}" answered a customer without an address id`)
    return { customer, addressId }
  })
}

/**
 * The customer the admin's customer GETs name: the run's own with an address; in read-only mode the first the
 * shop lists with an address (else the first it lists, whose address GETs cannot be made).
 */
function customerToRead(fx: Provisioner): Promise<{ id: number; addressId?: number }> {
  return ownOrFound(
    fx,
    'customer to read',
    async () => {
      const own = await addressedCustomer(fx)
      return { id: own.customer.id, addressId: own.addressId }
    },
    async () => {
      const outcome = await sendOnce(
        fx.session,
        {
          method: 'GET',
          path: '/V1/customers/search',
          actor: 'admin',
          query: searchQuery([], { size: 50, current: 1 }),
        },
        fx.tokenOf('admin'),
      )
      const items = itemsOf(outcome) ?? []
      const withAddress = items.find(
        (c) => Array.isArray(c.addresses) && c.addresses.some((x) => isObject(x) && toId(x.id) !== undefined),
      )
      const chosen = withAddress ?? items[0]
      const id = toId(chosen?.id)
      if (chosen === undefined || id === undefined)
        throw new SetupError(
          'find a customer',
          `no customer to name: GET /V1/customers/search listed none (${outcome.answer?.status ?? outcome.failure?.message})`,
          outcome.exchange,
        )
      const address: unknown = Array.isArray(chosen.addresses)
        ? chosen.addresses.find((x) => isObject(x) && toId(x.id) !== undefined)
        : undefined
      const addressId = isObject(address) ? toId(address.id) : undefined
      return { id, ...(addressId !== undefined ? { addressId } : {}) }
    },
  )
}

/** Who reads the `me` addresses: the run's customer with an address; in read-only mode the configured one. */
async function addressedActor(fx: Provisioner): Promise<Actor> {
  return fx.session.seed.readOnly ? ownCustomerActor(fx) : { token: (await addressedCustomer(fx)).customer.token }
}

/**
 * Gives a customer of the run's own an activation key, as an admin's save of the customer can (the platform's
 * AccountManagementTest does so before activating): what the activation and the resent confirmation e-mail need
 * on a shop that does not ask new accounts for a confirmation.
 */
async function newConfirmationKey(fx: Provisioner, customer: MadeCustomer): Promise<{ key: string; record: Rec }> {
  const key = randomBytes(16).toString('hex')
  const record = await readCustomer(fx, customer.id)
  await fx.call('give the customer an activation key', {
    method: 'PUT',
    path: `/V1/customers/${customer.id}`,
    actor: 'admin',
    body: { customer: { ...record, confirmation: key } },
  })
  return { key, record }
}

/** A customer of the run's own for one endpoint's activations (each sets a key on its own customer). */
function activationCustomer(fx: Provisioner, of: string): Promise<MadeCustomer> {
  return fx.session.memo(`valid request: customer to activate by ${of}`, () => fx.customer(`activate by ${of}`))
}

// ── the recipes ────────────────────────────────────────────────────────────────────────────────────

const byCustomerId = (endpoint: EndpointId): RequestRecipe => ({
  endpoint,
  prepare: async (fx) => ({ actor: 'admin', path: { customerId: (await customerToRead(fx)).id } }),
})

/**
 * Attribute codes and form codes every install has: the customer's `firstname`, the address's `city`, and the
 * account-edit and address-edit forms (the platform's install data puts them there).
 */
const METADATA: { endpoint: EndpointId; path: Record<string, string> }[] = [
  {
    endpoint: endpointId('GET /V1/attributeMetadata/customer/attribute/:attributeCode'),
    path: { attributeCode: 'firstname' },
  },
  {
    endpoint: endpointId('GET /V1/attributeMetadata/customer/form/:formCode'),
    path: { formCode: 'customer_account_edit' },
  },
  {
    endpoint: endpointId('GET /V1/attributeMetadata/customerAddress/attribute/:attributeCode'),
    path: { attributeCode: 'city' },
  },
  {
    endpoint: endpointId('GET /V1/attributeMetadata/customerAddress/form/:formCode'),
    path: { formCode: 'customer_address_edit' },
  },
]

export const customerRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('POST /V1/customerGroups'),
    prepare: async (fx, label) => ({
      actor: 'admin',
      path: {},
      body: { group: groupDraft(fx, label, (await defaultGroup(fx)).tax_class_id) },
    }),
    creates: { ...GROUP_CREATED, keyOf: (body) => (isObject(body.group) ? String(body.group.code) : undefined) },
  },
  {
    endpoint: endpointId('PUT /V1/customerGroups/:id'),
    // The run's own group saved with the values it has: every caller may send it.
    again: 'reuse',
    prepare: async (fx) => {
      const own = await ownGroup(fx)
      return {
        actor: 'admin',
        path: { id: own.id },
        body: { group: { id: own.id, code: own.code, tax_class_id: own.tax_class_id } },
      }
    },
  },
  {
    endpoint: endpointId('PUT /V1/customerGroups/default/:id'),
    // The shop's default group set as the default again: changes nothing, whoever sends it.
    again: 'reuse',
    prepare: async (fx) => ({ actor: 'admin', path: { id: (await defaultGroup(fx)).id } }),
  },
  {
    endpoint: endpointId('GET /V1/customerGroups/:id'),
    prepare: async (fx) => ({ actor: 'admin', path: { id: (await ownGroup(fx)).id } }),
  },
  {
    endpoint: endpointId('GET /V1/customerGroups/:id/permissions'),
    prepare: async (fx) => ({ actor: 'admin', path: { id: (await ownGroup(fx)).id } }),
  },
  // Store 1 is the default store view, made at install (the platform does not delete a default store view).
  {
    endpoint: endpointId('GET /V1/customerGroups/default/:storeId'),
    prepare: () => Promise.resolve({ actor: 'admin', path: { storeId: 1 } }),
  },
  {
    endpoint: endpointId('POST /V1/customers/confirm'),
    // Sends the confirmation e-mail (to the run's own address on the reserved domain) again: nothing is used up.
    again: 'reuse',
    prepare: async (fx) => {
      const { customer, websiteId } = await fx.session.memo('valid request: customer to confirm', async () => {
        const customer = await fx.customer('confirm by e-mail')
        return { customer, websiteId: (await newConfirmationKey(fx, customer)).record.website_id }
      })
      return { actor: 'admin', path: {}, body: { email: customer.email, websiteId } }
    },
  },
  {
    endpoint: endpointId('PUT /V1/customers/:customerId'),
    // The run's own customer saved as it is.
    again: 'reuse',
    prepare: async (fx) => {
      const { customer } = await addressedCustomer(fx)
      return {
        actor: 'admin',
        path: { customerId: customer.id },
        body: { customer: await readCustomer(fx, customer.id) },
      }
    },
  },
  {
    endpoint: endpointId('PUT /V1/customers/:email/activate'),
    // An activation uses its key up: each caller's success is followed by a new key.
    prepare: async (fx) => {
      const customer = await activationCustomer(fx, 'e-mail')
      return {
        actor: 'admin',
        path: { email: customer.email },
        body: { confirmationKey: (await newConfirmationKey(fx, customer)).key },
      }
    },
  },
  {
    endpoint: endpointId('PUT /V1/customers/me'),
    again: 'reuse',
    prepare: async (fx) => {
      const { customer } = await addressedCustomer(fx)
      const { answer } = await fx.call(
        'read the customer as the customer',
        { method: 'GET', path: '/V1/customers/me', actor: { token: customer.token } },
        (a) => a.status === 200 && isObject(a.body),
      )
      return { actor: { token: customer.token }, path: {}, body: { customer: answer.body as Rec } }
    },
  },
  {
    endpoint: endpointId('PUT /V1/customers/me/activate'),
    prepare: async (fx) => {
      const customer = await activationCustomer(fx, 'token')
      return {
        actor: { token: customer.token },
        path: {},
        body: { confirmationKey: (await newConfirmationKey(fx, customer)).key },
      }
    },
  },
  {
    endpoint: endpointId('PUT /V1/customers/me/password'),
    // A customer of its own each time: a success changes the password the request names.
    prepare: async (fx, label) => {
      const customer = await fx.customer(`new password ${label}`)
      const newPassword = `${randomBytes(12).toString('base64url')}bB2#`
      fx.session.secrets.add(newPassword, 'customer password')
      return { actor: { token: customer.token }, path: {}, body: { currentPassword: customer.password, newPassword } }
    },
  },
  {
    endpoint: endpointId('PUT /V1/customers/validate'),
    // Validates the run's own customer's data: writes nothing.
    again: 'reuse',
    prepare: async (fx) => ({
      actor: 'admin',
      path: {},
      body: { customer: await readCustomer(fx, (await addressedCustomer(fx)).customer.id) },
    }),
  },
  byCustomerId(endpointId('GET /V1/customers/:customerId')),
  byCustomerId(endpointId('GET /V1/customers/:customerId/billingAddress')),
  byCustomerId(endpointId('GET /V1/customers/:customerId/shippingAddress')),
  byCustomerId(endpointId('GET /V1/customers/:customerId/confirm')),
  byCustomerId(endpointId('GET /V1/customers/:customerId/permissions/readonly')),
  {
    endpoint: endpointId('GET /V1/customers/addresses/:addressId'),
    prepare: async (fx) => {
      const { addressId } = await customerToRead(fx)
      if (addressId === undefined)
        throw new SetupError('find a customer address', 'no customer the shop lists has an address')
      return { actor: 'admin', path: { addressId } }
    },
  },
  {
    endpoint: endpointId('GET /V1/customers/me/billingAddress'),
    prepare: async (fx) => ({ actor: await addressedActor(fx), path: {} }),
  },
  {
    endpoint: endpointId('GET /V1/customers/me/shippingAddress'),
    prepare: async (fx) => ({ actor: await addressedActor(fx), path: {} }),
  },
  ...METADATA.map(
    ({ endpoint, path }): RequestRecipe => ({ endpoint, prepare: () => Promise.resolve({ actor: 'admin', path }) }),
  ),
]
