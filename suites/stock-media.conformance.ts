import { moduleSuite } from '../lib/vitest/module-suite.ts'

// StockMediaAsset and StockMediaImage: the 4 endpoints of lib/spec/catalog/stock-media.ts, each with every check that
// applies to it.
moduleSuite({ module: 'stock-media', workflows: [] })
