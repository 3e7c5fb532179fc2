/**
 * Valid requests of the Integration module's restricted endpoint: the revoke of a customer's tokens, sent with the
 * token of a customer of its own each time — the revoke kills the token it was sent with (platform conventions,
 * Tokens), so no token the rest of the run needs is ever sent there.
 */
import type { RequestRecipe } from './types.ts'
import { endpointId } from '../../spec/catalog/index.ts'

export const integrationRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('POST /V1/integration/customer/revoke-customer-token'),
    // No body: the customer id comes from the token.
    prepare: async (fx, label) => ({ actor: { token: (await fx.customer(label)).token }, path: {} }),
  },
]
