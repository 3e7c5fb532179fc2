import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')

/** A package of its own: bundled-import.mjs at its place, esbuild and tsx from ours, and two TypeScript files. */
function packageWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'shop-bundled-import-'))
  mkdirSync(join(dir, 'lib/base'), { recursive: true })
  cpSync(join(ROOT, 'lib/base/bundled-import.mjs'), join(dir, 'lib/base/bundled-import.mjs'))
  mkdirSync(join(dir, 'node_modules'))
  for (const dep of ['esbuild', 'tsx', '@esbuild', 'get-tsconfig', 'resolve-pkg-maps']) {
    try {
      symlinkSync(join(ROOT, 'node_modules', dep), join(dir, 'node_modules', dep))
    } catch {
      // Not every package manager layout has each of tsx's dependencies at the top.
    }
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

const made: string[] = []
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true })
})

async function importIn(dir: string, entry: string): Promise<Record<string, unknown>> {
  const { bundledImport } = (await import(pathToFileURL(join(dir, 'lib/base/bundled-import.mjs')).href)) as {
    bundledImport: (e: string) => Promise<Record<string, unknown>>
  }
  return bundledImport(join(dir, entry))
}

describe('bundledImport', () => {
  const files = {
    'lib/a/entry.ts':
      "import { dep } from '../b/dep.ts'\nexport const where: string = import.meta.url\nexport const value = dep()\n",
    'lib/b/dep.ts':
      "export const depWhere: string = import.meta.dirname\nexport function dep(): string { return 'one:' + depWhere }\n",
  }

  it('imports a TypeScript graph as one cached bundle, each file keeping its own import.meta', async () => {
    const dir = packageWith(files)
    made.push(dir)
    const m = await importIn(dir, 'lib/a/entry.ts')
    expect(m.where).toBe(pathToFileURL(join(dir, 'lib/a/entry.ts')).href)
    expect(m.value).toBe(`one:${join(dir, 'lib/b')}`)
    const cache = join(dir, 'node_modules/.cache/shop-conformance')
    const bundles = readdirSync(cache).filter((f) => f.endsWith('.mjs'))
    expect(bundles).toHaveLength(1)
    const manifests = readdirSync(cache).filter((f) => f.endsWith('.json'))
    expect(manifests).toEqual([expect.stringMatching(/^lib_a_entry\.ts\.[0-9a-f]{8}\.json$/)])
    const manifest = JSON.parse(readFileSync(join(cache, manifests[0]!), 'utf8')) as {
      inputs: string[]
      bundle: string
    }
    expect(manifest.inputs).toEqual(['lib/a/entry.ts', 'lib/b/dep.ts'])
    expect(manifest.bundle).toBe(bundles[0])
    // Unchanged: the same bundle, not made again.
    await importIn(dir, 'lib/a/entry.ts')
    expect(readdirSync(cache).filter((f) => f.endsWith('.mjs'))).toEqual(bundles)
  })

  it('makes a new bundle when a file of the graph changes, and never runs a stale one', async () => {
    const dir = packageWith(files)
    made.push(dir)
    expect((await importIn(dir, 'lib/a/entry.ts')).value).toMatch(/^one:/)
    writeFileSync(join(dir, 'lib/b/dep.ts'), "export function dep(): string { return 'two' }\n")
    expect((await importIn(dir, 'lib/a/entry.ts')).value).toBe('two')
    expect(
      readdirSync(join(dir, 'node_modules/.cache/shop-conformance')).filter((f) => f.endsWith('.mjs')),
    ).toHaveLength(2)
  })

  it("gives a copy of the package whose node_modules is a link to this one's a bundle of its own", async () => {
    const dir = packageWith(files)
    const copy = packageWith(files)
    made.push(dir, copy)
    rmSync(join(copy, 'node_modules'), { recursive: true })
    symlinkSync(join(dir, 'node_modules'), join(copy, 'node_modules'))
    expect((await importIn(dir, 'lib/a/entry.ts')).where).toBe(pathToFileURL(join(dir, 'lib/a/entry.ts')).href)
    expect((await importIn(copy, 'lib/a/entry.ts')).where).toBe(pathToFileURL(join(copy, 'lib/a/entry.ts')).href)
    // The copy gone, the package's own bundle is still its own.
    rmSync(copy, { recursive: true, force: true })
    const { bundledImport } = (await import(
      `${pathToFileURL(join(dir, 'lib/base/bundled-import.mjs')).href}?again`
    )) as { bundledImport: (e: string) => Promise<Record<string, unknown>> }
    expect((await bundledImport(join(dir, 'lib/a/entry.ts'))).value).toBe(`one:${join(dir, 'lib/b')}`)
  })

  it('loads through tsx where no bundle can be kept', async () => {
    const dir = packageWith(files)
    made.push(dir)
    // The cache's place is taken by a file: nothing can be written there.
    writeFileSync(join(dir, 'node_modules/.cache'), '')
    const m = await importIn(dir, 'lib/a/entry.ts')
    expect(m.value).toBe(`one:${join(dir, 'lib/b')}`)
    // tsx's scoped import marks the module's URL with its namespace.
    expect(String(m.where).split('?')[0]).toBe(pathToFileURL(join(dir, 'lib/a/entry.ts')).href)
    expect(m.where).toMatch(/\?tsx-namespace=/)
  })
})
