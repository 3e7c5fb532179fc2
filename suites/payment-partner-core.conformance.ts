import { moduleSuite } from '../lib/vitest/module-suite.ts'

// PaymentPartnerCore: the 5 endpoints of lib/spec/catalog/payment-partner-core.ts, each with every check that applies
// to it.
moduleSuite({ module: 'payment-partner-core', workflows: [] })
