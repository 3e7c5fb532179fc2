/**
 * A check whose code threw: a result of status `error`, of whoever wrote that code — the suite (its own checks
 * and workflow steps) or a vendor (a check of its config file). Never the shop's failure, never passed: the
 * reports keep errors apart from failures (JUnit's `<error>`, SARIF's tool notifications), and the exit status
 * counts the suite's as errors of the run, a vendor's as `--extensions` says.
 */
import { clip } from '../base/text.ts'
import type { Verdict } from './verdict.ts'

/** Whose code broke. */
export type CodeOwner = 'suite' | 'vendor'

/** What an error is, by whose code threw: what the exit reason says of it. */
export const ERROR_WORDS: Readonly<Record<CodeOwner, string>> = {
  suite: 'a bug of the suite, not a finding about the shop',
  vendor: 'its code, not a finding about the shop',
}

/** How every error's message starts: whose it is, and that it says nothing about the shop. */
export const ERROR_OF: Readonly<Record<CodeOwner, string>> = {
  suite: `error of the suite (${ERROR_WORDS.suite})`,
  vendor: `error of the vendor's check (${ERROR_WORDS.vendor})`,
}

/** The longest stack a result keeps in its details: enough to find the bug, not a page of frames. */
const STACK_MAX = 2_000

/** `TypeError: … at bug (file:///…:3:9)`: the stack's first line and its first frame, where a reader starts. */
function stackHead(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const lines = (error.stack ?? '').split('\n')
  const head = lines[0]?.trim() || `${error.name}: ${error.message}`
  const frame = lines.find((l) => /^\s+at /.test(l))?.trim()
  return frame !== undefined ? `${head} ${frame}` : head
}

/**
 * The verdict of code that threw: `what` names it (`the route check`, `warehouse-stock`, `the step`); `redact`
 * takes out any secret the error's text carries (a token a request failure quoted).
 */
export function crashVerdict(
  owner: CodeOwner,
  what: string,
  error: unknown,
  redact: (text: string) => string,
): Verdict {
  const stack =
    error instanceof Error && error.stack !== undefined
      ? { details: { stack: redact(clip(error.stack, STACK_MAX)) } }
      : {}
  return {
    status: 'error',
    message: redact(`${ERROR_OF[owner]}: ${what} threw ${stackHead(error)}`),
    exchanges: [],
    ...stack,
  }
}
