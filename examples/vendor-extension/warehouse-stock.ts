/**
 * A vendor's own check: every warehouse its `GET /V1/ref-example/warehouses` lists has a stock that is a whole
 * number, never negative. The rule is the vendor's (its module's documentation), not the spec's: its result is
 * reported under the vendor's module and never changes the spec's verdict.
 */
import type { VendorCheck } from '../../lib/extend/index.ts'

export const warehouseStock: VendorCheck = {
  name: 'warehouse-stock',
  description: 'Every warehouse the list returns has a stock that is a whole number of at least 0.',
  spec: ['Warehouses module, "Stock levels"'],
  async run(row, session) {
    const token = session.tokenFor('admin')
    const outcome = await session.send({
      method: row.method,
      path: row.path,
      store: session.seed.storeCode,
      ...(token !== undefined ? { token } : {}),
    })
    const exchanges = [outcome.exchange]
    const answer = outcome.answer
    // No answer, or not a list: nothing to judge the stock of (the route and access are other checks' business).
    if (answer === undefined)
      return {
        status: 'skipped',
        reason: 'no-answer',
        message: `no answer: ${outcome.failure?.message ?? 'none'}`,
        exchanges,
      }
    if (answer.status !== 200 || !Array.isArray(answer.body))
      return {
        status: 'skipped',
        reason: 'unusable-answer',
        message: `answered ${answer.status} without a list of warehouses`,
        exchanges,
      }
    const wrong = (answer.body as { code?: unknown; stock?: unknown }[]).filter(
      (w) => !(Number.isInteger(w.stock) && (w.stock as number) >= 0),
    )
    if (wrong.length > 0)
      return {
        status: 'failed',
        message: `stock is not a whole number of at least 0 for ${wrong.map((w) => `${String(w.code)} (${JSON.stringify(w.stock)})`).join(', ')}`,
        exchanges,
      }
    return { status: 'passed', message: `${answer.body.length} warehouses, each with a stock of at least 0`, exchanges }
  },
}
