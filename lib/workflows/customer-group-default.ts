/** The default customer group. */
import { describeAnswer } from '../setup/provision.ts'
import { CATALOG_READ_RULES } from '../spec/rules.ts'
import { step, type SpecCall, type StepScope } from './steps.ts'
import type { Workflow } from './types.ts'
import { isObject } from '../base/is-object.ts'
import { endpointId } from '../spec/catalog/index.ts'

const READ = endpointId('GET /V1/customerGroups/default')

export const customerGroupDefaultWorkflow: Workflow = {
  name: 'customer-group-default',
  module: 'customer',
  description: 'The default customer group reads as an object with a value.',
  spec: ['Endpoints › Endpoints with detailed shape'],
  steps: [
    step(
      'read the default group',
      READ,
      async (s: StepScope) => {
        const call: SpecCall = { method: 'GET', path: '/V1/customerGroups/default', actor: 'admin' }
        const answer = await s.call(call)
        s.expectSuccess(call, answer)
        s.judgeAnswerOf(READ, answer.body)
        // GroupInterface's fields are not shown: the platform's `id` (from 0, NOT LOGGED IN) is looked at, only to
        // warn.
        const id = isObject(answer.body) ? answer.body.id : undefined
        if (!(typeof id === 'number' && Number.isInteger(id) && id >= 0)) {
          s.warnings.push(`the default group has no integer id where the platform sends one: ${describeAnswer(answer)}`)
          return 'the default group read: an object with a value'
        }
        return `the default group is group ${id}`
      },
      [CATALOG_READ_RULES.defaultGroup],
    ),
  ],
}
