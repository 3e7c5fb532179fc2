import { moduleSuite } from '../lib/vitest/module-suite.ts'

// ConfigurableProduct: the 7 endpoints of lib/spec/catalog/configurable-product.ts, each with every check that applies
// to it.
moduleSuite({ module: 'configurable-product', workflows: [] })
