import type { Exchange } from '../results/exchange.ts'
import { MALFORMED_BEARER } from '../results/redactor.ts'

/**
 * A copy-paste `curl` command that repeats an exchange's request, for a POSIX shell.
 *
 * Everything taken from the exchange is single-quoted (`'` becomes `'\''`), so nothing in a URL, header or
 * body can expand or end the command. A secret is never in it: the Authorization header always becomes
 * `"Authorization: Bearer $TOKEN"` (a variable the reader sets; a comment line says which token), except the
 * suite's own made-up malformed token, which is no secret and is kept so the probe can be replayed. Any other
 * redacted text (`[redacted …]`, in the URL, a header or the body) becomes a shell variable spliced in
 * double quotes, e.g. `[redacted admin password]` → `"$ADMIN_PASSWORD"`; the literal `[redacted…]` never
 * reaches the command. Where `$TOKEN` is an admin or a customer token, a comment gives the token call that
 * gets one, its username and password as variables too (the run's own customers' passwords are never written:
 * a reader uses a customer of their own).
 */
export function curlFor(exchange: Pick<Exchange, 'request'>): string {
  const { method, url, headers, body } = exchange.request
  const needs = new Map<string, string>()
  const parts: string[] = ['curl']
  if (/[[\]{}]/.test(url)) parts.push('--globoff')
  parts.push('--request', quote(method.toUpperCase()), shellText(url, needs))
  parts.push('-H', quote('Accept: application/json'))

  const hasBody = body !== undefined
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (lower === 'accept' || lower === 'content-type' || lower === 'content-length' || lower === 'host') continue
    if (lower === 'authorization' || lower === 'proxy-authorization') {
      parts.push('-H', authorization(lower === 'authorization' ? 'Authorization' : 'Proxy-Authorization', value, needs))
    } else if (SENSITIVE_HEADER.test(lower)) {
      const variable = variableName(lower)
      needs.set(variable, `the ${lower} value`)
      parts.push('-H', `"${lower}: $${variable}"`)
    } else {
      parts.push('-H', shellText(`${name}: ${value}`, needs))
    }
  }
  if (hasBody) {
    parts.push('-H', quote('Content-Type: application/json'))
    // --data-raw: a body starting with "@" is sent as is, never read from a file.
    parts.push('--data-raw', shellText(typeof body === 'string' ? body : JSON.stringify(body), needs))
  }

  const command = joinParts(parts)
  if (needs.size === 0) return command
  const comment = `# set first: ${[...needs].map(([variable, what]) => `${variable} (${what})`).join(', ')}`
  const hint = tokenCall(needs.get('TOKEN'), url)
  return `${[comment, ...hint].map((l) => l.replace(/\n/g, ' ')).join('\n')}\n${command}`
}

/** The token endpoints of the spec (Authentication 5), with whose credentials each is called. */
const TOKEN_CALLS = {
  admin: {
    path: '/V1/integration/admin/token',
    user: 'ADMIN_USERNAME',
    password: 'ADMIN_PASSWORD',
    whose: "the admin's credentials",
  },
  customer: {
    path: '/V1/integration/customer/token',
    user: 'CUSTOMER_EMAIL',
    password: 'CUSTOMER_PASSWORD',
    whose: "a customer of yours (the run never writes its own customers' passwords)",
  },
} as const

/** Whose token an exchange's caller names: an admin's, a customer's, or neither. */
function tokenKindOf(what: string): keyof typeof TOKEN_CALLS | undefined {
  if (/\badmin token\b/.test(what)) return 'admin'
  if (/\bcustomer token\b/.test(what)) return 'customer'
  return undefined
}

/** Comment lines with the call that gets `$TOKEN`, for a token the exchange names as admin or customer. */
function tokenCall(what: string | undefined, url: string): string[] {
  // A token the user gave (SHOP_ADMIN_TOKEN, …): no token call gets it (a shop with two-factor admin login gives none
  // for a password).
  const given = what === undefined ? undefined : /\bgiven as (SHOP_[A-Z_]+)/.exec(what)?.[1]
  if (given !== undefined) return [`# TOKEN is the token you gave as ${given}`]
  const kind = what === undefined ? undefined : tokenKindOf(what)
  const base = /^(.*?\/rest\/[^/?#]+)\/V1\//.exec(url)?.[1]
  if (kind === undefined || base === undefined || base.includes('[redacted')) return []
  const call = TOKEN_CALLS[kind]
  const body = `"{\\"username\\":\\"$${call.user}\\",\\"password\\":\\"$${call.password}\\"}"`
  return [
    `# get it with ${call.user} and ${call.password} set to ${call.whose}:`,
    `#   TOKEN=$(curl --silent --request POST ${quote(`${base}${call.path}`)} -H 'Content-Type: application/json' --data-raw ${body} | tr -d '"')`,
  ]
}

/** Header names that carry secrets even when nothing marked them redacted. */
const SENSITIVE_HEADER = /^(cookie|set-cookie|x-api-key|x-auth-token|x-access-token)$/
const REDACTED = /\[redacted([^\]]*)\]/g

function authorization(header: string, value: string, needs: Map<string, string>): string {
  if (MALFORMED_BEARER.test(value)) return quote(`${header}: ${value}`)
  const label = /^Bearer \[redacted ([^\]]+)\]$/.exec(value)?.[1]
  needs.set('TOKEN', label !== undefined ? `an ${label}`.replace(/^an ([^aeiou])/, 'a $1') : 'a token for the target')
  return `"${header}: Bearer $TOKEN"`
}

/** Single-quotes `text`, with each `[redacted …]` replaced by a double-quoted variable spliced in. */
function shellText(text: string, needs: Map<string, string>): string {
  let out = ''
  let last = 0
  for (const match of text.matchAll(REDACTED)) {
    const variable = variableName(match[1] ?? '')
    const label = (match[1] ?? '').trim()
    needs.set(variable, label === '' ? 'a redacted value' : `the ${label}`)
    const before = text.slice(last, match.index)
    out += `${before === '' ? '' : quote(before)}"$${variable}"`
    last = match.index + match[0].length
  }
  const rest = text.slice(last)
  return rest === '' && out !== '' ? out : out + quote(rest)
}

function variableName(label: string): string {
  const name = label
    .trim()
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
  if (name === '') return 'SECRET'
  // A shell variable's name cannot start with a digit.
  return /^[0-9]/.test(name) ? `_${name}` : name
}

/** POSIX single quotes: nothing inside expands; a `'` is closed, escaped and reopened. */
function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

function joinParts(parts: string[]): string {
  // One option (and its value) per line, so long bodies stay readable and the command copy-pastes whole.
  const lines: string[] = []
  let current = ''
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? ''
    const takesValue = part === '-H' || part === '--data-raw' || part === '--request'
    const piece = takesValue ? `${part} ${parts[++i] ?? ''}` : part
    if (current === '') current = piece
    else if (part === '-H' || part === '--data-raw') {
      lines.push(current)
      current = piece
    } else current += ` ${piece}`
  }
  lines.push(current)
  return lines.join(' \\\n  ')
}
