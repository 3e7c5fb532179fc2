import { moduleSuite } from '../lib/vitest/module-suite.ts'

// CatalogInventory and CheckoutAgreements: the 6 endpoints of lib/spec/catalog/catalog-inventory-agreements.ts, each
// with every check that applies to it.
moduleSuite({ module: 'catalog-inventory-agreements', workflows: [] })
