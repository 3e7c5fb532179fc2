import { moduleSuite } from '../lib/vitest/module-suite.ts'

// Catalog: attribute sets, groups, attributes: the 19 endpoints of lib/spec/catalog/catalog-attributes.ts, each with
// every check that applies to it.
moduleSuite({ module: 'catalog-attributes', workflows: [] })
