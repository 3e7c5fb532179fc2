/**
 * A cart price rule and a coupon of the run's own, made once per session through the platform's
 * `POST /V1/salesRules` and `POST /V1/coupons` (not in the spec; removed by `DELETE /V1/salesRules/:id` and
 * `DELETE /V1/coupons/:id`). Bodies as the platform's own API tests send them (SalesRule RuleRepositoryTest,
 * CouponRepositoryTest): the rule takes coupons (`SPECIFIC_COUPON`) made by generation, so a coupon saved through
 * the repository is of type 1 (generated) — a manual one (type 0) it refuses ("Specified rule only allows auto
 * generated coupons"). The rule gives nothing without its coupon, whose code is the run's: no shopper of the shop
 * can come by it.
 */
import { idText, isSuccess, SetupError, toId, type Provisioner } from '../provision.ts'
import { isObject } from '../../base/is-object.ts'
import { ownCustomer } from './shared.ts'
import { platformCall } from '../platform-calls.ts'

interface OwnSalesRule {
  id: number
  /** The rule as the platform answered its creation: saving it again changes nothing. */
  rule: Record<string, unknown>
}

interface OwnCoupon {
  id: number
  code: string
  /** The coupon as the platform answered its creation. */
  coupon: Record<string, unknown>
}

/**
 * The customer groups the rule is for: NOT LOGGED IN (0, which the platform never deletes), the shop's default
 * group (which it will not delete while it is the default) and the group of the run's own customer (a shop whose new
 * customers join another group still applies the coupon to the carts the access probes use): all exist on the shop.
 */
async function ruleGroups(fx: Provisioner): Promise<number[]> {
  const { answer } = await fx.call(
    'read the default customer group',
    { method: 'GET', path: '/V1/customerGroups/default', actor: 'admin' },
    (a) => isSuccess(a) && isObject(a.body) && Number.isInteger(a.body.id),
  )
  const id = (answer.body as { id: number }).id
  const own = await ownCustomer(fx)
  const { answer: read } = await fx.call('read the own customer', {
    method: 'GET',
    path: `/V1/customers/${own.id}`,
    actor: 'admin',
  })
  const group = isObject(read.body) && Number.isInteger(read.body.group_id) ? [read.body.group_id as number] : []
  return [...new Set([0, id, ...group])]
}

/** The run's own cart price rule, made once per session. */
export function ownSalesRule(fx: Provisioner): Promise<OwnSalesRule> {
  return fx.session.memo('valid request: own sales rule', async () => {
    const name = fx.builders.name('sales rule shared')
    const rule = {
      name,
      description: `Made by shop-conformance run ${fx.builders.runId}; gives nothing without its coupon.`,
      // The main website, made at install (the platform does not delete its default website).
      website_ids: [1],
      customer_group_ids: await ruleGroups(fx),
      uses_per_customer: 0,
      is_active: true,
      stop_rules_processing: false,
      is_advanced: true,
      sort_order: 0,
      simple_action: 'by_percent',
      discount_amount: 10,
      discount_qty: 0,
      discount_step: 0,
      apply_to_shipping: false,
      times_used: 0,
      is_rss: false,
      coupon_type: 'SPECIFIC_COUPON',
      use_auto_generation: true,
      uses_per_coupon: 0,
    }
    const step = 'create a sales rule'
    const { answer } = await fx.create(
      step,
      { ...platformCall('createSalesRule'), actor: 'admin', body: { rule } },
      {
        kind: 'sales rule',
        label: 'sales rule shared',
        key: name,
        idOf: (b) => idText(isObject(b) ? b.rule_id : undefined),
      },
    )
    const id = toId(isObject(answer.body) ? answer.body.rule_id : undefined)
    if (id === undefined) throw new SetupError(step, `set-up step "${step}" answered no numeric rule_id`)
    return { id, rule: { ...rule, ...(answer.body as Record<string, unknown>), rule_id: id } }
  })
}

/** A coupon of the run's own rule, made once per session. */
export function ownCoupon(fx: Provisioner): Promise<OwnCoupon> {
  return fx.session.memo('valid request: own coupon', async () => {
    const rule = await ownSalesRule(fx)
    const code = fx.builders.code('coupon shared')
    const coupon = { rule_id: rule.id, code, times_used: 0, is_primary: false, type: 1 }
    const step = 'create a coupon'
    const { answer } = await fx.create(
      step,
      { ...platformCall('createCoupon'), actor: 'admin', body: { coupon } },
      {
        kind: 'coupon',
        label: 'coupon shared',
        key: code,
        idOf: (b) => idText(isObject(b) ? b.coupon_id : undefined),
      },
    )
    const id = toId(isObject(answer.body) ? answer.body.coupon_id : undefined)
    if (id === undefined) throw new SetupError(step, `set-up step "${step}" answered no numeric coupon_id`)
    return { id, code, coupon: { ...coupon, ...(answer.body as Record<string, unknown>), coupon_id: id } }
  })
}
