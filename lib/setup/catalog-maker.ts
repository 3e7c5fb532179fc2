import pLimit, { type LimitFunction } from 'p-limit'
import type { Answer } from '../shop/request.ts'
import type { Session } from '../shop/session.ts'
import { findByKey, type FindableKind } from '../shop/lookup.ts'
import type { Trouble } from '../shop/retry.ts'
import type { Builders } from './builders.ts'
import type { Ledger } from './ledger.ts'
import {
  isSuccess,
  SetupError,
  sendOnce,
  setupCall,
  type Actor,
  type CallOptions,
  type Called,
  type Creation,
} from './setup-call.ts'
import { isObject } from '../base/is-object.ts'
import { idText, toId } from './platform-ids.ts'
import { registration } from './registration.ts'

export interface Product {
  sku: string
  id?: number
  price: number
}

export interface MadeCustomer {
  id: number
  email: string
  token: string
  /** To get another token (after a revoke): a secret of the session, in memory only. */
  password: string
}

/**
 * The provisioner's set-up calls and what it makes on the catalog side: products, customers, attribute sets,
 * tier prices, tax rates. The carts, orders and sales documents made of them are in sales-maker.ts, and the
 * provisioner a run uses is provision.ts's `Provisioner`, which has both.
 */
export abstract class CatalogMaker {
  readonly session: Session
  readonly builders: Builders
  readonly ledger: Ledger

  /**
   * How many product creations may be under way at once. As many as any calls (the client's bound) until the
   * shop refuses one because its transaction was rolled back — the inventory deadlocks a 2.4.7 shop answered
   * under parallel product creation ("Could not save Source Item Configuration") — and one at a time from
   * then on, so that no creation has another to deadlock with. Not one at a time from the start: on a shop
   * that does not deadlock (the reference target, and a real one most of the time) that would put every
   * product's round trip in a row on the run's path, and `npm run bench` with 20 ms of latency slows down.
   */
  readonly #productPace: LimitFunction

  constructor(session: Session, builders: Builders, ledger: Ledger, productPace?: LimitFunction) {
    this.session = session
    this.builders = builders
    this.ledger = ledger
    this.#productPace = productPace ?? pLimit(Math.max(1, session.seed.concurrency))
  }

  /** What a provisioner sending through `view` is made of: the same builders, ledger and pace as this one. */
  protected sharedWith(view: Session): ConstructorParameters<typeof CatalogMaker> {
    return [view, this.builders, this.ledger, this.#productPace]
  }

  /** The product creations still to come go one at a time (see #productPace). */
  #slowDown = (trouble: Trouble): void => {
    if (trouble.kind === 'rolled back') this.#productPace.concurrency = 1
  }

  tokenOf(actor: Actor): string | undefined {
    if (typeof actor === 'object') return actor.token
    if (actor === 'guest') return undefined
    const token = this.session.tokenFor(actor)
    if (token === undefined)
      throw new SetupError(
        'token',
        `no ${actor} token (read-only mode registers no customer: configure SHOP_CUSTOMER_EMAIL and SHOP_CUSTOMER_PASSWORD)`,
        undefined,
        'no-customer-token',
      )
    return token
  }

  /**
   * One set-up call, repeated as `options.repeat` allows when the target gives nothing usable; a transport
   * failure or an answer `accept` refuses becomes a SetupError naming `step`, with every attempt.
   */
  call(step: string, options: CallOptions, accept: (a: Answer) => boolean = isSuccess): Promise<Called> {
    return setupCall(this.session, this.ledger, step, options, this.tokenOf(options.actor), accept)
  }

  /** A call that may create something: in the ledger before it is sent, then created or refused. */
  create(
    step: string,
    options: CallOptions,
    creation: Creation,
    accept: (a: Answer) => boolean = isSuccess,
  ): Promise<Called> {
    return setupCall(this.session, this.ledger, step, options, this.tokenOf(options.actor), accept, creation)
  }

  /** Looks for an entity of the run by its key (before a creation whose answer never came is repeated). */
  find(kind: FindableKind, key: string): NonNullable<Creation['find']> {
    return () =>
      findByKey(
        (path, query) =>
          sendOnce(
            this.session,
            { method: 'GET', path, actor: 'admin', ...(query !== undefined ? { query } : {}) },
            this.tokenOf('admin'),
          ),
        kind,
        key,
      )
  }

  /** The shared product the checks buy and price; a configured existing sku is used instead when given. */
  mainProduct(): Promise<Product> {
    return this.session.memo('product main', async () => {
      const sku = this.session.seed.purchase.sku
      if (sku === undefined) return this.product('main')
      const { answer } = await this.call('read the configured product', {
        method: 'GET',
        path: `/V1/products/${encodeURIComponent(sku)}`,
        actor: 'admin',
      })
      const body = answer.body as { id?: number; price?: number }
      return {
        sku,
        ...(typeof body.id === 'number' ? { id: body.id } : {}),
        price: typeof body.price === 'number' ? body.price : 0,
      }
    })
  }

  async product(label: string, options: { price?: number } = {}): Promise<Product> {
    const draft = this.builders.product(label, options)
    const product = {
      sku: draft.sku,
      name: draft.name,
      price: draft.price,
      status: 1,
      visibility: 4,
      type_id: 'simple',
      attribute_set_id: 4,
      weight: 1,
      extension_attributes: { stock_item: { qty: 1000, is_in_stock: true } },
    }
    const { answer } = await this.#productPace(() =>
      this.create(
        `create product ${label}`,
        { method: 'POST', path: '/V1/products', actor: 'admin', body: { product }, onTrouble: this.#slowDown },
        {
          kind: 'product',
          label: `product ${label}`,
          key: draft.sku,
          find: this.find('product', draft.sku),
          idOf: () => draft.sku,
        },
      ),
    )
    const id = (answer.body as { id?: unknown }).id
    return { sku: draft.sku, price: draft.price, ...(typeof id === 'number' ? { id } : {}) }
  }

  /** A customer of the run's own, with a token of its own. */
  async customer(label: string): Promise<MadeCustomer> {
    return (await this.registerCustomer(label, this.builders.customer(label))).customer
  }

  /**
   * Registers `draft` (its e-mail, names and what else the account is made with: addresses) as a customer of the
   * run's own, and gets its token: the customer, and the account as the shop answered it.
   */
  async registerCustomer<D extends { readonly email: string }>(
    label: string,
    draft: D,
  ): Promise<{ customer: MadeCustomer; account: Record<string, unknown> }> {
    const step = `register customer ${label}`
    const made = registration(this.session.secrets, draft, `customer ${label}`, this.find('customer', draft.email))
    const { answer } = await this.create(step, { ...made.call, actor: 'guest' }, made.creation)
    const account = isObject(answer.body) ? answer.body : {}
    const id = toId(account.id)
    if (id === undefined) throw new SetupError(step, `set-up step "${step}" answered a customer without a numeric id`)
    const { answer: tokenAnswer } = await this.call(
      `token of customer ${label}`,
      {
        method: 'POST',
        path: '/V1/integration/customer/token',
        actor: 'guest',
        body: { username: made.email, password: made.password },
        repeat: 'safe',
      },
      (a) => a.status === 200 && typeof a.body === 'string',
    )
    const token = tokenAnswer.body as string
    // The access probes' customer who owns nothing the path names is labelled so: the report names its class (server
    // errors).
    this.session.secrets.add(token, label === 'other customer' ? 'other customer token' : 'customer token')
    this.session.registerOwnCustomer(token, { username: made.email, password: made.password })
    return { customer: { id, email: made.email, token, password: made.password }, account }
  }

  async attributeSet(label: string): Promise<{ id: number; name: string }> {
    const name = this.builders.attributeSetName(label)
    const step = `create attribute set ${label}`
    const { answer } = await this.create(
      step,
      {
        method: 'POST',
        path: '/V1/eav/attribute-sets',
        actor: 'admin',
        body: {
          entityTypeCode: 'catalog_product',
          attributeSet: { attribute_set_name: name, sort_order: 50 },
          skeletonId: 4,
        },
      },
      // Set names are unique per entity type: found by its name after an answer that never came.
      {
        kind: 'attribute set',
        label: `attribute set ${label}`,
        key: name,
        find: this.find('attribute set', name),
        idOf: (body) => idText(isObject(body) ? body.attribute_set_id : undefined),
      },
    )
    const id = toId((answer.body as { attribute_set_id?: unknown }).attribute_set_id)
    if (id === undefined) throw new SetupError(step, `set-up step "${step}" answered no numeric attribute_set_id`)
    return { id, name }
  }

  /** Adding the same tier again replaces it: a repeat changes nothing more. */
  async addTierPrice(sku: string, group: string | number, qty: number, price: number): Promise<void> {
    await this.call(`add a tier price for group ${group}`, {
      method: 'POST',
      path: `/V1/products/${encodeURIComponent(sku)}/group-prices/${group}/tiers/${qty}/price/${price}`,
      actor: 'admin',
      repeat: 'safe',
    })
  }

  /** A tax rate of the run's own (platform body: the spec shows none). */
  async taxRate(label: string): Promise<{ id: number; code: string; rate: number }> {
    const code = this.builders.taxRateCode(label)
    const rate = this.builders.oddNumber(`tax rate ${label}`, 1, 20, 2)
    const step = `create tax rate ${label}`
    const { answer } = await this.create(
      step,
      {
        method: 'PUT',
        path: '/V1/taxRates',
        actor: 'admin',
        body: { taxRate: { tax_country_id: 'US', tax_region_id: 0, tax_postcode: '*', rate, code } },
      },
      {
        kind: 'tax rate',
        label: `tax rate ${label}`,
        key: code,
        idOf: (body) => idText(isObject(body) ? body.id : undefined),
      },
    )
    const id = toId((answer.body as { id?: unknown }).id)
    if (id === undefined) throw new SetupError(step, `set-up step "${step}" answered no numeric id`)
    return { id, code, rate }
  }
}
