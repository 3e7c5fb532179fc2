import { moduleSuite } from '../lib/vitest/module-suite.ts'

// Catalog: categories: the 12 endpoints of lib/spec/catalog/catalog-categories.ts, each with every check that applies
// to it, and the steps of the workflows reported under this module.
moduleSuite({ module: 'catalog-categories', workflows: ['catalog-reads'] })
