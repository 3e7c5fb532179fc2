/** How every message and report of the suite quotes a text it did not write: the first `max` characters, then `…`. */
export function clip(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

/** A value as messages show it: its JSON, clipped (`nothing` for undefined; never throws, whatever the value). */
export function clipJson(value: unknown, max = 120): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? 'nothing'
  } catch {
    text = String(value)
  }
  return clip(text, max)
}

/** `1 check`, `3 checks`; `many` where the plural is not the word and an s. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

/**
 * A value's text where a scalar is expected (an id, a key, a field a shop answered): a scalar as `String` writes it;
 * an object or a list as its JSON, so two differ as their contents do (`String` would write `[object Object]`).
 */
export function scalarText(value: unknown): string {
  if (typeof value === 'object' && value !== null) return JSON.stringify(value)
  return String(value)
}
