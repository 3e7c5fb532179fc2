import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import HISTORY_SCHEMA from './history.schema.json' with { type: 'json' }
import MATRIX_SCHEMA from './matrix.schema.json' with { type: 'json' }

/**
 * The JSON Schemas of matrix.json and history.json (the files beside this one, shipped with the package: what a
 * reader of either format validates against), compiled once, on first use.
 */

let compiled: { matrix: ValidateFunction; history: ValidateFunction } | undefined

function validators(): { matrix: ValidateFunction; history: ValidateFunction } {
  if (compiled === undefined) {
    const ajv = new Ajv({ allErrors: true, strict: true })
    // The one format the schemas use (ajv-formats is not a dependency): an ISO 8601 time, as toISOString writes it.
    ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/)
    compiled = { matrix: ajv.compile(MATRIX_SCHEMA), history: ajv.compile(HISTORY_SCHEMA) }
  }
  return compiled
}

/** What is wrong with `data` as matrix.json, one line each (the first few); empty when it is valid. */
export function matrixProblems(data: unknown): string[] {
  return problems(validators().matrix, data)
}

/** What is wrong with `data` as history.json, one line each (the first few); empty when it is valid. */
export function historyProblems(data: unknown): string[] {
  return problems(validators().history, data)
}

function problems(validate: ValidateFunction, data: unknown): string[] {
  if (validate(data)) return []
  return (validate.errors ?? []).slice(0, 5).map(line)
}

/** What an error names beyond its message: the property not allowed, or the values allowed. */
function detailOf(e: ErrorObject): string {
  if (e.keyword === 'additionalProperties')
    return ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})`
  return e.keyword === 'enum' || e.keyword === 'const' ? ` (${JSON.stringify(e.params)})` : ''
}

function line(e: ErrorObject): string {
  const detail = detailOf(e)
  return `${e.instancePath === '' ? '(top)' : e.instancePath} ${e.message ?? e.keyword}${detail}`
}
