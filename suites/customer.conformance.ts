import { moduleSuite } from '../lib/vitest/module-suite.ts'

// Customer: the 39 endpoints of lib/spec/catalog/customer.ts, each with every check that applies to it,
// and the steps of the workflows reported under this module.
moduleSuite({ module: 'customer', workflows: ['customer-group-default'] })
