/**
 * What every workflow step is built from: a scope that makes the step's calls and collects their evidence,
 * and the one rule that turns what happened into a StepVerdict.
 *
 * - A set-up call (a platform convention, not a spec rule) that does not give what the next step needs ends
 *   the step `skipped` "not judged: …" — the conventions' calls are not spec rules.
 * - A call of the endpoint under test that misbehaves ends it `failed`; one the target refuses for a reason
 *   of its own data or configuration (a business rule, a payment method it cannot refund) ends it `skipped`
 *   naming the reason and the setting that chooses it — never `passed`, never blamed on the endpoint.
 * - A bug of the suite (an unexpected exception) ends the step with an `error` of the suite: never the target's fault.
 */
import type { Exchange } from '../results/exchange.ts'
import { crashVerdict } from '../results/crash.ts'
import type { Answer } from '../shop/request.ts'
import { SetupError, describeAnswer, isSuccess, toId, type Actor, type CallOptions } from '../setup/provision.ts'
import type { AddressDraft } from '../setup/builders.ts'
import { platformCall } from '../setup/platform-calls.ts'
import type { EntityKind, LedgerTicket } from '../setup/ledger.ts'
import { allowedInReadOnly } from '../shop/session.ts'
import { expectationFor, judgeShape, type Expectation } from '../checks/judge-shape.ts'
import { notOfShape } from '../checks/shape-words.ts'
import { notServed } from '../checks/route.ts'
import { rowOf, rowOfCall } from '../spec/catalog/index.ts'
import { requestTabled } from '../spec/tabled.ts'
import { LISTED, serverErrorOf } from '../shop/server-error.ts'
import type { EndpointId } from '../spec/endpoint-id.ts'
import type { NotJudgedReason, Status } from '../results/verdict.ts'
import type { Rule } from '../spec/rules.ts'
import type { StepVerdict, WorkflowContext, WorkflowStep } from './types.ts'
import { isList, isObject } from '../base/is-object.ts'
import { scalarText } from '../base/text.ts'
import { endpointText } from '../spec/endpoint-id.ts'

/** Ends a step with a verdict from anywhere inside it. */
class StepEnd extends Error {
  readonly status: Exclude<Status, 'passed'>
  /** Set when the step ends `skipped`: why it was not judged. */
  readonly reason?: NotJudgedReason
  constructor(status: Exclude<Status, 'passed'>, message: string, reason?: NotJudgedReason) {
    super(message)
    this.status = status
    if (reason !== undefined) this.reason = reason
  }
}

/** What the endpoint under test is asked, and the call as sent. */
export interface SpecCall {
  method: string
  /** Concrete path, e.g. `/V1/creditmemo/12`. */
  path: string
  actor: Actor
  body?: unknown
  query?: string
}

/** Statuses that say "refused for a reason of the target's data or configuration", not "no such thing" or "broken". */
const BUSINESS_STATUSES: ReadonlySet<number> = new Set([400, 409, 422])

interface SuccessOptions {
  /**
   * A refusal with one of BUSINESS_STATUSES: return a reason to end the step `skipped` with it (a business
   * refusal of the target, or a setting it does not support), or undefined to fail it.
   */
  refusal?: (answer: Answer) => string | undefined
}

/**
 * Collects the exchanges, warnings and details of one step while it runs; reads and writes the workflow's state `S`.
 */
export class StepScope<S extends object = object> {
  readonly ctx: WorkflowContext<S>
  readonly exchanges: Exchange[] = []
  readonly warnings: string[] = []
  readonly details: Record<string, unknown> = {}

  constructor(ctx: WorkflowContext<S>) {
    this.ctx = ctx
  }

  get fx() {
    return this.ctx.fx
  }

  fail(message: string): never {
    throw new StepEnd('failed', message)
  }

  notJudged(message: string, reason: NotJudgedReason): never {
    throw new StepEnd('skipped', `not judged: ${message}`, reason)
  }

  /** A value an earlier step left in the state; its absence is a bug of the workflow, not of the target. */
  need<K extends keyof S & string>(key: K): NonNullable<S[K]> {
    const value = this.ctx.state[key]
    if (value === undefined || value === null)
      throw new Error(`workflow state has no "${key}" (an earlier step did not leave it)`)
    return value
  }

  /** Leaves a value for the steps after this one. */
  keep<K extends keyof S & string>(key: K, value: S[K]): void {
    this.ctx.state[key] = value
  }

  /** Runs set-up (provisioner helpers, convention calls); a SetupError ends the step "not judged". */
  async setup<T>(make: () => Promise<T>): Promise<T> {
    try {
      return await make()
    } catch (err) {
      if (err instanceof SetupError) {
        this.exchanges.push(...err.exchanges)
        this.notJudged(err.message, err.reason)
      }
      throw err
    }
  }

  /** A set-up call through the provisioner, its exchange kept as evidence. */
  async setupCall(step: string, options: CallOptions, accept?: (a: Answer) => boolean): Promise<Answer> {
    const { answer, exchange } = await this.setup(() => this.fx.call(step, options, accept))
    this.exchanges.push(exchange)
    return answer
  }

  /** The order read back (`GET /V1/orders/:id`, a platform call the spec does not list), its exchange kept. */
  async readOrder(orderId: number): Promise<Record<string, unknown>> {
    const answer = await this.setupCall(
      'read the order',
      { ...platformCall('readOrder', { id: orderId }), actor: 'admin' },
      (a) => a.status === 200 && isObject(a.body),
    )
    return answer.body as Record<string, unknown>
  }

  /**
   * A call of the endpoint under test, sent once (a judged call is never repeated): whatever it answers comes back; no
   * answer at all leaves the step not judged. With `creates`, the call is in the ledger before it is sent; a 4xx marks
   * it refused, and the step tells what it made with `made`.
   */
  async call(call: SpecCall, creates?: { kind: EntityKind; label: string; key?: string }): Promise<Answer> {
    const ticket =
      creates !== undefined && !(this.ctx.session.seed.readOnly && !allowedInReadOnly(call.method, call.path))
        ? this.fx.ledger.request(creates, { queued: true })
        : undefined
    if (ticket !== undefined) this.#ticket = ticket
    try {
      const { answer, exchange } = await this.fx.call(
        endpointText(call),
        { ...call, repeat: 'never', ...(ticket !== undefined ? { onSent: () => ticket.sent() } : {}) },
        () => true,
      )
      this.exchanges.push(exchange)
      ticket?.settle({ answer }, undefined)
      return answer
    } catch (err) {
      if (err instanceof SetupError) {
        // Never sent (read-only mode, no token to send), or sent without an answer (a timeout, a target gone):
        // nothing to judge — a slow shop is not a failing shop.
        ticket?.settle(
          {
            failure: {
              message: err.exchange === undefined ? `not sent: ${err.message}` : (err.exchange.error ?? err.message),
            },
          },
          undefined,
        )
        if (err.exchange !== undefined) this.exchanges.push(err.exchange)
        this.notJudged(
          err.exchange === undefined
            ? err.message
            : `${endpointText(call)} got no answer (${err.message.replace(/^.*got no answer: /, '')})`,
          err.reason,
        )
      }
      throw err
    }
  }

  #ticket: LedgerTicket | undefined

  /** What the last call with `creates` made, by the id its answer named. */
  made(id: number | string): void {
    this.#ticket?.created(String(id))
    this.#ticket = undefined
  }

  /** Ends the step unless the answer is a success (judgeSuccess). */
  expectSuccess(call: SpecCall, answer: Answer, options: SuccessOptions = {}): void {
    const end = judgeSuccess(
      call,
      answer,
      this.ctx.session.looksLikeNoRoute(answer, this.ctx.session.targetPath(call.path)),
      options,
    )
    if (end !== undefined) throw end
  }

  /** Fails with the judgement's failures; keeps its warnings. `what` names the value, e.g. "the answer". */
  judge(value: unknown, expectation: Expectation, what: string): void {
    const j = judgeShape(value, expectation)
    this.warnings.push(...j.warnings.map((w) => `${what}: ${w}`))
    if (j.status === 'failed') this.fail(notOfShape(what, expectation, j.failures))
  }

  /** Judges an answer of `endpoint` by what its catalog row says it answers. */
  judgeAnswerOf(endpoint: EndpointId, value: unknown): void {
    this.judge(value, expectationFor(rowOf(endpoint)), 'the answer')
  }

  /** Judges an answer as `int` and returns the id. */
  judgeId(value: unknown, what: string): number {
    this.judge(value, { kind: 'int' }, what)
    const id = toId(value)
    if (id === undefined) this.fail(`${what} is ${JSON.stringify(value)}, not an id (a positive int)`)
    return id
  }
}

/**
 * How a step ends on an answer of the endpoint under test that is no success (undefined: it is one). The no-route
 * answer (`noRoute`, read against the target's calibration), an access refusal (401/403) of a caller the spec admits
 * and a 404 fail; a 400/409/422 fails too unless `refusal` names it a business refusal (→ not judged). A server error
 * fails only the call the spec's detail table documents (its 17 endpoints, `requestTabled`); elsewhere the body is
 * the suite's reading of the platform's, which a 5xx may be the fault of, and the step is not judged (`server-error`),
 * as it is for a gateway's or an unavailable shop's 5xx anywhere (lib/shop/server-error.ts). Pure.
 */
export function judgeSuccess(
  call: SpecCall,
  answer: Answer,
  noRoute: boolean,
  options: SuccessOptions = {},
): StepEnd | undefined {
  if (isSuccess(answer)) return undefined
  const said = describeAnswer(answer)
  const what = endpointText(call)
  if (noRoute) return new StepEnd('failed', notServed(what, said))
  const error = serverErrorOf(answer)
  if (error !== undefined) {
    const row = rowOfCall(call.method, call.path)
    if (row !== undefined && requestTabled(row) && (error.kind === 'application' || error.kind === 'not-implemented')) {
      return new StepEnd(
        'failed',
        `${what} answered ${error.text} to the call the spec's detail table documents, where it gives ${row.returns ?? 'a return'}`,
      )
    }
    const why =
      error.kind === 'application' || error.kind === 'not-implemented'
        ? "the spec does not table this request, so the call may be the suite's own reading of the platform's"
        : "no answer of the shop's application"
    return new StepEnd(
      'skipped',
      `not judged: ${what} answered ${error.text} where the step needed a success: ${why}; ${LISTED}`,
      'server-error',
    )
  }
  if (answer.status === 401 || answer.status === 403)
    return new StepEnd(
      'failed',
      `${what} refused the ${actorName(call.actor)} (${said}), a caller the spec's access class admits`,
    )
  const business = BUSINESS_STATUSES.has(answer.status) ? options.refusal?.(answer) : undefined
  if (business !== undefined) return new StepEnd('skipped', `not judged: ${business}`, 'target-refused')
  return new StepEnd('failed', `${what} answered ${said}`)
}

function actorName(actor: Actor): string {
  if (typeof actor === 'object') return 'customer token'
  return actor === 'guest' ? 'anonymous caller' : `${actor} token`
}

/**
 * A workflow step: `run` returns the message of a pass, or ends the step through the scope (fail, notJudged,
 * a SetupError inside `setup`). `rules`: what the step can fail the target for (none for a set-up step).
 */
export function step<S extends object>(
  title: string,
  endpoint: EndpointId | undefined,
  run: (s: StepScope<S>) => Promise<string>,
  rules: readonly Rule[] = [],
): WorkflowStep<S> {
  return {
    title,
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(rules.length > 0 ? { rules } : {}),
    async run(ctx: WorkflowContext<S>): Promise<StepVerdict> {
      const s = new StepScope(ctx)
      let status: Status
      let message: string
      let reason: NotJudgedReason | undefined
      try {
        message = await run(s)
        status = 'passed'
      } catch (err) {
        if (err instanceof StepEnd) {
          status = err.status
          message = err.message
          reason = err.reason
        } else if (err instanceof SetupError) {
          s.exchanges.push(...err.exchanges)
          status = 'skipped'
          message = `not judged: ${err.message}`
          reason = err.reason
        } else {
          const crash = crashVerdict('suite', 'the step', err, (text) => ctx.session.secrets.redactText(text))
          status = crash.status
          message = crash.message
          Object.assign(s.details, crash.details)
        }
      }
      return {
        status,
        message,
        ...(status === 'skipped' && reason !== undefined ? { reason } : {}),
        exchanges: s.exchanges,
        ...(Object.keys(s.details).length > 0 ? { details: s.details } : {}),
        ...(s.warnings.length > 0 ? { warnings: s.warnings } : {}),
      }
    },
  }
}

// --- small helpers the workflows share -------------------------------------------------------------------

/** Two numbers the target reported (or one it reported and one the suite sent) are the same amount. */
export function sameNumber(a: unknown, b: unknown): boolean {
  const x = typeof a === 'string' && a.trim() !== '' ? Number(a) : a
  const y = typeof b === 'string' && b.trim() !== '' ? Number(b) : b
  return (
    typeof x === 'number' && typeof y === 'number' && Number.isFinite(x) && Number.isFinite(y) && Math.abs(x - y) < 1e-6
  )
}

/** The fields by which an address sent is recognised in what the target answers. */
const ADDRESS_KEYS = ['firstname', 'lastname', 'street', 'city', 'postcode'] as const

/** How an address seen differs from the one sent (empty: the same), by ADDRESS_KEYS. */
export function addressDifferences(sent: AddressDraft | Record<string, unknown>, seen: unknown): string[] {
  if (!isObject(seen)) return [`no address (${seen === undefined ? 'nothing' : JSON.stringify(seen)})`]
  const out: string[] = []
  for (const k of ADDRESS_KEYS) {
    const a = normaliseField((sent as Record<string, unknown>)[k])
    const b = normaliseField(seen[k])
    if (a !== b)
      out.push(
        `${k} ${JSON.stringify(seen[k] ?? null)} where ${JSON.stringify((sent as Record<string, unknown>)[k])} was sent`,
      )
  }
  return out
}

function normaliseField(v: unknown): string {
  if (Array.isArray(v)) return v.map((x) => String(x).trim()).join('\n')
  if (v === undefined || v === null) return ''
  return scalarText(v).trim()
}

/** A list answer as the platform sends it: a bare array, or a search result `{items: [...]}`. */
export function listItems(body: unknown): unknown[] | undefined {
  if (isList(body)) return body
  if (isObject(body) && isList(body.items)) return body.items
  return undefined
}

/** The shipping address of a cart read back: `extension_attributes.shipping_assignments[0].shipping.address`. */
export function cartShippingAddress(cart: unknown): unknown {
  if (!isObject(cart)) return undefined
  const ext = cart.extension_attributes
  if (isObject(ext) && Array.isArray(ext.shipping_assignments)) {
    for (const a of ext.shipping_assignments) {
      if (isObject(a) && isObject(a.shipping) && isObject(a.shipping.address)) return a.shipping.address
    }
  }
  return undefined
}

/** A fresh value distinct from `old`: `candidate`, or `candidate` with a suffix when they coincide. */
export function different(candidate: string, old: unknown): string {
  return candidate === old ? `${candidate} Heights` : candidate
}
