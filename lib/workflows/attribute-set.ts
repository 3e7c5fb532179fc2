/** An attribute set through its life: created, renamed, read, deleted, gone. */
import { describeAnswer, isObject } from '../../fixtures/provision.ts'
import { sameNumber, step, type SpecCall, type StepScope } from './steps.ts'
import type { Workflow } from './types.ts'

const SET = 'attributeSet'
const NEW_NAME = 'newName'

interface SavedSet {
  id: number
  name: string
  entityTypeId?: number
  sortOrder: number
}

/** The set in an answer: judged as AttributeSetInterface, with the id and name expected. */
function judgeSet(s: StepScope, body: unknown, expected: { id?: number; name: string }, what: string): Record<string, unknown> {
  s.judge(body, { kind: 'schema', schema: 'attributeSet' }, what)
  if (!isObject(body)) s.fail(`${what} is ${JSON.stringify(body)}, not an attribute set`)
  if (expected.id !== undefined && !sameNumber(body.attribute_set_id, expected.id)) s.fail(`${what} has attribute_set_id ${JSON.stringify(body.attribute_set_id ?? null)}, not ${expected.id}`)
  if (body.attribute_set_name !== expected.name) s.fail(`${what} is named ${JSON.stringify(body.attribute_set_name ?? null)}, not ${JSON.stringify(expected.name)}`)
  return body
}

export const attributeSetWorkflow: Workflow = {
  name: 'attribute-set',
  module: 'eav',
  description: 'An attribute set is created, saved under a new name, read back with it, deleted, and then no longer found.',
  spec: ['Endpoints › Endpoints with detailed shape', 'Endpoints › Additional operations known only by path and purpose', 'Resources and their fields › Attribute set (`AttributeSetInterface`)'],
  steps: [
    step('create an attribute set', 'POST /V1/eav/attribute-sets', async (s: StepScope) => {
      const name = s.fx.builders.attributeSetName('workflow')
      const sortOrder = Math.round(s.fx.builders.oddNumber('attribute set sort order', 11, 97, 0))
      const call: SpecCall = {
        method: 'POST',
        path: '/V1/eav/attribute-sets',
        actor: 'admin',
        body: { entityTypeCode: 'catalog_product', attributeSet: { attribute_set_name: name, sort_order: sortOrder }, skeletonId: 4 },
      }
      const answer = await s.call(call, { kind: 'attribute set', label: 'attribute set workflow', key: name })
      s.expectSuccess(call, answer)
      const body = judgeSet(s, answer.body, { name }, 'the answer')
      const id = s.judgeId(body.attribute_set_id, 'attribute_set_id of the answer')
      s.made(id)
      const set: SavedSet = { id, name, sortOrder, ...(typeof body.entity_type_id === 'number' ? { entityTypeId: body.entity_type_id } : {}) }
      s.state[SET] = set
      return `attribute set ${id} created as ${JSON.stringify(name)}`
    }),

    step('save it with a new name', 'PUT /V1/eav/attribute-sets/:attributeSetId', async (s: StepScope) => {
      const set = s.need<SavedSet>(SET)
      const name = `${set.name} renamed`
      const call: SpecCall = {
        method: 'PUT',
        path: `/V1/eav/attribute-sets/${set.id}`,
        actor: 'admin',
        body: {
          attributeSet: {
            attribute_set_id: set.id,
            attribute_set_name: name,
            sort_order: set.sortOrder,
            ...(set.entityTypeId !== undefined ? { entity_type_id: set.entityTypeId } : {}),
          },
        },
      }
      const answer = await s.call(call)
      s.expectSuccess(call, answer)
      judgeSet(s, answer.body, { id: set.id, name }, 'the saved set')
      s.state[NEW_NAME] = name
      return `attribute set ${set.id} saved as ${JSON.stringify(name)}`
    }),

    step('read it back', 'GET /V1/eav/attribute-sets/:attributeSetId', async (s: StepScope) => {
      const set = s.need<SavedSet>(SET)
      const call: SpecCall = { method: 'GET', path: `/V1/eav/attribute-sets/${set.id}`, actor: 'admin' }
      const answer = await s.call(call)
      s.expectSuccess(call, answer)
      judgeSet(s, answer.body, { id: set.id, name: s.need<string>(NEW_NAME) }, 'the set read back')
      return `attribute set ${set.id} reads back with the new name`
    }),

    step('delete it', 'DELETE /V1/eav/attribute-sets/:attributeSetId', async (s: StepScope) => {
      const set = s.need<SavedSet>(SET)
      const call: SpecCall = { method: 'DELETE', path: `/V1/eav/attribute-sets/${set.id}`, actor: 'admin' }
      const answer = await s.call(call)
      s.expectSuccess(call, answer)
      if (answer.body === false) s.fail(`DELETE /V1/eav/attribute-sets/${set.id} answered false: the set was not deleted`)
      return `attribute set ${set.id} deleted`
    }),

    step('read it again: gone', 'GET /V1/eav/attribute-sets/:attributeSetId', async (s: StepScope) => {
      const set = s.need<SavedSet>(SET)
      const call: SpecCall = { method: 'GET', path: `/V1/eav/attribute-sets/${set.id}`, actor: 'admin' }
      const answer = await s.call(call)
      if (answer.status !== 404) s.fail(`the deleted attribute set ${set.id} read back answered ${describeAnswer(answer)}, where a deleted set is not found (404)`)
      return `attribute set ${set.id} is no longer found (404)`
    }),
  ],
}
