/**
 * The floor: the request sequence of a run (its request log), sent again by the barest client that can send it —
 * one undici Agent, p-limit at the run's concurrency, every request in the order the run started them, bodies
 * read as text and dropped. Tokens are fresh ones of the replay's own, substituted by caller label; passwords by
 * placeholder. The run's entities are in the bodies, so the target may answer differently: the floor measures
 * transport and the target's work, not verdicts.
 */
import { randomBytes } from 'node:crypto'
import { Agent } from 'undici'
import pLimit from 'p-limit'
import { PASSWORD_PLACEHOLDER, type CallerLabel, type LoggedRequest } from './request-log.ts'

export interface ReplayCredentials {
  admin: { username: string; password: string }
  /** Tokens of the replay's own, by label (`other` tokens are learned while replaying). */
  tokens: Partial<Record<Exclude<CallerLabel, 'none' | 'other'>, string>>
  /** A stable suffix for the passwords the replay invents. */
  nonce: string
}

interface PlannedRequest {
  method: string
  /** Path with query, below the origin: `/rest/{store}/V1/...?…`. */
  path: string
  headers: Record<string, string>
  body?: string
  /** Send with the `other` token of this key once it is known (`thread:n`). */
  awaitsOther?: string
  /** This request's answer is an `other` token: remember it under this key. */
  issuesOther?: string
}

/** The log, in the order the run started its requests, as requests to send (pure: the unit tests drive it). */
export function planReplay(
  log: readonly LoggedRequest[],
  basePath: string,
  creds: ReplayCredentials,
): PlannedRequest[] {
  const prefix = basePath.replace(/\/+$/, '')
  return [...log]
    .sort((a, b) => a.startMs - b.startMs)
    .map((r) => {
      const headers: Record<string, string> = { accept: 'application/json' }
      const token = r.caller === 'none' || r.caller === 'other' ? undefined : creds.tokens[r.caller]
      if (token !== undefined) headers.authorization = `Bearer ${token}`
      let body: string | undefined
      if (r.body !== undefined) {
        headers['content-type'] = 'application/json'
        body = JSON.stringify(substitute(r.body, creds))
      }
      const query = r.query === undefined || r.query === '' ? '' : `?${r.query}`
      return {
        method: r.method,
        path: `${prefix}/rest/${r.store}${r.path}${query}`,
        headers,
        ...(body !== undefined ? { body } : {}),
        ...(r.caller === 'other' && r.otherToken !== undefined ? { awaitsOther: `${r.thread}:${r.otherToken}` } : {}),
        ...(r.issuesOtherToken !== undefined ? { issuesOther: `${r.thread}:${r.issuesOtherToken}` } : {}),
      }
    })
}

/** Placeholders of the log back to values the replay can send. */
export function substitute(body: unknown, creds: ReplayCredentials): unknown {
  return JSON.parse(
    JSON.stringify(body, (_key, v: unknown) => {
      if (typeof v !== 'string') return v
      const p = PASSWORD_PLACEHOLDER.exec(v)
      if (p !== null) return p[1] === 'admin' ? creds.admin.password : `Bench-${p[1]}-${creds.nonce}aA1!`
      const t = /^\[token (\w+)\]$/.exec(v)
      if (t !== null) return creds.tokens[t[1] as keyof ReplayCredentials['tokens']] ?? v
      return v
    }),
  ) as unknown
}

interface ReplayResult {
  /** First request sent → last answer read. */
  wallMs: number
  requests: number
  /** Requests that got no answer at all (transport errors): should be 0. */
  failed: number
  /** CPU time of this process (user + system) while sending: what the bare client costs. */
  cpuMs: number
  statuses: Record<string, number>
  /** Each planned request's status (undefined: no answer), in plan order. */
  perRequest: (number | undefined)[]
}

/** Sends the plan at `concurrency` in flight, in order; an `other` token's user waits until that token is known. */
export async function sendPlan(
  origin: string,
  plan: readonly PlannedRequest[],
  concurrency: number,
  timeoutMs = 30_000,
): Promise<ReplayResult> {
  const agent = new Agent({
    connections: concurrency,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 10_000,
  })
  const limit = pLimit(concurrency)
  const others = new Map<string, { promise: Promise<string | undefined>; resolve: (t: string | undefined) => void }>()
  const other = (key: string) => {
    let o = others.get(key)
    if (o === undefined) {
      let resolve!: (t: string | undefined) => void
      const promise = new Promise<string | undefined>((r) => (resolve = r))
      o = { promise, resolve }
      others.set(key, o)
    }
    return o
  }
  // A token request that never answers must not hold its users forever.
  for (const r of plan) if (r.issuesOther !== undefined) other(r.issuesOther)
  const statuses: Record<string, number> = {}
  const perRequest: (number | undefined)[] = new Array<number | undefined>(plan.length).fill(undefined)
  let failed = 0
  const started = performance.now()
  const cpu = process.cpuUsage()
  try {
    await Promise.all(
      plan.map((r, i) =>
        limit(async () => {
          let headers = r.headers
          if (r.awaitsOther !== undefined) {
            const token = others.has(r.awaitsOther) ? await other(r.awaitsOther).promise : undefined
            if (token !== undefined) headers = { ...headers, authorization: `Bearer ${token}` }
          }
          try {
            const res = await agent.request({
              origin,
              path: r.path,
              method: r.method,
              headers,
              ...(r.body !== undefined ? { body: r.body } : {}),
            })
            const text = await res.body.text()
            statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1
            perRequest[i] = res.statusCode
            if (r.issuesOther !== undefined)
              other(r.issuesOther).resolve(res.statusCode === 200 ? tokenOf(text) : undefined)
          } catch {
            failed++
            if (r.issuesOther !== undefined) other(r.issuesOther).resolve(undefined)
          }
        }),
      ),
    )
    const wallMs = performance.now() - started
    const used = process.cpuUsage(cpu)
    return { wallMs, requests: plan.length, failed, statuses, perRequest, cpuMs: (used.user + used.system) / 1000 }
  } finally {
    await agent.close()
  }
}

function tokenOf(text: string): string | undefined {
  try {
    const v = JSON.parse(text) as unknown
    return typeof v === 'string' ? v : undefined
  } catch {
    return undefined
  }
}

/**
 * Fresh tokens for the replay: the admin's, and two customers of the replay's own (the main one and a disposable
 * one, whose tokens the sequence may revoke). Not timed.
 */
async function replayCredentials(
  baseUrl: string,
  admin: { username: string; password: string },
  store = 'default',
): Promise<ReplayCredentials> {
  const nonce = randomBytes(4).toString('hex')
  const base = new URL(baseUrl)
  const prefix = base.pathname.replace(/\/+$/, '')
  const agent = new Agent({ connections: 1 })
  const post = async (path: string, body: unknown, token?: string): Promise<{ status: number; body: unknown }> => {
    const res = await agent.request({
      origin: base.origin,
      path: `${prefix}/rest/${store}${path}`,
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    })
    const text = await res.body.text()
    return { status: res.statusCode, body: text === '' ? undefined : (JSON.parse(text) as unknown) }
  }
  const token = async (kind: 'admin' | 'customer', username: string, password: string): Promise<string> => {
    const r = await post(`/V1/integration/${kind}/token`, { username, password })
    if (r.status !== 200 || typeof r.body !== 'string')
      throw new Error(`replay: ${kind} token for ${username} refused (${r.status})`)
    return r.body
  }
  const customer = async (role: string): Promise<string> => {
    const email = `bench.${nonce}.${role}@example.com`
    const password = `Bench-${role}-${nonce}aA1!`
    const r = await post('/V1/customers', {
      customer: { email, firstname: 'Bench', lastname: `Replay ${nonce}` },
      password,
    })
    if (r.status !== 200) throw new Error(`replay: registering ${email} failed (${r.status})`)
    return token('customer', email, password)
  }
  try {
    return {
      admin,
      nonce,
      tokens: {
        admin: await token('admin', admin.username, admin.password),
        customer: await customer('customer'),
        disposable: await customer('disposable'),
        malformed: `shop-conformance-malformed-${randomBytes(6).toString('hex')}`,
      },
    }
  } finally {
    await agent.close()
  }
}

/** The whole floor measurement of one logged run; `sameStatus`: the share of requests answered as in the run. */
export async function replayLog(
  log: readonly LoggedRequest[],
  baseUrl: string,
  admin: { username: string; password: string },
  concurrency: number,
): Promise<ReplayResult & { sameStatus: number }> {
  const creds = await replayCredentials(baseUrl, admin)
  const base = new URL(baseUrl)
  const result = await sendPlan(base.origin, planReplay(log, base.pathname, creds), concurrency)
  return { ...result, sameStatus: sameStatusShare(log, result.perRequest) }
}

/** The share of requests whose replay got the status the run got (the log in start order, as planned). */
export function sameStatusShare(log: readonly LoggedRequest[], replayed: readonly (number | undefined)[]): number {
  const ordered = [...log].sort((a, b) => a.startMs - b.startMs)
  if (ordered.length === 0) return 1
  return ordered.filter((r, i) => r.status !== undefined && r.status === replayed[i]).length / ordered.length
}
