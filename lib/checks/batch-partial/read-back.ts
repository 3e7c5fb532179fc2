/** The read-back judgement: what a mixed call must have stored, deleted or left alone. */
import type { PriceFamily, PlannedItem } from './operations.ts'
import { itemName, json } from './quote.ts'
import { fingerprint, normalise, of, sameSku, sameValues, storedOf } from './stored.ts'

/**
 * What the read-back (information call of the known skus) must show after a mixed call: valid items applied
 * (deleted; for a replace, the skus' other tiers gone), invalid items' skus as they were before. `before`
 * and `after` are the information answers' entries. Pure.
 */
export function judgeReadBack(op: 'update' | 'delete' | 'replace', family: PriceFamily, items: PlannedItem[], beforeEntries: unknown[], afterEntries: unknown[]): string[] {
  const before = storedOf(family, beforeEntries)
  const after = storedOf(family, afterEntries)
  const problems: string[] = []
  const verb = op === 'delete' ? 'deleted' : 'stored'
  for (const it of items.filter((i) => i.valid)) {
    const want = normalise(family, it.fields)!
    const got = of(after, want.sku).find((s) => s.key === want.key)
    if (op === 'delete') {
      if (got !== undefined) problems.push(`valid ${itemName(it)} was not deleted: read back ${json(got.raw)}`)
    } else if (got === undefined) {
      problems.push(`valid ${itemName(it)} was not ${verb}: read back ${of(after, want.sku).length === 0 ? `nothing for sku ${want.sku}` : `for sku ${want.sku} only ${json(of(after, want.sku).map((s) => s.raw))}`}`)
    } else if (!sameValues(got.values, want.values)) {
      problems.push(`valid ${itemName(it)} was not ${verb}: read back ${json(got.raw)}`)
    }
  }
  if (op === 'replace') {
    // Tier prices of the replaced skus that are not in the call must be gone.
    const validOf = (sku: string) => items.filter((i) => i.valid && sameSku(String(i.fields.sku), sku)).map((i) => normalise(family, i.fields)!)
    for (const sku of new Set(items.filter((i) => i.valid).map((i) => String(i.fields.sku)))) {
      const keep = validOf(sku)
      const stale = of(after, sku).filter((s) => !keep.some((k) => k.key === s.key))
      if (stale.length > 0) problems.push(`the replace left tier prices of sku ${sku} that are not in the call: ${json(stale.map((s) => s.raw))} (the spec: replace "removes existing tier prices and sets the new ones")`)
    }
  }
  const validSkus = items.filter((i) => i.valid).map((i) => String(i.fields.sku))
  for (const it of items.filter((i) => !i.valid)) {
    const sku = String(it.fields.sku)
    // (An unknown sku is not read back: its before and after are both empty.)
    if (validSkus.some((s) => sameSku(s, sku))) continue
    const was = of(before, sku)
    const now = of(after, sku)
    if (fingerprint(was) !== fingerprint(now)) {
      problems.push(`invalid ${itemName(it)} was applied: sku ${sku} read back ${json(now.map((s) => s.raw))} where it had ${json(was.map((s) => s.raw))}`)
    }
  }
  return problems
}
