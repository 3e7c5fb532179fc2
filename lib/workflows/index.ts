import type { Workflow } from './types.ts'

/** Every workflow, each registered by its module's suite. */
export const WORKFLOWS: readonly Workflow[] = []
