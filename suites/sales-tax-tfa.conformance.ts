import { moduleSuite } from '../lib/vitest/module-suite.ts'

// Sales, SalesRule, Tax, TwoFactorAuth: the 19 endpoints of lib/spec/catalog/sales-tax-tfa.ts, each with every check
// that applies to it, and the steps of the workflows reported under this module.
moduleSuite({
  module: 'sales-tax-tfa',
  workflows: ['credit-memo', 'invoice-refund', 'order-address', 'tax-rate', 'shipment-label'],
})
