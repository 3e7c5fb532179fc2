/**
 * vitest is imported by its binding alone (issue 24.3): lib/vitest/ — the suite files' tests, the run's reporter
 * and plugin, the meta they carry. Every other part of the suite, the run's core in lib/run/ included (judging a
 * planned check, drafting the report), imports nothing of vitest, type-only imports included, and can be run and
 * tested without it; lib/arrows.test.ts keeps those parts from importing the binding. Tests and test helpers
 * (`*.test.ts`, `testing*.ts`, `*-testing.ts`) are vitest's and may.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')
const BINDING = 'lib/vitest/'

/** The bare module names a file imports that are vitest's: `vitest`, `vitest/…`, `@vitest/…`. */
function vitestImportsOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      found.push(node.moduleSpecifier.text)
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    )
      found.push(node.arguments[0].text)
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
      found.push(node.argument.literal.text)
    if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) found.push(node.name.text)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found.filter((name) => /^vitest(\/|$)|^@vitest\//.test(name))
}

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = posix.join(dir, entry.name)
    if (entry.isDirectory()) yield* sources(path)
    else if (/\.(ts|mjs)$/.test(entry.name) && !/\.test\.ts$|(^|\/)testing[^/]*\.ts$|-testing\.ts$/.test(entry.name))
      yield path
  }
}

function vitestImports(): { file: string; name: string }[] {
  return ['lib', 'suites', 'reference-target', 'fixtures']
    .flatMap((dir) => [...sources(dir)])
    .flatMap((file) => vitestImportsOf(file, readFileSync(join(ROOT, file), 'utf8')).map((name) => ({ file, name })))
}

describe('vitest', () => {
  it('is imported by lib/vitest/ alone, type-only imports and module augmentations included', () => {
    expect(
      vitestImports()
        .filter((i) => !i.file.startsWith(BINDING))
        .map((i) => `${i.file} imports ${i.name}`),
    ).toEqual([])
  })

  it('is found however a file imports it (the check above cannot pass by finding nothing)', () => {
    const text =
      "import { test } from 'vitest'\nimport type { Vitest } from 'vitest/node'\nexport type C = import('@vitest/runner').CancelReason\nconst v = await import('vitest/config')\ndeclare module 'vitest' {}\nimport { x } from './vitest.ts'\n"
    expect(vitestImportsOf('x.ts', text)).toEqual([
      'vitest',
      'vitest/node',
      '@vitest/runner',
      'vitest/config',
      'vitest',
    ])
    expect(vitestImports().filter((i) => i.file.startsWith(BINDING)).length).toBeGreaterThan(5)
  })
})
