/** A tax rate created through `PUT /V1/taxRates` and read back by id. */
import { describeAnswer, toId } from '../setup/provision.ts'
import { CATALOG_READ_RULES } from '../spec/rules.ts'
import { sameNumber, step, type SpecCall, type StepScope } from './steps.ts'
import type { Workflow } from './types.ts'
import { isObject } from '../base/is-object.ts'
import { endpointId } from '../spec/catalog/index.ts'

interface CreatedRate {
  id: number
  code: string
  rate: number
}

/** What the steps hand on: the rate as created. */
interface TaxRateState {
  taxRate: CreatedRate
}

export const taxRateWorkflow: Workflow<TaxRateState> = {
  name: 'tax-rate',
  module: 'sales-tax-tfa',
  description:
    "A tax rate of the run's own is created and read back by its id (its id, code and rate, under the platform's field names, only warned about: the spec does not show them).",
  spec: [
    'Endpoints › Endpoints with detailed shape',
    'Endpoints › Endpoint lists by module › Sales, SalesRule, Tax, TwoFactorAuth',
  ],
  steps: [
    step(
      'create a tax rate',
      endpointId('PUT /V1/taxRates'),
      async (s: StepScope<TaxRateState>) => {
        const code = s.fx.builders.taxRateCode('workflow')
        const rate = s.fx.builders.oddNumber('tax rate', 1.01, 14.99, 3)
        const call: SpecCall = {
          method: 'PUT',
          path: '/V1/taxRates',
          actor: 'admin',
          body: { taxRate: { tax_country_id: 'US', tax_region_id: 0, tax_postcode: '*', rate, code } },
        }
        const answer = await s.call(call, { kind: 'tax rate', label: 'tax rate workflow', key: code })
        s.expectSuccess(call, answer, {
          refusal: (a) =>
            `the target refused the tax rate (body of the platform's shape; the spec does not show it): ${describeAnswer(a)}`,
        })
        const id = isObject(answer.body) ? toId(answer.body.id) : undefined
        if (id === undefined)
          s.notJudged(
            `the answer carries no id of the new rate (the spec does not show what this call returns): ${describeAnswer(answer)}`,
            'unusable-answer',
          )
        s.made(id)
        s.keep('taxRate', { id, code, rate } satisfies CreatedRate)
        return `tax rate ${id} created: ${JSON.stringify(code)} at ${rate}`
      },
      [CATALOG_READ_RULES.taxRateCreated],
    ),

    step(
      'read the tax rate',
      endpointId('GET /V1/taxRates/:rateId'),
      async (s: StepScope<TaxRateState>) => {
        const created = s.need('taxRate')
        const call: SpecCall = { method: 'GET', path: `/V1/taxRates/${created.id}`, actor: 'admin' }
        const answer = await s.call(call)
        s.expectSuccess(call, answer)
        s.judgeAnswerOf(endpointId('GET /V1/taxRates/:rateId'), answer.body)
        // TaxRateInterface's fields are not shown: the platform's id, code and rate are looked at, only to warn.
        const body = answer.body as Record<string, unknown>
        const wrong: string[] = []
        if (body.id !== undefined && !sameNumber(body.id, created.id))
          wrong.push(`id ${JSON.stringify(body.id)} where ${created.id} was read`)
        if (body.code !== created.code)
          wrong.push(`code ${JSON.stringify(body.code ?? null)} where ${JSON.stringify(created.code)} was saved`)
        if (!sameNumber(body.rate, created.rate))
          wrong.push(`rate ${JSON.stringify(body.rate ?? null)} where ${created.rate} was saved`)
        if (wrong.length > 0) {
          s.warnings.push(`tax rate ${created.id} read back, under the platform's field names: ${wrong.join('; ')}`)
          return `tax rate ${created.id} read: an object with a value`
        }
        return `tax rate ${created.id} reads back with the code and rate saved`
      },
      [CATALOG_READ_RULES.taxRateRead],
    ),
  ],
}
