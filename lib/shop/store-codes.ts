/**
 * A store code the target does not know is a setting error, not a failure of every endpoint: under it the
 * platform answers every request 400 "Specified request cannot be processed." (platform conventions, "Store
 * codes"), which made `--second-store nosuch` read as 278 store-code failures. Found in the preflight, before
 * any check runs, and told in one line naming the code and its setting.
 */
import { randomBytes } from 'node:crypto'
import { describeOutcome } from './answer-text.ts'
import type { TargetClient } from './client.ts'
import { fingerprint, sameFingerprint } from './fingerprint.ts'
import { defined } from '../base/defined.ts'

interface StoreSetting {
  code: string
  /** The flag and variable that set it, e.g. `--second-store / SHOP_SECOND_STORE_CODE`. */
  setting: string
}

export const STORE_SETTING = '--store / SHOP_STORE_CODE'
export const SECOND_STORE_SETTING = '--second-store / SHOP_SECOND_STORE_CODE'

/** The store every install serves: what a known store code is told apart from an unknown one by. */
const KNOWN_STORE = 'default'

/**
 * The message for the first of `stores` the target answers as it answers a store code that cannot exist, or
 * undefined. Judged on a harmless anonymous GET: only when the target answers it under `default` otherwise
 * than under an impossible code, and that answer is an error — a target that serves any code, or answers
 * nothing, is not told it has a setting wrong.
 */
export async function unknownStoreCode(
  client: TargetClient,
  path: string,
  stores: readonly StoreSetting[],
  token?: string,
): Promise<string | undefined> {
  const asked = stores.filter((s) => s.code !== KNOWN_STORE)
  if (asked.length === 0) return undefined
  const impossible = `shopconformancenostore${randomBytes(4).toString('hex')}`
  const get = (store: string) => client.send({ method: 'GET', path, store, ...(token !== undefined ? { token } : {}) })
  const [unknown, known, ...answers] = await Promise.all([
    get(impossible),
    get(KNOWN_STORE),
    ...asked.map((s) => get(s.code)),
  ])
  if (unknown?.answer === undefined || unknown.answer.status < 400 || known?.answer === undefined) return undefined
  const unknownAnswer = fingerprint(unknown.answer, path)
  if (sameFingerprint(fingerprint(known.answer, path), unknownAnswer)) return undefined
  for (const [i, store] of asked.entries()) {
    const o = defined(answers[i], "a store code's answer")
    if (o.answer !== undefined && sameFingerprint(fingerprint(o.answer, path), unknownAnswer)) {
      return `store code "${store.code}" (${store.setting}) is not known to the target: GET ${path} under it answered ${describeOutcome(o)}, as under a store code that cannot exist, and under "${KNOWN_STORE}" ${describeOutcome(known)}`
    }
  }
  return undefined
}
