/**
 * The items' values: distinct per row, valid per family, and spoiled each way the spec names (the mixed
 * calls are built from these).
 */
import type { Provisioner } from '../../setup/provision.ts'
import type { PriceFamily, InvalidKind, Price } from './operations.ts'

/** Distinct odd values for the items of one row, so each result entry can be traced to its item. */
export class Values {
  readonly #p: Provisioner
  readonly #prefix: string
  readonly #taken = new Set<number>([0, 1])
  #period = 0

  constructor(p: Provisioner, prefix: string) {
    this.#p = p
    this.#prefix = prefix
  }

  /** A value in [min, max] no other item of the row has; decimals > 0 never give a whole number. */
  number(label: string, min: number, max: number, decimals = 2): number {
    const step = 10 ** -decimals
    let v = this.#p.builders.oddNumber(`${this.#prefix} ${label}`, min, max, decimals)
    const round = (x: number) => Number(x.toFixed(decimals))
    while (this.#taken.has(v) || (decimals > 0 && Number.isInteger(v))) v = round(v + step)
    this.#taken.add(v)
    return v
  }

  price(label: string): number {
    return this.number(`price ${label}`, 5, 45)
  }

  negative(label: string): number {
    return this.number(`negative ${label}`, -9.99, -1.01)
  }

  /** A store or website id no install has. */
  unknownId(label: string): number {
    return this.number(`unknown id ${label}`, 9901, 9998, 0)
  }

  quantity(label: string): number {
    return this.number(`quantity ${label}`, 11, 97, 0)
  }

  /** A special-price period of its own: from and to, `YYYY-MM-DD hh:mm:ss`, in the future. */
  period(): { price_from: string; price_to: string } {
    const n = this.#period++
    const day = String(1 + (n % 28)).padStart(2, '0')
    const month = 1 + Math.floor(n / 28)
    return {
      price_from: `2031-${String(month).padStart(2, '0')}-${day} 00:00:00`,
      price_to: `2031-${String(month + 6).padStart(2, '0')}-${day} 00:00:00`,
    }
  }
}

/**
 * A date in the platform's format that is no date (month 13, day 45): invalid under any reading of "invalid
 * dates", and reported per item by a 2.4.7 shop (observations/special-price-malformed-date).
 */
export const MALFORMED_DATE = '2031-13-45 00:00:00'

/** A valid price of the family for `sku`, every value its own. */
export function validPrice(family: PriceFamily, v: Values, sku: string, label: string, variant = 0): Price {
  switch (family) {
    case 'base':
      return { sku, price: v.price(label), store_id: 0 }
    case 'cost':
      return { sku, cost: v.price(label), store_id: 0 }
    case 'special':
      return { sku, price: v.price(label), store_id: 0, ...v.period() }
    case 'tier':
      // A second kind of valid tier: a discount (a percentage) for the group General.
      return variant === 1
        ? {
            sku,
            price: v.number(`discount ${label}`, 5, 40),
            price_type: 'discount',
            website_id: 0,
            customer_group: 'General',
            quantity: v.quantity(label),
          }
        : {
            sku,
            price: v.price(label),
            price_type: 'fixed',
            website_id: 0,
            customer_group: 'ALL GROUPS',
            quantity: v.quantity(label),
          }
  }
}

/** `price` made invalid the given way (its sku stays, except for an unknown sku). */
export function spoil(kind: InvalidKind, price: Price, v: Values, unknownSku: string, runId: string): Price {
  const label = `${kind} ${price.sku}`
  switch (kind) {
    case 'unknown sku':
      return { ...price, sku: unknownSku }
    case 'invalid price':
      return { ...price, price: v.negative(label) }
    case 'invalid cost':
      return { ...price, cost: v.negative(label) }
    case 'unknown store id':
      return { ...price, store_id: v.unknownId(label) }
    case 'unknown website id':
      return { ...price, website_id: v.unknownId(label) }
    case 'malformed date':
      return { ...price, price_from: MALFORMED_DATE }
    case 'invalid price type':
      return { ...price, price_type: 'bogus' }
    case 'unknown customer group':
      return { ...price, customer_group: `no-such-group-${runId}` }
    case 'invalid quantity':
      return { ...price, quantity: -3 }
  }
}
