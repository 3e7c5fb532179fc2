import { CHECK_KINDS } from '../checks/index.ts'
import { ConfigError, loadConfig, readDotenv } from '../target/config.ts'
import { runConformance, SUITE_VERSION } from '../run/run.ts'

const USAGE = `Usage:
  shop-conformance run [--base-url URL] [--store CODE] [--second-store CODE] [--module NAME ...]
                       [--check KIND ...] [--concurrency N] [--timeout-ms N] [--report-dir DIR]
                       [--path-alias /V1/spec-prefix=/V1/target-prefix ...]
  shop-conformance target [--port N] [--host H] [--fault NAME[@METHOD /V1/path] ...] [--latency-ms N] [--vendor-paths]
  shop-conformance --version | --help

Without --base-url / SHOP_BASE_URL, \`run\` starts the bundled reference target and runs against it.
Settings also come from the environment and .env: SHOP_BASE_URL, SHOP_STORE_CODE, SHOP_SECOND_STORE_CODE,
SHOP_ADMIN_USERNAME, SHOP_ADMIN_PASSWORD, SHOP_CUSTOMER_EMAIL, SHOP_CUSTOMER_PASSWORD, SHOP_CONCURRENCY,
SHOP_TIMEOUT_MS, SHOP_REPORT_DIR, SHOP_PATH_ALIASES.
Exit status: 0 no check failed, 1 a check failed, 2 the run could not be made.
`

/** Returns the exit status; prints one line on stderr for anything the user must fix. */
export async function main(argv: string[]): Promise<number> {
  const [command = 'run', ...rest] = argv
  const io = { out: (t: string) => process.stdout.write(t), err: (t: string) => process.stderr.write(t) }
  try {
    switch (command) {
      case 'run': {
        const config = loadConfig(rest, process.env, readDotenv(process.cwd()), CHECK_KINDS)
        return await runConformance(config, io)
      }
      case 'target': {
        const { runTargetCli } = await import('../../fixtures/reference-target/cli.ts')
        await runTargetCli(rest)
        return 0
      }
      case '--version':
        io.out(`${SUITE_VERSION}\n`)
        return 0
      case '--help':
      case 'help':
        io.out(USAGE)
        return 0
      default:
        throw new ConfigError(`unknown command "${command}" (try --help)`)
    }
  } catch (err) {
    if (err instanceof ConfigError) {
      io.err(`shop-conformance: ${err.message}\n`)
      return 2
    }
    io.err(`shop-conformance: internal error: ${(err as Error).message} (please report it)\n`)
    if (process.env.SHOP_DEBUG === '1') io.err(`${(err as Error).stack}\n`)
    return 2
  }
}
