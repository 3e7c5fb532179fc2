import { moduleSuite } from '../lib/vitest/module-suite.ts'

// Other inventory modules: the 16 endpoints of lib/spec/catalog/inventory-other.ts, each with every check that applies
// to it.
moduleSuite({ module: 'inventory-other', workflows: [] })
