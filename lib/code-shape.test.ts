/**
 * Every line of the project's TypeScript and JavaScript within 120 columns, but a long string's (a message, a regular
 * expression: a string is not broken where its words would be searched for) and a test's name (issue 33.3). Biome
 * formats the code to 120 columns (`npm run format`); what it leaves long is a comment, which this keeps wrapped, or
 * code Biome cannot break, which is unrolled by hand. TypeScript's parser tells strings from code and comments.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const WIDTH = 120

/** The project's own folders of code (what `npm run format` formats, but its JSON). */
const FOLDERS = ['lib', 'suites', 'reference-target', 'fixtures', 'test-setup', 'examples', 'action']

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = posix.join(dir, entry.name)
    if (entry.isDirectory()) yield* sources(path)
    else if (/\.(ts|mjs)$/.test(entry.name)) yield path
  }
}

/** The spans of the file's string, template and regular expression literals. */
function stringSpans(file: string, text: string): [number, number][] {
  const kind = file.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind)
  const spans: [number, number][] = []
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateExpression(node) ||
      node.kind === ts.SyntaxKind.RegularExpressionLiteral
    ) {
      spans.push([node.getStart(source), node.end])
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return spans
}

/** `file:line (columns)` of each line over WIDTH that is neither a long string nor a test's name. */
function longLines(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const lines = text.split('\n')
  if (!lines.some((l) => l.length > WIDTH)) return []
  const spans = stringSpans(file, text)
  const out: string[] = []
  let start = 0
  for (const [i, line] of lines.entries()) {
    const at = start + WIDTH
    start += line.length + 1
    if (line.length <= WIDTH) continue
    const trimmed = line.trimStart()
    // A line that is one literal (a property's value, maybe) and the comma or bracket after it is a long string too.
    const oneLiteral = /^([\w$]+: )?(['`"/]).*\2[a-z]*[,);]*$/.test(trimmed)
    const inString = spans.some(([a, b]) => a <= at && at < b)
    const testName = /^(it|test|describe)(\.\w+)*\(/.test(trimmed)
    if (!inString && !oneLiteral && !testName) out.push(`${file}:${i + 1} (${line.length})`)
  }
  return out
}

describe("the code's lines", () => {
  it("are within 120 columns, but a long string's and a test name's", () => {
    const files = [...FOLDERS.flatMap((dir) => [...sources(dir)]), 'vitest.config.ts', 'eslint.config.mjs']
    expect(files.length).toBeGreaterThan(500)
    expect(files.flatMap(longLines)).toEqual([])
  })
})
