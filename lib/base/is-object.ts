/**
 * A parsed JSON value that is an object with fields (not null, not an array): what every judge asks before it reads a
 * field.
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A parsed JSON value that is a list, its elements still to be asked about (`Array.isArray` would type them `any`). */
export function isList(value: unknown): value is unknown[] {
  return Array.isArray(value)
}
