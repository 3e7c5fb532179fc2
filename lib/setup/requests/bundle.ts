/**
 * Valid requests of the Bundle module: a bundle product of the run's own (fixed price), an option of it and a child
 * product of the run's in that option, made through the module's own calls (platform bodies: `option` {sku, title,
 * type, required, position, product_links}; `linkedProduct` {sku, option_id, qty, price, price_type, is_default,
 * can_change_quantity, position}); all removed with the products. In read-only mode the reads name the first bundle
 * product the shop lists, and its first option.
 */
import { SetupError, toId, type Provisioner } from '../provision.ts'
import { ownOrFound } from './shared.ts'
import type { RequestRecipe } from './types.ts'
import { listedProduct, typedProduct } from './typed-products.ts'
import { endpointId } from '../../spec/catalog/index.ts'

/**
 * A bundle product of the run's own (a fixed price: its children's prices are the link's own), one per purpose: the
 * `shared` one the option and child calls write, and one whose child link only the link save names — a save of the
 * bundle's options rewrites their links from what it read (a real 2.4.7's link of the shared bundle was gone when
 * the link save, sent beside those calls, named it: 400 "The product link with the "1" ID field wasn't found").
 */
function ownBundle(fx: Provisioner, purpose = 'shared'): Promise<string> {
  return fx.session.memo(`valid request: own bundle product ${purpose}`, async () => {
    const bundle = await typedProduct(fx, purpose === 'shared' ? 'bundle' : `bundle ${purpose}`, 'bundle', {
      custom_attributes: [
        { attribute_code: 'price_type', value: 1 },
        { attribute_code: 'price_view', value: 0 },
      ],
    })
    return bundle.sku
  })
}

function optionDraft(fx: Provisioner, sku: string, label: string, position: number): Record<string, unknown> {
  return {
    sku,
    title: fx.builders.name(`bundle option ${label}`),
    type: 'select',
    required: true,
    position,
    product_links: [],
  }
}

/** The run's option of its bundle (of that purpose): its id and what it was made with. */
function ownOption(fx: Provisioner, purpose = 'shared'): Promise<{ id: number; body: Record<string, unknown> }> {
  return fx.session.memo(`valid request: own bundle option ${purpose}`, async () => {
    const option = optionDraft(fx, await ownBundle(fx, purpose), purpose, 1)
    const step = 'add an option to the bundle'
    const { answer } = await fx.call(step, {
      method: 'POST',
      path: '/V1/bundle-products/options/add',
      actor: 'admin',
      body: { option },
    })
    const id = toId(answer.body)
    if (id === undefined)
      throw new SetupError(step, `set-up step "${step}" answered no option id: ${JSON.stringify(answer.body)}`)
    // A save that lists `product_links` replaces the option's children with them: the save leaves them out.
    const { product_links: _links, ...fields } = option
    return { id, body: { ...fields, option_id: id } }
  })
}

/** The purpose of the bundle whose link the link save names. */
const LINK_SAVE = 'link save'

function linkDraft(sku: string, optionId: number, position: number): Record<string, unknown> {
  return {
    sku,
    option_id: optionId,
    qty: 1,
    price: 1,
    price_type: 0,
    is_default: position === 1,
    can_change_quantity: 0,
    position,
  }
}

/** The run's child product in its bundle's option (of that purpose): the link's id and what it was made with. */
function ownLink(fx: Provisioner, purpose = 'shared'): Promise<{ id: number; body: Record<string, unknown> }> {
  return fx.session.memo(`valid request: own bundle link ${purpose}`, async () => {
    const [sku, option, child] = await Promise.all([
      ownBundle(fx, purpose),
      ownOption(fx, purpose),
      fx.product(purpose === 'shared' ? 'bundle child' : `bundle child ${purpose}`),
    ])
    const linkedProduct = linkDraft(child.sku, option.id, 1)
    const step = 'add a child to the bundle'
    const { answer } = await fx.call(step, {
      method: 'POST',
      path: `/V1/bundle-products/${encodeURIComponent(sku)}/links/${option.id}`,
      actor: 'admin',
      body: { linkedProduct },
    })
    const id = toId(answer.body)
    if (id === undefined)
      throw new SetupError(step, `set-up step "${step}" answered no link id: ${JSON.stringify(answer.body)}`)
    return { id, body: { ...linkedProduct, id } }
  })
}

/** The bundle a read names: the run's, or in read-only mode the first the shop lists. */
function bundleToRead(fx: Provisioner): Promise<string> {
  return ownOrFound(
    fx,
    'bundle product to read',
    () => ownBundle(fx),
    () => listedProduct(fx, 'bundle'),
  )
}

/** An option of the bundle a read names: the run's, or in read-only mode the listed bundle's first. */
function optionToRead(fx: Provisioner): Promise<{ sku: string; optionId: number }> {
  return ownOrFound(
    fx,
    'bundle option to read',
    async () => ({ sku: await ownBundle(fx), optionId: (await ownOption(fx)).id }),
    async () => {
      const sku = await listedProduct(fx, 'bundle')
      const step = 'find an option of the listed bundle'
      const { answer } = await fx.call(step, {
        method: 'GET',
        path: `/V1/bundle-products/${encodeURIComponent(sku)}/options/all`,
        actor: 'admin',
      })
      const optionId = Array.isArray(answer.body)
        ? answer.body.map((o) => toId((o as { option_id?: unknown })?.option_id)).find((i) => i !== undefined)
        : undefined
      if (optionId === undefined)
        throw new SetupError(step, `the bundle ${sku} the shop lists has no option`, [], 'no-valid-request')
      return { sku, optionId }
    },
  )
}

export const bundleRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('POST /V1/bundle-products/options/add'),
    // Each success adds an option to the run's bundle (removed with it).
    prepare: async (fx, label) => ({
      actor: 'admin',
      path: {},
      body: { option: optionDraft(fx, await ownBundle(fx), label, 2) },
    }),
  },
  {
    endpoint: endpointId('PUT /V1/bundle-products/options/:optionId'),
    // The option saved again with the values it was made with (its children untouched).
    again: 'reuse',
    prepare: async (fx) => {
      const option = await ownOption(fx)
      return { actor: 'admin', path: { optionId: option.id }, body: { option: option.body } }
    },
  },
  {
    endpoint: endpointId('POST /V1/bundle-products/:sku/links/:optionId'),
    // A child is in an option once: each caller's request names a new product of the run's.
    prepare: async (fx, label) => {
      const [sku, option, child] = await Promise.all([
        ownBundle(fx),
        ownOption(fx),
        fx.product(`bundle child ${label}`),
      ])
      return {
        actor: 'admin',
        path: { sku, optionId: option.id },
        body: { linkedProduct: linkDraft(child.sku, option.id, 2) },
      }
    },
  },
  {
    endpoint: endpointId('PUT /V1/bundle-products/:sku/links/:id'),
    // The link saved again with the values it was made with, in a bundle no other request writes.
    again: 'reuse',
    prepare: async (fx) => {
      const [sku, link] = await Promise.all([ownBundle(fx, LINK_SAVE), ownLink(fx, LINK_SAVE)])
      return { actor: 'admin', path: { sku, id: link.id }, body: { linkedProduct: link.body } }
    },
  },
  {
    endpoint: endpointId('GET /V1/bundle-products/:productSku/children'),
    prepare: async (fx) => {
      // The run's bundle with its child in it (made once).
      if (!fx.session.seed.readOnly) await ownLink(fx)
      return { actor: 'admin', path: { productSku: await bundleToRead(fx) } }
    },
  },
  {
    endpoint: endpointId('GET /V1/bundle-products/:sku/options/all'),
    prepare: async (fx) => ({ actor: 'admin', path: { sku: await bundleToRead(fx) } }),
  },
  {
    endpoint: endpointId('GET /V1/bundle-products/:sku/options/:optionId'),
    prepare: async (fx) => {
      const { sku, optionId } = await optionToRead(fx)
      return { actor: 'admin', path: { sku, optionId } }
    },
  },
]
