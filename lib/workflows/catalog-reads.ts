/** Reads of the catalog's default category, without and with a store id. */
import { describeAnswer } from '../setup/provision.ts'
import { CATALOG_READ_RULES } from '../spec/rules.ts'
import { sameNumber, step, type SpecCall, type StepScope } from './steps.ts'
import type { Workflow } from './types.ts'
import { isObject } from '../base/is-object.ts'
import { endpointId } from '../spec/catalog/index.ts'

/**
 * The default category of a stock install, and its default store view. Shop data, not spec: there is no
 * setting for them (yet); a shop without a category of that id has the read not judged, naming the id.
 */
const CATEGORY_ID = 2
const STORE_ID = 1

const GET = endpointId('GET /V1/categories/:categoryId')

async function readCategory(s: StepScope, query?: string): Promise<string> {
  const call: SpecCall = {
    method: 'GET',
    path: `/V1/categories/${CATEGORY_ID}`,
    actor: 'admin',
    ...(query !== undefined ? { query } : {}),
  }
  const answer = await s.call(call)
  if (answer.status === 404 && !s.ctx.session.looksLikeNoRoute(answer, s.ctx.session.targetPath(call.path))) {
    s.notJudged(
      `this shop has no category ${CATEGORY_ID} (a stock install's default category, which the suite reads; there is no setting for another): ${describeAnswer(answer)}`,
      'setup-failed',
    )
  }
  s.expectSuccess(call, answer)
  s.judgeAnswerOf(GET, answer.body)
  // CategoryInterface's fields are not shown: the platform's `id` is looked at, but only a warning can come of it.
  const id = isObject(answer.body) ? answer.body.id : undefined
  if (!sameNumber(id, CATEGORY_ID))
    s.warnings.push(
      `the category read has id ${JSON.stringify(id ?? null)} where the platform would send ${CATEGORY_ID}, the id asked for`,
    )
  return `category ${CATEGORY_ID} read${query !== undefined ? ` with ${query}` : ''}: an object with a value`
}

export const catalogReadsWorkflow: Workflow = {
  name: 'catalog-reads',
  module: 'catalog-categories',
  description: `The default category (id ${CATEGORY_ID} on a stock install) read without and with a storeId: each an object with a value.`,
  spec: ['Endpoints › Endpoints with detailed shape'],
  steps: [
    step('read the default category', GET, async (s: StepScope) => readCategory(s), [CATALOG_READ_RULES.category]),
    step('read it for a store', GET, async (s: StepScope) => readCategory(s, `storeId=${STORE_ID}`), [
      CATALOG_READ_RULES.category,
    ]),
  ],
}
