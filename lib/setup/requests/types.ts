import type { EndpointId } from '../../spec/endpoint-id.ts'
import type { EntityKind } from '../ledger.ts'
import type { Provisioner } from '../provision.ts'
import type { PreparedCall } from '../families/types.ts'

/**
 * How to make one request of a spec endpoint that the caller its access class admits gets a success (2xx) for:
 * what the access and acl checks probe every caller with, so that a caller let through cannot hide behind a 404
 * about a placeholder id or a 400 about an empty body (issue 20). The request names the run's own data, made by
 * the provisioner (every creation in the ledger first); in read-only mode only GETs are sent, on data found
 * through the shop's list and search endpoints.
 */
export interface RequestRecipe {
  /** The catalog row it calls. */
  endpoint: EndpointId
  /**
   * The request, with its path parameters, query and body, as the admitted caller sends it (`actor`: the run's
   * admin, or a token of a customer of the run's own for a self endpoint). Rejects with a SetupError when the
   * data it needs could not be made or found.
   */
  prepare(fx: Provisioner, label: string): Promise<PreparedCall>
  /**
   * After a caller's success: `reuse` — the same request may be sent again (a read, a save of the same values);
   * `fresh` — what the success used up or made must not be named again (a removal, a cancel, an order placed, a
   * creation whose name must be unique, a token revoked), so the next caller gets a newly prepared request.
   * Default: `reuse` for a GET, `fresh` for a write.
   */
  again?: 'reuse' | 'fresh'
  /**
   * Requests of one lane are never in flight together, their preparation included: what each makes the shop do
   * collides with what another makes it do at the same time (`inventory reindex`: a real 2.4.7 rebuilds a stock's
   * index in a replica table on a partial source transfer and on a stock's links saved, and answered one of two
   * side by side 400 "Table inventory_stock_2_replica already exits").
   */
  lane?: string
  /** What a success creates: each send is in the ledger before it leaves (its id from the answer, or its key). */
  creates?: {
    kind: EntityKind
    idOf(answerBody: unknown): string | undefined
    keyOf?(body: Record<string, unknown>): string | undefined
  }
}
