import { randomBytes } from 'node:crypto'
import type { Exchange } from '../results/exchange.ts'
import type { TargetClient } from './client.ts'
import { fingerprint, sameFingerprint, type Fingerprint } from './fingerprint.ts'

/**
 * The target's own "no such route" and "no such store" answers, learned from requests that cannot match.
 * The route check fails an endpoint whose answer looks like the first; the store-code check one whose
 * answer under the second store code looks like the second.
 */
export interface Calibration {
  noRoute: Fingerprint[]
  unknownStore: Fingerprint[]
  exchanges: Exchange[]
}

export class CalibrationError extends Error {}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const

/** Paths no shop serves, the nonce making them the run's own: one at the top, one under a module's prefix. */
export function impossiblePaths(nonce: string): [string, string] {
  return [`/V1/shop-conformance-no-such-route-${nonce}`, `/V1/directory/shop-conformance-no-such-route-${nonce}`]
}

/** A store code no shop has. */
export function impossibleStore(nonce: string): string {
  return `shopconformancenostore${nonce}`
}

/**
 * `anonProbePath` is a harmless anonymous GET of the spec, called under a store code that cannot exist.
 * Calls carry the admin token: a target that checks access before routes must still show its no-route answer,
 * and an access refusal is never taken for one.
 */
export async function calibrate(
  client: TargetClient,
  store: string,
  adminToken: string,
  anonProbePath: string,
  /** Read-only mode learns from GET alone. */
  methods: readonly string[] = METHODS,
): Promise<Calibration> {
  const nonce = randomBytes(4).toString('hex')
  const impossible = impossiblePaths(nonce)
  const routeProbes = methods.flatMap((method) =>
    impossible.map((path) => ({
      method,
      path,
      store,
      token: adminToken,
      ...(method === 'POST' || method === 'PUT' ? { body: {} } : {}),
    })),
  )
  const badStore = impossibleStore(nonce)
  const storeProbes = [anonProbePath, impossible[0]].map((path) => ({
    method: 'GET',
    path,
    store: badStore,
    token: adminToken,
  }))

  const outcomes = await Promise.all(
    [...routeProbes, ...storeProbes].map((spec) => client.send(spec).then((o) => ({ spec, o }))),
  )
  const collect = (from: typeof outcomes): Fingerprint[] => {
    const found: Fingerprint[] = []
    for (const { spec, o } of from) {
      if (o.answer === undefined) {
        throw new CalibrationError(
          `target did not answer ${spec.method} ${client.urlFor(spec)}: ${o.failure?.message ?? 'no answer'}`,
        )
      }
      // A refusal says nothing about routes; it must never be mistaken for "no such route".
      if (o.answer.status === 401 || o.answer.status === 403) continue
      const f = fingerprint(o.answer, spec.path)
      if (!found.some((g) => sameFingerprint(f, g))) found.push(f)
    }
    return found
  }
  const noRoute = collect(outcomes.slice(0, routeProbes.length))
  if (noRoute.length === 0) {
    throw new CalibrationError(
      'the target refuses (401/403) even paths that cannot exist, with the admin token: its no-route answer cannot be learned',
    )
  }
  return {
    noRoute,
    unknownStore: collect(outcomes.slice(routeProbes.length)),
    exchanges: outcomes.map(({ o }) => o.exchange),
  }
}
