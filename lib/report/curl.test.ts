import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import type { Exchange } from '../results/exchange.ts'
import { REFERENCE_ADMIN, startReferenceTarget } from '../../reference-target/index.ts'
import { Secrets } from '../shop/secrets.ts'
import { runInTest } from '../../test-setup/child-processes.ts'
import { curlFor } from './curl.ts'

type Request = Exchange['request']

/** What a POSIX shell hands to curl: the command runs in `sh` with `curl` replaced by a function printing its argv. */
function argv(command: string, env: Record<string, string> = {}): string[] {
  const out = execFileSync('sh', ['-c', `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${command}`], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TOKEN: 'tok-123', ...env },
    encoding: 'utf8',
  })
  return out.split('\0').slice(0, -1)
}

const request = (r: Partial<Request>): { request: Request } => ({
  request: {
    method: 'GET',
    url: 'http://127.0.0.1:8080/rest/default/V1/modules',
    headers: { accept: 'application/json' },
    ...r,
  },
})

describe('curlFor', () => {
  it('gives method, URL and Accept, and Content-Type with --data-raw for a body', () => {
    const body = { product: { sku: 'a', price: 1.5 } }
    const command = curlFor(
      request({
        method: 'POST',
        url: 'http://h/rest/default/V1/products',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body,
      }),
    )
    expect(command).toContain("-H 'Accept: application/json'")
    expect(command).toContain("-H 'Content-Type: application/json'")
    expect(command).toContain('--data')
    const args = argv(command)
    expect(args.slice(0, 3)).toEqual(['--request', 'POST', 'http://h/rest/default/V1/products'])
    expect(args).toContain('Accept: application/json')
    expect(args.filter((a) => /^content-type:/i.test(a))).toEqual(['Content-Type: application/json'])
    expect(JSON.parse(args[args.indexOf('--data-raw') + 1] ?? '')).toEqual(body)
  })

  it('sends no body and no Content-Type without one', () => {
    const args = argv(curlFor(request({})))
    expect(args).toEqual([
      '--request',
      'GET',
      'http://127.0.0.1:8080/rest/default/V1/modules',
      '-H',
      'Accept: application/json',
    ])
  })

  it("quotes bodies with ', $, backticks, backslashes and newlines so the shell passes them through unchanged", () => {
    const body = { name: 'O\'Brien\'s "shop" $HOME `id` $(id) \\n\n;&|<>*?~#!', empty: '', quotes: "''" }
    const args = argv(curlFor(request({ method: 'PUT', body })))
    expect(JSON.parse(args[args.indexOf('--data-raw') + 1] ?? '')).toEqual(body)
  })

  it('sends a raw string body as is, even one starting with @ (never read as a file)', () => {
    const command = curlFor(request({ method: 'POST', body: "@/etc/passwd it's" }))
    expect(command).toContain('--data-raw')
    expect(command).not.toMatch(/--data(?!-raw)/)
    const args = argv(command)
    expect(args[args.indexOf('--data-raw') + 1]).toBe("@/etc/passwd it's")
  })

  it('uses --globoff for a URL with [ ] so curl does not glob searchCriteria[...]', () => {
    const url =
      "http://h/rest/default/V1/products?searchCriteria[pageSize]=5&searchCriteria[filter_groups][0][filters][0][value]=it's"
    const command = curlFor(request({ url }))
    expect(command).toContain('--globoff')
    const args = argv(command)
    expect(args).toContain(url)
    expect(args.indexOf('--globoff')).toBeLessThan(args.indexOf(url))
    expect(curlFor(request({}))).not.toContain('--globoff')
  })

  it('turns a redacted Authorization into "Bearer $TOKEN" and says which token to set', () => {
    for (const [label, kind] of [
      ['admin token', 'an admin token'],
      ['customer token', 'a customer token'],
    ] as const) {
      const command = curlFor(
        request({ headers: { accept: 'application/json', authorization: `Bearer [redacted ${label}]` } }),
      )
      expect(command).toContain('-H "Authorization: Bearer $TOKEN"')
      expect(command).toMatch(new RegExp(`^# set first: TOKEN \\(${kind}\\)\\n`))
      expect(command).not.toContain('[redacted')
      expect(argv(command)).toContain('Authorization: Bearer tok-123')
    }
    const unknown = curlFor(request({ headers: { authorization: '[redacted]' } }))
    expect(unknown).toContain('"Authorization: Bearer $TOKEN"')
    expect(unknown).not.toContain('[redacted')
  })

  it('says a token the user gave (SHOP_ADMIN_TOKEN) is theirs: no token call gets it on a shop with two-factor admin login', () => {
    const command = curlFor(
      request({
        url: 'https://shop.example/rest/default/V1/modules',
        headers: { authorization: 'Bearer [redacted admin token given as SHOP_ADMIN_TOKEN]' },
      }),
    )
    expect(command.split('\n').slice(0, 2)).toEqual([
      '# set first: TOKEN (an admin token given as SHOP_ADMIN_TOKEN)',
      '# TOKEN is the token you gave as SHOP_ADMIN_TOKEN',
    ])
    expect(command).not.toContain('integration/admin/token')
    expect(command).toContain('-H "Authorization: Bearer $TOKEN"')
  })

  it('keeps the suite’s made-up malformed token visible, so the probe can be replayed', () => {
    const command = curlFor(request({ headers: { authorization: 'Bearer shop-conformance-malformed-e481b2f649ba' } }))
    expect(command).toContain("-H 'Authorization: Bearer shop-conformance-malformed-e481b2f649ba'")
    expect(command).not.toContain('$TOKEN')
    expect(command.startsWith('curl')).toBe(true)
  })

  it('can never carry a secret: any other Authorization value, cookies and redacted text become variables', () => {
    const secret = 'real-secret-token-0123456789abcdef'
    const command = curlFor(
      request({
        method: 'POST',
        url: `http://h/rest/default/V1/carts/[redacted customer token]/items`,
        // Values redaction did not know about: a bearer that is not the malformed probe, a cookie, an API key.
        headers: {
          authorization: `Bearer ${secret}`,
          Cookie: `session=${secret}`,
          'X-API-Key': secret,
          'x-trace': 'ok',
        },
        body: { username: 'admin', password: '[redacted]', note: 'uses [redacted admin password] here' },
      }),
    )
    expect(command).not.toContain(secret)
    expect(command).not.toContain('[redacted')
    expect(command).toContain('"Authorization: Bearer $TOKEN"')
    expect(command).toContain('"cookie: $COOKIE"')
    expect(command).toContain('"x-api-key: $X_API_KEY"')
    const comment = command.split('\n')[0] ?? ''
    expect(comment.startsWith('# set first: ')).toBe(true)
    for (const variable of ['TOKEN', 'CUSTOMER_TOKEN', 'COOKIE', 'X_API_KEY', 'SECRET', 'ADMIN_PASSWORD'])
      expect(comment).toMatch(new RegExp(`\\b${variable} \\(`))
    const args = argv(command, {
      CUSTOMER_TOKEN: 'ct',
      COOKIE: 'c=1',
      X_API_KEY: 'k',
      SECRET: 's3',
      ADMIN_PASSWORD: "p'w",
    })
    expect(args).toContain('http://h/rest/default/V1/carts/ct/items')
    expect(args).toContain('x-trace: ok')
    expect(args).toContain('cookie: c=1')
    expect(JSON.parse(args[args.indexOf('--data-raw') + 1] ?? '')).toEqual({
      username: 'admin',
      password: 's3',
      note: "uses p'w here",
    })
  })

  it('redaction then curlFor: no registered secret survives, whatever the exchange held', () => {
    const secrets = new Secrets()
    secrets.add('admin-token-aaaaaaaaaaaa', 'admin token')
    secrets.add("Pa55'word!", 'admin password')
    const raw: Exchange = {
      request: {
        method: 'POST',
        url: 'http://h/rest/default/V1/x?token=admin-token-aaaaaaaaaaaa',
        headers: { authorization: 'Bearer admin-token-aaaaaaaaaaaa' },
        body: { password: "Pa55'word!", other: 'admin-token-aaaaaaaaaaaa' },
      },
      durationMs: 1,
    }
    const command = curlFor(secrets.redact(raw))
    for (const [value] of secrets.entries()) expect(command).not.toContain(value)
    expect(command).not.toContain('[redacted')
    expect(argv(command, { ADMIN_TOKEN: 'A' }).some((a) => a.endsWith('?token=A'))).toBe(true)
  })

  it('says how to get $TOKEN: the token call, its username and password as variables, and it works', async () => {
    const target = await startReferenceTarget()
    try {
      const command = curlFor(
        request({
          url: `${target.url}/rest/default/V1/modules`,
          headers: { accept: 'application/json', authorization: 'Bearer [redacted admin token]' },
        }),
      )
      const [, how, call] = command.split('\n')
      expect(how).toBe("# get it with ADMIN_USERNAME and ADMIN_PASSWORD set to the admin's credentials:")
      expect(call).toMatch(
        /^# {3}TOKEN=\$\(curl --silent --request POST '.*\/rest\/default\/V1\/integration\/admin\/token' /,
      )
      expect(command).not.toContain(REFERENCE_ADMIN.password)
      // The two commands as a reader runs them, with real curl against the reference target.
      const script = `${call!.replace(/^# {3}/, '')}\n${command
        .split('\n')
        .filter((l) => !l.startsWith('#'))
        .join('\n')} --silent`
      const { status, stdout, stderr } = await runInTest('sh', ['-c', script], {
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          ADMIN_USERNAME: REFERENCE_ADMIN.username,
          ADMIN_PASSWORD: REFERENCE_ADMIN.password,
        },
      })
      expect(status, stderr).toBe(0)
      expect(Array.isArray(JSON.parse(stdout))).toBe(true)
    } finally {
      await target.close()
    }
    const customer = curlFor(request({ headers: { authorization: 'Bearer [redacted customer token]' } }))
    expect(customer).toContain('CUSTOMER_EMAIL and CUSTOMER_PASSWORD set to a customer of yours')
    expect(customer).toContain("'http://127.0.0.1:8080/rest/default/V1/integration/customer/token'")
  })
})
