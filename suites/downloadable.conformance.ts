import { moduleSuite } from '../lib/vitest/module-suite.ts'

// Downloadable: the 6 endpoints of lib/spec/catalog/downloadable.ts, each with every check that applies to it.
moduleSuite({ module: 'downloadable', workflows: [] })
