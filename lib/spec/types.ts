/** The spec as data: the types every catalog row and every check reads. */

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
}

export interface ModuleSpec {
  /** Stable id used in flags, file names and result ids. */
  id: string
  /** The spec's heading for the group. */
  title: string
}
