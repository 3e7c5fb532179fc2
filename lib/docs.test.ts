/**
 * The documents hold together: the README stays a user's page (under 400 lines) that links every document of docs/,
 * every relative link of the README and docs/ leads to a file (and its anchor to a heading there), each "see" of the
 * settings table names a README section, and every reason a check is not judged is explained in docs/checks.md.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { NOT_JUDGED_REASONS } from './results/verdict.ts'
import { SETTINGS, type SettingRow } from './settings/config.ts'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`)
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8')

/** The text without fenced code blocks: a `#` line inside one is no heading, a `[x](y)` no link. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[^]*?^\1[^\n]*$/gm, '')
}

/** The text without code blocks and code spans. */
function prose(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, 'code')
}

/** Each heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): string[] {
  const seen = new Map<string, number>()
  return [
    ...withoutFences(markdown)
      .replace(/`/g, '')
      .matchAll(/^#{1,6} +(.+?) *#* *$/gm),
  ].map((m) => {
    const slug = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-')
    const n = seen.get(slug) ?? 0
    seen.set(slug, n + 1)
    return n === 0 ? slug : `${slug}-${n}`
  })
}

/** The targets of the inline links and images of a document that stay in the repository. */
function relativeLinksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
}

/** Why a link does not resolve, or undefined when it does. */
function brokenLink(from: string, target: string): string | undefined {
  const [path, anchor] = target.split('#') as [string, string | undefined]
  const file = path === '' ? join(ROOT, from) : resolve(join(ROOT, dirname(from)), decodeURIComponent(path))
  if (!existsSync(file)) return `${from}: ${target}: no file ${relative(ROOT, file)}`
  if (anchor === undefined || anchor === '') return undefined
  if (!file.endsWith('.md')) return `${from}: ${target}: an anchor into a file that is not Markdown`
  return anchorsOf(readFileSync(file, 'utf8')).includes(anchor)
    ? undefined
    : `${from}: ${target}: no heading #${anchor} in ${relative(ROOT, file)}`
}

describe('the README and docs/', () => {
  const readme = read('README.md')

  it("keep the README a user's page: under 400 lines", () => {
    expect(readme.split('\n').length).toBeLessThan(400)
  })

  it("speak of the platform in the README, never of its vendor's tools by name (the project names no vendor)", () => {
    // ACL resource ids are the platform's own data (`Magento_Tax::manage_tax`): a user types them as they are.
    const lines = read('README.md').split('\n')
    expect(lines.filter((line) => /\bbin\/magento\b/i.test(line))).toEqual([])
  })

  it('link every document of docs/ from the README', () => {
    const linked = new Set(relativeLinksOf(readme).map((t) => t.split('#')[0]))
    expect(DOCS.filter((doc) => !linked.has(doc))).toEqual([])
  })

  it('have every relative link lead to a file, and every anchor to a heading there', () => {
    const broken = ['README.md', ...DOCS].flatMap((file) =>
      relativeLinksOf(read(file))
        .map((target) => brokenLink(file, target))
        .filter((b) => b !== undefined),
    )
    expect(broken).toEqual([])
  })

  it('name a README section in each "see" of the settings table', () => {
    const headings = [...prose(readme).matchAll(/^#{2,6} +(.+)$/gm)].map((m) => m[1]!)
    const named = (SETTINGS as readonly SettingRow[]).flatMap((row) =>
      [...row.default.matchAll(/\(see ([^)]*)\)/g)].flatMap((m) => [...m[1]!.matchAll(/"([^"]+)"/g)].map((q) => q[1]!)),
    )
    expect(named.length).toBeGreaterThan(5)
    expect(named.filter((section) => !headings.some((h) => h.startsWith(section)))).toEqual([])
  })

  // Issue 31.12: npm 11 warns of each dependency whose install script it skipped; the README says which and why.
  it('name in the README each dependency whose install script npm skips', () => {
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { hasInstallScript?: boolean }> }
    const scripted = Object.entries(lock.packages)
      .filter(([, p]) => p.hasInstallScript === true)
      .map(([path]) => path.replace(/^.*node_modules\//, ''))
    expect(scripted.length).toBeGreaterThan(0)
    for (const name of scripted)
      expect(readme, name).toMatch(new RegExp(`npm warn install-scripts [^]*${name}@…[^]*install-scripts deny ${name}`))
  })

  it('explain every reason a check is not judged in docs/checks.md', () => {
    const checks = read('docs/checks.md')
    expect(Object.keys(NOT_JUDGED_REASONS).filter((reason) => !checks.includes(`| \`${reason}\` |`))).toEqual([])
  })
})

describe('reading Markdown', () => {
  it('makes anchors as GitHub does, and skips headings in code blocks', () => {
    expect(
      anchorsOf("# A shop's `schema`: one\n```sh\n# not a heading\n```\n## For CI: a gate\n## For CI: a gate\n"),
    ).toEqual(['a-shops-schema-one', 'for-ci-a-gate', 'for-ci-a-gate-1'])
  })

  it('finds relative links and images, not web addresses nor links inside code', () => {
    expect(
      relativeLinksOf(
        '[a](docs/a.md#x) ![p](p.png) [w](https://x.example) `[c](c.md)`\n```\n[d](d.md)\n```\n[b\nc](../b.md)',
      ),
    ).toEqual(['docs/a.md#x', 'p.png', '../b.md'])
  })

  it('tells a broken link from one that resolves', () => {
    expect(brokenLink('README.md', 'docs/checks.md#the-rules')).toBeUndefined()
    expect(brokenLink('docs/checks.md', '../README.md#what-is-checked')).toBeUndefined()
    expect(brokenLink('docs/checks.md', '#the-rules')).toBeUndefined()
    expect(brokenLink('README.md', 'docs/nothing.md')).toMatch(/no file docs\/nothing\.md/)
    expect(brokenLink('README.md', 'docs/checks.md#nothing')).toMatch(/no heading #nothing/)
  })
})
