/**
 * Valid requests of the ConfigurableProduct module. A configurable product varies by an attribute that is global,
 * a dropdown and in the product's attribute set, and each child has its own value of it: the run makes an attribute
 * set, a group in it and a dropdown attribute of its own (a fresh install has no such attribute with values, and
 * the shop's sets are not the run's to change), then a configurable product with an option on the attribute and a
 * child, and children and values afresh where a request uses them up (a child is attached once, and two children
 * may not share a value). All of it is removed by the cleanup (the set, the group, the attribute, the products).
 * Platform bodies: `option` {attribute_id, label, position, is_use_default, values [{value_index}]}; `childSku`;
 * `product` and `options` for a variation. In read-only mode the reads name the first configurable product the
 * shop lists, and its first option.
 *
 * Attaching a child saves the product, and the platform's save rebuilds its configurable options with new ids: an
 * option id read before names nothing (a real 2.4.7-p7 shop answered it 500 on a save, 404 on a read). So an option
 * is named by the id the shop lists right before each request, and the children the child endpoint attaches go to
 * a configurable product of their own, not to the one whose option the others name.
 */
import { SetupError, idText, toId, type Provisioner } from '../provision.ts'
import { fit, runMark } from '../identifiers.ts'
import { isObject } from '../../base/is-object.ts'
import { ownOrFound } from './shared.ts'
import type { RequestRecipe } from './types.ts'
import { listedProduct, typedProduct } from './typed-products.ts'
import { endpointId } from '../../spec/catalog/index.ts'

/**
 * An attribute code of the run's: the platform's codes start with a letter and hold letters, digits and
 * underscores, at most 60 characters — the run's mark with underscores.
 */
function attributeCode(fx: Provisioner, label: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_]/g, '_')
  return safe(fit(`${safe(runMark(fx.builders.runId))}_`, label, 60, '_'))
}

interface OwnAttribute {
  id: number
  code: string
  setId: number
  /** The value (option id) the attribute was made with. */
  value: number
}

/** The id of the attribute's option labelled `label`: from `options` as given, else as the attribute lists them. */
async function valueOf(fx: Provisioner, code: string, label: string, options?: unknown): Promise<number> {
  const byLabel = (list: unknown) =>
    Array.isArray(list)
      ? toId(list.find((o): o is Record<string, unknown> => isObject(o) && o.label === label)?.value)
      : undefined
  const given = byLabel(options)
  if (given !== undefined) return given
  const step = `read the options of attribute ${code}`
  const { answer } = await fx.call(step, {
    method: 'GET',
    path: `/V1/products/attributes/${encodeURIComponent(code)}/options`,
    actor: 'admin',
  })
  const listed = byLabel(answer.body)
  if (listed === undefined)
    throw new SetupError(step, `the attribute ${code} lists no option labelled ${JSON.stringify(label)}`)
  return listed
}

/** The run's dropdown attribute, global, with one value, in a group of an attribute set of the run's: made once. */
function ownAttribute(fx: Provisioner): Promise<OwnAttribute> {
  return fx.session.memo('valid request: configurable attribute', async () => {
    const set = await fx.attributeSet('configurable set')
    const group = { attribute_group_name: fx.builders.name('configurable group'), attribute_set_id: set.id }
    const groupStep = 'create an attribute group for the configurable attribute'
    const { answer: groupAnswer } = await fx.create(
      groupStep,
      { method: 'POST', path: '/V1/products/attribute-sets/groups', actor: 'admin', body: { group } },
      {
        kind: 'attribute group',
        label: 'attribute group configurable',
        key: group.attribute_group_name,
        idOf: (b) => idText(isObject(b) ? b.attribute_group_id : undefined),
      },
    )
    const groupId = toId(isObject(groupAnswer.body) ? groupAnswer.body.attribute_group_id : undefined)
    if (groupId === undefined)
      throw new SetupError(groupStep, `set-up step "${groupStep}" answered no numeric attribute_group_id`)

    const code = attributeCode(fx, 'configurable')
    const title = fx.builders.name('configurable attribute')
    const valueLabel = fx.builders.name('configurable value shared')
    const attribute = {
      attribute_code: code,
      frontend_input: 'select',
      default_frontend_label: title,
      frontend_labels: [{ store_id: 0, label: title }],
      is_required: false,
      scope: 'global',
      options: [{ label: valueLabel, sort_order: 1 }],
    }
    const step = 'create the configurable attribute'
    const { answer } = await fx.create(
      step,
      { method: 'POST', path: '/V1/products/attributes', actor: 'admin', body: { attribute } },
      {
        kind: 'product attribute',
        label: 'product attribute configurable',
        key: code,
        idOf: (b) =>
          isObject(b) && typeof b.attribute_code === 'string' && b.attribute_code !== '' ? b.attribute_code : undefined,
      },
    )
    let id = toId(isObject(answer.body) ? answer.body.attribute_id : undefined)
    if (id === undefined) {
      const { answer: read } = await fx.call('read the configurable attribute back', {
        method: 'GET',
        path: `/V1/products/attributes/${code}`,
        actor: 'admin',
      })
      id = toId(isObject(read.body) ? read.body.attribute_id : undefined)
    }
    if (id === undefined)
      throw new SetupError(
        step,
        `set-up step "${step}" answered no numeric attribute_id, nor did the attribute read back`,
      )
    const value = await valueOf(fx, code, valueLabel, isObject(answer.body) ? answer.body.options : undefined)

    await fx.call('put the configurable attribute in the set', {
      method: 'POST',
      path: '/V1/products/attribute-sets/attributes',
      actor: 'admin',
      body: { attributeSetId: set.id, attributeGroupId: groupId, attributeCode: code, sortOrder: 10 },
    })
    return { id, code, setId: set.id, value }
  })
}

/** A new value of the run's attribute, for a child of its own (removed with the attribute). */
async function newValue(fx: Provisioner, label: string): Promise<number> {
  const { code } = await ownAttribute(fx)
  const option = { label: fx.builders.name(`configurable value ${label}`), sort_order: 2, is_default: false }
  const { answer } = await fx.call(`add a value to attribute ${code}`, {
    method: 'POST',
    path: `/V1/products/attributes/${encodeURIComponent(code)}/options`,
    actor: 'admin',
    body: { option },
  })
  return toId(answer.body) ?? valueOf(fx, code, option.label)
}

/** A simple product of the run's in the attribute's set, with the value: a child for the configurable product. */
async function child(fx: Provisioner, label: string, value: number): Promise<string> {
  const attribute = await ownAttribute(fx)
  const made = await typedProduct(fx, `configurable child ${label}`, 'simple', {
    attribute_set_id: attribute.setId,
    custom_attributes: [{ attribute_code: attribute.code, value: String(value) }],
  })
  return made.sku
}

function optionBody(fx: Provisioner, attribute: OwnAttribute, label: string): Record<string, unknown> {
  return {
    attribute_id: attribute.id,
    label: fx.builders.name(`configurable option ${label}`),
    position: 0,
    is_use_default: true,
    values: [{ value_index: attribute.value }],
  }
}

interface OwnConfigurable {
  sku: string
  name: string
  price: number
  option: Record<string, unknown>
}

/** A configurable product of the run's with its option on the run's attribute (`label`: which one), and a child. */
async function configurableWithChild(fx: Provisioner, label: string): Promise<OwnConfigurable> {
  const attribute = await ownAttribute(fx)
  const product = await typedProduct(fx, label, 'configurable', { attribute_set_id: attribute.setId })
  const option = optionBody(fx, attribute, label === 'configurable' ? 'shared' : label)
  const step = `add the option to the ${label} product`
  const path = `/V1/configurable-products/${encodeURIComponent(product.sku)}`
  const { answer } = await fx.call(step, { method: 'POST', path: `${path}/options`, actor: 'admin', body: { option } })
  if (toId(answer.body) === undefined)
    throw new SetupError(step, `set-up step "${step}" answered no option id: ${JSON.stringify(answer.body)}`)
  await fx.call(`attach a child to the ${label} product`, {
    method: 'POST',
    path: `${path}/child`,
    actor: 'admin',
    body: { childSku: await child(fx, label === 'configurable' ? 'shared' : label, attribute.value) },
  })
  return { sku: product.sku, name: fx.builders.product(label).name, price: product.price, option }
}

/** The run's configurable product whose option the requests name (no request attaches a child to it): made once. */
function ownConfigurable(fx: Provisioner): Promise<OwnConfigurable> {
  return fx.session.memo('valid request: own configurable product', () => configurableWithChild(fx, 'configurable'))
}

/**
 * The run's configurable product the child endpoint attaches its children to, whose options that rebuilds: made once.
 */
function configurableToAttachTo(fx: Provisioner): Promise<OwnConfigurable> {
  return fx.session.memo('valid request: configurable product to attach children to', () =>
    configurableWithChild(fx, 'configurable parent'),
  )
}

/**
 * The id of the product's option on the run's attribute as the shop lists it now (`GET …/options/all`): read right
 * before the request that names it, as any attachment of a child since gave it a new one.
 */
async function currentOptionId(fx: Provisioner, sku: string): Promise<number> {
  const attribute = await ownAttribute(fx)
  const step = `read the options of the configurable product ${sku}`
  const { answer } = await fx.call(step, {
    method: 'GET',
    path: `/V1/configurable-products/${encodeURIComponent(sku)}/options/all`,
    actor: 'admin',
  })
  const mine: unknown = Array.isArray(answer.body)
    ? answer.body.find((o) => isObject(o) && String(o.attribute_id) === String(attribute.id))
    : undefined
  const id = toId(isObject(mine) ? mine.id : undefined)
  if (id === undefined)
    throw new SetupError(
      step,
      `the configurable product ${sku} lists no option on attribute ${attribute.code}: ${JSON.stringify(answer.body)}`,
    )
  return id
}

/** The configurable product a read names: the run's, or in read-only mode the first the shop lists. */
function configurableToRead(fx: Provisioner): Promise<string> {
  return ownOrFound(
    fx,
    'configurable product to read',
    async () => (await ownConfigurable(fx)).sku,
    () => listedProduct(fx, 'configurable'),
  )
}

/** An option of the configurable product a read names: the run's, or in read-only mode the listed one's first. */
function optionToRead(fx: Provisioner): Promise<{ sku: string; id: number }> {
  return ownOrFound(
    fx,
    'configurable option to read',
    async () => {
      const own = await ownConfigurable(fx)
      return { sku: own.sku, id: await currentOptionId(fx, own.sku) }
    },
    async () => {
      const sku = await listedProduct(fx, 'configurable')
      const step = 'find an option of the listed configurable product'
      const { answer } = await fx.call(step, {
        method: 'GET',
        path: `/V1/configurable-products/${encodeURIComponent(sku)}/options/all`,
        actor: 'admin',
      })
      const id = Array.isArray(answer.body)
        ? answer.body.map((o) => toId(isObject(o) ? o.id : undefined)).find((i) => i !== undefined)
        : undefined
      if (id === undefined)
        throw new SetupError(
          step,
          `the configurable product ${sku} the shop lists has no option`,
          [],
          'no-valid-request',
        )
      return { sku, id }
    },
  )
}

export const configurableProductRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('POST /V1/configurable-products/:sku/options'),
    // A product has one option per attribute: each caller's request names a new simple product of the run's, which
    // the option makes configurable.
    prepare: async (fx, label) => {
      const attribute = await ownAttribute(fx)
      const product = await typedProduct(fx, `configurable by option ${label}`, 'simple', {
        attribute_set_id: attribute.setId,
      })
      return { actor: 'admin', path: { sku: product.sku }, body: { option: optionBody(fx, attribute, label) } }
    },
  },
  {
    endpoint: endpointId('PUT /V1/configurable-products/:sku/options/:id'),
    // Saved again with the values it was made with, under the id the shop lists now.
    again: 'reuse',
    prepare: async (fx) => {
      const own = await ownConfigurable(fx)
      return {
        actor: 'admin',
        path: { sku: own.sku, id: await currentOptionId(fx, own.sku) },
        body: { option: own.option },
      }
    },
  },
  {
    endpoint: endpointId('POST /V1/configurable-products/:sku/child'),
    // A child is attached once and no two share a value: each caller's request names a new child with a new value,
    // to a configurable product of its own (an attachment rebuilds the options the other requests name).
    prepare: async (fx, label) => {
      const parent = await configurableToAttachTo(fx)
      return {
        actor: 'admin',
        path: { sku: parent.sku },
        body: { childSku: await child(fx, label, await newValue(fx, label)) },
      }
    },
  },
  {
    endpoint: endpointId('PUT /V1/configurable-products/variation'),
    // Computes the products the options would make; nothing is saved.
    again: 'reuse',
    prepare: async (fx) => {
      const [own, attribute] = await Promise.all([ownConfigurable(fx), ownAttribute(fx)])
      const product = {
        sku: own.sku,
        name: own.name,
        price: own.price,
        type_id: 'configurable',
        attribute_set_id: attribute.setId,
        status: 2,
        visibility: 1,
      }
      return { actor: 'admin', path: {}, body: { product, options: [own.option] } }
    },
  },
  {
    endpoint: endpointId('GET /V1/configurable-products/:sku/children'),
    prepare: async (fx) => ({ actor: 'admin', path: { sku: await configurableToRead(fx) } }),
  },
  {
    endpoint: endpointId('GET /V1/configurable-products/:sku/options/all'),
    prepare: async (fx) => ({ actor: 'admin', path: { sku: await configurableToRead(fx) } }),
  },
  {
    endpoint: endpointId('GET /V1/configurable-products/:sku/options/:id'),
    prepare: async (fx) => {
      const { sku, id } = await optionToRead(fx)
      return { actor: 'admin', path: { sku, id } }
    },
  },
]
