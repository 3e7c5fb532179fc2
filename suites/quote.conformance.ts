import { moduleSuite } from '../lib/vitest/module-suite.ts'

// Quote: the 31 endpoints of lib/spec/catalog/quote.ts, each with every check that applies to it,
// and the steps of the workflows reported under this module.
moduleSuite({ module: 'quote', workflows: ['guest-checkout', 'mine-isolation'] })
