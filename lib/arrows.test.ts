/**
 * The folders' arrows, kept one way: spec → shop → setup → checks → plan → run → report, with the result model
 * (lib/results/) and the small helpers every part may use (lib/base/) before all of them, and the reports
 * importing only results, spec and base — so a format can be read, changed and tested without the shop, the
 * checks or the runner behind it (issue 11, design section 3).
 *
 * TypeScript's parser reads every relative `import`, `export … from` and `import()` of lib/, suites/,
 * reference-target/, fixtures/ and test-setup/ (type-only imports too: a type pulls its folder's meaning in as much as
 * a value does). A file's part is its folder under lib/ (suites/, reference-target/, fixtures/ and test-setup/ are a
 * part each). Tests and test helpers (`*.test.ts`,
 * `testing*.ts`, `*-testing.ts`) may import anything.
 *
 * Within a part too, no file imports itself back through others (issue 24): a circle of imports, type-only
 * included, is two files that cannot be read, moved or tested one without the other.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, posix, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

const BEFORE_SHOP = ['base', 'spec', 'results', 'settings']
const BEFORE_SETUP = [...BEFORE_SHOP, 'shop']
const BEFORE_CHECKS = [...BEFORE_SETUP, 'setup']
const BEFORE_RUN = [...BEFORE_CHECKS, 'checks', 'workflows', 'plan']

/** What each part may import besides itself. */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  base: [],
  spec: ['base'],
  results: ['base', 'spec'],
  // The settings parse SHOP_TARGET_SCHEMA with the schema part's own parser (which imports only base and spec).
  settings: ['base', 'spec', 'schema'],
  // A shop's published schema, read and compared with the spec, and its extension operations judged: pure, on
  // the spec's data; what it fetches comes through a function the run hands in. Its report block is the results'.
  schema: ['base', 'spec', 'results'],
  shop: BEFORE_SHOP,
  setup: BEFORE_SETUP,
  // A shop's extension operations are judged by the schema part's pure judges, through the checks' session.
  checks: [...BEFORE_CHECKS, 'schema'],
  // The workflows judge with the checks' probes and judges; no check runs a workflow.
  workflows: [...BEFORE_CHECKS, 'checks'],
  // The plan lists what the probe checks send: their plans are the shop's probe data (lib/shop/probe.ts).
  plan: ['base', 'spec', 'results', 'shop', 'checks', 'workflows', 'schema'],
  // A vendor's config (lib/extend/): the types its checks see, and its loader; the run and the suite read it.
  extend: ['base', 'spec', 'results', 'shop', 'checks'],
  // The binding to vitest (the only part that imports vitest): suite files, the run's reporter and plugin, around
  // the run's vitest-free core (lib/run/) and the reports it writes.
  vitest: [...BEFORE_RUN, 'schema', 'extend', 'run', 'report'],
  suites: ['base', 'spec', 'vitest'],
  report: ['base', 'spec', 'results'],
  // The run starts the bundled reference target, the CLI serves it (`target`), the bench measures against it.
  // The target is an independent implementation: it imports none of the suite's code.
  run: [...BEFORE_RUN, 'schema', 'extend', 'report', 'reference-target'],
  cli: [...BEFORE_RUN, 'schema', 'extend', 'vitest', 'run', 'report', 'reference-target'],
  bench: [...BEFORE_RUN, 'vitest', 'run', 'report', 'cli', 'reference-target'],
  'reference-target': [],
  // fixtures/ holds test doubles and recorded answers (never shipped); the observed target serves the reference
  // target's route table with a real release's answers.
  fixtures: ['reference-target'],
  // The tests' own set-up (child processes, run directories, the layers): beneath every test, so it stands on the
  // smallest helpers only, and the test helpers of lib/ use it (lib/cli/testing.ts), never the other way (issue 33.4).
  'test-setup': ['base'],
}

/**
 * Imports against the arrows tolerated until a named step removes them (issue 11's were all removed; the list is
 * kept for a move that needs more than one step). It can only shrink — an entry whose import is gone fails the
 * test until it is deleted here.
 * `from` ending in `/` stands for every file of that folder.
 */
const NOT_YET: readonly { from: string; to: string; until: string }[] = []

interface Arrow {
  from: string
  to: string
}

/** The relative module names a file imports: `import`, `export … from`, `import()`. */
function importsOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text)
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found.filter((name) => name.startsWith('.'))
}

/**
 * `lib/<folder>/…` → the folder; `suites/…`, `reference-target/…`, `fixtures/…`, `test-setup/…` → that; anything else
 * (a file right in lib/) → undefined.
 */
function partOf(file: string): string | undefined {
  const [top, folder, ...rest] = file.split('/')
  if (top === 'lib') return rest.length > 0 ? folder : undefined
  return top === 'suites' || top === 'reference-target' || top === 'fixtures' || top === 'test-setup' ? top : undefined
}

function exempt(file: string): boolean {
  return /\.test\.ts$|(^|\/)testing[^/]*\.ts$|-testing\.ts$/.test(file)
}

function allowed({ from, to }: Arrow): boolean {
  const a = partOf(from)
  const b = partOf(to)
  return a !== undefined && (a === b || (b !== undefined && (MAY_IMPORT[a] ?? []).includes(b)))
}

function listed(arrow: Arrow, entry: (typeof NOT_YET)[number]): boolean {
  return (
    arrow.to === entry.to &&
    (arrow.from === entry.from || (entry.from.endsWith('/') && arrow.from.startsWith(entry.from)))
  )
}

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = posix.join(dir, entry.name)
    if (entry.isDirectory()) yield* sources(path)
    else if (/\.(ts|mjs)$/.test(entry.name)) yield path
  }
}

function arrowsOfTree(): { arrows: Arrow[]; unplaced: string[] } {
  const arrows: Arrow[] = []
  const unplaced: string[] = []
  for (const file of ['lib', 'suites', 'reference-target', 'fixtures', 'test-setup'].flatMap((dir) => [
    ...sources(dir),
  ])) {
    if (exempt(file)) continue
    if (partOf(file) === undefined || MAY_IMPORT[partOf(file)!] === undefined) unplaced.push(file)
    for (const name of importsOf(file, readFileSync(join(ROOT, file), 'utf8'))) {
      arrows.push({
        from: file,
        to: relative(ROOT, join(ROOT, dirname(file), name))
          .split('\\')
          .join('/'),
      })
    }
  }
  return { arrows, unplaced }
}

/** The files of every import circle (a strongly connected set of more than one file, or a file importing itself). */
function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm, iterative enough for the tree's depth: a recursion per file is a few hundred deep at most.
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const circles: string[][] = []
  const visit = (file: string): void => {
    index.set(file, next)
    low.set(file, next++)
    stack.push(file)
    onStack.add(file)
    for (const to of graph.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(file, Math.min(low.get(file)!, low.get(to)!))
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!))
    }
    if (low.get(file) !== index.get(file)) return
    const members: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      members.push(member)
    } while (member !== file)
    if (members.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(members.sort())
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return circles
}

/** One way round a circle, for the message: the shortest path from its first file back to it. */
function wayRound(graph: ReadonlyMap<string, readonly string[]>, circle: readonly string[]): string {
  const start = circle[0]!
  const cameFrom = new Map<string, string>()
  const queue = [start]
  while (queue.length > 0) {
    const file = queue.shift()!
    for (const to of graph.get(file) ?? []) {
      if (to === start) {
        const path = [file]
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!)
        return [...path, start].join(' → ')
      }
      if (circle.includes(to) && !cameFrom.has(to)) {
        cameFrom.set(to, file)
        queue.push(to)
      }
    }
  }
  return circle.join(', ')
}

function importGraph(): Map<string, string[]> {
  const files = ['lib', 'suites', 'reference-target', 'fixtures'].flatMap((dir) => [...sources(dir)])
  const known = new Set(files)
  return new Map(
    files.map((file) => [
      file,
      importsOf(file, readFileSync(join(ROOT, file), 'utf8'))
        .map((name) =>
          relative(ROOT, join(ROOT, dirname(file), name))
            .split('\\')
            .join('/'),
        )
        .filter((to) => known.has(to)),
    ]),
  )
}

describe('import circles', () => {
  it('has none, type-only imports and test helpers included', () => {
    const graph = importGraph()
    expect(circlesOf(graph).map((c) => `${c.length} files, e.g. ${wayRound(graph, c)}`)).toEqual([])
  })

  it('finds a circle of two, of three, and a file importing itself, and none in a chain', () => {
    const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges))
    expect(circlesOf(graph({ a: ['b'], b: ['a'], c: ['a'] }))).toEqual([['a', 'b']])
    expect(circlesOf(graph({ a: ['b'], b: ['c'], c: ['a'], d: ['d'] }))).toEqual([['a', 'b', 'c'], ['d']])
    expect(circlesOf(graph({ a: ['b'], b: ['c'], c: [] }))).toEqual([])
    expect(wayRound(graph({ a: ['b', 'c'], b: ['d'], c: ['a'], d: ['a'] }), ['a', 'b', 'c', 'd'])).toBe('a → c → a')
  })
})

describe('the arrows between folders', () => {
  const { arrows, unplaced } = arrowsOfTree()
  const against = arrows.filter((a) => !allowed(a))
  const show = (a: Arrow) => `${a.from} → ${a.to}`

  it('places every file of lib/, suites/ and fixtures/ in a part the table knows', () => {
    expect(unplaced).toEqual([])
  })

  it('has no import against the flow but the listed ones', () => {
    expect(against.filter((a) => !NOT_YET.some((e) => listed(a, e))).map(show)).toEqual([])
  })

  it('lists no import that is gone (the list only shrinks)', () => {
    expect(NOT_YET.filter((e) => !against.some((a) => listed(a, e))).map((e) => `${e.from} → ${e.to}`)).toEqual([])
  })

  it('reads every kind of import, and only relative ones', () => {
    const text = [
      "import type { Result } from '../results/result.ts'",
      "import ts from 'typescript'",
      "export { CHECKS } from '../checks/index.ts'",
      "const run = await import('../run/run.ts')",
    ].join('\n')
    expect(importsOf('lib/report/x.ts', text)).toEqual(['../results/result.ts', '../checks/index.ts', '../run/run.ts'])
  })

  it('tells an import along the flow from one against it', () => {
    expect(allowed({ from: 'lib/report/html.ts', to: 'lib/results/result.ts' })).toBe(true)
    expect(allowed({ from: 'lib/report/html.ts', to: 'lib/report/curl.ts' })).toBe(true)
    expect(allowed({ from: 'lib/report/sarif.ts', to: 'lib/checks/index.ts' })).toBe(false)
    expect(allowed({ from: 'lib/shop/client.ts', to: 'lib/setup/ledger.ts' })).toBe(false)
    expect(allowed({ from: 'lib/checks/route.ts', to: 'reference-target/index.ts' })).toBe(false)
    expect(allowed({ from: 'lib/run/run.ts', to: 'reference-target/index.ts' })).toBe(true)
    expect(allowed({ from: 'reference-target/index.ts', to: 'lib/spec/catalog/index.ts' })).toBe(false)
    expect(
      exempt('lib/checks/testing.ts') && exempt('lib/run/detail-testing.ts') && exempt('lib/checks/route.test.ts'),
    ).toBe(true)
  })
})

describe("the parts' table of docs/architecture.md", () => {
  it('names every part with the parts it may import, as MAY_IMPORT does', () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')
    // Rows `| \`lib/spec/\` | what it holds | base, … |` (`nothing` for none); the part is the folder's last name.
    const rows = [...doc.matchAll(/^\| `(?:lib\/)?([a-z-]+)\/` \| .* \| ([a-z, -]+) \|$/gm)].map((m) => ({
      part: m[1]!,
      imports: m[2] === 'nothing' ? [] : m[2]!.split(', '),
    }))
    expect(Object.fromEntries(rows.map((r) => [r.part, [...r.imports].sort()]))).toEqual(
      Object.fromEntries(Object.entries(MAY_IMPORT).map(([part, imports]) => [part, [...imports].sort()])),
    )
  })
})
