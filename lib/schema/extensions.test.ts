import { describe, expect, it } from 'vitest'
import { extensionOperations } from './extensions.ts'
import { handmadeDocument, handmadeSchema, readOk } from './testing.ts'
import { endpointText } from '../spec/endpoint-id.ts'

describe('extension operations', () => {
  it('are the operations of the hand-made schema the spec does not name, each with its declared class', () => {
    expect(
      extensionOperations(handmadeSchema()).map(
        (e) => `${endpointText(e)} ${e.declaredAccess} ${e.writes ? 'writes' : 'reads'}`,
      ),
    ).toEqual([
      'POST /V1/guest-carts anon writes',
      'GET /V1/carts/mine self reads',
      'POST /V1/carts/mine/items self writes',
      'POST /V1/order/:orderId/invoice admin writes',
      'GET /V1/orders/:id admin reads',
      'DELETE /V1/products/:sku admin writes',
      'GET /V1/store/storeViews admin reads',
    ])
    expect(extensionOperations(handmadeSchema())[0]).toEqual({
      method: 'POST',
      path: '/V1/guest-carts',
      operationId: 'quoteGuestCartManagementV1CreateEmptyCartPost',
      declaredAccess: 'anon',
      writes: true,
      origin: 'extension',
    })
  })

  it('are recognised by template, whatever the schema names a parameter, and through the path aliases', () => {
    const doc = handmadeDocument('admin')
    doc.paths['/V1/creditmemo/{creditmemoId}'] = doc.paths['/V1/creditmemo/{id}'] // the spec's :id under another name
    delete doc.paths['/V1/creditmemo/{id}']
    doc.paths['/V1/adobestock/asset/list'] = { get: { responses: {} } }
    const read = readOk(doc)
    const paths = (targetPath?: (p: string) => string) =>
      extensionOperations(read, targetPath === undefined ? {} : { targetPath }).map((e) => e.path)
    expect(paths()).not.toContain('/V1/creditmemo/:creditmemoId')
    expect(paths()).toContain('/V1/adobestock/asset/list')
    expect(paths((p) => p.replace(/^\/V1\/stockmedia\//, '/V1/adobestock/'))).not.toContain('/V1/adobestock/asset/list')
  })

  it('carry why their class is unknown when the schema came without caller views', () => {
    const single = extensionOperations(readOk(handmadeDocument('admin')))
    expect(single.every((e) => e.declaredAccess === undefined)).toBe(true)
    expect(single[0]?.accessUnknown).toMatch(/without caller views/)
  })
})
