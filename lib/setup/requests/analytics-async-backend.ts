/**
 * Valid requests of the Analytics, AsynchronousOperations and Backend module: the bulk status reads name a bulk
 * operation of the run's own — the interface has no call that starts one, but the platform's asynchronous bulk
 * interface does (`POST /rest/{store}/async/bulk/V1/…`, a platform call: lib/setup/platform-calls.ts), answering
 * the bulk's uuid. The run queues a read of its main product's price there: when the shop's consumer runs it, it
 * makes nothing (and after the cleanup it finds no product: a failed read, still nothing made). In read-only mode,
 * which sends no write, they name the first bulk the shop lists (`GET /V1/bulk`), and a shop that never ran one has
 * none to name: those reads are then not judged, saying so. `/V1/bulk` and `/V1/modules` are the plain call;
 * `/V1/analytics/link` has none (NO_VALID_REQUEST).
 */
import { SetupError, type Provisioner } from '../provision.ts'
import { platformCall } from '../platform-calls.ts'
import { sendOnce } from '../setup-call.ts'
import { itemsOf } from '../../shop/lookup.ts'
import { isObject } from '../../base/is-object.ts'
import type { RequestRecipe } from './types.ts'
import { SEARCH_PAGE } from './search.ts'
import { ownOrFound } from './shared.ts'
import { endpointId } from '../../spec/catalog/index.ts'

interface Bulk {
  uuid: string
  /** The status of one of its operations (1 complete … 4 open, 5 rejected). */
  status: number
}

/**
 * The open status of an operation not yet run: what the run's own bulk's operation has until the shop's consumer runs
 * it.
 */
const OPEN = 4

/**
 * The run's own bulk operation (in the ledger first: the interface cannot remove it), or in read-only mode the first
 * the shop lists.
 */
function ownBulk(fx: Provisioner): Promise<Bulk> {
  return ownOrFound(
    fx,
    'bulk operation',
    async () => {
      const step = 'queue a bulk operation'
      const bulkUuid = (body: unknown) =>
        isObject(body) && typeof body.bulk_uuid === 'string' && body.bulk_uuid !== '' ? body.bulk_uuid : undefined
      const { answer } = await fx.create(
        step,
        { ...platformCall('scheduleBulk'), actor: 'admin', body: [{ skus: [(await fx.mainProduct()).sku] }] },
        { kind: 'bulk operation', label: 'bulk operation of the run (a price read queued)', idOf: bulkUuid },
      )
      const uuid = bulkUuid(answer.body)
      if (uuid === undefined)
        throw new SetupError(step, `set-up step "${step}" answered no bulk_uuid: ${JSON.stringify(answer.body)}`)
      return { uuid, status: OPEN }
    },
    () => listedBulk(fx),
  )
}

/** The first bulk operation the shop lists (read-only mode: the run makes none). */
function listedBulk(fx: Provisioner): Promise<Bulk> {
  return fx.session.memo('valid request: a listed bulk operation', async () => {
    const outcome = await sendOnce(
      fx.session,
      { method: 'GET', path: '/V1/bulk', actor: 'admin', query: SEARCH_PAGE },
      fx.tokenOf('admin'),
    )
    const operation = itemsOf(outcome)?.find((o) => typeof o.bulk_uuid === 'string' && o.bulk_uuid !== '')
    if (operation === undefined) {
      const said =
        outcome.answer !== undefined
          ? `answered ${outcome.answer.status}`
          : `got no answer: ${outcome.failure?.message}`
      throw new SetupError(
        'find a bulk operation',
        `read-only mode: no bulk operation to name: GET /V1/bulk ${said} and listed none (a shop has one once a mass action or an asynchronous request ran; read-only mode queues none)`,
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
    prepare: async (fx) => ({ actor: 'admin', path: { bulkUuid: (await ownBulk(fx)).uuid } }),
  },
  {
    endpoint: endpointId('GET /V1/bulk/:bulkUuid/status'),
    prepare: async (fx) => ({ actor: 'admin', path: { bulkUuid: (await ownBulk(fx)).uuid } }),
  },
  {
    endpoint: endpointId('GET /V1/bulk/:bulkUuid/operation-status/:status'),
    prepare: async (fx) => {
      const bulk = await ownBulk(fx)
      return { actor: 'admin', path: { bulkUuid: bulk.uuid, status: bulk.status } }
    },
  },
]
