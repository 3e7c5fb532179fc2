/**
 * Valid requests of the catalog-products module: products of the run's own, saved, read, linked to one another,
 * given an image, a website and a custom option (platform bodies, after its API tests: `product`, `items` and
 * `entity` of product links, `entry` of a media gallery entry, `productWebsiteLink`, `option`). In read-only
 * mode the reads name a product the shop lists.
 */
import type { Provisioner } from '../provision.ts'
import { SetupError, toId } from '../provision.ts'
import { isObject } from '../../base/is-object.ts'
import { ownOrFound } from './shared.ts'
import type { RequestRecipe } from './types.ts'
import { listedProductWith, ownProduct, productFields, productToRead } from './catalog-own.ts'
import { endpointId } from '../../spec/catalog/index.ts'

/** The run's own product the reads and saves of this module name (made once per session). */
const OWN = 'products own'
/** The run's own product the links point to. */
const LINKED = 'products linked'

/** A product body as `CatalogMaker.product` makes one (platform conventions, "Set-up calls"). */
function productDraft(fx: Provisioner, label: string): Record<string, unknown> {
  const { sku, name, price } = fx.builders.product(`catalog ${label}`)
  return {
    sku,
    name,
    price,
    status: 1,
    visibility: 4,
    type_id: 'simple',
    attribute_set_id: 4,
    weight: 1,
    extension_attributes: { stock_item: { qty: 100, is_in_stock: true } },
  }
}

/**
 * A related-product link from a product of its own (made for this request: `label`) to another of the run's
 * (`ProductLinkInterface`). A link saved is used up for the next caller (a real shop opened to every caller answered
 * the admin's save, after the others', with an error): each request names a product no other request writes.
 */
async function relatedLink(fx: Provisioner, label: string): Promise<Record<string, unknown>> {
  const [own, linked] = await Promise.all([fx.product(`catalog link ${label}`), ownProduct(fx, LINKED)])
  return {
    sku: own.sku,
    link_type: 'related',
    linked_product_sku: linked.sku,
    linked_product_type: 'simple',
    position: 1,
  }
}

/**
 * A 4×4 RGB PNG of four coloured squares (94 bytes, written by an image library, Pillow): a genuine image any
 * image library opens, which the platform's image content validator and its re-render of uploads take
 * (catalog-products.test.ts decodes it).
 */
export const SMALL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAJUlEQVR42mM0TjvDwMBwZqYxAwMDEwMSYDxjbMzAwJCexoAuAwC43gUDu2BgNgAAAABJRU5ErkJggg=='

function mediaDraft(fx: Provisioner, label: string): Record<string, unknown> {
  return {
    media_type: 'image',
    label: fx.builders.name(`image ${label}`),
    position: 1,
    disabled: false,
    types: [],
    content: { base64_encoded_data: SMALL_PNG, type: 'image/png', name: `${fx.builders.code(`image ${label}`)}.png` },
  }
}

/** An image of the run's own product, added once per session (removed with the product): its entry id and fields. */
function ownMediaEntry(fx: Provisioner): Promise<{ sku: string; id: number; entry: Record<string, unknown> }> {
  return fx.session.memo('valid request: catalog media entry', async () => {
    const { sku } = await ownProduct(fx, OWN)
    const entry = mediaDraft(fx, 'own')
    const step = 'add an image to the product of the run'
    const { answer } = await fx.call(step, {
      method: 'POST',
      path: `/V1/products/${encodeURIComponent(sku)}/media`,
      actor: 'admin',
      body: { entry },
    })
    const id = toId(answer.body)
    if (id === undefined) throw new SetupError(step, `set-up step "${step}" answered no numeric entry id`)
    const { content: _content, ...fields } = entry
    return { sku, id, entry: fields }
  })
}

/** A media entry to read: the run's own, or in read-only mode the first of a product the shop lists with one. */
function mediaEntryToRead(fx: Provisioner): Promise<{ sku: string; id: number }> {
  return ownOrFound(
    fx,
    'catalog media entry to read',
    () => ownMediaEntry(fx),
    () => listedProductWith(fx, 'media_gallery_entries', 'id'),
  )
}

/** A text-field custom option (`ProductCustomOptionInterface`), optional so the product stays buyable as it is. */
function optionDraft(fx: Provisioner, sku: string, label: string): Record<string, unknown> {
  return {
    product_sku: sku,
    title: fx.builders.name(`custom option ${label}`),
    type: 'field',
    sort_order: 1,
    is_require: false,
    price: 1.5,
    price_type: 'fixed',
    max_characters: 20,
  }
}

/** A custom option of the run's own product, added once per session (removed with the product). */
function ownCustomOption(fx: Provisioner): Promise<{ sku: string; id: number; option: Record<string, unknown> }> {
  return fx.session.memo('valid request: catalog custom option', async () => {
    const { sku } = await ownProduct(fx, OWN)
    const option = optionDraft(fx, sku, 'own')
    const step = 'add a custom option to the product of the run'
    const { answer } = await fx.call(step, {
      method: 'POST',
      path: '/V1/products/options',
      actor: 'admin',
      body: { option },
    })
    const id = toId(isObject(answer.body) ? answer.body.option_id : undefined)
    if (id === undefined) throw new SetupError(step, `set-up step "${step}" answered no numeric option_id`)
    return { sku, id, option }
  })
}

function customOptionToRead(fx: Provisioner): Promise<{ sku: string; id: number }> {
  return ownOrFound(
    fx,
    'catalog custom option to read',
    () => ownCustomOption(fx),
    () => listedProductWith(fx, 'options', 'option_id'),
  )
}

/** The related link type: every install has it (`GET /V1/products/links/types`). */
const RELATED = 'related'

export const catalogProductsRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('POST /V1/products'),
    prepare: (fx, label) => Promise.resolve({ actor: 'admin', path: {}, body: { product: productDraft(fx, label) } }),
    creates: {
      kind: 'product',
      idOf: (b) => (isObject(b) && typeof b.sku === 'string' && b.sku !== '' ? b.sku : undefined),
      keyOf: (body) => (isObject(body.product) && typeof body.product.sku === 'string' ? body.product.sku : undefined),
    },
  },
  {
    endpoint: endpointId('PUT /V1/products/:sku'),
    // The product's own values again: every caller may send it.
    again: 'reuse',
    prepare: async (fx) => {
      const { sku } = await ownProduct(fx, OWN)
      return { actor: 'admin', path: { sku }, body: { product: productFields(fx, OWN, sku) } }
    },
  },
  {
    endpoint: endpointId('GET /V1/products/:sku'),
    prepare: async (fx) => ({ actor: 'admin', path: { sku: (await productToRead(fx, OWN)).sku } }),
  },
  {
    endpoint: endpointId('POST /V1/products/:sku/links'),
    prepare: async (fx, label) => {
      const link = await relatedLink(fx, label)
      return { actor: 'admin', path: { sku: String(link.sku) }, body: { items: [link] } }
    },
  },
  {
    endpoint: endpointId('PUT /V1/products/:sku/links'),
    prepare: async (fx, label) => {
      const link = await relatedLink(fx, label)
      return { actor: 'admin', path: { sku: String(link.sku) }, body: { entity: link } }
    },
  },
  {
    endpoint: endpointId('GET /V1/products/:sku/links/:type'),
    prepare: async (fx) => ({ actor: 'admin', path: { sku: (await productToRead(fx, OWN)).sku, type: RELATED } }),
  },
  {
    endpoint: endpointId('GET /V1/products/links/:type/attributes'),
    prepare: () => Promise.resolve({ actor: 'admin', path: { type: RELATED } }),
  },
  {
    endpoint: endpointId('POST /V1/products/:sku/media'),
    // The first image of a product of its own each time: a real 2.4.7 took the first image of the run's product and
    // answered the second, added under the store view while other writes of that product were in flight, 400 "The
    // product can't be saved.". Each success adds an image: the next caller's request is prepared afresh.
    prepare: async (fx, label) => ({
      actor: 'admin',
      path: { sku: (await fx.product(`catalog image ${label}`)).sku },
      body: { entry: mediaDraft(fx, label) },
    }),
  },
  {
    endpoint: endpointId('PUT /V1/products/:sku/media/:entryId'),
    again: 'reuse',
    prepare: async (fx) => {
      const { sku, id, entry } = await ownMediaEntry(fx)
      return { actor: 'admin', path: { sku, entryId: id }, body: { entry: { id, ...entry } } }
    },
  },
  {
    endpoint: endpointId('GET /V1/products/:sku/media'),
    prepare: async (fx) => ({ actor: 'admin', path: { sku: (await productToRead(fx, OWN)).sku } }),
  },
  {
    endpoint: endpointId('GET /V1/products/:sku/media/:entryId'),
    prepare: async (fx) => {
      const { sku, id } = await mediaEntryToRead(fx)
      return { actor: 'admin', path: { sku, entryId: id } }
    },
  },
  {
    endpoint: endpointId('GET /V1/products/media/types/:attributeSetName'),
    // The product attribute set every install has: "Default" (id 4).
    prepare: () => Promise.resolve({ actor: 'admin', path: { attributeSetName: 'Default' } }),
  },
  ...(['POST', 'PUT'] as const).map(
    (method): RequestRecipe => ({
      endpoint: endpointId(`${method} /V1/products/:sku/websites`),
      // The main website (id 1, on every install), for a product of its own each time: an assignment made is used up
      // (a real shop opened to every caller answered the admin, after the others had assigned the product, 400
      // "Could not assign product … to websites"), and no other request writes that product meanwhile.
      prepare: async (fx, label) => {
        const { sku } = await fx.product(`catalog website ${label}`)
        return { actor: 'admin', path: { sku }, body: { productWebsiteLink: { sku, website_id: 1 } } }
      },
    }),
  ),
  {
    endpoint: endpointId('POST /V1/products/options'),
    // Each success adds another option to the run's product (removed with it).
    prepare: async (fx, label) => ({
      actor: 'admin',
      path: {},
      body: { option: optionDraft(fx, (await ownProduct(fx, OWN)).sku, label) },
    }),
  },
  {
    endpoint: endpointId('PUT /V1/products/options/:optionId'),
    again: 'reuse',
    prepare: async (fx) => {
      const { id, option } = await ownCustomOption(fx)
      return { actor: 'admin', path: { optionId: id }, body: { option: { ...option, option_id: id } } }
    },
  },
  {
    endpoint: endpointId('GET /V1/products/:sku/options'),
    prepare: async (fx) => ({ actor: 'admin', path: { sku: (await productToRead(fx, OWN)).sku } }),
  },
  {
    endpoint: endpointId('GET /V1/products/:sku/options/:optionId'),
    prepare: async (fx) => {
      const { sku, id } = await customOptionToRead(fx)
      return { actor: 'admin', path: { sku, optionId: id } }
    },
  },
]
