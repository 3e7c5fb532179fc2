/**
 * Test support (not a test itself): a session's seed for a session whose client a test stands in for, and an
 * answer such a client gives — no target.
 */
import type { Outcome } from './request.ts'
import type { SessionSeed } from './session.ts'

/** A seed with the admin's token and nothing else learned: a test adds what it needs. */
export const STAND_IN_SEED = {
  runId: 'stand-in',
  baseUrl: 'http://127.0.0.1:9/',
  storeCode: 'default',
  secondStoreCode: 'all',
  timeoutMs: 1_000,
  concurrency: 2,
  insecure: false,
  pathAliases: [],
  tokens: { admin: 'admin-token' },
  malformedToken: 'malformed',
  calibration: { noRoute: [], unknownStore: [], exchanges: [] },
  secrets: [],
  builderSeed: 1,
  purchase: {},
  readOnly: false,
  credentials: {},
  tokenCheckPaths: { admin: '/V1/modules' },
} as unknown as SessionSeed

/** A JSON answer of `status` with `body`, as a client a test stands in for hands it over (a GET's exchange). */
export function answered(status: number, body: unknown): Outcome {
  return {
    answer: { status, headers: {}, body, json: true, text: JSON.stringify(body) },
    exchange: {
      request: { method: 'GET', url: 'http://t/', headers: {} },
      response: { status, headers: {}, body },
      durationMs: 0,
    },
  }
}
