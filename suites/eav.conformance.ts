import { moduleSuite } from '../lib/vitest/module-suite.ts'

// Eav: the 5 endpoints of lib/spec/catalog/eav.ts, each with every check that applies to it,
// and the steps of the workflows reported under this module.
moduleSuite({ module: 'eav', workflows: ['attribute-set'] })
