/**
 * Valid requests of the InventoryApi module: a source, stocks and products of the run's own, the products put at the
 * sources with source items. Platform bodies: `source` {source_code, name, enabled, country_id, postcode}, `stock`
 * {name, extension_attributes.sales_channels}, `links` [{stock_id, source_code, priority}], `sourceItems` [{sku,
 * source_code, quantity, status}]. The platform cannot delete a source: the run makes one, disabled — a shop counts
 * its enabled sources to tell single-source mode from multi-source mode, so a disabled one leaves that as it was,
 * and holds nothing for sale — saves it again where a request saves a source, and leaves it (the report lists it).
 * The default source and stock may be linked to each other only (the platform refuses any other link of either):
 * links are between the run's source and stocks of the run's, which the cleanup removes. In read-only mode the
 * reads name the default source and stock every install has.
 */
import { SetupError, idText, toId, type Product, type Provisioner } from '../provision.ts'
import { isObject } from '../../base/is-object.ts'
import { ownOrFound } from './shared.ts'
import type { RequestRecipe } from './types.ts'
import { endpointId } from '../../spec/catalog/index.ts'

/** Every install with the inventory modules has the default source and the default stock (1), linked to each other. */
export const DEFAULT_SOURCE = 'default'
export const DEFAULT_STOCK = 1

type SourceBody = Record<string, unknown> & { source_code: string }

function sourceDraft(fx: Provisioner, label: string): SourceBody {
  return {
    source_code: fx.builders.code(`source ${label}`),
    name: fx.builders.name(`source ${label}`),
    enabled: false,
    description: `Made by the conformance run ${fx.builders.runId}; the platform cannot delete a source.`,
    country_id: 'US',
    postcode: '78701',
  }
}

/** The run's source (made once per session; a leftover: the platform has no call that removes one). */
export function ownSource(fx: Provisioner): Promise<SourceBody> {
  return fx.session.memo('valid request: own inventory source', async () => {
    const source = sourceDraft(fx, 'shared')
    await fx.create(
      'create an inventory source',
      { method: 'POST', path: '/V1/inventory/sources', actor: 'admin', body: { source } },
      {
        kind: 'inventory source',
        label: 'inventory source shared',
        key: source.source_code,
        // The platform answers nothing of it (the save returns void): the code the run gave it is its id.
        idOf: () => source.source_code,
      },
    )
    return source
  })
}

function stockDraft(fx: Provisioner, label: string): Record<string, unknown> & { name: string } {
  // No sales channel: the stock sells nothing, so no website's salable quantities change.
  return { name: fx.builders.name(`stock ${label}`), extension_attributes: { sales_channels: [] } }
}

async function makeStock(fx: Provisioner, label: string): Promise<{ id: number; body: Record<string, unknown> }> {
  const stock = stockDraft(fx, label)
  const step = `create inventory stock ${label}`
  const { answer } = await fx.create(
    step,
    { method: 'POST', path: '/V1/inventory/stocks', actor: 'admin', body: { stock } },
    {
      kind: 'inventory stock',
      label: `inventory stock ${label}`,
      key: stock.name,
      idOf: idText,
    },
  )
  const id = toId(answer.body)
  if (id === undefined)
    throw new SetupError(step, `set-up step "${step}" answered no stock id: ${JSON.stringify(answer.body)}`)
  return { id, body: { ...stock, stock_id: id } }
}

/** A stock of the run's own, one per purpose (removed by the cleanup). */
function ownStock(fx: Provisioner, purpose = 'shared'): Promise<{ id: number; body: Record<string, unknown> }> {
  return fx.session.memo(`valid request: own inventory stock ${purpose}`, () => makeStock(fx, purpose))
}

/**
 * The lane of the requests that make the platform rebuild the index of a stock the run's source is linked to (a
 * stock's links saved or removed, a source transfer): never side by side (types.ts, `lane`).
 */
export const STOCK_REINDEX = 'inventory stock reindex'

/** Links the run's source to a stock of the run's (saving the link again changes nothing). */
async function linkOwnSource(
  fx: Provisioner,
  stockId: number,
): Promise<{ stock_id: number; source_code: string; priority: number }> {
  const link = { stock_id: stockId, source_code: (await ownSource(fx)).source_code, priority: 1 }
  await fx.call("link the run's source to its stock", {
    method: 'POST',
    path: '/V1/inventory/stock-source-links',
    actor: 'admin',
    body: { links: [link] },
    repeat: 'safe',
  })
  return link
}

/** Puts the product at sources (a source item each): `quantities` by source code. */
export async function putAtSources(fx: Provisioner, sku: string, quantities: Record<string, number>): Promise<void> {
  const sourceItems = Object.entries(quantities).map(([source_code, quantity]) => ({
    sku,
    source_code,
    quantity,
    status: quantity > 0 ? 1 : 0,
  }))
  await fx.call(`put ${sku} at ${Object.keys(quantities).join(', ')}`, {
    method: 'POST',
    path: '/V1/inventory/source-items',
    actor: 'admin',
    body: { sourceItems },
    repeat: 'safe',
  })
}

/**
 * A product of the run's own at the default source (1000 units) and at the run's source (none), one per purpose
 * (requests that use up what they name get a product of their own, so that none disturbs another's).
 */
export function inventoryProduct(fx: Provisioner, purpose: string): Promise<Product> {
  return fx.session.memo(`valid request: inventory product ${purpose}`, async () => {
    const product = await fx.product(`inventory ${purpose}`)
    await putAtSources(fx, product.sku, { [DEFAULT_SOURCE]: 1000, [(await ownSource(fx)).source_code]: 0 })
    return product
  })
}

/** The run's source's code; in read-only mode the default source's. */
function sourceToRead(fx: Provisioner): Promise<string> {
  return ownOrFound(
    fx,
    'inventory source to read',
    async () => (await ownSource(fx)).source_code,
    () => Promise.resolve(DEFAULT_SOURCE),
  )
}

/** The run's stock's id; in read-only mode the default stock's. */
function stockToRead(fx: Provisioner): Promise<number> {
  return ownOrFound(
    fx,
    'inventory stock to read',
    async () => (await ownStock(fx)).id,
    () => Promise.resolve(DEFAULT_STOCK),
  )
}

export const inventoryApiRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('POST /V1/inventory/sources'),
    // The run's source saved again with the same values (a save of a known code updates it): nothing new is made,
    // so no caller leaves another source the platform cannot remove.
    again: 'reuse',
    prepare: async (fx) => ({ actor: 'admin', path: {}, body: { source: await ownSource(fx) } }),
  },
  {
    endpoint: endpointId('PUT /V1/inventory/sources/:sourceCode'),
    again: 'reuse',
    prepare: async (fx) => {
      const source = await ownSource(fx)
      return { actor: 'admin', path: { sourceCode: source.source_code }, body: { source } }
    },
  },
  {
    endpoint: endpointId('GET /V1/inventory/sources/:sourceCode'),
    prepare: async (fx) => ({ actor: 'admin', path: { sourceCode: await sourceToRead(fx) } }),
  },
  {
    endpoint: endpointId('POST /V1/inventory/stocks'),
    prepare: (fx, label) => Promise.resolve({ actor: 'admin', path: {}, body: { stock: stockDraft(fx, label) } }),
    creates: {
      kind: 'inventory stock',
      idOf: idText,
      keyOf: (body) => (isObject(body.stock) && typeof body.stock.name === 'string' ? body.stock.name : undefined),
    },
  },
  {
    endpoint: endpointId('PUT /V1/inventory/stocks/:stockId'),
    again: 'reuse',
    prepare: async (fx) => {
      const stock = await ownStock(fx)
      return { actor: 'admin', path: { stockId: stock.id }, body: { stock: stock.body } }
    },
  },
  {
    endpoint: endpointId('GET /V1/inventory/stocks/:stockId'),
    prepare: async (fx) => ({ actor: 'admin', path: { stockId: await stockToRead(fx) } }),
  },
  {
    endpoint: endpointId('GET /V1/inventory/get-sources-assigned-to-stock-ordered-by-priority/:stockId'),
    // Its preparation saves the stock's link.
    lane: STOCK_REINDEX,
    prepare: async (fx) => {
      if (fx.session.seed.readOnly) return { actor: 'admin', path: { stockId: DEFAULT_STOCK } }
      const stock = await ownStock(fx)
      await linkOwnSource(fx, stock.id)
      return { actor: 'admin', path: { stockId: stock.id } }
    },
  },
  {
    endpoint: endpointId('POST /V1/inventory/stock-source-links'),
    again: 'reuse',
    lane: STOCK_REINDEX,
    prepare: async (fx) => {
      const link = { stock_id: (await ownStock(fx)).id, source_code: (await ownSource(fx)).source_code, priority: 1 }
      return { actor: 'admin', path: {}, body: { links: [link] } }
    },
  },
  {
    endpoint: endpointId('POST /V1/inventory/stock-source-links-delete'),
    lane: STOCK_REINDEX,
    // A stock of its own, linked afresh before each caller: what the removal names is there to remove.
    prepare: async (fx) => ({
      actor: 'admin',
      path: {},
      body: { links: [await linkOwnSource(fx, (await ownStock(fx, 'unlinked')).id)] },
    }),
  },
  {
    endpoint: endpointId('POST /V1/inventory/source-items'),
    again: 'reuse',
    prepare: async (fx) => {
      const product = await inventoryProduct(fx, 'assigned')
      return {
        actor: 'admin',
        path: {},
        body: {
          sourceItems: [{ sku: product.sku, source_code: (await ownSource(fx)).source_code, quantity: 5, status: 1 }],
        },
      }
    },
  },
  {
    endpoint: endpointId('POST /V1/inventory/source-items-delete'),
    // Put back at the run's source before each caller.
    prepare: async (fx) => {
      const product = await inventoryProduct(fx, 'unassigned')
      const sourceCode = (await ownSource(fx)).source_code
      await putAtSources(fx, product.sku, { [sourceCode]: 0 })
      return {
        actor: 'admin',
        path: {},
        body: { sourceItems: [{ sku: product.sku, source_code: sourceCode, quantity: 0, status: 0 }] },
      }
    },
  },
]
