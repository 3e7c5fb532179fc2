/**
 * Valid requests of the Analytics, AsynchronousOperations and Backend module: the bulk status reads name a bulk
 * operation the shop lists (`GET /V1/bulk`). The interface has no call that starts one (mass actions of the admin
 * panel and asynchronous requests do), so a shop that never ran one has none to name: those reads are then not
 * judged, saying so. `/V1/bulk` and `/V1/modules` are the plain call; `/V1/analytics/link` has none (NO_VALID_REQUEST).
 */
import { SetupError, type Provisioner } from '../provision.ts'
import { sendOnce } from '../setup-call.ts'
import { itemsOf } from '../../shop/lookup.ts'
import type { RequestRecipe } from './types.ts'
import { SEARCH_PAGE } from './search.ts'
import { endpointId } from '../../spec/catalog/index.ts'

interface Bulk {
  uuid: string
  /** The status of one of its operations (1 complete … 5 rejected). */
  status: number
}

/** The first bulk operation the shop lists, in both modes (the run cannot make one). */
function listedBulk(fx: Provisioner): Promise<Bulk> {
  return fx.session.memo('valid request: a listed bulk operation', async () => {
    const outcome = await sendOnce(fx.session, { method: 'GET', path: '/V1/bulk', actor: 'admin', query: SEARCH_PAGE }, fx.tokenOf('admin'))
    const operation = itemsOf(outcome)?.find((o) => typeof o.bulk_uuid === 'string' && o.bulk_uuid !== '')
    if (operation === undefined) {
      const said = outcome.answer !== undefined ? `answered ${outcome.answer.status}` : `got no answer: ${outcome.failure?.message}`
      throw new SetupError(
        'find a bulk operation',
        `no bulk operation to name: GET /V1/bulk ${said} and listed none (a shop has one once a mass action or an asynchronous request ran; the interface has no call that starts one)`,
        outcome.exchange,
        'no-valid-request',
      )
    }
    return { uuid: operation.bulk_uuid as string, status: typeof operation.status === 'number' ? operation.status : 1 }
  })
}

export const analyticsAsyncBackendRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('GET /V1/bulk/:bulkUuid/detailed-status'),
    prepare: async (fx) => ({ actor: 'admin', path: { bulkUuid: (await listedBulk(fx)).uuid } }),
  },
  {
    endpoint: endpointId('GET /V1/bulk/:bulkUuid/status'),
    prepare: async (fx) => ({ actor: 'admin', path: { bulkUuid: (await listedBulk(fx)).uuid } }),
  },
  {
    endpoint: endpointId('GET /V1/bulk/:bulkUuid/operation-status/:status'),
    prepare: async (fx) => {
      const bulk = await listedBulk(fx)
      return { actor: 'admin', path: { bulkUuid: bulk.uuid, status: bulk.status } }
    },
  },
]
