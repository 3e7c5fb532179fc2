/** Reads of the catalog's default category, without and with a store id. */
import { isObject } from '../../fixtures/provision.ts'
import { expectationFor } from '../checks/judge-shape.ts'
import { findRow } from '../spec/catalog/index.ts'
import { sameNumber, step, type SpecCall, type StepScope } from './steps.ts'
import type { Workflow } from './types.ts'

/**
 * The default category of a stock install, and its default store view. Shop data, not spec: there is no
 * setting for them (yet); a shop whose default category has another id gets a plain failure naming the id.
 */
export const CATEGORY_ID = 2
export const STORE_ID = 1

const GET = 'GET /V1/categories/:categoryId'

async function readCategory(s: StepScope, query?: string): Promise<string> {
  const call: SpecCall = { method: 'GET', path: `/V1/categories/${CATEGORY_ID}`, actor: 'admin', ...(query !== undefined ? { query } : {}) }
  const answer = await s.call(call)
  s.expectSuccess(call, answer)
  s.judge(answer.body, expectationFor(findRow('GET', '/V1/categories/:categoryId')!), 'the answer')
  const id = isObject(answer.body) ? answer.body.id : undefined
  if (!sameNumber(id, CATEGORY_ID)) s.fail(`the category read has id ${JSON.stringify(id ?? null)}, not the ${CATEGORY_ID} asked for`)
  return `category ${CATEGORY_ID} read${query !== undefined ? ` with ${query}` : ''}: an object with id ${CATEGORY_ID}`
}

export const catalogReadsWorkflow: Workflow = {
  name: 'catalog-reads',
  module: 'catalog-categories',
  description: `The default category (id ${CATEGORY_ID} on a stock install) read without and with a storeId: each an object with that id.`,
  spec: ['Endpoints › Endpoints with detailed shape'],
  steps: [
    step('read the default category', GET, async (s: StepScope) => readCategory(s)),
    step('read it for a store', GET, async (s: StepScope) => readCategory(s, `storeId=${STORE_ID}`)),
  ],
}
