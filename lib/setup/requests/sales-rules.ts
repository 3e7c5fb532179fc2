/**
 * A cart price rule and a coupon of the run's own, for the calls that apply a coupon to a cart: the spec has no call
 * that makes either, so they are made through the platform's `POST /V1/salesRules` and `POST /V1/coupons` (its
 * api-functional RuleRepositoryTest and CouponRepositoryTest show the bodies) and removed by the cleanup
 * (`DELETE /V1/coupons/:couponId`, `DELETE /V1/salesRules/:ruleId`: the coupon, made last, goes first).
 */
import { idText, SetupError, toId, type CustomerFixture, type Provisioner } from '../provision.ts'
import { isObject } from '../../base/is-object.ts'

export interface OwnCoupon {
  ruleId: number
  couponId: number
  code: string
}

/**
 * The run's own coupon, made once per session: 1 % off every item, for the website and customer group of `customer`
 * (read back, so a shop whose new customers join another group or website still applies it), without conditions, a
 * code entered by hand (`SPECIFIC_COUPON` without auto-generation takes coupons of type 0, "manual").
 */
export function ownCoupon(fx: Provisioner, customer: CustomerFixture): Promise<OwnCoupon> {
  return fx.session.memo('valid request: own coupon', async () => {
    const { answer: read } = await fx.call('read the own customer', { method: 'GET', path: `/V1/customers/${customer.id}`, actor: 'admin' })
    const who = isObject(read.body) ? read.body : {}
    const website = toId(who.website_id) ?? 1
    const group = typeof who.group_id === 'number' ? who.group_id : 1
    const name = fx.builders.name('sales rule own coupon')
    const rule = {
      name,
      description: `shop-conformance ${fx.session.seed.runId}`,
      website_ids: [website],
      customer_group_ids: [group],
      uses_per_customer: 0,
      is_active: true,
      stop_rules_processing: false,
      is_advanced: true,
      sort_order: 0,
      simple_action: 'by_percent',
      discount_amount: 1,
      discount_qty: 0,
      discount_step: 0,
      apply_to_shipping: false,
      times_used: 0,
      is_rss: false,
      coupon_type: 'SPECIFIC_COUPON',
      use_auto_generation: false,
      uses_per_coupon: 0,
      simple_free_shipping: 0,
    }
    const ruleStep = 'create the own sales rule'
    const { answer: made } = await fx.create(ruleStep, { method: 'POST', path: '/V1/salesRules', actor: 'admin', body: { rule } }, {
      kind: 'sales rule',
      label: 'sales rule own coupon',
      key: name,
      idOf: (b) => idText(isObject(b) ? b.rule_id : undefined),
    })
    const ruleId = toId(isObject(made.body) ? made.body.rule_id : undefined)
    if (ruleId === undefined) throw new SetupError(ruleStep, `set-up step "${ruleStep}" answered no numeric rule_id`)
    const code = fx.builders.code('coupon own')
    const couponStep = 'create the own coupon'
    const { answer: coupon } = await fx.create(couponStep, { method: 'POST', path: '/V1/coupons', actor: 'admin', body: { coupon: { rule_id: ruleId, code, type: 0, is_primary: false, times_used: 0 } } }, {
      kind: 'coupon',
      label: 'coupon own',
      key: code,
      idOf: (b) => idText(isObject(b) ? b.coupon_id : undefined),
    })
    const couponId = toId(isObject(coupon.body) ? coupon.body.coupon_id : undefined)
    if (couponId === undefined) throw new SetupError(couponStep, `set-up step "${couponStep}" answered no numeric coupon_id`)
    return { ruleId, couponId, code }
  })
}
