import { moduleSuite } from '../lib/vitest/module-suite.ts'

// Catalog: prices and costs: the 14 endpoints of lib/spec/catalog/catalog-prices.ts, each with every check that applies
// to it, and the steps of the workflows reported under this module.
moduleSuite({ module: 'catalog-prices', workflows: ['tier-prices-by-group'] })
