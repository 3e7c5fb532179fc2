import { moduleSuite } from '../lib/vitest/module-suite.ts'

// Catalog: products, links, media, options: the 23 endpoints of lib/spec/catalog/catalog-products.ts, each with every
// check that applies to it.
moduleSuite({ module: 'catalog-products', workflows: [] })
