/**
 * Test support for the bench's replay tests (not a test itself): the credentials a replay fills in, and a logged
 * request.
 */
import type { LoggedRequest } from './request-log.ts'
import type { ReplayCredentials } from './replay.ts'

/** A replay's credentials: the admin's, the run's nonce and a token per label. */
export const creds: ReplayCredentials = {
  admin: { username: 'admin', password: 'Admin-Pw-1!' },
  nonce: 'n0nce',
  tokens: { admin: 'A-TOKEN', customer: 'C-TOKEN', disposable: 'D-TOKEN', malformed: 'shop-conformance-malformed-ff' },
}

/** A logged request: a GET of /V1/x by no caller, with `over` given. */
export const line = (over: Partial<LoggedRequest>): LoggedRequest => ({
  startMs: 0,
  endMs: 1,
  thread: 'worker',
  method: 'GET',
  path: '/V1/x',
  store: 'default',
  caller: 'none',
  ...over,
})
