/** A customer of the run's own is registered one way, by the preflight and the provisioner alike. */
import { readdirSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Secrets } from '../shop/secrets.ts'
import { registration } from './registration.ts'

const ROOT = join(import.meta.dirname, '../..')

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = posix.join(dir, entry.name)
    if (entry.isDirectory()) yield* sources(path)
    else if (entry.name.endsWith('.ts') && !/\.test\.ts$|(^|\/)testing[^/]*\.ts$/.test(entry.name)) yield path
  }
}

describe('registration', () => {
  it("is an anonymous POST /V1/customers with a password of the platform's rule, a secret from then on, in the ledger by its e-mail", () => {
    const secrets = new Secrets()
    const find = () => Promise.resolve({ exchanges: [] })
    const made = registration(
      secrets,
      { email: 'sc.r1.x@example.com', firstname: 'A', lastname: 'B' },
      'customer x',
      find,
    )
    expect(made.call).toEqual({
      method: 'POST',
      path: '/V1/customers',
      body: { customer: { email: 'sc.r1.x@example.com', firstname: 'A', lastname: 'B' }, password: made.password },
    })
    // At least 8 characters from 3 classes.
    expect(made.password).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9]).{8,}$/)
    expect(secrets.redactText(`pw ${made.password}`)).not.toContain(made.password)
    expect(made.creation).toMatchObject({ kind: 'customer', label: 'customer x', key: 'sc.r1.x@example.com', find })
    expect([made.creation.idOf({ id: 12 }), made.creation.idOf({ id: '13' }), made.creation.idOf({})]).toEqual([
      '12',
      '13',
      undefined,
    ])
    expect(registration(secrets, { email: 'y@example.com' }, 'y', find).password).not.toBe(made.password)
  })

  it('is written once: no other source of the run sends POST /V1/customers', () => {
    // The bench replays a logged run's requests with a bare client: not the run's own registration.
    const others = [...sources('lib')].filter(
      (f) => f !== 'lib/setup/registration.ts' && !f.startsWith('lib/bench/') && !f.startsWith('lib/spec/'),
    )
    const sending = others.filter((f) =>
      /path: '\/V1\/customers'|'\/V1\/customers', \{ customer/.test(readFileSync(join(ROOT, f), 'utf8')),
    )
    expect(sending).toEqual([])
    expect(others.length).toBeGreaterThan(150)
  })
})
