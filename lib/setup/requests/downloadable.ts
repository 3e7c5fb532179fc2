/**
 * Valid requests of the Downloadable module: a downloadable product of the run's own with a link and a sample of
 * it (removed with the product). Their resources are files sent as content (`link_file_content`,
 * `sample_file_content`: {file_data in base64, name}): a URL would have to be on a domain the shop allows
 * (`downloadable_domains`, shop configuration). A save names the file the platform stored (`link_file`,
 * `sample_file`, as the list reads it back) instead of sending it again, so no caller leaves another file behind.
 * Platform bodies: `link` {title, sort_order, price, is_shareable, number_of_downloads, link_type, …}, `sample`
 * {title, sort_order, sample_type, …}, and `isGlobalScopeContent`. In read-only mode the lists name the first
 * downloadable product the shop lists.
 */
import { SetupError, toId, type Provisioner } from '../provision.ts'
import { isObject } from '../../base/is-object.ts'
import { ownOrFound } from './shared.ts'
import type { RequestRecipe } from './types.ts'
import { listedProduct, typedProduct } from './typed-products.ts'
import { endpointId } from '../../spec/catalog/index.ts'

type Part = 'link' | 'sample'

const PATH: Record<Part, string> = { link: 'downloadable-links', sample: 'downloadable-links/samples' }

function ownDownloadable(fx: Provisioner): Promise<string> {
  return fx.session.memo(
    'valid request: own downloadable product',
    async () => (await typedProduct(fx, 'downloadable', 'downloadable')).sku,
  )
}

/** A small text file of the run's, as the platform takes a file's content. */
function fileContent(fx: Provisioner, label: string): { file_data: string; name: string } {
  const name = `${fx.builders.code(`file ${label}`)}.txt`
  return {
    file_data: Buffer.from(`A file of the conformance run ${fx.builders.runId} (${label}).\n`).toString('base64'),
    name,
  }
}

function draft(fx: Provisioner, part: Part, label: string): Record<string, unknown> {
  const title = fx.builders.name(`downloadable ${part} ${label}`)
  return part === 'link'
    ? {
        title,
        sort_order: 1,
        price: 0,
        is_shareable: 0,
        number_of_downloads: 0,
        link_type: 'file',
        link_file_content: fileContent(fx, `link ${label}`),
      }
    : { title, sort_order: 1, sample_type: 'file', sample_file_content: fileContent(fx, `sample ${label}`) }
}

function partPath(sku: string, part: Part): string {
  return `/V1/products/${encodeURIComponent(sku)}/${PATH[part]}`
}

/**
 * The run's link (sample) of its downloadable product, as a save sends it again: its id, its fields, and the file
 * the platform stored for it (read back from the list) in place of the content.
 */
function ownPart(fx: Provisioner, part: Part): Promise<{ id: number; body: Record<string, unknown> }> {
  return fx.session.memo(`valid request: own downloadable ${part}`, async () => {
    const sku = await ownDownloadable(fx)
    const made = draft(fx, part, 'shared')
    const step = `add a ${part} to the downloadable product`
    const { answer } = await fx.call(step, {
      method: 'POST',
      path: partPath(sku, part),
      actor: 'admin',
      body: { [part]: made, isGlobalScopeContent: true },
    })
    const id = toId(answer.body)
    if (id === undefined)
      throw new SetupError(step, `set-up step "${step}" answered no ${part} id: ${JSON.stringify(answer.body)}`)
    const readStep = `read the downloadable ${part}s back`
    const { answer: list } = await fx.call(readStep, { method: 'GET', path: partPath(sku, part), actor: 'admin' })
    const stored: unknown = Array.isArray(list.body)
      ? list.body.find((p) => isObject(p) && toId(p.id) === id)
      : undefined
    const file = isObject(stored) ? stored[`${part}_file`] : undefined
    if (typeof file !== 'string' || file === '')
      throw new SetupError(
        readStep,
        `the ${part} ${id} the list reads back names no stored file: ${JSON.stringify(stored)}`,
      )
    const { [`${part}_file_content`]: _content, ...fields } = made
    return { id, body: { ...fields, id, [`${part}_file`]: file } }
  })
}

function downloadableToRead(fx: Provisioner): Promise<string> {
  return ownOrFound(
    fx,
    'downloadable product to read',
    () => ownDownloadable(fx),
    () => listedProduct(fx, 'downloadable'),
  )
}

function recipes(part: Part): RequestRecipe[] {
  const path: `/V1/${string}` = `/V1/products/:sku/${PATH[part]}`
  return [
    {
      endpoint: endpointId(`POST ${path}`),
      // Each success adds a link (sample) to the run's product, removed with it.
      prepare: async (fx, label) => ({
        actor: 'admin',
        path: { sku: await ownDownloadable(fx) },
        body: { [part]: draft(fx, part, label), isGlobalScopeContent: true },
      }),
    },
    {
      endpoint: endpointId(`PUT ${path}/:id`),
      // Saved again with its own values and the file it has.
      again: 'reuse',
      prepare: async (fx) => {
        const [sku, own] = await Promise.all([ownDownloadable(fx), ownPart(fx, part)])
        return { actor: 'admin', path: { sku, id: own.id }, body: { [part]: own.body, isGlobalScopeContent: true } }
      },
    },
    {
      endpoint: endpointId(`GET ${path}`),
      prepare: async (fx) => ({ actor: 'admin', path: { sku: await downloadableToRead(fx) } }),
    },
  ]
}

export const downloadableRecipes: RequestRecipe[] = [...recipes('link'), ...recipes('sample')]
