/** The spec as data: the types every catalog row and every check reads. */
import type { ShapeName } from './shapes.ts'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** The spec's three access classes (§ Authentication 1). "listed as self" is self. */
export type AccessClass = 'admin' | 'self' | 'anon'

export interface ParamSpec {
  name: string
  in: 'path' | 'query' | 'body'
  /** Type as the spec writes it (`int`, `string`, `boolean`, `CreditmemoInterface`, …); absent when not shown. */
  type?: string
  required?: boolean
  /** Default as the spec writes it, e.g. `null`. */
  default?: string
  /** Anything else the spec says of it, verbatim. */
  note?: string
}

export interface EndpointRow {
  method: HttpMethod
  /** Spec path template without a trailing slash, e.g. `/V1/creditmemo/:id`. */
  path: string
  /** Id of the spec's module group (see modules.ts). */
  module: string
  /** `Interface::method` as the spec names the contract; absent where the spec names none. */
  contract?: string
  /** Module prefix the detail table gives the contract (`Sales`, `Quote`, …), when it gives one. */
  contractModule?: string
  access: AccessClass
  /** The spec's own words where they qualify the access class, e.g. `listed as self`. */
  accessNote?: string
  /** ACL resource, only where the spec's detail table names one. */
  acl?: string
  /** Path, query and body parameters, only where the spec gives them. */
  params?: ParamSpec[]
  /** Return type, only where the spec gives it. */
  returns?: string
  /** The spec's purpose text for the endpoint, verbatim where given. */
  purpose?: string
  /** Spec sections the row comes from, most specific first, e.g. `Endpoints › Endpoint lists by module › Quote`. */
  sections: string[]
  /**
   * A batch price operation (Business rules 1, 2): which prices, what the call does, and the invalid items its words
   * name.
   */
  batch?: BatchOperation
  /** The tabled shape of a read whose return the row does not name, where the spec's words say what it loads. */
  answer?: ShapeName
  /**
   * lib/setup/families/<family>.ts: how to talk to the endpoint on a real shop (a valid call, platform conventions).
   */
  family?: FamilyName
}

export type PriceFamily = 'base' | 'cost' | 'special' | 'tier'

/**
 * An invalid item of a batch price call, as the spec's words name it ("invalid price, store id or sku fail
 * the item"): each is made invalid under every reading of those words.
 */
export type InvalidKind =
  | 'unknown sku'
  | 'invalid price'
  | 'invalid cost'
  | 'unknown store id'
  | 'malformed date'
  | 'invalid price type'
  | 'unknown website id'
  | 'unknown customer group'
  | 'invalid quantity'

export interface BatchOperation {
  prices: PriceFamily
  /**
   * `update`, `delete`, `replace`: a batch of price items; `information`: `{skus}` → the stored prices; `cost-delete`:
   * `{skus}` → true.
   */
  op: 'update' | 'delete' | 'replace' | 'information' | 'cost-delete'
  /**
   * An update's invalid items, from its purpose words; the deletes and the replace name none and take their update's.
   */
  invalid?: readonly InvalidKind[]
}

/** The endpoint families of lib/setup/families/. */
export type FamilyName = 'catalog' | 'quote' | 'sales' | 'integration'

export interface ModuleSpec {
  /** Stable id used in flags, file names and result ids. */
  id: string
  /** The spec's heading for the group. */
  title: string
}
