/**
 * Valid requests of the stock-media modules. An asset is made only through the stock-media vendor's service (an
 * image licensed or saved from its search), never by a call of the interface: the read of one names the first the
 * shop lists (`GET /V1/stockmedia/asset/search`, the shop's own records), in both modes — a shop that never saved
 * one has none, and the read is then not judged, saying so. `asset/search` is the plain call with a search criteria
 * page. `search` asks the vendor's service only (NO_VALID_REQUEST); so does `asset/list`, whose valid request is the
 * catalog family's scenario: a shop without the vendor's credentials refuses it (400), and it is not judged there.
 */
import { SetupError, toId, type Provisioner } from '../provision.ts'
import { sendOnce } from '../setup-call.ts'
import { itemsOf } from '../../shop/lookup.ts'
import type { RequestRecipe } from './types.ts'
import { SEARCH_PAGE } from './search.ts'
import { endpointId } from '../../spec/catalog/index.ts'

/** The id of the first stock-media asset the shop lists. */
function listedAsset(fx: Provisioner): Promise<number> {
  return fx.session.memo('valid request: a listed stock-media asset', async () => {
    const outcome = await sendOnce(
      fx.session,
      { method: 'GET', path: '/V1/stockmedia/asset/search', actor: 'admin', query: SEARCH_PAGE },
      fx.tokenOf('admin'),
    )
    const id = itemsOf(outcome)
      ?.map((a) => toId(a.id))
      .find((i) => i !== undefined)
    if (id === undefined) {
      const said =
        outcome.answer !== undefined
          ? `answered ${outcome.answer.status}`
          : `got no answer: ${outcome.failure?.message}`
      throw new SetupError(
        'find a stock-media asset',
        `no stock-media asset to name: GET /V1/stockmedia/asset/search ${said} and listed none (assets come from the stock-media vendor's service; the interface has no call that makes one)`,
        outcome.exchange,
        'no-valid-request',
      )
    }
    return id
  })
}

export const stockMediaRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('GET /V1/stockmedia/asset/:id'),
    prepare: async (fx) => ({ actor: 'admin', path: { id: await listedAsset(fx) } }),
  },
]
