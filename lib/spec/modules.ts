import type { ModuleSpec } from './types.ts'

/**
 * The spec's module groups, in the order of its "Endpoint lists by module" headings. Ids are stable:
 * suite file names, `--module` and result ids key on them.
 */
export const MODULES: readonly ModuleSpec[] = [
  { id: 'payment-partner-core', title: 'PaymentPartnerCore' },
  { id: 'stock-media', title: 'StockMediaAsset and StockMediaImage' },
  { id: 'analytics-async-backend', title: 'Analytics, AsynchronousOperations, Backend' },
  { id: 'bundle', title: 'Bundle' },
  { id: 'catalog-categories', title: 'Catalog: categories' },
  { id: 'catalog-products', title: 'Catalog: products, links, media, options' },
  { id: 'catalog-attributes', title: 'Catalog: attribute sets, groups, attributes' },
  { id: 'catalog-prices', title: 'Catalog: prices and costs' },
  { id: 'catalog-inventory-agreements', title: 'CatalogInventory and CheckoutAgreements' },
  { id: 'checkout', title: 'Checkout' },
  { id: 'cms', title: 'Cms' },
  { id: 'configurable-product', title: 'ConfigurableProduct' },
  { id: 'customer', title: 'Customer' },
  { id: 'directory', title: 'Directory' },
  { id: 'downloadable', title: 'Downloadable' },
  { id: 'eav', title: 'Eav' },
  { id: 'gift-message', title: 'GiftMessage' },
  { id: 'integration', title: 'Integration (tokens)' },
  { id: 'inventory-api', title: 'InventoryApi' },
  { id: 'inventory-other', title: 'Other inventory modules' },
  { id: 'payment-services-partner', title: 'PaymentServicesPartner' },
  { id: 'quote', title: 'Quote' },
  { id: 'sales-tax-tfa', title: 'Sales, SalesRule, Tax, TwoFactorAuth' },
]
