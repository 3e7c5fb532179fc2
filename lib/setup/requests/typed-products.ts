/**
 * Products of the run's own of a type or attribute set the provisioner's simple products do not have (bundle,
 * downloadable, configurable; a configurable's children), made as the provisioner makes its simple products (platform
 * body `product` {sku, name, price, type_id, attribute_set_id, …}; in the ledger before the call, found by sku after an
 * answer that never came, removed by the cleanup with `DELETE /V1/products/:sku`, which removes their options, links
 * and samples with them). Disabled and not visible on their own: no storefront of a real shop shows them. In read-only
 * mode a request names one the shop lists.
 */
import { SetupError, type Product, type Provisioner } from '../provision.ts'
import { searchQuery } from '../../shop/lookup.ts'
import { firstListed } from './shared.ts'

type ProductType = 'simple' | 'bundle' | 'downloadable' | 'configurable'

/**
 * Makes a product of the type: `extra` adds to (or replaces) the body's fields, e.g. `attribute_set_id`,
 * `custom_attributes`.
 */
export async function typedProduct(
  fx: Provisioner,
  label: string,
  type: ProductType,
  extra: Record<string, unknown> = {},
): Promise<Product> {
  const draft = fx.builders.product(label)
  const product = {
    sku: draft.sku,
    name: draft.name,
    price: draft.price,
    status: 2,
    visibility: 1,
    type_id: type,
    attribute_set_id: 4,
    ...extra,
  }
  await fx.create(
    `create ${type} product ${label}`,
    { method: 'POST', path: '/V1/products', actor: 'admin', body: { product } },
    {
      kind: 'product',
      label: `product ${label}`,
      key: draft.sku,
      find: fx.find('product', draft.sku),
      idOf: () => draft.sku,
    },
  )
  return { sku: draft.sku, price: draft.price }
}

/**
 * The sku of the first product of the type the shop lists (read-only mode's requests); a shop that has none leaves
 * no valid request to make (SetupError `no-valid-request`).
 */
export async function listedProduct(fx: Provisioner, type: ProductType): Promise<string> {
  const step = `find a ${type} product`
  const found = await firstListed(
    fx,
    `${type} product`,
    '/V1/products',
    searchQuery([['type_id', type, 'eq']], { size: 5, current: 1 }),
  ).catch((err: unknown) => {
    throw err instanceof SetupError
      ? new SetupError(step, `${err.message}; read-only mode makes none`, err.exchanges, 'no-valid-request')
      : err
  })
  if (typeof found.sku !== 'string' || found.type_id !== type)
    throw new SetupError(
      step,
      `the first product the shop lists for type_id ${type} is no ${type} product with a sku: ${JSON.stringify(found).slice(0, 200)}`,
    )
  return found.sku
}
