/** Ids as the platform answers them, read once for the makers, the registration and the valid requests. */
/** An id as the platform sends it: a JSON number, or a JSON string of digits (conventions, "Values"). */
export function toId(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v
  if (typeof v === 'string' && /^[0-9]+$/.test(v) && Number(v) > 0) return Number(v)
  return undefined
}

/** An id as the ledger keeps it: the digits of `toId`, or undefined. */
export function idText(v: unknown): string | undefined {
  const id = toId(v)
  return id === undefined ? undefined : String(id)
}
