/**
 * Valid requests of the Cms module: a block and a page of the run's own (platform bodies: `block`/`page` with an
 * identifier, a title, content and `active`), read, saved and searched; in read-only mode the first the shop lists.
 */
import { idText, toId, type Provisioner } from '../provision.ts'
import { SetupError } from '../setup-call.ts'
import { isObject } from '../../base/is-object.ts'
import { firstListed, ownOrFound } from './shared.ts'
import type { RequestRecipe } from './types.ts'
import { SEARCH_PAGE } from './search.ts'
import { endpointId } from '../../spec/catalog/index.ts'

type Kind = 'block' | 'page'

const PATH: Record<Kind, `/V1/${string}`> = { block: '/V1/cmsBlock', page: '/V1/cmsPage' }

function draft(fx: Provisioner, kind: Kind, label: string): Record<string, unknown> {
  const identifier = fx.builders.code(`cms ${kind} ${label}`)
  const title = fx.builders.name(`cms ${kind} ${label}`)
  return kind === 'block'
    ? { identifier, title, content: `<p>${title}</p>`, active: true }
    : { identifier, title, content: `<p>${title}</p>`, active: false, page_layout: '1column' }
}

/** Makes a block or page of the run's own: its id and what it was made with. */
async function make(fx: Provisioner, kind: Kind, label: string): Promise<Record<string, unknown> & { id: number }> {
  const body = draft(fx, kind, label)
  const step = `create CMS ${kind} ${label}`
  const { answer } = await fx.create(
    step,
    { method: 'POST', path: PATH[kind], actor: 'admin', body: { [kind]: body } },
    {
      kind: `cms ${kind}`,
      label: `CMS ${kind} ${label}`,
      key: String(body.identifier),
      idOf: (b) => idText(isObject(b) ? b.id : undefined),
    },
  )
  const id = toId(isObject(answer.body) ? answer.body.id : undefined)
  if (id === undefined) throw new SetupError(step, `set-up step "${step}" answered no numeric id`)
  return { ...body, id }
}

/** The run's own block or page, made once; in read-only mode the first the shop lists. */
function one(fx: Provisioner, kind: Kind): Promise<Record<string, unknown> & { id: number }> {
  return ownOrFound(
    fx,
    `cms ${kind}`,
    () => make(fx, kind, 'shared'),
    async () => {
      const found = await firstListed(fx, `CMS ${kind}`, `${PATH[kind]}/search`, SEARCH_PAGE)
      const id = toId(found.id)
      if (id === undefined)
        throw new SetupError(`find a CMS ${kind}`, `the first CMS ${kind} the shop lists has no numeric id`)
      return { ...found, id }
    },
  )
}

function recipes(kind: Kind, idParam: string): RequestRecipe[] {
  return [
    {
      endpoint: endpointId(`POST ${PATH[kind]}`),
      prepare: (fx, label) => Promise.resolve({ actor: 'admin', path: {}, body: { [kind]: draft(fx, kind, label) } }),
      creates: {
        kind: `cms ${kind}`,
        idOf: (b) => idText(isObject(b) ? b.id : undefined),
        keyOf: (body) => (isObject(body[kind]) ? String(body[kind].identifier) : undefined),
      },
    },
    {
      endpoint: endpointId(`PUT ${PATH[kind]}/:id`),
      // Saving the same values again changes nothing more: every caller may send it.
      again: 'reuse',
      prepare: async (fx) => {
        const own = await one(fx, kind)
        return { actor: 'admin', path: { id: own.id }, body: { [kind]: { ...own } } }
      },
    },
    {
      endpoint: endpointId(`GET ${PATH[kind]}/:${idParam}`),
      prepare: async (fx) => ({ actor: 'admin', path: { [idParam]: (await one(fx, kind)).id } }),
    },
  ]
}

export const cmsRecipes: RequestRecipe[] = [...recipes('block', 'blockId'), ...recipes('page', 'pageId')]
