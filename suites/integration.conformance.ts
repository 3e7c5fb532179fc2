import { moduleSuite } from '../lib/vitest/module-suite.ts'

// Integration (tokens): the 3 endpoints of lib/spec/catalog/integration.ts, each with every check that applies to it.
moduleSuite({ module: 'integration', workflows: [] })
