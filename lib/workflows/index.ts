import { attributeSetWorkflow } from './attribute-set.ts'
import { catalogReadsWorkflow } from './catalog-reads.ts'
import { creditMemoWorkflow } from './credit-memo.ts'
import { customerGroupDefaultWorkflow } from './customer-group-default.ts'
import { guestCheckoutWorkflow } from './guest-checkout.ts'
import { invoiceRefundWorkflow } from './invoice-refund.ts'
import { mineIsolationWorkflow } from './mine-isolation.ts'
import { orderAddressWorkflow } from './order-address.ts'
import { shipmentLabelWorkflow } from './shipment-label.ts'
import { taxRateWorkflow } from './tax-rate.ts'
import { tierPricesByGroupWorkflow } from './tier-prices-by-group.ts'
import type { Workflow } from './types.ts'

/** Every workflow, each registered by its module's suite. */
export const WORKFLOWS: readonly Workflow[] = [
  creditMemoWorkflow,
  invoiceRefundWorkflow,
  guestCheckoutWorkflow,
  attributeSetWorkflow,
  tierPricesByGroupWorkflow,
  orderAddressWorkflow,
  catalogReadsWorkflow,
  customerGroupDefaultWorkflow,
  taxRateWorkflow,
  shipmentLabelWorkflow,
  mineIsolationWorkflow,
]
