// Imports a TypeScript module of this package as one plain-JavaScript bundle, made by esbuild and kept under
// node_modules/.cache/shop-conformance until a file in it changes. Why not tsx, which the rest of the CLI uses:
// on Node 20 a module loader's hooks run in a thread of their own, a whole isolate more in the run's process —
// 0.3–0.4 s of CPU and some 10 MB of peak RSS for each `shop-conformance run` (measured: docs/performance.md,
// "What keeps a run fast"). Node loads the bundle itself. Where no bundle can be made or kept (esbuild missing, a
// read-only install), tsx's scoped import loads the module as before.
//
// Plain JavaScript: its callers run before any TypeScript loader (bin.mjs, the bench's preload) or outside
// vite's module runner (the conformance plugin imports it natively).
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
// Inside the package: the bundle's bare imports (vitest, undici, …) resolve from its node_modules.
const CACHE = join(ROOT, 'node_modules', '.cache', 'shop-conformance')
// A bundle holds its files' absolute paths (their import.meta): a copy of the package whose node_modules is
// this one's (a link) must not take this one's bundle, nor this one the copy's.
const PLACE = createHash('sha256').update(ROOT).digest('hex').slice(0, 8)
// Changes when what a bundle is made of changes (the build's options below), so that older bundles are not reused.
const FORMAT = 'bundle-1'

/** The module at `entry` (an absolute path of a .ts file of this package), from its bundle when one can be had. */
export async function bundledImport(entry) {
  let bundle
  try {
    bundle = await bundleOf(entry)
  } catch {
    const { tsImport } = await import('tsx/esm/api')
    return tsImport(entry, import.meta.url)
  }
  return import(pathToFileURL(bundle).href)
}

async function bundleOf(entry) {
  return (await bundled(entry)).file
}

/**
 * The bundle of `entry`, made or taken from the cache: its file, and the files it is made of (absolute paths).
 * Throws where none can be made (esbuild missing, a read-only install).
 */
export async function bundled(entry) {
  const name = `${relative(ROOT, entry).replace(/[\\/]/g, '_')}.${PLACE}`
  const manifestFile = join(CACHE, `${name}.json`)
  const known = readJsonOr(manifestFile, undefined)
  if (known?.format === FORMAT && keyOr(known.inputs, undefined) === known.key)
    return { file: join(CACHE, known.bundle), inputs: known.inputs.map((f) => join(ROOT, f)) }
  const { build } = await import('esbuild')
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [ownImportMeta],
  })
  const inputs = Object.keys(result.metafile.inputs).sort()
  const key = keyOf(inputs)
  const bundle = `${name}.${key.slice(0, 16)}.mjs`
  mkdirSync(CACHE, { recursive: true })
  // Written under a name of its own, then renamed: runs started side by side never read half a file.
  writeAtomically(join(CACHE, bundle), result.outputFiles[0].contents)
  writeAtomically(manifestFile, JSON.stringify({ format: FORMAT, key, inputs, bundle }))
  // Older bundles of the entry go, but the last few: a run started a moment ago may be about to import one.
  const older = readdirSync(CACHE).filter((f) => f.startsWith(`${name}.`) && f.endsWith('.mjs') && f !== bundle)
  const byAge = older.map((f) => [f, statSync(join(CACHE, f)).mtimeMs]).sort((a, b) => b[1] - a[1])
  for (const [f] of byAge.slice(KEPT_OLDER_BUNDLES)) rmSync(join(CACHE, f), { force: true })
  return { file: join(CACHE, bundle), inputs: inputs.map((f) => join(ROOT, f)) }
}

const KEPT_OLDER_BUNDLES = 3

/** What the bundle is made of: every input file's path and content (a file changed makes another key). */
function keyOf(inputs) {
  const hash = createHash('sha256').update(FORMAT).update(ROOT)
  for (const input of inputs) hash.update(`\0${input}\0`).update(readFileSync(join(ROOT, input)))
  return hash.digest('hex')
}

/**
 * Each file keeps its own `import.meta.url`, `dirname` and `filename` (files find package.json, the spec and
 * each other through them); in one bundle they would all be the bundle's.
 */
const ownImportMeta = {
  name: 'own-import-meta',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8')
      const contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path))
      return { contents, loader: 'ts' }
    })
  },
}

/** The key of `inputs`, or `otherwise` when one of them is gone. */
function keyOr(inputs, otherwise) {
  try {
    return keyOf(inputs)
  } catch {
    return otherwise
  }
}

function writeAtomically(file, contents) {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`
  writeFileSync(temporary, contents)
  renameSync(temporary, file)
}

function readJsonOr(file, otherwise) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return otherwise
  }
}
