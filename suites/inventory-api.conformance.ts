import { moduleSuite } from '../lib/vitest/module-suite.ts'

// InventoryApi: the 15 endpoints of lib/spec/catalog/inventory-api.ts, each with every check that applies to it.
moduleSuite({ module: 'inventory-api', workflows: [] })
