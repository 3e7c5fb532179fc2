import type { Rule } from '../spec/rules.ts'
import type { Exchange } from './exchange.ts'

/**
 * `error`: the check's own code threw (lib/results/crash.ts) — neither the shop's failure nor a pass, so neither
 * `failed` nor `skipped` (which every consumer reads as "the rule was not judged, and that is all"): it is the
 * suite's bug, or a vendor check's, and the reports say so apart (docs/reports.md, "Errors").
 */
export type Status = 'passed' | 'failed' | 'skipped' | 'error'

/**
 * Why a rule that applies was not judged: a small, stable code given where the verdict is made, so reports
 * count results by reason without reading their messages (which say the same in words).
 */
export type NotJudgedReason =
  | 'read-only'
  | 'no-customer-token'
  | 'setup-failed'
  | 'route-missing'
  | 'no-answer'
  | 'target-refused'
  | 'unusable-answer'
  | 'earlier-step'
  /** The suite lost track of why (a bug of its own). A step that threw was one before issue 22: now status `error`. */
  | 'suite-error'
  /** A check that needs a setting the run lacks (the acl check without a limited admin): reported "not configured". */
  | 'not-configured'
  /** An extension operation's write not sent to a caller its declared class admits (issue 12's safety rule). */
  | 'write-withheld'
  /** No request the caller an endpoint admits succeeds with could be built (the access and acl checks' probes). */
  | 'no-valid-request'
  /** A judged call got no answer within the request's deadline: a slow shop is not a failing shop. */
  | 'timeout'
  /** The target stopped answering during the run: the request was not sent, or cut off. */
  | 'target-gone'
  /**
   * A judged call answered a database deadlock twice, or once where it could not be sent again (lib/shop/deadlock.ts):
   * no answer.
   */
  | 'deadlock'
  /** The caller's token was given (`SHOP_ADMIN_TOKEN`, …), not asked for with a password the check needs. */
  | 'token-given'
  /**
   * A server error (5xx) where the rule needed a success, to a request whose body the spec does not table — the
   * suite's own call may be what failed ("HTTP status code per error case: not shown") — or from a gateway or an
   * unavailable shop rather than its application. Listed with the run's server errors, never failed.
   */
  | 'server-error'
  /**
   * A passive judgement (`judge --passive`, `proxy`): no exchange of the traffic judged could show the rule either way.
   */
  | 'not-observed'
  /**
   * `judge --har`: the recording holds no answers this check's judge can read — a check planned since the recording's
   * suite version, a kind whose calls the recording does not tag by role, a workflow step.
   */
  | 'not-recorded'

/** Why a judged call has no answer to judge (lib/shop/answer-text.ts, `unanswered`). */
export type UnansweredReason = Extract<NotJudgedReason, 'timeout' | 'target-gone' | 'no-answer' | 'deadlock'>

/** How the reports name each reason. */
export const NOT_JUDGED_REASONS: Readonly<Record<NotJudgedReason, string>> = {
  'read-only': 'read-only mode (the call would write)',
  'no-customer-token': 'no customer token',
  'setup-failed': 'set-up failed',
  'route-missing': 'the route is missing (see the route check)',
  'no-answer': 'no answer from the target (transport failure)',
  'target-refused': 'refused for a business reason of the target',
  'unusable-answer': 'the answer left the rule undecidable',
  'earlier-step': 'an earlier workflow step did not pass',
  'suite-error': 'a bug of the suite',
  'not-configured': 'not configured (a setting the run lacks)',
  'write-withheld': 'an extension write withheld from the callers it admits (--extensions-probe-writes)',
  'no-valid-request': 'no request the admitted caller succeeds with could be built',
  timeout:
    'no answer within the request deadline (raise --timeout-ms / SHOP_TIMEOUT_MS or --max-timeout-ms / SHOP_MAX_TIMEOUT_MS to judge them)',
  'target-gone': 'the target stopped answering during the run (not sent, or cut off)',
  deadlock:
    "the shop answered a database deadlock twice, or once to a write that could not be sent again (the run's own load, or the shop's other work)",
  'token-given': 'a token was given instead of a password (SHOP_ADMIN_TOKEN, …), and the check needs the password',
  'server-error':
    "the shop answered a server error where the rule needed a success (listed with the run's server errors)",
  'not-observed': 'no exchange of the traffic judged passively shows the rule either way',
  'not-recorded': 'judged again from a recording that holds no answers its judge can read (judge --har)',
}

/** A check's judgement of one endpoint, with the exchanges that show why. */
export interface Verdict {
  status: Status
  /** One or two sentences a QA engineer can act on. */
  message: string
  exchanges: Exchange[]
  /** Check-specific evidence (e.g. the access matrix), shown by the reports. */
  details?: Record<string, unknown>
  /** Things worth a look that are not failures. */
  warnings?: string[]
  /** The rules this verdict judged, with their spec words (default: the check's `rules`). */
  rules?: Rule[]
  /** Set on a `skipped` verdict of a rule that applies: why it was not judged. */
  reason?: NotJudgedReason
}
