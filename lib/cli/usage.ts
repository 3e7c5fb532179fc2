/**
 * The usage of every command: the one source of `--help`, of the usage printed without a command, and of the
 * README's usage block (a test compares them). Free of heavy imports: every command loads it at start.
 */
import { TARGET_FLAG_LINES } from '../../reference-target/usage.ts'
import { defined } from '../base/defined.ts'
import { SETTINGS, type SettingRow } from '../settings/config.ts'

export type CommandName =
  | 'run'
  | 'judge'
  | 'list'
  | 'baseline'
  | 'diff'
  | 'report'
  | 'matrix'
  | 'sign'
  | 'verify'
  | 'keygen'
  | 'certify'
  | 'registry'
  | 'cleanup'
  | 'proxy'
  | 'target'

interface CommandHelp {
  /** Its flags, in lines (continuation lines are aligned under the first). */
  flags: readonly string[]
  about: string
}

const COMMAND_HELP: Readonly<Record<CommandName, CommandHelp>> = {
  run: {
    flags: [
      '[--base-url URL] [--store CODE] [--second-store CODE] [--module NAME ...]',
      '[--target-name NAME] [--target-version VERSION]',
      '[--check KIND ...] [--read-only] [--concurrency N] [--pace MODE] [--max-rps N] [--timeout-ms N]',
      '[--max-timeout-ms N] [--report-dir DIR] [--no-evidence] [--baseline FILE|PROFILE [--allow-stale]] [--seed N]',
      '[--shard I/N] [--run-timeout-ms N] [--insecure] [--progress | --quiet] [--dry-run]',
      '[--path-alias /V1/spec-prefix=/V1/target-prefix ...] [--target-schema SOURCE]',
      '[--extensions MODE] [--extensions-probe-writes] [--config FILE]',
    ],
    about: `Runs the suite against a target: without --base-url / SHOP_BASE_URL, against the bundled reference target.
Settings come from flags, then the environment, then .env (an unknown SHOP_* variable is named at start); each
with what holds without it ("see" names a section of the README):
${settingLines()}

Exit status: 0 no check failed (with --baseline: no new failure, no stale entry), 1 a check failed or its
code threw (an extension's or a vendor's too, unless --extensions report-only),
2 the run could not be made (bad setting, target unreachable, credentials refused), 124 cut short by
--run-timeout-ms, 130/143 interrupted by SIGINT/SIGTERM (cleaned up, partial report written in both cases).`,
  },
  list: {
    flags: ['[--module NAME ...] [--check KIND ...] [--format table|json] [--config FILE]'],
    about: `Lists what \`run\` would check at each endpoint (also with the same --module and --check), and why the other checks do not apply.
A vendor's config (--config FILE, SHOP_CONFIG, else shop-conformance.config.ts here, as run finds it) adds its
endpoints and checks under its own modules, which --module takes (as run --module does).`,
  },
  baseline: {
    flags: ['--from REPORT --out FILE [--reason TEXT] [--profile NAME [--deviations FILE]] | list'],
    about: `Writes a baseline listing every failure of REPORT (report.json, its directory, or a .json.gz), for run --baseline.
With --profile NAME (PRODUCT:RELEASE): a release profile of REPORT's spec failures, each entry with the release and
its evidence; --deviations FILE (known-deviations.tsv: result id, kind, why) gives each entry its traced kind and why,
and must list exactly what REPORT fails. \`baseline list\` lists the release profiles this package ships.`,
  },
  diff: {
    flags: ['A.json B.json [--format text|json]'],
    about: 'Shows what changed between two reports. Exit status 1 when something fails in B that did not fail in A.',
  },
  report: {
    flags: [
      'merge --out DIR A.json B.json ...',
      'rebaseline REPORT --baseline FILE|PROFILE --out DIR [--allow-stale] [--extensions MODE]',
    ],
    about: `merge: joins the reports of a run split with --shard into one, in every format, in DIR (not a directory of an input).
rebaseline: judges REPORT again against a baseline or a release profile, as a run would, and writes every format in DIR;
its exit status is the judged report's (0, or 1 on a failure the baseline does not list or a stale entry).`,
  },
  judge: {
    flags: [
      '--har FILE [--report-dir DIR]',
      '--har FILE --passive [--base-url URL] [--token-class TOKEN-PREFIX=admin|customer ...] [--report-dir DIR]',
    ],
    about: `Judges a run again from its evidence.har (FILE; gzip-compressed too), with this suite's judges, sending nothing:
every format as run writes them, into --report-dir (SHOP_REPORT_DIR, else reports; not FILE's directory), the report
marked rejudged and naming the recording's suite version, run and target. Planned as the run planned (its settings
and selection are in the file); a check whose answers the file does not hold is not judged, reason not-recorded.
--passive: judges traffic the suite did not send (a browser's or a proxy's HAR) only where an exchange shows a rule,
the rest not judged, reason not-observed; never a certification (docs/passive.md).
Exit status as run's: 0 no check failed, 1 a check failed, 2 FILE is not a run's evidence (or, --passive, not a HAR).`,
  },
  matrix: {
    flags: [
      'REPORT ... --out DIR [--as REPORT=NAME[@VERSION] ...] [--history FILE]',
      '[--allow-partial] [--allow-spec-mismatch]',
    ],
    about: `Sets implementations side by side: one column per implementation (the target's name and version, as
--target-name and --target-version recorded them; several reports of one are its history, the newest shown),
one row per result of the spec's checks. Writes matrix.json, history.json and matrix.html into DIR (README,
"Comparing implementations"). A result a report lacks is "not run", never passed.
  --as REPORT=NAME[@VERSION]: the implementation a report is of, for a report that names none (or names it wrong)
  --history FILE: continue the history.json of an earlier matrix with these reports' runs; the other
    implementations' columns are kept from the matrix.json beside it
  --allow-partial: take reports of a slice (--module, --check, one shard) or of a run cut short; refused without it
  --allow-spec-mismatch: take reports of another spec version than this suite's; refused without it
A report may be report.json, its directory, or gzip-compressed (report.json.gz).`,
  },
  sign: {
    flags: ['--report REPORT --key PRIVATE.pem [--out FILE] [--allow-partial]'],
    about:
      'Signs REPORT with an Ed25519 key: writes REPORT.sig unless --out. A partial report (a slice, a shard) is refused unless --allow-partial; the signature then states the scope.',
  },
  verify: {
    flags: ['--report REPORT --pub PUBLIC.pem [--sig FILE] | --package FILE [--pub PUBLIC.pem | --registry DIR]'],
    about: `--report: exit status 0 when REPORT is untouched since it was signed with the key of PUBLIC.pem, 1 when it changed or another key signed it.
--package: checks a certification package offline (docs/certification.md), one line per check: its signature (with
PUBLIC.pem, or a key the registry DIR lists for the package's implementation; neither: the package's own key), every file's digest, the
statement against the report, the report's certification against its results, and its results against the packaged
evidence judged again by this suite (nothing is sent). Exit status 0 when every check holds, 1 when one fails.`,
  },
  keygen: {
    flags: ['--out DIR'],
    about:
      'Writes an Ed25519 key pair into DIR: private.pem (readable by you only), public.pem, and key-id (the SHA-256 of the public key). An existing key is never replaced.',
  },
  certify: {
    flags: [
      '--report DIR --key PRIVATE.pem --out FILE [--target-name NAME] [--target-version VERSION] [--baseline FILE]',
    ],
    about: `Makes a certification package of a whole run (docs/certification.md): one file (ustar) holding the statement
and the digests of the other files (manifest.json), their signature, report.json, evidence.har and the baseline or
release profile the run was judged with (--baseline names its file when the run's path no longer finds it). The
target's name and version are the report's unless given. Refused, one line and exit 2: a run cut short, not run,
a slice or a shard, a passive report, one judged again by another suite version, and one without its evidence.`,
  },
  registry: {
    flags: ['add PACKAGE --registry DIR | verify DIR'],
    about: `A registry of certified implementations as static files (docs/certification.md): registry.json, the signers'
public keys (keys/), the packages and index.html. add: verifies PACKAGE (as verify --package, with the registry's keys
once the implementation is listed) and adds it; a package signed by another key than the ones listed for its
implementation is refused. verify: verifies every package the registry lists. Exit status 0 all hold, 1 one fails.`,
  },
  cleanup: {
    flags: [
      '--ledger FILE [--base-url URL] [--store CODE] [--concurrency N] [--max-rps N] [--timeout-ms N]',
      '[--max-timeout-ms N] [--insecure]',
    ],
    about: `Removes what a run left on the shop when it ended without its own cleanup (killed): by its ledger — the
ledger.<run id>.jsonl the next run into the report directory kept, or the directory's ledger.jsonl — as the run's
own cleanup does: only what the ledger names as made and what carries the run's id, each named. It signs in as the
admin as run does (SHOP_ADMIN_USERNAME and SHOP_ADMIN_PASSWORD, or SHOP_ADMIN_TOKEN; environment or .env), on the
shop the ledger names (a --base-url / SHOP_BASE_URL that differs is refused).
Exit status: 0 nothing of the run is left, 1 something is (each named, with why), 2 the cleanup could not be made.`,
  },
  proxy: {
    flags: [
      '--target URL --har FILE [--port N] [--host HOST] [--token-class TOKEN-PREFIX=admin|customer ...]',
      '[--report-dir DIR] [--insecure]',
    ],
    about: `Forwards traffic to the shop at URL unchanged (listening on 127.0.0.1 unless --host, on a free port unless
--port; the address is printed) and writes it to FILE as HAR as it goes, redacted: no token, password or secret.
At Ctrl-C or SIGTERM it judges the traffic passively into --report-dir (as judge --har FILE --passive does:
docs/passive.md) and prints the verdict: passive, never a certification. A caller's class is followed from the
token calls of the traffic; --token-class names the class of tokens issued elsewhere.
Exit status: 0 no rule the traffic shows failed, 1 one did, 2 bad input.`,
  },
  target: {
    flags: TARGET_FLAG_LINES,
    about:
      'Serves the bundled reference target until SIGINT, SIGTERM or the end of its parent process (`target --help` lists the faults).',
  },
}

/** Every command's synopsis, in the order the README shows them. */
export function synopses(): string {
  return (Object.keys(COMMAND_HELP) as CommandName[]).map(synopsis).join('')
}

/** The text printed by `--help` and, on stderr, without a command. */
export function usage(): string {
  return `Usage:\n${indent(`${synopses()}shop-conformance --version | --help\n`)}\n\`shop-conformance COMMAND --help\` tells more about each command.\n`
}

/** The text printed by `COMMAND --help`. */
export function commandHelp(name: CommandName): string {
  return `Usage:\n${indent(synopsis(name))}\n${COMMAND_HELP[name].about}\n`
}

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMAND_HELP, name)
}

function synopsis(name: CommandName): string {
  const head = `shop-conformance ${name} `
  return `${head}${COMMAND_HELP[name].flags.join(`\n${' '.repeat(head.length)}`)}\n`
}

function indent(text: string): string {
  return text.replace(/^(?=.)/gm, '  ')
}

/**
 * One line per setting of the table: its flag (with its value) or else its variables, the variables of a flag in
 * brackets, and what holds without it — the README's words, without their markdown (a terminal shows it raw).
 */
function settingLines(): string {
  return (SETTINGS as readonly SettingRow[])
    .map((row) => {
      const variables = row.shownAs ?? row.variables?.join(', ')
      const name =
        row.flag !== undefined
          ? `${row.flag}${row.value !== undefined ? ` ${row.value}` : ''}${row.multiple === true ? ' ...' : ''}${variables !== undefined ? ` (${variables})` : ''}`
          : defined(variables, 'the variables of a setting without a flag')
      return `  ${name}: ${plainText(row.default)}`
    })
    .join('\n')
}

/** Markdown's code spans and emphasis as plain text. */
function plainText(markdown: string): string {
  return markdown
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/\*([^*]+)\*/g, '$1')
    .replaceAll('`', '')
}
