import type { Family } from './types.ts'
import { endpointId } from '../../spec/catalog/index.ts'

/** Integration: the token endpoints. No valid call needs set-up here; one call must be made with care. */
export const integrationFamily: Family = {
  name: 'integration',
  scenarios: [],
  conventions: {
    // It revokes the caller's own tokens (platform conventions, Tokens): probed with a customer of the run's own,
    // never with the token the rest of the run needs.
    [endpointId('POST /V1/integration/customer/revoke-customer-token')]: { revokesCallerTokens: true },
  },
}
