// `npm test`: the type check beside the project's own tests instead of before them. Many test files wait on
// child runs, latencies and timeouts, and the type check (some 12 s of CPU) fills those gaps; before, the tests
// started only once it had finished. Its errors are printed after vitest's output, and either failing fails
// `npm test`. Arguments go to vitest (`npm test -- lib/report/`); the type check is always of the whole project.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const tscBin = require.resolve('typescript/bin/tsc')
// The package's bin (its exports do not name the file).
const vitestBin = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs')

const typeCheck = run(tscBin, ['--noEmit', '--pretty'], 'pipe')
// The layers' counts (test-setup/layer-summary.ts) end vitest's own output.
const reporters = [
  '--reporter=default',
  `--reporter=${join(dirname(fileURLToPath(import.meta.url)), 'layer-summary.ts')}`,
]
const tests = run(
  vitestBin,
  [
    'run',
    '--project',
    'unit',
    '--project',
    'integration',
    '--project',
    'browser',
    ...reporters,
    ...process.argv.slice(2),
  ],
  'inherit',
)

const [checked, tested] = await Promise.all([typeCheck, tests])
if (checked.status === 0) process.stdout.write('Type check (tsc --noEmit): no errors\n')
else process.stdout.write(`\nType check (tsc --noEmit) failed:\n${checked.output}\n`)
process.exitCode = tested.status !== 0 ? tested.status : checked.status

/** Runs a Node script to its end; `pipe` keeps its output for later. A signal that ended it counts as a failure. */
function run(script, args, stdio) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', stdio, stdio] })
    let output = ''
    if (stdio === 'pipe') for (const stream of [child.stdout, child.stderr]) stream.on('data', (d) => (output += d))
    child.on('close', (code) => done({ status: code ?? 1, output }))
  })
}
