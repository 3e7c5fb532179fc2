import { moduleSuite } from '../lib/vitest/module-suite.ts'

// PaymentServicesPartner: the 5 endpoints of lib/spec/catalog/payment-services-partner.ts, each with every check that
// applies to it.
moduleSuite({ module: 'payment-services-partner', workflows: [] })
