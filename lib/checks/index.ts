import { accessCheck } from './access.ts'
import { aclCheck } from './acl.ts'
import { batchPartialCheck } from './batch-partial.ts'
import { bodyKeysCheck } from './body-keys.ts'
import { shapeCheck } from './shape.ts'
import { routeCheck } from './route.ts'
import { storeCodeCheck } from './store-code.ts'
import { tokensCheck } from './tokens.ts'
import type { Check } from './types.ts'

/** Every check kind, in the order they run and are reported. */
export const CHECKS: readonly Check[] = [
  routeCheck,
  storeCodeCheck,
  accessCheck,
  aclCheck,
  tokensCheck,
  bodyKeysCheck,
  shapeCheck,
  batchPartialCheck,
]

/** Names `--check` takes: the per-endpoint checks, then the stateful workflows. */
export const CHECK_KINDS: readonly string[] = [...CHECKS.map((c) => c.name), 'workflow']
