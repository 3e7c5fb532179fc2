import { UsageError } from '../base/usage-error.ts'
import { loadConfig, readDotenv } from '../settings/config.ts'
import { SUITE } from '../spec/version.ts'
import { commandHelp, isCommandName, usage } from './usage.ts'

// The runner (and vitest behind it) is loaded only by `run`: the other commands start in a fraction of the time.

const processIo = { out: (t: string) => void process.stdout.write(t), err: (t: string) => void process.stderr.write(t) }

/** Where the command prints: its output, and its one line for anything the user must fix. */
type Io = { out(text: string): void; err(text: string): void }

/** The environment, and the directory holding `.env`. */
type Where = { env: NodeJS.ProcessEnv; cwd: string }

/**
 * Returns the exit status; prints one line on stderr for anything the user must fix. `where` is the environment and the
 * directory holding `.env`.
 */
export async function main(
  argv: string[],
  io: Io = processIo,
  where: Where = { env: process.env, cwd: process.cwd() },
): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined) {
    // Not a silent run of the suite: a CI step that meant `run` must not pass without running anything.
    io.err(`shop-conformance: a command is required\n${usage()}`)
    return 2
  }
  // The target's own --help lists its faults and variants.
  if (command !== 'target' && isCommandName(command) && (rest.includes('--help') || rest.includes('-h'))) {
    io.out(commandHelp(command))
    return 0
  }
  try {
    return await dispatch(command, rest, io, where)
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`shop-conformance: ${err.message}\n`)
      return 2
    }
    io.err(`shop-conformance: internal error: ${(err as Error).message} (please report it)\n`)
    if (where.env.SHOP_DEBUG === '1') io.err(`${(err as Error).stack}\n`)
    return 2
  }
}

/** The command's own code, loaded only when it is the one asked for; its exit status. */
async function dispatch(command: string, rest: string[], io: Io, where: Where): Promise<number> {
  switch (command) {
    case 'run':
      return dryRun(rest, io, where)
    case 'target': {
      const { runTargetCli } = await import('../../reference-target/cli.ts')
      await runTargetCli(rest)
      return 0
    }
    case 'matrix': {
      const { matrixCommand } = await import('./matrix-command.ts')
      return await matrixCommand(rest, io)
    }
    case 'judge': {
      // Traffic the suite did not send (issue 30.3), or a run's own evidence judged again (30.2).
      if (rest.includes('--passive')) {
        const { runPassiveJudge } = await import('./passive-command.ts')
        return await runPassiveJudge(rest, io, where.env)
      }
      const { judgeCommand } = await import('./judge-command.ts')
      return await judgeCommand(rest, io, where)
    }
    case 'keygen':
    case 'certify': {
      const { keygenCommand, certifyCommand } = await import('./certificate-commands.ts')
      return await (command === 'keygen' ? keygenCommand : certifyCommand)(rest, io)
    }
    case 'registry': {
      const { registryCommand } = await import('./registry-command.ts')
      return await registryCommand(rest, io)
    }
    case 'cleanup': {
      const { cleanupCommand } = await import('./cleanup-command.ts')
      return await cleanupCommand(rest, io, where)
    }
    case 'proxy': {
      const { proxyCommand } = await import('./proxy-command.ts')
      return await proxyCommand(rest, io, where.env)
    }
    case 'list':
    case 'baseline':
    case 'diff':
    case 'report':
    case 'sign':
    case 'verify': {
      const { runCommand } = await import('./commands.ts')
      return await runCommand(command, rest, io, where)
    }
    case '--version':
      io.out(`${SUITE.version}\n`)
      return 0
    case '--help':
    case '-h':
    case 'help':
      io.out(usage())
      return 0
    default:
      throw new UsageError(`unknown command "${command}" (try --help)`)
  }
}

/** `run --dry-run`, the only `run` that comes here: the run itself is vitest, started by bin.mjs. */
async function dryRun(rest: string[], io: Io, where: Where): Promise<number> {
  const [{ CHECK_KINDS }, { ACL_RESOURCES }] = await Promise.all([
    import('../checks/index.ts'),
    import('../spec/catalog/index.ts'),
  ])
  const config = loadConfig(rest, where.env, readDotenv(where.cwd), CHECK_KINDS, ACL_RESOURCES, 'deferred')
  for (const warning of config.warnings) io.err(`shop-conformance: warning: ${warning}\n`)
  if (!config.dryRun)
    throw new UsageError('run: started through bin.mjs (shop-conformance run), which runs the suite under vitest')
  const { ensureWritableDir } = await import('../base/output-dir.ts')
  ensureWritableDir(config.reportDir, '--report-dir / SHOP_REPORT_DIR', { create: false })
  const { dryRunPlan } = await import('./dry-run.ts')
  io.out(await dryRunPlan(config, where.cwd))
  return 0
}
