import { readFileSync } from 'node:fs'
import { ConfigError, loadConfig, readDotenv } from '../target/config.ts'

// The runner (and vitest behind it) is loaded only by `run`: the other commands start in a fraction of the time.
const SUITE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version

const USAGE = `Usage:
  shop-conformance run [--base-url URL] [--store CODE] [--second-store CODE] [--module NAME ...]
                       [--check KIND ...] [--read-only] [--concurrency N] [--timeout-ms N] [--report-dir DIR]
                       [--baseline FILE [--allow-stale]] [--seed N] [--shard I/N] [--run-timeout-ms N]
                       [--insecure] [--progress | --quiet] [--dry-run]
                       [--path-alias /V1/spec-prefix=/V1/target-prefix ...]
  shop-conformance target [--port N] [--host H] [--fault NAME[@METHOD /V1/path] ...] [--latency-ms N] [--vendor-paths]
  shop-conformance list [--module NAME ...] [--format table|json]
  shop-conformance baseline --from REPORT --out FILE [--reason TEXT]
  shop-conformance diff A.json B.json [--format text|json]
  shop-conformance report merge --out DIR A.json B.json ...
  shop-conformance sign --report REPORT --key PRIVATE.pem [--out FILE] [--allow-partial]
  shop-conformance verify --report REPORT --pub PUBLIC.pem [--sig FILE]
  shop-conformance --version | --help

Without --base-url / SHOP_BASE_URL, \`run\` starts the bundled reference target and runs against it.
Settings also come from the environment and .env: SHOP_BASE_URL, SHOP_STORE_CODE, SHOP_SECOND_STORE_CODE,
SHOP_ADMIN_USERNAME, SHOP_ADMIN_PASSWORD, SHOP_CUSTOMER_EMAIL, SHOP_CUSTOMER_PASSWORD, SHOP_CONCURRENCY,
SHOP_TIMEOUT_MS, SHOP_REPORT_DIR, SHOP_PATH_ALIASES, SHOP_READ_ONLY, SHOP_SEED, SHOP_RUN_TIMEOUT_MS,
SHOP_FIXTURE_SKU, SHOP_PAYMENT_METHOD, SHOP_SHIPPING_METHOD, SHOP_INVOICE_REFUND_PAYMENT_METHOD,
SHOP_FREE_SHIPPING_METHOD.
Exit status of run: 0 no check failed (with --baseline: no new failure, no stale entry), 1 a check failed,
2 the run could not be made, 124 cut short by --run-timeout-ms, 130/143 interrupted (a partial report is
written in both cases).
`

/** Returns the exit status; prints one line on stderr for anything the user must fix. */
export async function main(argv: string[]): Promise<number> {
  const [command = 'run', ...rest] = argv
  const io = { out: (t: string) => process.stdout.write(t), err: (t: string) => process.stderr.write(t) }
  try {
    switch (command) {
      case 'run': {
        const { CHECK_KINDS } = await import('../checks/index.ts')
        const config = loadConfig(rest, process.env, readDotenv(process.cwd()), CHECK_KINDS)
        if (config.dryRun) {
          const { dryRunPlan } = await import('../run/dry-run.ts')
          io.out(dryRunPlan(config))
          return 0
        }
        const { runConformance } = await import('../run/run.ts')
        return await runConformance(config, io)
      }
      case 'target': {
        const { runTargetCli } = await import('../../fixtures/reference-target/cli.ts')
        await runTargetCli(rest)
        return 0
      }
      case 'list':
      case 'baseline':
      case 'diff':
      case 'report':
      case 'sign':
      case 'verify': {
        const { runCommand } = await import('./commands.ts')
        return await runCommand(command, rest, io)
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
