/**
 * The settings a user gives, as a table (data: a new setting is a new row), and the `SHOP_*` variables of the
 * project's own tools, which are known but no settings.
 */

/**
 * Every setting a user gives, one row each: the variables read from the environment and `.env`, the flag of
 * `run`, and what holds without it (in the documentation's words; a "see" names a README section). The flags `run`
 * accepts, the known `SHOP_*` variables (an unknown one near a known name is refused, as a typo), the usage text and
 * the settings table of docs/running.md all come from here: a new setting is a new row (and the code that reads it).
 */
export const SETTINGS = [
  {
    variables: ['SHOP_BASE_URL'],
    flag: '--base-url',
    value: 'URL',
    default: 'none: the bundled reference target is started on a free loopback port',
  },
  {
    variables: ['SHOP_STORE_CODE'],
    flag: '--store',
    value: 'CODE',
    default: '`default`: the store code of every path (`{base}/rest/{store}/V1/…`)',
  },
  {
    variables: ['SHOP_SECOND_STORE_CODE'],
    flag: '--second-store',
    value: 'CODE',
    default: '`all` (every endpoint is also called under it)',
  },
  {
    variables: ['SHOP_ADMIN_USERNAME', 'SHOP_ADMIN_PASSWORD'],
    default: 'required with a target, unless `SHOP_ADMIN_TOKEN`',
  },
  {
    variables: ['SHOP_ADMIN_TOKEN'],
    default:
      'none; instead of the admin\'s user name and password: an integration\'s access token, for a shop whose admins sign in with two-factor authentication (see "A shop with two-factor admin login")',
  },
  {
    variables: ['SHOP_TARGET_NAME'],
    flag: '--target-name',
    value: 'NAME',
    default:
      'none: the target is named by its URL alone; the bundled reference target names itself (`shop-conformance reference target`). What implementation the target runs (`Platform`, `Acme Commerce`), shown in every format next to the URL, in the signed statement, and as its column of the matrix (see "Comparing implementations")',
  },
  {
    variables: ['SHOP_TARGET_VERSION'],
    flag: '--target-version',
    value: 'VERSION',
    default:
      "none; the bundled reference target gives the suite's version. The implementation's release (`2.4.7-p7`): with the name, one column of the matrix, whose reports are its history",
  },
  {
    variables: ['SHOP_CUSTOMER_EMAIL', 'SHOP_CUSTOMER_PASSWORD'],
    default: 'none: the suite registers customers of its own (`POST /V1/customers`, on `example.com`)',
  },
  {
    variables: ['SHOP_CUSTOMER_TOKEN'],
    default:
      "none; instead of the customer's e-mail and password: a token of a customer of yours (never sent a write, as a configured customer)",
  },
  {
    variables: ['SHOP_LIMITED_ADMIN_USERNAME'],
    default: 'none: the `acl` check is reported *not configured* (see "The ACL check: a limited admin")',
  },
  { variables: ['SHOP_LIMITED_ADMIN_PASSWORD'], default: 'none; required with `SHOP_LIMITED_ADMIN_USERNAME`' },
  {
    variables: ['SHOP_LIMITED_ADMIN_TOKEN'],
    default:
      "none; instead of the limited admin's user name and password: an integration's access token whose role lacks some ACL resources",
  },
  {
    variables: ['SHOP_LIMITED_ADMIN_RESOURCES'],
    default:
      "required with `SHOP_LIMITED_ADMIN_USERNAME` or `…_TOKEN`: the detail table's ACL resources the limited admin's role has, comma-separated, as the spec writes them; empty = none of them",
  },
  {
    flag: '--module',
    value: 'NAME',
    multiple: true,
    default:
      "every module; a module id (`shop-conformance list` shows them) or the spec's heading, repeated or comma-separated",
  },
  {
    flag: '--check',
    value: 'KIND',
    multiple: true,
    default:
      'every check kind (`route`, `store-code`, `access`, `acl`, `tokens`, `body-keys`, `shape`, `batch-partial`, `workflow`: "What is checked"); repeated or comma-separated',
  },
  {
    variables: ['SHOP_READ_ONLY'],
    shownAs: 'SHOP_READ_ONLY=1',
    flag: '--read-only',
    default:
      'off: on, only token calls and GET requests are sent, and a check that needs a write is not judged (see "Running against staging safely")',
  },
  { variables: ['SHOP_CONCURRENCY'], flag: '--concurrency', value: 'N', default: '8 requests in flight at most' },
  {
    variables: ['SHOP_TIMEOUT_MS'],
    flag: '--timeout-ms',
    value: 'N',
    default:
      '10000: every request gets at least this long; reads, writes and heavy writes (orders, invoices, shipments, refunds, registrations, product saves) each get three times the slowest answer of their kind so far when that is longer (see "Running against staging safely")',
  },
  {
    variables: ['SHOP_MAX_TIMEOUT_MS'],
    flag: '--max-timeout-ms',
    value: 'N',
    default:
      "120000: the longest a kind's deadline grows to (never below `--timeout-ms`; equal to it, every request gets `--timeout-ms`)",
  },
  {
    variables: ['SHOP_PACE'],
    flag: '--pace',
    value: 'MODE',
    default:
      '`adaptive`: fewer requests in flight only while fewer make the shop answer faster, heavy writes a share of them (see "Running against staging safely"); `fixed`: always `--concurrency` in flight, heavy writes like any other',
  },
  {
    variables: ['SHOP_MAX_RPS'],
    flag: '--max-rps',
    value: 'N',
    default:
      'none: requests start as the shop\'s pace allows (see "Running against staging safely"); N caps them at N a second, for a shop behind a rate-limiting gateway',
  },
  {
    variables: ['SHOP_RUN_TIMEOUT_MS'],
    flag: '--run-timeout-ms',
    value: 'N',
    default: '1800000: the run is cut short (cleaned up, partial report) after this; at least 10000',
  },
  {
    variables: ['SHOP_EVIDENCE'],
    shownAs: 'SHOP_EVIDENCE=0',
    flag: '--no-evidence',
    default:
      'on: every exchange the run sent is written to `evidence.har` in the report directory, HAR 1.2 redacted as the report is (see "Reading a report"); `--no-evidence` (or `SHOP_EVIDENCE=0`) writes none',
  },
  {
    variables: ['SHOP_REPORT_DIR'],
    flag: '--report-dir',
    value: 'DIR',
    default: '`reports`; refused before any request unless it is a writable directory or can be made one',
  },
  {
    flag: '--baseline',
    value: 'FILE',
    default:
      'none: every failure fails the run; with a baseline (`shop-conformance baseline`) or a release profile (`platform:2.4.7-p7`, `shop-conformance baseline list`), only a failure it does not list (see "For CI: a gate" and "Release profiles")',
  },
  { flag: '--allow-stale', default: 'off: a baseline entry that now passes fails the run' },
  {
    variables: ['SHOP_SEED'],
    flag: '--seed',
    value: 'N',
    default: 'random, printed at start and written into the report; the same seed gives the same data',
  },
  {
    flag: '--shard',
    value: 'I/N',
    default: 'the whole suite; `2/3` runs the second of three parts (`report merge` joins them)',
  },
  {
    variables: ['SHOP_PATH_ALIASES'],
    flag: '--path-alias',
    value: '/V1/spec-prefix=/V1/target-prefix',
    multiple: true,
    default:
      "none; e.g. `/V1/stockmedia=/V1/adobestock` for a target that names the spec's vendor-neutral paths after the vendor (the report shows the alias used)",
  },
  {
    variables: ['SHOP_TARGET_SCHEMA'],
    flag: '--target-schema',
    value: 'SOURCE',
    default:
      '`auto`: the shop\'s own schema, `{base}/rest/{store}/schema?services=all`, read under each caller; `off`; or a file or an http(s) URL (see "The shop\'s published schema")',
  },
  {
    variables: ['SHOP_EXTENSIONS'],
    flag: '--extensions',
    value: 'MODE',
    default:
      '`gate`: a failing extension or vendor check makes the exit status 1; `report-only` reports it without (see "Checking a shop\'s custom endpoints")',
  },
  {
    variables: ['SHOP_EXTENSIONS_PROBE_WRITES'],
    shownAs: 'SHOP_EXTENSIONS_PROBE_WRITES=1',
    flag: '--extensions-probe-writes',
    default:
      'off: an extension operation that writes is sent only to callers its declared class must refuse. **On, it is sent to the callers it admits too: it may change or delete data**',
  },
  {
    variables: ['SHOP_CONFIG'],
    flag: '--config',
    value: 'FILE',
    default:
      '`shop-conformance.config.ts` in the working directory if there: extra endpoints and checks (see "Extending the suite")',
  },
  {
    variables: ['SHOP_FIXTURE_SKU'],
    default: 'none: the suite creates its own product; name an existing one on a shop where it should not',
  },
  { variables: ['SHOP_PAYMENT_METHOD'], default: '`checkmo` (orders of the workflows)' },
  { variables: ['SHOP_SHIPPING_METHOD'], default: '`flatrate/flatrate` (carrier/method)' },
  {
    variables: ['SHOP_INVOICE_REFUND_PAYMENT_METHOD'],
    default: '`free`: the invoice refund needs a payment method that refunds per invoice (a zero-total order)',
  },
  { variables: ['SHOP_FREE_SHIPPING_METHOD'], default: '`freeshipping/freeshipping` (for that zero-total order)' },
  {
    flag: '--insecure',
    default: 'off: TLS certificates are verified; a private CA works through `NODE_EXTRA_CA_CERTS=ca.pem`',
  },
  {
    variables: ['CI'],
    shownAs: 'CI=true',
    flag: '--progress',
    default:
      'progress on stderr: each failure as it comes and a line per module; under `CI=true` a line per module and at least one a minute (`--progress`: the failures too)',
  },
  { flag: '--quiet', default: 'off: `--quiet` turns progress off, also under CI (not with `--progress`)' },
  {
    flag: '--dry-run',
    default:
      "off: print every request the run would send, send none: each probe the run sends, a restricted endpoint's valid request at its path template with its callers in order, and a schema file's extension operations one by one; what depends on the shop's answers (ids of the set-up's data, the operations a shop's own schema declares) is said in words, per kind",
  },
] as const satisfies readonly SettingRow[]

export interface SettingRow {
  /** Read from the environment, then `.env`; a flag wins over both. */
  readonly variables?: readonly string[]
  /** How the README names the variable when its value matters (`SHOP_READ_ONLY=1`). */
  readonly shownAs?: string
  readonly flag?: `--${string}`
  /** The placeholder of the flag's value; none: the flag is a switch. */
  readonly value?: string
  /** The flag may be given more than once. */
  readonly multiple?: boolean
  readonly default: string
}

/**
 * `SHOP_*` variables the project's own tools read, not settings of a run: known, so never warned about.
 * (`SHOP_BODY_TOO_LARGE` in the client is an error code, not a variable.)
 */
export const TOOL_VARIABLES: Readonly<Record<string, string>> = {
  SHOP_DEBUG: '`1`: the stack trace of an internal error, after its one line',
  SHOP_RUN_FLAGS: 'set by `shop-conformance run`: its flags (JSON), for the run under vitest',
  SHOP_REQUEST_LOG: 'set by `npm run bench`: every request of the run is logged to this file',
  SHOP_BENCH_STATS:
    "set by `npm run bench`: the run's CPU time, peak RSS and request phase are written to this file at exit",
  SHOP_CHROMIUM:
    "the browser of the HTML report's test (default: the Chromium that npm ci installs, @sparticuz/chromium)",
  SHOP_SCREENSHOT_DIR:
    "where the HTML pages' browser tests (report.html, matrix.html) save their screenshots (default: a temporary directory, removed after)",
}
