/**
 * Valid requests of the catalog-attributes module: a product attribute set of the run's own with a group of its
 * own, and a dropdown attribute of the run's own with an option, created, saved with the same values, assigned
 * and read (platform bodies, after its API tests: `attributeSet` and `skeletonId`, `group`, `attribute`,
 * `option`, the four keys of an assignment). In read-only mode the reads name a set the shop lists and the
 * `visibility` attribute every install has.
 */
import { idText } from '../provision.ts'
import { isObject } from '../../base/is-object.ts'
import type { RequestRecipe } from './types.ts'
import {
  attributeCodeOf,
  attributeDraft,
  attributeSetToRead,
  attributeToRead,
  groupDraft,
  groupIdOf,
  optionDraft,
  ownAttribute,
  ownAttributeGroup,
  ownAttributeOption,
  ownAttributeSet,
} from './catalog-own.ts'
import { endpointId } from '../../spec/catalog/index.ts'

/** The product set of a stock install ("Default", id 4): what a new set is based on (platform conventions). */
const SKELETON_SET_ID = 4
/** The entity type of products on a stock install (`catalog_product`). */
const PRODUCT_ENTITY_TYPE_ID = 4
const SETS_LIST = '/V1/products/attribute-sets/sets/list'

export const catalogAttributesRecipes: RequestRecipe[] = [
  {
    endpoint: endpointId('POST /V1/products/attribute-sets'),
    prepare: (fx, label) =>
      Promise.resolve({
        actor: 'admin',
        path: {},
        body: {
          attributeSet: { attribute_set_name: fx.builders.attributeSetName(label), sort_order: 50 },
          skeletonId: SKELETON_SET_ID,
        },
      }),
    creates: {
      kind: 'attribute set',
      idOf: (b) => (isObject(b) ? idText(b.attribute_set_id) : undefined),
      keyOf: (body) =>
        isObject(body.attributeSet) && typeof body.attributeSet.attribute_set_name === 'string'
          ? body.attributeSet.attribute_set_name
          : undefined,
    },
  },
  {
    endpoint: endpointId('POST /V1/products/attribute-sets/attributes'),
    // Assigning the attribute to the same group again changes nothing.
    again: 'reuse',
    prepare: async (fx) => {
      const [group, attribute] = await Promise.all([ownAttributeGroup(fx), ownAttribute(fx)])
      return {
        actor: 'admin',
        path: {},
        body: { attributeSetId: group.setId, attributeGroupId: group.id, attributeCode: attribute.code, sortOrder: 10 },
      }
    },
  },
  {
    endpoint: endpointId('POST /V1/products/attribute-sets/groups'),
    // Group names are unique per set: each caller's success makes one, and the next gets a new name.
    prepare: async (fx, label) => ({
      actor: 'admin',
      path: {},
      body: { group: groupDraft(fx, (await ownAttributeSet(fx)).id, label) },
    }),
    creates: {
      kind: 'attribute group',
      idOf: groupIdOf,
      keyOf: (body) =>
        isObject(body.group) && typeof body.group.attribute_group_name === 'string'
          ? body.group.attribute_group_name
          : undefined,
    },
  },
  {
    endpoint: endpointId('PUT /V1/products/attribute-sets/:attributeSetId'),
    again: 'reuse',
    prepare: async (fx) => {
      const set = await ownAttributeSet(fx)
      return {
        actor: 'admin',
        path: { attributeSetId: set.id },
        body: {
          attributeSet: {
            attribute_set_id: set.id,
            attribute_set_name: set.name,
            sort_order: 50,
            entity_type_id: PRODUCT_ENTITY_TYPE_ID,
          },
        },
      }
    },
  },
  {
    endpoint: endpointId('PUT /V1/products/attribute-sets/:attributeSetId/groups'),
    again: 'reuse',
    prepare: async (fx) => {
      const group = await ownAttributeGroup(fx)
      return {
        actor: 'admin',
        path: { attributeSetId: group.setId },
        body: {
          group: { attribute_group_id: group.id, attribute_group_name: group.name, attribute_set_id: group.setId },
        },
      }
    },
  },
  {
    endpoint: endpointId('GET /V1/products/attribute-sets/:attributeSetId'),
    prepare: async (fx) => ({ actor: 'admin', path: { attributeSetId: (await attributeSetToRead(fx, SETS_LIST)).id } }),
  },
  {
    endpoint: endpointId('GET /V1/products/attribute-sets/:attributeSetId/attributes'),
    prepare: async (fx) => ({ actor: 'admin', path: { attributeSetId: (await attributeSetToRead(fx, SETS_LIST)).id } }),
  },
  {
    endpoint: endpointId('POST /V1/products/attributes'),
    prepare: (fx, label) =>
      Promise.resolve({ actor: 'admin', path: {}, body: { attribute: attributeDraft(fx, label) } }),
    creates: {
      kind: 'product attribute',
      idOf: attributeCodeOf,
      keyOf: (body) => (isObject(body.attribute) ? attributeCodeOf(body.attribute) : undefined),
    },
  },
  {
    endpoint: endpointId('POST /V1/products/attributes/:attributeCode/options'),
    // Option labels are unique per attribute: each success adds one (removed with the run's attribute).
    prepare: async (fx, label) => ({
      actor: 'admin',
      path: { attributeCode: (await ownAttribute(fx)).code },
      body: { option: optionDraft(fx, label) },
    }),
  },
  {
    endpoint: endpointId('PUT /V1/products/attributes/:attributeCode'),
    again: 'reuse',
    prepare: async (fx) => {
      const { code, fields } = await ownAttribute(fx)
      return { actor: 'admin', path: { attributeCode: code }, body: { attribute: fields } }
    },
  },
  {
    endpoint: endpointId('PUT /V1/products/attributes/:attributeCode/is-filterable/:isFilterable'),
    // The run's attribute was made not filterable (0): setting 0 again is a no-op.
    again: 'reuse',
    prepare: async (fx) => ({
      actor: 'admin',
      path: { attributeCode: (await ownAttribute(fx)).code, isFilterable: 0 },
    }),
  },
  {
    endpoint: endpointId('PUT /V1/products/attributes/:attributeCode/options/:optionId'),
    again: 'reuse',
    prepare: async (fx) => {
      const { code, id, option } = await ownAttributeOption(fx)
      return { actor: 'admin', path: { attributeCode: code, optionId: id }, body: { option } }
    },
  },
  {
    endpoint: endpointId('GET /V1/products/attributes/:attributeCode'),
    prepare: async (fx) => ({ actor: 'admin', path: { attributeCode: await attributeToRead(fx) } }),
  },
  {
    endpoint: endpointId('GET /V1/products/attributes/:attributeCode/is-filterable'),
    prepare: async (fx) => ({ actor: 'admin', path: { attributeCode: await attributeToRead(fx) } }),
  },
  {
    endpoint: endpointId('GET /V1/products/attributes/:attributeCode/options'),
    prepare: async (fx) => ({ actor: 'admin', path: { attributeCode: await attributeToRead(fx) } }),
  },
]
