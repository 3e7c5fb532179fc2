/**
 * Valid requests of the eav module beyond the detail table's two (lib/setup/families/catalog.ts): a set of the run's
 * own read, and one made for each removal; in read-only mode the read names the first set the shop lists.
 */
import type { RequestRecipe } from './types.ts'
import { attributeSetToRead } from './catalog-own.ts'
import { endpointId } from '../../spec/catalog/index.ts'

export const eavRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('GET /V1/eav/attribute-sets/:attributeSetId'),
    prepare: async (fx) => ({
      actor: 'admin',
      path: { attributeSetId: (await attributeSetToRead(fx, '/V1/eav/attribute-sets/list')).id },
    }),
  },
  {
    endpoint: endpointId('DELETE /V1/eav/attribute-sets/:attributeSetId'),
    // A set of its own for each request: a removal uses it up (the ledger has it, and the cleanup finds it gone).
    prepare: async (fx, label) => ({ actor: 'admin', path: { attributeSetId: (await fx.attributeSet(label)).id } }),
  },
]
