/**
 * What the valid requests of the catalog modules (catalog-products, catalog-attributes, eav, catalog-prices,
 * catalog-inventory-agreements) stand on: products, an attribute set with a group of its own, and a dropdown
 * product attribute with an option, all of the run's own and made once per session; in read-only mode, which
 * makes nothing, what the shop already has, found through its lists.
 *
 * What is made on a product or an attribute of the run's own (a media entry, a custom option, a link, an
 * attribute option) is not in the ledger as an entity of its own: the interface removes it by a path naming
 * two ids, which the ledger's one id cannot say, and the removal of the product or attribute removes it too.
 */
import { idText, SetupError, toId, type Product, type Provisioner } from '../provision.ts'
import { fit, runMark } from '../identifiers.ts'
import { isObject } from '../../base/is-object.ts'
import { firstListed, ownOrFound } from './shared.ts'
import { SEARCH_PAGE } from './search.ts'

/** A product of the run's own, made once per session under `label` (its name is the builders' for that label). */
export function ownProduct(fx: Provisioner, label: string): Promise<Product> {
  return fx.session.memo(`valid request: catalog product ${label}`, () => fx.product(`catalog ${label}`))
}

/** The fields a product of the run's own was made with (`CatalogMaker.product`): a save of the same values. */
export function productFields(fx: Provisioner, label: string, sku: string): Record<string, unknown> {
  const { name, price } = fx.builders.product(`catalog ${label}`)
  return { sku, name, price, status: 1, visibility: 4, type_id: 'simple', attribute_set_id: 4, weight: 1 }
}

/** A product to read: the run's own (`label`), or in read-only mode the first the shop lists. */
export function productToRead(fx: Provisioner, label: string): Promise<{ sku: string }> {
  return ownOrFound(
    fx,
    `catalog product to read ${label}`,
    () => ownProduct(fx, label),
    async () => {
      const found = await firstListed(fx, 'product', '/V1/products', SEARCH_PAGE)
      if (typeof found.sku !== 'string' || found.sku === '')
        throw new SetupError('find a product', 'the first product the shop lists has no sku')
      return { sku: found.sku }
    },
  )
}

/**
 * In read-only mode: a product the shop lists with at least one entry in `field` (`media_gallery_entries`,
 * `options`) and the id of its first, read from the entry's `idField`; a SetupError when none of the first 50 has one.
 */
export function listedProductWith(
  fx: Provisioner,
  field: string,
  idField: string,
): Promise<{ sku: string; id: number }> {
  return fx.session.memo(`valid request: a listed product with ${field}`, async () => {
    const step = `find a product with ${field}`
    const { answer } = await fx.call(step, {
      method: 'GET',
      path: '/V1/products',
      actor: 'admin',
      query: 'searchCriteria[pageSize]=50&searchCriteria[currentPage]=1',
    })
    const items = isObject(answer.body) && Array.isArray(answer.body.items) ? answer.body.items.filter(isObject) : []
    for (const item of items) {
      const entries = Array.isArray(item[field]) ? item[field].filter(isObject) : []
      const id = toId(entries[0]?.[idField])
      if (typeof item.sku === 'string' && id !== undefined) return { sku: item.sku, id }
    }
    throw new SetupError(step, `none of the first ${items.length} products the shop lists has ${field}`)
  })
}

/** The id of a product's stock item (`GET /V1/stockItems/:productSku`): what the stock item save names in its path. */
export function stockItemId(fx: Provisioner, sku: string): Promise<number> {
  return fx.session.memo(`valid request: stock item of ${sku}`, async () => {
    const step = `read the stock item of ${sku}`
    const { answer } = await fx.call(step, {
      method: 'GET',
      path: `/V1/stockItems/${encodeURIComponent(sku)}`,
      actor: 'admin',
    })
    const id = toId(isObject(answer.body) ? answer.body.item_id : undefined)
    if (id === undefined) throw new SetupError(step, `set-up step "${step}" answered no numeric item_id`)
    return id
  })
}

/** The product attribute set of the run's own (made through the Eav endpoint; the catalog's and Eav's sets are one). */
export function ownAttributeSet(fx: Provisioner): Promise<{ id: number; name: string }> {
  return fx.session.memo('valid request: catalog attribute set', () => fx.attributeSet('catalog own set'))
}

/** An attribute set to read: the run's own, or in read-only mode the first the list at `list` answers. */
export function attributeSetToRead(fx: Provisioner, list: string): Promise<{ id: number }> {
  return ownOrFound(
    fx,
    `attribute set to read from ${list}`,
    () => ownAttributeSet(fx),
    async () => {
      const found = await firstListed(fx, 'attribute set', list, SEARCH_PAGE)
      const id = toId(found.attribute_set_id)
      if (id === undefined)
        throw new SetupError(
          'find an attribute set',
          `the first attribute set ${list} lists has no numeric attribute_set_id`,
        )
      return { id }
    },
  )
}

/** A group of the run's own set (group names are unique per set): made once per session. */
export function ownAttributeGroup(fx: Provisioner): Promise<{ id: number; name: string; setId: number }> {
  return fx.session.memo('valid request: catalog attribute group', async () => {
    const set = await ownAttributeSet(fx)
    return attributeGroup(fx, set.id, 'catalog own group')
  })
}

/** The body of a new group of the set. */
export function groupDraft(fx: Provisioner, setId: number, label: string): Record<string, unknown> {
  return { attribute_group_name: fx.builders.name(`group ${label}`), attribute_set_id: setId }
}

export const groupIdOf = (body: unknown): string | undefined =>
  idText(isObject(body) ? body.attribute_group_id : undefined)

async function attributeGroup(
  fx: Provisioner,
  setId: number,
  label: string,
): Promise<{ id: number; name: string; setId: number }> {
  const group = groupDraft(fx, setId, label)
  const step = `create attribute group ${label}`
  const { answer } = await fx.create(
    step,
    { method: 'POST', path: '/V1/products/attribute-sets/groups', actor: 'admin', body: { group } },
    {
      kind: 'attribute group',
      label: `attribute group ${label}`,
      key: String(group.attribute_group_name),
      idOf: groupIdOf,
    },
  )
  const id = toId(isObject(answer.body) ? answer.body.attribute_group_id : undefined)
  if (id === undefined) throw new SetupError(step, `set-up step "${step}" answered no numeric attribute_group_id`)
  return { id, name: String(group.attribute_group_name), setId }
}

/**
 * A product attribute code of the run's: the platform's codes start with a letter and hold letters, digits and
 * underscores, at most 60 characters (its attribute code validator) — the run's mark with underscores.
 */
function attributeCode(fx: Provisioner, label: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_]/g, '_')
  return safe(fit(`${safe(runMark(fx.builders.runId))}_`, label, 60, '_'))
}

/** A dropdown attribute's body (`ProductAttributeInterface`): a store-wide, optional, user-defined select. */
export function attributeDraft(fx: Provisioner, label: string): Record<string, unknown> {
  const title = fx.builders.name(`attribute ${label}`)
  return {
    attribute_code: attributeCode(fx, label),
    frontend_input: 'select',
    default_frontend_label: title,
    frontend_labels: [{ store_id: 0, label: title }],
    is_required: false,
    scope: 'global',
  }
}

export const attributeCodeOf = (body: unknown): string | undefined =>
  isObject(body) && typeof body.attribute_code === 'string' && body.attribute_code !== ''
    ? body.attribute_code
    : undefined

/** The run's own dropdown attribute, made once per session: its code, and its id where the answer gave one. */
export function ownAttribute(fx: Provisioner): Promise<{ code: string; fields: Record<string, unknown> }> {
  return fx.session.memo('valid request: catalog product attribute', async () => {
    const attribute = attributeDraft(fx, 'catalog own attribute')
    const code = String(attribute.attribute_code)
    const step = 'create product attribute catalog own attribute'
    const { answer } = await fx.create(
      step,
      { method: 'POST', path: '/V1/products/attributes', actor: 'admin', body: { attribute } },
      {
        kind: 'product attribute',
        label: 'product attribute catalog own attribute',
        key: code,
        idOf: attributeCodeOf,
      },
    )
    // A save names the attribute by its id too: without one the platform takes it for a new attribute of a taken code.
    const id = toId(isObject(answer.body) ? answer.body.attribute_id : undefined)
    return { code, fields: { ...attribute, ...(id !== undefined ? { attribute_id: id } : {}) } }
  })
}

/** An attribute to read: the run's own, or in read-only mode `visibility`, a system dropdown every install has. */
export function attributeToRead(fx: Provisioner): Promise<string> {
  return ownOrFound(
    fx,
    'catalog attribute to read',
    async () => (await ownAttribute(fx)).code,
    () => Promise.resolve('visibility'),
  )
}

/** The body of a new option of an attribute (labels are unique per attribute). */
export function optionDraft(fx: Provisioner, label: string): Record<string, unknown> {
  return { label: fx.builders.name(`option ${label}`), sort_order: 1, is_default: false }
}

/** An option of the run's own attribute, made once per session: its id (the platform answers it as a digit string). */
export function ownAttributeOption(
  fx: Provisioner,
): Promise<{ code: string; id: number; option: Record<string, unknown> }> {
  return fx.session.memo('valid request: catalog attribute option', async () => {
    const { code } = await ownAttribute(fx)
    const option = optionDraft(fx, 'catalog own option')
    const step = 'add an option to the product attribute of the run'
    const path = `/V1/products/attributes/${encodeURIComponent(code)}/options`
    // Removed with the attribute (see the module comment).
    const { answer } = await fx.call(step, { method: 'POST', path, actor: 'admin', body: { option } })
    const id = toId(answer.body) ?? (await optionIdByLabel(fx, path, String(option.label)))
    if (id === undefined)
      throw new SetupError(
        step,
        `set-up step "${step}" answered no option id, and the attribute lists no option labelled ${String(option.label)}`,
      )
    return { code, id, option }
  })
}

async function optionIdByLabel(fx: Provisioner, path: string, label: string): Promise<number | undefined> {
  const { answer } = await fx.call('read the options of the product attribute of the run', {
    method: 'GET',
    path,
    actor: 'admin',
  })
  const found = Array.isArray(answer.body) ? answer.body.filter(isObject).find((o) => o.label === label) : undefined
  return toId(found?.value)
}
