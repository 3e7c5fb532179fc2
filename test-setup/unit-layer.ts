/**
 * The unit layer's rule, kept (set-up file of the `unit` project, vitest.config.ts): a unit test starts no
 * target, no process and opens no socket — it judges what it is handed, in milliseconds. Each of those, tried
 * from a unit file, throws and names what was tried: a file that needs one belongs to the integration layer
 * (INTEGRATION_TESTS in vitest.config.ts). Installed once per worker: the project's files share its modules.
 */
import childProcess from 'node:child_process'
import { syncBuiltinESMExports } from 'node:module'
import net from 'node:net'

class LayerViolation extends Error {
  override name = 'LayerViolation'
}

function refuse(what: string): never {
  throw new LayerViolation(
    `a unit test may not ${what}: a test that needs a target, a process or the network belongs to the integration layer (INTEGRATION_TESTS in vitest.config.ts)`,
  )
}

const INSTALLED = Symbol.for('shop-conformance.unit-layer')
const worker = globalThis as { [INSTALLED]?: true }
if (worker[INSTALLED] === undefined) {
  worker[INSTALLED] = true
  const spawning = childProcess as unknown as Record<string, unknown>
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'])
    spawning[name] = () => refuse(`start a process (child_process.${name})`)
  // Named imports of node:child_process (`import { spawn }`) see the replacements too.
  syncBuiltinESMExports()
  net.Server.prototype.listen = () => refuse('listen on a port (a server, such as a reference target)')
  // Every client connection goes through here: http, undici and fetch, tls.
  net.Socket.prototype.connect = () => refuse('open a connection (the network)')
}
