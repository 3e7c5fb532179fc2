/**
 * Valid requests of the catalog's category endpoints: categories of the run's own under the default category (id 2,
 * "Default Category", the default store's root on every install), inactive and out of the menu so that a shop's
 * storefront never shows them, with a product of the run's assigned; removed by the cleanup (`DELETE
 * /V1/categories/:id`). Platform bodies: `category` {name, parent_id, is_active, include_in_menu}; `productLink`
 * {sku, position, category_id} (the platform takes the category from `category_id`, the path only on PUT);
 * `parentId` for a move. In read-only mode the reads name the default category, and attributes every install has.
 */
import { SetupError, idText, toId, type Provisioner } from '../provision.ts'
import { isObject } from '../../base/is-object.ts'
import { ownOrFound } from './shared.ts'
import type { RequestRecipe } from './types.ts'
import { endpointId } from '../../spec/catalog/index.ts'

/** The default store's root category on every install. */
const DEFAULT_CATEGORY = 2
/** Category attributes of every install: `name` (a text field) and `display_mode` (a select with options). */
const TEXT_ATTRIBUTE = 'name'
const SELECT_ATTRIBUTE = 'display_mode'

type CategoryBody = Record<string, unknown> & { name: string; parent_id: number }

function categoryDraft(fx: Provisioner, label: string, parentId = DEFAULT_CATEGORY): CategoryBody {
  return { name: fx.builders.name(`category ${label}`), parent_id: parentId, is_active: false, include_in_menu: false }
}

/** Makes a category of the run's own: its id and what it was made with. */
async function makeCategory(
  fx: Provisioner,
  label: string,
  parentId = DEFAULT_CATEGORY,
): Promise<{ id: number; body: CategoryBody }> {
  const category = categoryDraft(fx, label, parentId)
  const step = `create category ${label}`
  const { answer } = await fx.create(
    step,
    { method: 'POST', path: '/V1/categories', actor: 'admin', body: { category } },
    {
      kind: 'category',
      label: `category ${label}`,
      key: category.name,
      idOf: (b) => idText(isObject(b) ? b.id : undefined),
    },
  )
  const id = toId(isObject(answer.body) ? answer.body.id : undefined)
  if (id === undefined) throw new SetupError(step, `set-up step "${step}" answered no numeric id`)
  return { id, body: { ...category, id } }
}

/** The run's category, made once. */
function ownCategory(fx: Provisioner): Promise<{ id: number; body: CategoryBody }> {
  return fx.session.memo('valid request: own category', () => makeCategory(fx, 'shared'))
}

/** The category the run moves its categories under, made once. */
function ownParent(fx: Provisioner): Promise<{ id: number; body: CategoryBody }> {
  return fx.session.memo('valid request: own parent category', () => makeCategory(fx, 'parent'))
}

/** A product of the run's own to assign to its category. */
function memberProduct(fx: Provisioner): Promise<string> {
  return fx.session.memo(
    'valid request: category member product',
    async () => (await fx.product('category member')).sku,
  )
}

async function productLink(fx: Provisioner): Promise<{ categoryId: number; body: Record<string, unknown> }> {
  const category = await ownCategory(fx)
  return {
    categoryId: category.id,
    body: { productLink: { sku: await memberProduct(fx), position: 1, category_id: category.id } },
  }
}

export const catalogCategoriesRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('POST /V1/categories'),
    prepare: (fx, label) => Promise.resolve({ actor: 'admin', path: {}, body: { category: categoryDraft(fx, label) } }),
    creates: {
      kind: 'category',
      idOf: (b) => idText(isObject(b) ? b.id : undefined),
      keyOf: (body) =>
        isObject(body.category) && typeof body.category.name === 'string' ? body.category.name : undefined,
    },
  },
  {
    endpoint: endpointId('PUT /V1/categories/:id'),
    // The same values saved again.
    again: 'reuse',
    prepare: async (fx) => {
      const own = await ownCategory(fx)
      return { actor: 'admin', path: { id: own.id }, body: { category: own.body } }
    },
  },
  {
    endpoint: endpointId('PUT /V1/categories/:categoryId/move'),
    // A new category of the run's each time, moved from the default category under the run's parent.
    prepare: async (fx, label) => {
      const parent = await ownParent(fx)
      const moved = await makeCategory(fx, `moved ${label}`)
      return { actor: 'admin', path: { categoryId: moved.id }, body: { parentId: parent.id } }
    },
  },
  {
    endpoint: endpointId('POST /V1/categories/:categoryId/products'),
    // Assigning the product again at the same position changes nothing.
    again: 'reuse',
    prepare: async (fx) => {
      const link = await productLink(fx)
      return { actor: 'admin', path: { categoryId: link.categoryId }, body: link.body }
    },
  },
  {
    endpoint: endpointId('PUT /V1/categories/:categoryId/products'),
    again: 'reuse',
    prepare: async (fx) => {
      const link = await productLink(fx)
      return { actor: 'admin', path: { categoryId: link.categoryId }, body: link.body }
    },
  },
  {
    endpoint: endpointId('GET /V1/categories/:categoryId/products'),
    prepare: async (fx) => ({
      actor: 'admin',
      path: {
        categoryId: await ownOrFound(
          fx,
          'category to read',
          async () => (await ownCategory(fx)).id,
          () => Promise.resolve(DEFAULT_CATEGORY),
        ),
      },
    }),
  },
  {
    endpoint: endpointId('GET /V1/categories/attributes/:attributeCode'),
    prepare: () => Promise.resolve({ actor: 'admin', path: { attributeCode: TEXT_ATTRIBUTE } }),
  },
  {
    endpoint: endpointId('GET /V1/categories/attributes/:attributeCode/options'),
    prepare: () => Promise.resolve({ actor: 'admin', path: { attributeCode: SELECT_ATTRIBUTE } }),
  },
]
