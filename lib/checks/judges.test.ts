/**
 * One judge per rule (issue 24): each rule of lib/spec/rules.ts is judged in one place, and the sentence a verdict
 * says it with is written there and nowhere else — not once for the spec's endpoints and again for a shop's
 * extension operations, nor again in a workflow. The table names each rule's judge (the file whose code writes the
 * sentence) and a piece of that sentence; the test greps the sources (lib/ and suites/, tests and test helpers
 * aside) for it.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import * as RULES from '../spec/rules.ts'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')

/**
 * Each rule (`GROUP.key`), its judge, and what that judge writes when the rule is broken (or, for a workflow's read,
 * kept).
 */
const JUDGES: Readonly<Record<string, { judge: string; says: string }>> = {
  'ROUTE_RULES.served': { judge: 'lib/checks/route.ts', says: 'is not served at this method and path' },
  'ROUTE_RULES.json': { judge: 'lib/checks/route.ts', says: 'where the spec says payloads are JSON' },
  'ROUTE_RULES.declared': { judge: 'lib/checks/route.ts', says: 'to values the suite made up' },
  'STORE_CODE_RULES.served': { judge: 'lib/checks/store-code.ts', says: 'answered as for an unknown store code' },
  // The one access judgement: the access check's, the acl check's and the extension access check's.
  'ACCESS_RULES.admin': { judge: 'lib/spec/admission.ts', says: 'where ${authority} says ${c.expected}' },
  'ACCESS_RULES.self': { judge: 'lib/spec/admission.ts', says: 'where ${authority} says ${c.expected}' },
  'ACCESS_RULES.anon': { judge: 'lib/spec/admission.ts', says: 'where ${authority} says ${c.expected}' },
  'ACL_RULES.resource': { judge: 'lib/checks/acl.ts', says: 'where the token must carry' },
  'ACL_RULES.of': { judge: 'lib/checks/acl.ts', says: 'where its token carries the resource the detail table names' },
  'TOKEN_RULES.issuing': {
    judge: 'lib/checks/token-judgements.ts',
    says: "where tokens are obtained for the caller's credentials",
  },
  'TOKEN_RULES.revocation': {
    judge: 'lib/checks/token-judgements.ts',
    says: 'the revoke did more than revoke the token',
  },
  'BODY_KEYS_RULES.keys': { judge: 'lib/checks/body-keys-judgements.ts', says: "and it changed the target's state" },
  'BODY_KEYS_RULES.documented': {
    judge: 'lib/checks/body-keys-judgements.ts',
    says: 'while the same call without a body was accepted',
  },
  'BODY_KEYS_RULES.required': { judge: 'lib/checks/body-keys-judgements.ts', says: 'was accepted (${quoted})' },
  'SHAPE_RULES.types': { judge: 'lib/checks/judge-shape.ts', says: ': expected ${types.join(' },
  'SHAPE_RULES.resource': {
    judge: 'lib/checks/judge-shape.ts',
    says: 'carries none of the fields the spec tables for',
  },
  // What a call must carry beside its shape: the shape check's judge on a scenario's call, a workflow step's on its
  // own.
  'SHAPE_RULES.createdId': { judge: 'lib/checks/carried-values.ts', says: 'does not carry what it must (' },
  'SHAPE_RULES.cartAddressId': { judge: 'lib/checks/carried-values.ts', says: 'does not carry what it must (' },
  'SHAPE_RULES.savedSet': { judge: 'lib/checks/carried-values.ts', says: 'does not carry what it must (' },
  'SHAPE_RULES.savedAddress': { judge: 'lib/checks/carried-values.ts', says: 'does not carry what it must (' },
  'BATCH_RULES.perItem': {
    judge: 'lib/checks/batch-partial/judgements.ts',
    says: 'the call failed as a whole instead of reporting its invalid items',
  },
  'BATCH_RULES.applied': { judge: 'lib/checks/batch-partial/judgements.ts', says: 'was applied: sku' },
  'BATCH_RULES.allValid': {
    judge: 'lib/checks/batch-attribution.ts',
    says: 'all items are valid, so the answer must be []',
  },
  'BATCH_RULES.replace': {
    judge: 'lib/checks/batch-partial/judgements.ts',
    says: 'the replace left tier prices of sku',
  },
  'BATCH_RULES.unknownSku': {
    judge: 'lib/checks/batch-partial/judgements.ts',
    says: 'the target dropped the unknown sku instead of raising',
  },
  'BATCH_RULES.knownSkus': {
    judge: 'lib/checks/batch-partial/judgements.ts',
    says: '(all stored), the answer has no entry for',
  },
  'TIER_RULES.added': { judge: 'lib/workflows/tier-prices-by-group.ts', says: 'added for group ${t.group}' },
  'TIER_RULES.listed': { judge: 'lib/workflows/tier-prices-by-group.ts', says: 'is not listed under all' },
  'CATALOG_READ_RULES.category': {
    judge: 'lib/workflows/catalog-reads.ts',
    says: '${query !== undefined ? ` with ${query}`',
  },
  'CATALOG_READ_RULES.defaultGroup': {
    judge: 'lib/workflows/customer-group-default.ts',
    says: 'the default group read: an object with a value',
  },
  'CATALOG_READ_RULES.taxRateCreated': { judge: 'lib/workflows/tax-rate.ts', says: 'the target refused the tax rate' },
  'CATALOG_READ_RULES.taxRateRead': {
    judge: 'lib/workflows/tax-rate.ts',
    says: 'reads back with the code and rate saved',
  },
  'CATALOG_READ_RULES.label': {
    judge: 'lib/workflows/shipment-label.ts',
    says: "the spec's string is sent as a JSON string",
  },
  'ATTRIBUTE_SET_RULES.created': {
    judge: 'lib/workflows/attribute-set.ts',
    says: 'the answer carries no attribute_set_id to read the set by',
  },
  'ATTRIBUTE_SET_RULES.read': { judge: 'lib/workflows/attribute-set.ts', says: ' read back${unlike.length === 0' },
  'ATTRIBUTE_SET_RULES.deleted': { judge: 'lib/workflows/attribute-set.ts', says: 'still reads back' },
  'SALES_RULES.cartCreated': {
    judge: 'lib/workflows/credit-memo.ts',
    says: 'the answer carries no cart id to go on with',
  },
  'SALES_RULES.estimate': { judge: 'lib/workflows/credit-memo.ts', says: 'among them the configured' },
  'SALES_RULES.shippingInformation': {
    judge: 'lib/workflows/credit-memo.ts',
    says: 'shipping and billing address set',
  },
  'SALES_RULES.orderPlaced': { judge: 'lib/workflows/credit-memo.ts', says: "'the answer (the order id)'" },
  // The refund and the credit memo it made: one judge for the order's refund and the invoice's.
  'SALES_RULES.refund': { judge: 'lib/workflows/sales-steps.ts', says: 'the refund made no credit memo' },
  'SALES_RULES.creditmemoRead': { judge: 'lib/workflows/sales-steps.ts', says: 'is a credit memo of order' },
  'SALES_RULES.comment': { judge: 'lib/workflows/credit-memo.ts', says: 'the comment added is not listed' },
  'SALES_RULES.email': { judge: 'lib/workflows/credit-memo.ts', says: 'it did not email credit memo' },
  'SALES_RULES.cancel': { judge: 'lib/workflows/credit-memo.ts', says: 'the credit memo was not cancelled' },
  'CHECKOUT_RULES.billingAssigned': {
    judge: 'lib/workflows/guest-checkout.ts',
    says: 'has another billing address than the one assigned',
  },
  'CHECKOUT_RULES.useForShipping': {
    judge: 'lib/workflows/guest-checkout.ts',
    says: 'useForShipping true not honoured',
  },
  'CHECKOUT_RULES.guestShipping': {
    judge: 'lib/workflows/guest-checkout.ts',
    says: 'return `shipping ${carrier}/${method} set`',
  },
  'CHECKOUT_RULES.guestOrder': {
    judge: 'lib/workflows/guest-checkout.ts',
    says: 'does not carry the billing address sent',
  },
  'SELF_RULES.mine': { judge: 'lib/workflows/mine-isolation.ts', says: 'token reads customer A' },
}

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = posix.join(dir, entry.name)
    if (entry.isDirectory()) yield* sources(path)
    else if (entry.name.endsWith('.ts') && !/\.test\.ts$|(^|\/)testing[^/]*\.ts$|-testing\.ts$/.test(path)) yield path
  }
}

const TEXTS = new Map([...sources('lib'), ...sources('suites')].map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]))
const rules = Object.entries(RULES).flatMap(([group, value]) =>
  /_RULES$/.test(group) ? Object.keys(value as object).map((key) => `${group}.${key}`) : [],
)

describe('one judge per rule', () => {
  it('names a judge for every rule, and none for a rule that is gone', () => {
    expect(Object.keys(JUDGES).sort()).toEqual([...rules].sort())
  })

  for (const rule of rules) {
    it(`${rule}: its sentence is written once, by its judge`, () => {
      const { judge, says } = JUDGES[rule]!
      const writers = [...TEXTS].filter(([, text]) => text.includes(says)).map(([file]) => file)
      expect(writers, `"${says}"`).toEqual([judge])
    })
  }

  it('finds a sentence written twice', () => {
    // The grep itself: a phrase both the route and the store-code judges write is found in both.
    expect(
      [...TEXTS]
        .filter(([, text]) => text.includes("answered like the target's no-route answer"))
        .map(([file]) => file),
    ).toEqual(expect.arrayContaining(['lib/checks/route.ts', 'lib/checks/store-code.ts']))
  })
})
