import type { Provisioner } from '../setup/provision.ts'
import type { Session } from '../shop/session.ts'
import type { Verdict } from '../results/verdict.ts'
import type { Rule } from '../spec/rules.ts'
import type { EndpointId } from '../spec/endpoint-id.ts'

/** What one step of a workflow found: a verdict whose rules are the step's own (`WorkflowStep.rules`). */
export type StepVerdict = Omit<Verdict, 'rules'>

/**
 * Handed to every step: the target, the provisioner, and the state earlier steps left for later ones. `S` is
 * the workflow's own record of what its steps hand on (ids, the address sent, …): a step reads a value by its
 * name with the type an earlier step wrote it with, and a key no step writes does not compile.
 */
export interface WorkflowContext<S extends object = object> {
  session: Session
  fx: Provisioner
  /** What the steps so far have left; a key is absent until a step writes it. */
  state: Partial<S>
}

export interface WorkflowStep<S extends object = object> {
  /** Short, stable: it is part of the result id. */
  title: string
  /** The catalog row the step exercises, when it exercises one. */
  endpoint?: EndpointId
  /** The rules the step can fail the target for, with their spec words (none: a set-up step). */
  rules?: readonly Rule[]
  run(ctx: WorkflowContext<S>): Promise<StepVerdict>
}

/**
 * A deterministic sequence whose steps feed the next. Each step is one result, id
 * `workflow <name> › <nn> <title>`; a step after a failed or unjudged one is skipped, saying which.
 */
export interface Workflow<S extends object = object> {
  name: string
  /** Module whose suite registers it. */
  module: string
  description: string
  /** Spec sections the workflow enforces. */
  spec: string[]
  steps: WorkflowStep<S>[]
}
