/** An attribute set through its life: created, renamed, read, deleted, gone. */
import { describeAnswer, toId } from '../setup/provision.ts'
import { judgeCarried, missingValues } from '../checks/carried-values.ts'
import { ATTRIBUTE_SET_RULES, SHAPE_RULES } from '../spec/rules.ts'
import { step, type SpecCall, type StepScope } from './steps.ts'
import type { Workflow } from './types.ts'
import { isObject } from '../base/is-object.ts'
import { endpointId } from '../spec/catalog/index.ts'
import { LISTED, serverErrorOf } from '../shop/server-error.ts'

/** What the steps hand on: the set as saved, and the name it is renamed to. */
interface AttributeSetState {
  attributeSet: SavedSet
  newName: string
}

interface SavedSet {
  id: number
  name: string
  entityTypeId?: number
  sortOrder: number
}

/**
 * The set in an answer, judged as AttributeSetInterface. Values it must carry fail the step when it does not;
 * values it is only expected to carry (the spec does not say the answer is the set as saved) are warnings.
 */
function judgeSet(
  s: StepScope<AttributeSetState>,
  body: unknown,
  what: string,
  values: { must?: Record<string, unknown>; expected?: Record<string, unknown> },
): Record<string, unknown> {
  s.judge(body, { kind: 'tabled', shape: 'attributeSet' }, what)
  if (!isObject(body)) s.fail(`${what} is ${JSON.stringify(body)}, not an attribute set`)
  const missing = judgeCarried(what, body, { values: values.must ?? {}, rule: SHAPE_RULES.savedSet })
  if (missing !== undefined) s.fail(missing)
  const unlike = missingValues(body, values.expected ?? {})
  if (unlike.length > 0) s.warnings.push(`${what}: ${unlike.join('; ')}`)
  return body
}

export const attributeSetWorkflow: Workflow<AttributeSetState> = {
  name: 'attribute-set',
  module: 'eav',
  description:
    'An attribute set is created, saved under a new name, read back with it, deleted, and then no longer found.',
  spec: [
    'Endpoints › Endpoints with detailed shape',
    'Endpoints › Additional operations known only by path and purpose',
    'Resources and their fields › Attribute set (`AttributeSetInterface`)',
  ],
  steps: [
    step(
      'create an attribute set',
      endpointId('POST /V1/eav/attribute-sets'),
      async (s: StepScope<AttributeSetState>) => {
        const name = s.fx.builders.attributeSetName('workflow')
        const sortOrder = Math.round(s.fx.builders.oddNumber('attribute set sort order', 11, 97, 0))
        const call: SpecCall = {
          method: 'POST',
          path: '/V1/eav/attribute-sets',
          actor: 'admin',
          body: {
            entityTypeCode: 'catalog_product',
            attributeSet: { attribute_set_name: name, sort_order: sortOrder },
            skeletonId: 4,
          },
        }
        const answer = await s.call(call, { kind: 'attribute set', label: 'attribute set workflow', key: name })
        s.expectSuccess(call, answer)
        const body = judgeSet(s, answer.body, 'the answer', { expected: { attribute_set_name: name } })
        const id = toId(body.attribute_set_id)
        if (id === undefined)
          s.notJudged(
            `the answer carries no attribute_set_id to read the set by: ${JSON.stringify(body.attribute_set_id ?? null)}`,
            'unusable-answer',
          )
        s.made(id)
        const set: SavedSet = {
          id,
          name,
          sortOrder,
          ...(typeof body.entity_type_id === 'number' ? { entityTypeId: body.entity_type_id } : {}),
        }
        s.keep('attributeSet', set)
        return `attribute set ${id} created as ${JSON.stringify(name)}`
      },
      [ATTRIBUTE_SET_RULES.created],
    ),

    step(
      'save it with a new name',
      endpointId('PUT /V1/eav/attribute-sets/:attributeSetId'),
      async (s: StepScope<AttributeSetState>) => {
        const set = s.need('attributeSet')
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
        judgeSet(s, answer.body, 'the saved set', {
          must: { attribute_set_id: set.id, attribute_set_name: name, sort_order: set.sortOrder },
        })
        s.keep('newName', name)
        return `attribute set ${set.id} saved as ${JSON.stringify(name)}`
      },
      [SHAPE_RULES.savedSet],
    ),

    step(
      'read it back',
      endpointId('GET /V1/eav/attribute-sets/:attributeSetId'),
      async (s: StepScope<AttributeSetState>) => {
        const set = s.need('attributeSet')
        const call: SpecCall = { method: 'GET', path: `/V1/eav/attribute-sets/${set.id}`, actor: 'admin' }
        const answer = await s.call(call)
        s.expectSuccess(call, answer)
        // What this read returns the spec does not show (its contract is not named): the set is expected, not required.
        const unlike = missingValues(answer.body, { attribute_set_id: set.id, attribute_set_name: s.need('newName') })
        if (unlike.length > 0) s.warnings.push(`the set read back: ${unlike.join('; ')}`)
        return `attribute set ${set.id} read back${unlike.length === 0 ? ' with the new name' : ''}`
      },
      [ATTRIBUTE_SET_RULES.read],
    ),

    step(
      'delete it',
      endpointId('DELETE /V1/eav/attribute-sets/:attributeSetId'),
      async (s: StepScope<AttributeSetState>) => {
        const set = s.need('attributeSet')
        const call: SpecCall = { method: 'DELETE', path: `/V1/eav/attribute-sets/${set.id}`, actor: 'admin' }
        const answer = await s.call(call)
        s.expectSuccess(call, answer)
        // What a delete returns is not shown: the read after it tells whether the set is gone.
        return `attribute set ${set.id} deleted (answered ${describeAnswer(answer)})`
      },
      [ATTRIBUTE_SET_RULES.deleted],
    ),

    step(
      'read it again: gone',
      endpointId('GET /V1/eav/attribute-sets/:attributeSetId'),
      async (s: StepScope<AttributeSetState>) => {
        const set = s.need('attributeSet')
        const call: SpecCall = { method: 'GET', path: `/V1/eav/attribute-sets/${set.id}`, actor: 'admin' }
        const answer = await s.call(call)
        // The status of "not found" is not shown (Errors 4): any refusal says the set is gone; a 5xx says nothing.
        if (answer.status >= 200 && answer.status < 300)
          s.fail(`the deleted attribute set ${set.id} still reads back: ${describeAnswer(answer)}`)
        const error = serverErrorOf(answer)
        if (error !== undefined)
          s.notJudged(
            `the read of the deleted set answered ${error.text}, which is neither a success nor the refusal of a set that is gone; ${LISTED}`,
            'server-error',
          )
        return `attribute set ${set.id} is no longer found (${describeAnswer(answer)})`
      },
      [ATTRIBUTE_SET_RULES.deleted],
    ),
  ],
}
