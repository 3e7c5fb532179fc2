/**
 * Tier prices per customer group: one tier for group 1, one for `all`; each is listed under its group.
 *
 * The spec names ProductTierPriceInterface without its fields, so a tier is recognised in a list by the values
 * it was added with (its quantity and price, odd values no other tier of the product has), under whatever
 * field names the target uses. "The value `all` means all groups" reads two ways: `all` names the all-groups
 * group, whose list holds the tiers added for all groups (the platform's reading), or listing `all` lists the
 * tiers of every group. Both pass; under either, a tier added for all groups is listed under `all`.
 */
import { describeAnswer, type Product } from '../setup/provision.ts'
import { TIER_RULES } from '../spec/rules.ts'
import { isObject } from '../base/is-object.ts'
import { clipJson } from '../base/text.ts'
import { sameNumber, step, type SpecCall, type StepScope } from './steps.ts'
import type { Workflow } from './types.ts'
import { endpointId } from '../spec/catalog/index.ts'

const ADD = endpointId('POST /V1/products/:sku/group-prices/:customerGroupId/tiers/:qty/price/:price')
const LIST = endpointId('GET /V1/products/:sku/group-prices/:customerGroupId/tiers')

interface Tier {
  group: string
  qty: number
  price: number
}

function describeTier(t: Tier): string {
  return `qty ${t.qty} at ${t.price}`
}

/** The entry carries the tier's quantity and its price, under any field names. */
function sameTier(entry: Record<string, unknown>, t: Tier): boolean {
  const values = Object.values(entry)
  return values.some((v) => sameNumber(v, t.qty)) && values.some((v) => sameNumber(v, t.price))
}

function describeEntries(entries: Record<string, unknown>[]): string {
  return entries.length === 0 ? 'none' : clipJson(entries, 300)
}

async function addTier(s: StepScope<TierPricesState>, t: Tier): Promise<string> {
  const product = s.need('product')
  const call: SpecCall = {
    method: 'POST',
    path: `/V1/products/${encodeURIComponent(product.sku)}/group-prices/${t.group}/tiers/${t.qty}/price/${t.price}`,
    actor: 'admin',
  }
  const answer = await s.call(call)
  s.expectSuccess(call, answer)
  // What the add returns is not shown: the lists read next tell whether the tier was added.
  return `tier ${describeTier(t)} added for group ${t.group} (answered ${describeAnswer(answer)})`
}

async function listTiers(s: StepScope<TierPricesState>, group: string): Promise<Record<string, unknown>[]> {
  const product = s.need('product')
  const call: SpecCall = {
    method: 'GET',
    path: `/V1/products/${encodeURIComponent(product.sku)}/group-prices/${group}/tiers`,
    actor: 'admin',
  }
  const answer = await s.call(call)
  s.expectSuccess(call, answer)
  s.judgeAnswerOf(LIST, answer.body)
  if (!Array.isArray(answer.body)) s.fail(`the answer is not a list: ${describeAnswer(answer)}`)
  return answer.body.filter(isObject)
}

/** What the steps hand on: the product priced, and the two tiers added to it. */
interface TierPricesState {
  product: Product
  tiers: { group1: Tier; all: Tier }
}

export const tierPricesByGroupWorkflow: Workflow<TierPricesState> = {
  name: 'tier-prices-by-group',
  module: 'catalog-prices',
  description:
    "A product of the run's own gets a tier price for customer group 1 and one for `all`; group 1's list holds its tier, and `all`'s holds the tier added for all groups (with or without group 1's: the spec's words allow both).",
  spec: [
    'Endpoints › Endpoints with detailed shape',
    'Endpoints › Endpoint lists by module › Catalog: prices and costs',
  ],
  steps: [
    step('create a product', undefined, async (s: StepScope<TierPricesState>) => {
      const product = await s.setup(() => s.fx.product('tier prices'))
      s.keep('product', product)
      // Odd values that identify each tier; below the product's price (the builders price from 5 up).
      const b = s.fx.builders
      const qty = Math.round(b.oddNumber('tier group 1 qty', 3, 9, 0))
      const group1: Tier = { group: '1', qty, price: b.oddNumber('tier group 1 price', 1.01, 2.49, 2) }
      const all: Tier = { group: 'all', qty: qty + 4, price: b.oddNumber('tier all groups price', 2.51, 4.49, 2) }
      s.keep('tiers', { group1, all })
      return `product ${product.sku} created at ${product.price}`
    }),

    step('add a tier for group 1', ADD, async (s: StepScope<TierPricesState>) => addTier(s, s.need('tiers').group1), [
      TIER_RULES.added,
    ]),

    step('add a tier for all groups', ADD, async (s: StepScope<TierPricesState>) => addTier(s, s.need('tiers').all), [
      TIER_RULES.added,
    ]),

    step(
      'list the tiers of group 1',
      LIST,
      async (s: StepScope<TierPricesState>) => {
        const { group1 } = s.need('tiers')
        const entries = await listTiers(s, '1')
        if (!entries.some((e) => sameTier(e, group1)))
          s.fail(
            `the tier added for group 1 (${describeTier(group1)}) is not listed; listed: ${describeEntries(entries)}`,
          )
        return `group 1 lists its tier ${describeTier(group1)}`
      },
      [TIER_RULES.listed],
    ),

    step(
      'list the tiers of all groups',
      LIST,
      async (s: StepScope<TierPricesState>) => {
        const { group1, all } = s.need('tiers')
        const entries = await listTiers(s, 'all')
        if (!entries.some((e) => sameTier(e, all)))
          s.fail(
            `the tier added for all groups (${describeTier(all)}) is not listed under all; listed: ${describeEntries(entries)}`,
          )
        const reading = entries.some((e) => sameTier(e, group1))
          ? "group 1's too: `all` read as the tiers of every group"
          : "not group 1's: `all` read as the all-groups group"
        return `all lists its tier ${describeTier(all)}, and ${reading}`
      },
      [TIER_RULES.listed],
    ),
  ],
}
