/**
 * Issue 24.2's done-when, kept: no `split(' ')` of an endpoint id and no inline `METHOD path` string outside the
 * catalog and its tests. An endpoint is named by its catalog row's id (`rowId`, `endpointId`) and read back through
 * the catalog (`rowOf`); a message says "GET /V1/x" through `endpointText`, the one place that writes the two.
 *
 * Read: every `.ts` of lib/ and suites/, tests included. Not read: reference-target/ and fixtures/ — the target is an
 * independent implementation that imports none of the suite's code (lib/arrows.test.ts), with route keys of its own.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')

/** Where the two may be written together: the catalog, which makes the ids, its tests, and `endpointText` itself. */
const OWNERS = [
  /^lib\/spec\/catalog\//,
  /^lib\/spec\/catalog\.test\.ts$/,
  /^lib\/spec\/endpoint-id\.ts$/,
  /^lib\/spec\/endpoint-id\.test\.ts$/,
]

/**
 * `${row.method} ${row.path}`, `${method} ${path}`, `${op.method} ${op.template}`: a method and a path written together
 * inline.
 */
const INLINE = /\$\{\s*(?:[\w$!?]+\.)*method\s*\} \$\{\s*(?:[\w$!?]+\.)*(?:path|template)\s*\}/g

/** A split on a space, with what is split: how an endpoint id was taken apart (`p.endpoint!.split(' ')`). */
const SPLIT = /([\w$.!?]+)\.split\(\s*' '\s*\)/g

/**
 * What an endpoint id is held in: an endpoint, an operation, a route, an id or a key (other splits on a space split
 * other things).
 */
const ID_LIKE = /endpoint|operation|route|(^|\.)(id|key)!?$|(Id|Key)!?$/i

/** Only the catalog turns a string into an id. */
const CAST = /\bas EndpointId\b/g

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = posix.join(dir, entry.name)
    if (entry.isDirectory()) yield* sources(path)
    else if (entry.name.endsWith('.ts')) yield path
  }
}

const FILES = [...sources('lib'), ...sources('suites')].map((file) => ({
  file,
  text: readFileSync(join(ROOT, file), 'utf8'),
}))

/** `file:line: text` of each match of `pattern` in the files `where` keeps. */
function hits(pattern: RegExp, where: (file: string) => boolean = () => true): string[] {
  return FILES.filter(({ file }) => where(file)).flatMap(({ file, text }) =>
    [...text.matchAll(pattern)].map((m) => `${file}:${text.slice(0, m.index).split('\n').length}: ${m[0]}`),
  )
}

const notOwner = (file: string) => !OWNERS.some((o) => o.test(file))

describe('endpoint identity (issue 24.2)', () => {
  it('reads the tree it guards', () => {
    expect(FILES.length).toBeGreaterThan(300)
    expect(FILES.some(({ file }) => file === 'lib/spec/catalog/index.ts')).toBe(true)
  })

  it('its patterns catch what they are meant to (the test can fail)', () => {
    const written = [
      '`${row.method} ${row.path}`',
      '`at ${method} ${path}:`',
      '`${op.method} ${op.template} ›`',
      "id.split(' ')",
      "p.endpoint!.split( ' ' )",
      'x as EndpointId',
    ]
    expect(
      written.filter(
        (w) => new RegExp(INLINE.source).test(w) || new RegExp(SPLIT.source).test(w) || new RegExp(CAST.source).test(w),
      ),
    ).toEqual(written)
    expect(new RegExp(INLINE.source).test('`${endpointText(row)} › ${check}`')).toBe(false)
    const splitOf = (text: string) => new RegExp(SPLIT.source).exec(text)?.[1] ?? ''
    const ids = [
      "p.endpoint!.split(' ')",
      "step.endpoint.split(' ')",
      "f.operation.split(' ')",
      "id.split(' ')",
      "rowKey.split(' ')",
      "r.routeId.split(' ')",
    ]
    expect(ids.filter((text) => ID_LIKE.test(splitOf(text)))).toEqual(ids)
    expect(
      ["adminCell.answer.split(' ')", "stat.split(' ')", "m[1]!.split(' ')", 'hidden.split(" ")'].filter((text) =>
        ID_LIKE.test(splitOf(text)),
      ),
    ).toEqual([])
  })

  it('writes no method and path together inline outside the catalog and its tests: endpointText says them', () => {
    expect(hits(INLINE, notOwner)).toEqual([])
  })

  it('takes no endpoint id apart', () => {
    expect(
      hits(SPLIT, notOwner).filter((hit) =>
        ID_LIKE.test(hit.slice(hit.lastIndexOf(': ') + 2).replace(/\.split\(.*$/, '')),
      ),
    ).toEqual([])
  })

  it('makes ids in the catalog alone', () => {
    expect(
      hits(CAST, (file) => file !== 'lib/spec/catalog/index.ts' && file !== 'lib/spec/endpoint-id.test.ts'),
    ).toEqual([])
    expect(hits(CAST, (file) => file === 'lib/spec/catalog/index.ts')).toHaveLength(1)
  })
})
