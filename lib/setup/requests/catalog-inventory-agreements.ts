/**
 * Valid requests of the catalog-inventory-agreements module: the stock of a product of the run's own, saved with
 * the quantity it was made with and read (in read-only mode, of a product the shop lists); the low-stock list with
 * the scope and quantity its contract cannot do without. The agreement lists need no more than the plain call.
 */
import type { RequestRecipe } from './types.ts'
import { ownProduct, productToRead, stockItemId } from './catalog-own.ts'
import { endpointId } from '../../spec/catalog/index.ts'

const OWN = 'inventory own'

export const catalogInventoryAgreementsRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('PUT /V1/products/:productSku/stockItems/:itemId'),
    // The quantity and status the product was made with (`CatalogMaker.product`): saving them again is a no-op.
    again: 'reuse',
    prepare: async (fx) => {
      const { sku } = await ownProduct(fx, OWN)
      return {
        actor: 'admin',
        path: { productSku: sku, itemId: await stockItemId(fx, sku) },
        body: { stockItem: { qty: 1000, is_in_stock: true } },
      }
    },
  },
  {
    endpoint: endpointId('GET /V1/stockItems/:productSku'),
    prepare: async (fx) => ({ actor: 'admin', path: { productSku: (await productToRead(fx, OWN)).sku } }),
  },
  {
    endpoint: endpointId('GET /V1/stockItems/lowStock'),
    // StockRegistryInterface::getLowStockItems($scopeId, $qty, $currentPage, $pageSize): scope 0 is the global one.
    prepare: () => Promise.resolve({ actor: 'admin', path: {}, query: 'scopeId=0&qty=10&currentPage=1&pageSize=5' }),
  },
  {
    endpoint: endpointId('GET /V1/stockStatuses/:productSku'),
    prepare: async (fx) => ({ actor: 'admin', path: { productSku: (await productToRead(fx, OWN)).sku } }),
  },
]
