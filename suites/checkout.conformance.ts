import { moduleSuite } from '../lib/vitest/module-suite.ts'

// Checkout: the 12 endpoints of lib/spec/catalog/checkout.ts, each with every check that applies to it.
moduleSuite({ module: 'checkout', workflows: [] })
