/**
 * The conformance project's plugin hands the suite files the suite as one bundle of plain JavaScript, which vitest
 * leaves to the worker's Node (a `.mjs` file under node_modules) instead of running each of its modules through its
 * module runner (issue 29.9: the worker's start, and the main process's memory). Integration layer: making the bundle
 * may start esbuild.
 */
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { conformance } from './plugin.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const hook = <F>(h: unknown): F => (typeof h === 'function' ? h : (h as { handler: F }).handler) as F

describe('the conformance plugin', () => {
  it("resolves a suite file's import of the suite to one module, whose code is the suite's bundle", async () => {
    const plugin = conformance()
    expect(plugin.enforce).toBe('pre')
    const resolveId = hook<(this: unknown, source: string, importer: string | undefined) => Promise<string | null>>(
      plugin.resolveId,
    )
    const load = hook<(this: unknown, id: string) => Promise<string | null>>(plugin.load)
    const watched: string[] = []
    const context = {
      resolve: (source: string, importer: string) => Promise.resolve({ id: resolve(importer, '..', source) }),
      addWatchFile: (f: string) => watched.push(f),
    }
    const suiteFile = resolve(ROOT, 'suites/cms.conformance.ts')
    const id = await resolveId.call(context, '../lib/vitest/module-suite.ts', suiteFile)
    expect(id).toMatch(/^\0virtual:/)
    expect(
      await resolveId.call(
        context,
        '../lib/vitest/extension-suite.ts',
        resolve(ROOT, 'suites/extensions.conformance.ts'),
      ),
    ).toBe(id)
    // Anything else, or from anywhere else, as vite resolves it.
    expect(await resolveId.call(context, '../lib/spec/modules.ts', suiteFile)).toBeNull()
    expect(await resolveId.call(context, './module-suite.ts', resolve(ROOT, 'lib/vitest/lookahead.ts'))).toBeNull()
    const code = (await load.call(context, id!))!
    const file = /^export \* from "(.+)"\n$/.exec(code)?.[1]
    // A file vitest externalizes (lib/vitest/…: /node_modules/.*\.mjs$/), holding both faces of the suite.
    expect(file).toMatch(/\/node_modules\/\.cache\/shop-conformance\/lib_vitest_suite-entry\.ts\.[^/]+\.mjs$/)
    expect(existsSync(file!)).toBe(true)
    const exported = /^export \{([^}]*)\}/m.exec(readFileSync(file!, 'utf8'))?.[1]
    expect(
      exported
        ?.split(',')
        .map((s) => s.trim())
        .sort(),
    ).toEqual(['extensionSuite', 'moduleSuite'])
    // Watched: a change to a file of the suite makes the module anew.
    expect(watched).toEqual(
      expect.arrayContaining([resolve(ROOT, 'lib/vitest/module-suite.ts'), resolve(ROOT, 'lib/shop/client.ts')]),
    )
    expect(await load.call(context, resolve(ROOT, 'lib/spec/modules.ts'))).toBeNull()
  })
})
