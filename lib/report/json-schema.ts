import { Ajv, type ValidateFunction } from 'ajv'

/**
 * A JSON Schema of a format the package ships (certificate.schema.json, registry.schema.json) as a function naming
 * what is wrong with a value, one line each (the first few), empty when it is valid; compiled on first use.
 */
export function schemaProblems(schema: object): (data: unknown) => string[] {
  let validate: ValidateFunction | undefined
  return (data) => {
    if (validate === undefined) {
      const ajv = new Ajv({ allErrors: true, strict: true })
      // The one format the schemas use (ajv-formats is not a dependency): an ISO 8601 time, as toISOString writes it.
      ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/)
      validate = ajv.compile(schema)
    }
    if (validate(data)) return []
    return (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath === '' ? '(top)' : e.instancePath} ${e.message ?? e.keyword}`)
  }
}
