/** Tier prices per customer group: one tier for group 1, one for `all`, each listed under its own group only. */
import { describeAnswer, isObject, type Product } from '../../fixtures/provision.ts'
import { expectationFor } from '../checks/judge-shape.ts'
import { findRow } from '../spec/catalog/index.ts'
import { sameNumber, step, type SpecCall, type StepScope } from './steps.ts'
import type { Workflow } from './types.ts'

const PRODUCT = 'product'
const TIERS = 'tiers'

const ADD = 'POST /V1/products/:sku/group-prices/:customerGroupId/tiers/:qty/price/:price'
const LIST = 'GET /V1/products/:sku/group-prices/:customerGroupId/tiers'

interface Tier {
  group: string
  qty: number
  price: number
}

function describeTier(t: Tier): string {
  return `qty ${t.qty} at ${t.price}`
}

function sameTier(entry: Record<string, unknown>, t: Tier): boolean {
  return sameNumber(entry.qty, t.qty) && sameNumber(entry.value, t.price)
}

function describeEntries(entries: Record<string, unknown>[]): string {
  return entries.length === 0 ? 'none' : entries.map((e) => `{customer_group_id ${JSON.stringify(e.customer_group_id ?? null)}, qty ${JSON.stringify(e.qty ?? null)}, value ${JSON.stringify(e.value ?? null)}}`).join(', ')
}

async function addTier(s: StepScope, t: Tier): Promise<string> {
  const product = s.need<Product>(PRODUCT)
  const call: SpecCall = { method: 'POST', path: `/V1/products/${encodeURIComponent(product.sku)}/group-prices/${t.group}/tiers/${t.qty}/price/${t.price}`, actor: 'admin' }
  const answer = await s.call(call)
  s.expectSuccess(call, answer)
  if (answer.body === false) s.fail(`${call.method} ${call.path} answered false: the tier was not added`)
  return `tier ${describeTier(t)} added for group ${t.group}`
}

async function listTiers(s: StepScope, group: string): Promise<Record<string, unknown>[]> {
  const product = s.need<Product>(PRODUCT)
  const call: SpecCall = { method: 'GET', path: `/V1/products/${encodeURIComponent(product.sku)}/group-prices/${group}/tiers`, actor: 'admin' }
  const answer = await s.call(call)
  s.expectSuccess(call, answer)
  s.judge(answer.body, expectationFor(findRow('GET', '/V1/products/:sku/group-prices/:customerGroupId/tiers')!), 'the answer')
  if (!Array.isArray(answer.body)) s.fail(`the answer is not a list: ${describeAnswer(answer)}`)
  return answer.body.filter(isObject)
}

export const tierPricesByGroupWorkflow: Workflow = {
  name: 'tier-prices-by-group',
  module: 'catalog-prices',
  description:
    "A product of the run's own gets a tier price for customer group 1 and one for `all`; each group's list holds its own tier, and listing `all` does not return group 1's.",
  spec: ['Endpoints › Endpoints with detailed shape', 'Endpoints › Endpoint lists by module › Catalog: prices and costs'],
  steps: [
    step('create a product', undefined, async (s: StepScope) => {
      const product = await s.setup(() => s.fx.product('tier prices'))
      s.state[PRODUCT] = product
      // Odd values that identify each tier; below the product's price (the builders price from 5 up).
      const b = s.fx.builders
      const qty = Math.round(b.oddNumber('tier group 1 qty', 3, 9, 0))
      const group1: Tier = { group: '1', qty, price: b.oddNumber('tier group 1 price', 1.01, 2.49, 2) }
      const all: Tier = { group: 'all', qty: qty + 4, price: b.oddNumber('tier all groups price', 2.51, 4.49, 2) }
      s.state[TIERS] = { group1, all }
      return `product ${product.sku} created at ${product.price}`
    }),

    step('add a tier for group 1', ADD, async (s: StepScope) => addTier(s, s.need<{ group1: Tier }>(TIERS).group1)),

    step('add a tier for all groups', ADD, async (s: StepScope) => addTier(s, s.need<{ all: Tier }>(TIERS).all)),

    step('list the tiers of group 1', LIST, async (s: StepScope) => {
      const { group1 } = s.need<{ group1: Tier }>(TIERS)
      const entries = await listTiers(s, '1')
      if (!entries.some((e) => sameTier(e, group1) && sameNumber(e.customer_group_id, 1))) {
        s.fail(`the tier added for group 1 (${describeTier(group1)}, customer_group_id 1) is not listed; listed: ${describeEntries(entries)}`)
      }
      return `group 1 lists its tier ${describeTier(group1)} with customer_group_id 1`
    }),

    step('list the tiers of all groups', LIST, async (s: StepScope) => {
      const { group1, all } = s.need<{ group1: Tier; all: Tier }>(TIERS)
      const entries = await listTiers(s, 'all')
      if (!entries.some((e) => sameTier(e, all))) s.fail(`the tier added for all groups (${describeTier(all)}) is not listed under all; listed: ${describeEntries(entries)}`)
      const leaked = entries.filter((e) => sameTier(e, group1) || sameNumber(e.customer_group_id, 1))
      if (leaked.length > 0) {
        s.fail(`listing all returns the tier of group 1 too (${describeEntries(leaked)}): \`all\` names the all-groups group, whose list holds only the tiers added for all groups (platform conventions, "Tier prices per group")`)
      }
      return `all lists its tier ${describeTier(all)} and not group 1's`
    }),
  ],
}
