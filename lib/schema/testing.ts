/**
 * Test support for lib/schema (not a test itself): the hand-made platform-style views, and the reference
 * target's own views fetched from a started target.
 */
import { readFileSync } from 'node:fs'
import type { ReferenceTarget } from '../../reference-target/index.ts'
import { mergeViews, readDocument } from './read.ts'
import type { DeclaredSchema, SchemaCaller } from './read.ts'
import type { FetchedDocument, SchemaGet } from './load.ts'

const HANDMADE = new URL('../../fixtures/observations/schema-handmade/', import.meta.url)

/** The hand-made document of a caller's view (fixtures/observations/schema-handmade/, labelled hand-made). */
export function handmadeDocument(caller: SchemaCaller): Record<string, any> {
  const file = caller === 'anon' ? 'anonymous' : caller
  return JSON.parse(readFileSync(new URL(`${file}.json`, HANDMADE), 'utf8')) as Record<string, any>
}

/** A document read, or the test fails with its reason. */
export function readOk(document: unknown, caller?: SchemaCaller): DeclaredSchema {
  const read = readDocument(document, caller)
  if (!read.ok) throw new Error(`not read: ${read.reason}`)
  return read.schema
}

/** The three hand-made views, merged. */
export function handmadeSchema(): DeclaredSchema {
  return mergeViews((['anon', 'customer', 'admin'] as const).map((caller) => readOk(handmadeDocument(caller), caller)))
}

/** A `get` over fetch, as the run's client would give one: the answer's status, type and text, or why none came. */
export const fetchGet: SchemaGet = async (url, token) => {
  try {
    const response = await fetch(url, {
      headers: { Accept: 'application/json', ...(token !== undefined ? { Authorization: `Bearer ${token}` } : {}) },
    })
    const fetched: FetchedDocument = { status: response.status, text: await response.text() }
    const type = response.headers.get('content-type')
    return type === null ? fetched : { ...fetched, contentType: type }
  } catch (error) {
    return { error: (error as Error).message }
  }
}

/** The admin and customer tokens of a reference target (a customer of the test's own). */
export async function referenceTokens(
  target: ReferenceTarget,
  email = `schema.${Date.now().toString(36)}@example.com`,
): Promise<{ admin: string; customer: string }> {
  const post = async (path: string, body: unknown): Promise<unknown> => {
    const response = await fetch(`${target.url}/rest/default${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    })
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return response.json()
  }
  const password = 'Schema-Test-Pass-1!'
  await post('/V1/customers', { customer: { email, firstname: 'Schema', lastname: 'Test' }, password })
  return {
    admin: (await post('/V1/integration/admin/token', target.admin)) as string,
    customer: (await post('/V1/integration/customer/token', { username: email, password })) as string,
  }
}
