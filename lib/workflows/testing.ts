/**
 * Test support for the workflows' tests (not a test itself): a scripted stand-in for a target, so that one
 * step can be run against exactly the answers a test wants to judge, and the step outcomes in a form tests
 * compare against.
 */
import { Secrets } from '../shop/secrets.ts'
import { Builders } from '../setup/builders.ts'
import { Ledger } from '../setup/ledger.ts'
import {
  describeAnswer,
  isSuccess,
  SetupError,
  type CallOptions,
  type Called,
  type Provisioner,
} from '../setup/provision.ts'
import type { Answer } from '../shop/request.ts'
import type { Session } from '../shop/session.ts'
import type { StepOutcome } from './run-steps.ts'
import type { StepVerdict, Workflow, WorkflowContext } from './types.ts'
import { endpointText } from '../spec/endpoint-id.ts'

export interface ScriptedAnswer {
  status: number
  body: unknown
  /** The body as sent, when it is not the JSON of `body` (e.g. plain text). */
  text?: string
}

/** `METHOD /V1/concrete/path` → the answer; a function sees the call (and may answer by its body). */
export type Script = Record<string, ScriptedAnswer | ((options: CallOptions) => ScriptedAnswer)>

export const NO_ROUTE: ScriptedAnswer = { status: 404, body: { message: 'Request does not match any route.' } }

/** A context whose provisioner answers from the script; every call made is listed in `calls`. */
export function scriptedContext<S extends object = object>(
  script: Script,
  state: Partial<S> = {},
): WorkflowContext<S> & { calls: CallOptions[] } {
  const calls: CallOptions[] = []
  const session = {
    seed: {
      runId: 'tscript',
      storeCode: 'default',
      purchase: {
        paymentMethod: 'checkmo',
        shipping: { carrier: 'flatrate', method: 'flatrate' },
        invoiceRefundPaymentMethod: 'free',
        freeShipping: { carrier: 'freeshipping', method: 'freeshipping' },
      },
    },
    targetPath: (p: string) => p,
    secrets: new Secrets(),
    looksLikeNoRoute: (a: Answer) =>
      a.status === 404 && (a.body as { message?: unknown } | null)?.message === NO_ROUTE_MESSAGE,
  } as unknown as Session
  const fx = {
    session,
    builders: new Builders(7, 'tscript'),
    ledger: new Ledger(),
    call(step: string, options: CallOptions, accept: (a: Answer) => boolean = isSuccess): Promise<Called> {
      calls.push(options)
      // What goes wrong (an unscripted call, a refused answer) rejects the call, as a real call's would, never throws.
      return new Promise((resolve) => resolve(scriptedCall(script, step, options, accept)))
    },
  } as unknown as Provisioner
  return { session, fx, state, calls }
}

const NO_ROUTE_MESSAGE = 'Request does not match any route.'

/** The script's answer to a call, or the error a provisioner's call throws. */
function scriptedCall(script: Script, step: string, options: CallOptions, accept: (a: Answer) => boolean): Called {
  const entry = script[endpointText(options)]
  if (entry === undefined) throw new Error(`unscripted call ${endpointText(options)}`)
  const { status, body, text } = typeof entry === 'function' ? entry(options) : entry
  const answer: Answer = {
    status,
    headers: {},
    body,
    json: text === undefined,
    text: text ?? JSON.stringify(body) ?? '',
  }
  const exchange = {
    request: { method: options.method, url: options.path, headers: {} },
    response: { status, headers: {}, body },
    durationMs: 0,
  }
  if (!accept(answer))
    throw new SetupError(
      step,
      `set-up step "${step}" (${endpointText(options)}) answered ${describeAnswer(answer)}`,
      exchange,
    )
  return { answer, exchange }
}

/** Runs one step of a workflow, found by its title. */
export async function runStep<S extends object>(
  workflow: Workflow<S>,
  title: string,
  ctx: WorkflowContext<S>,
): Promise<StepVerdict> {
  const step = workflow.steps.find((s) => s.title === title)
  if (step === undefined) throw new Error(`workflow ${workflow.name} has no step "${title}"`)
  return step.run(ctx)
}

/** `nn title` → status: what the tests compare against. */
export function statuses(outcomes: readonly StepOutcome[]): Record<string, string> {
  return Object.fromEntries(outcomes.map((o) => [`${o.ordinal} ${o.title}`, o.verdict.status]))
}
