import { moduleSuite } from '../lib/vitest/module-suite.ts'

// Cms: the 8 endpoints of lib/spec/catalog/cms.ts, each with every check that applies to it.
moduleSuite({ module: 'cms', workflows: [] })
