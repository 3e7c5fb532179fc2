/**
 * Before any test of the browser project: the browser the HTML report's test drives, handed to it by
 * `provide('chromium')`. It arrives with `npm ci`: @sparticuz/chromium (a devDependency) ships a headless
 * Chromium and the libraries it needs beyond glibc inside the npm package, unpacked here once into
 * node_modules/.cache. So `npm ci && npm test` tests the HTML in a real browser on a fresh machine, with no
 * system package; SHOP_CHROMIUM names another browser instead. A browser that is not there is said at once,
 * before any test starts (before: after minutes of other tests), and fails the run: a skipped browser test
 * could never fail.
 */
import { execFileSync } from 'node:child_process'
import {
  accessSync,
  chmodSync,
  constants,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { arch, platform } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { brotliDecompressSync, createBrotliDecompress } from 'node:zlib'
import type { TestProject } from 'vitest/node'

export interface Chromium {
  executablePath: string
  /** What the browser's process needs in its environment (the packaged one: where its libraries and fonts are). */
  env: Record<string, string>
}

declare module 'vitest' {
  export interface ProvidedContext {
    chromium: Chromium
  }
}

const ROOT = resolve(import.meta.dirname, '..')
const PACKAGE = '@sparticuz/chromium'

export default async function setup(project: TestProject): Promise<void> {
  project.provide('chromium', await chromiumForTests(process.env))
}

/**
 * SHOP_CHROMIUM when set, else the packaged Chromium (unpacked on first use); an error that says what to do otherwise.
 */
export async function chromiumForTests(env: NodeJS.ProcessEnv): Promise<Chromium> {
  const named = env.SHOP_CHROMIUM
  if (named !== undefined && named !== '') {
    try {
      accessSync(named, constants.X_OK)
    } catch {
      throw new Error(
        `Chromium is not at ${named} (SHOP_CHROMIUM): the HTML report is tested in a real browser. Name an executable Chromium, or unset SHOP_CHROMIUM to use the one npm ci installs (${PACKAGE}).`,
      )
    }
    return { executablePath: named, env: {} }
  }
  if (platform() !== 'linux' || arch() !== 'x64') {
    throw new Error(
      `The Chromium that npm ci installs (${PACKAGE}) runs on Linux x64 only, not ${platform()} ${arch()}: the HTML report is tested in a real browser. Name one with SHOP_CHROMIUM=/path/to/chromium.`,
    )
  }
  return packagedChromium()
}

/**
 * The package's browser, unpacked into node_modules/.cache/<package>-<version>: the binary, the libraries it
 * links beyond glibc (NSS, NSPR, expat: none of them on a fresh machine), and fonts with their fontconfig file.
 * Unpacked into a temporary folder and renamed into place, so that a run that stops half-way, or two runs at
 * once, never leave a half-unpacked browser.
 */
async function packagedChromium(): Promise<Chromium> {
  const require = createRequire(import.meta.url)
  let packageDir: string
  try {
    // Its exports name no package.json: the folder is two above its CommonJS entry (build/cjs/index.cjs).
    packageDir = resolve(dirname(require.resolve(PACKAGE)), '../..')
  } catch {
    throw new Error(
      `${PACKAGE} is not installed (run npm ci): it is the Chromium the HTML report's browser test runs in, unless SHOP_CHROMIUM names one.`,
    )
  }
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }
  const bin = join(packageDir, 'bin')
  const cache = join(ROOT, 'node_modules', '.cache')
  const unpacked = join(cache, `sparticuz-chromium-${version}`)
  if (!existsSync(join(unpacked, 'chromium'))) {
    mkdirSync(cache, { recursive: true })
    const partial = mkdtempSync(join(cache, `sparticuz-chromium-${version}-partial-`))
    try {
      await pipeline(
        createReadStream(join(bin, 'chromium.br')),
        createBrotliDecompress(),
        createWriteStream(join(partial, 'chromium')),
      )
      chmodSync(join(partial, 'chromium'), 0o755)
      // al2023.tar.br holds lib/, fonts.tar.br fonts/ (and a fonts.conf that names /tmp: ours names the folder here).
      untar(join(bin, 'al2023.tar.br'), join(partial, 'al2023'))
      untar(join(bin, 'fonts.tar.br'), join(partial, 'fonts'))
      const fonts = join(unpacked, 'fonts')
      writeFileSync(
        join(partial, 'fonts', 'fonts.conf'),
        `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(fonts, 'fonts')}</dir>\n  <cachedir>${join(fonts, 'cache')}</cachedir>\n</fontconfig>\n`,
      )
      renameSync(partial, unpacked)
    } catch (err) {
      // Another run renamed its own into place first: theirs is as good.
      if (!existsSync(join(unpacked, 'chromium'))) throw err
    } finally {
      rmSync(partial, { recursive: true, force: true })
    }
  }
  return {
    executablePath: join(unpacked, 'chromium'),
    env: { LD_LIBRARY_PATH: join(unpacked, 'al2023', 'lib'), FONTCONFIG_PATH: join(unpacked, 'fonts') },
  }
}

/**
 * A brotli-compressed tar unpacked into `dir` by the system's tar (on every Linux; no package of ours), from a
 * file: tar stops reading at the archive's end, and a pipe still being written to it would break.
 */
function untar(archive: string, dir: string): void {
  mkdirSync(dir, { recursive: true })
  const tarFile = `${dir}.tar`
  writeFileSync(tarFile, brotliDecompressSync(readFileSync(archive)))
  try {
    execFileSync('tar', ['-x', '-f', tarFile, '-C', dir], { stdio: ['ignore', 'ignore', 'inherit'] })
  } finally {
    rmSync(tarFile)
  }
}
