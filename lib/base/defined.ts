/**
 * A value the code around it has made sure is there — an index inside its list's length, a key it has just set, an
 * id of the plan's own —, checked instead of asserted (`value!`): were it absent, that is a bug of the suite, and it
 * ends here naming `what` rather than as an `undefined` read further on. Never for what a shop answers: a shop's
 * answer may lack anything, and the judges say so.
 */
export function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the suite's own invariant broke: ${what} is missing`)
  return value
}
