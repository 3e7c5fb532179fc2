import { createHash } from 'node:crypto'
import { MODULES } from '../spec/modules.ts'
import { NOT_JUDGED_REASONS } from '../results/verdict.ts'
import { curlFor } from './curl.ts'
import type { Exchange } from '../results/exchange.ts'
import { MALFORMED_TOKEN_PREFIX } from '../results/redactor.ts'
import { entryUrl, type ServerErrorEntry } from '../results/server-errors.ts'
import { SCRIPT } from './html-script.ts'
import { STYLE } from './html-style.ts'
import type { Report } from './model.ts'
import { leftoversText, runStory } from './outcome.ts'
import { baselineTally, staleRemedy } from './baseline.ts'
import { baselineReasons, notJudgedTally, staleEntries } from './tallies.ts'
import { targetText } from './target.ts'

/**
 * report.html: one self-contained page (no network, no external assets: inline CSS and JS only). The report
 * is embedded as JSON and rendered in the browser, so the page and report.json can never disagree; beside it
 * sits a second JSON block of what is derived here in TypeScript (module titles, and a `curl` per exchange
 * from curl.ts). The verdicts are the report's own (`certification`, `exit`): the page judges nothing.
 *
 * Every piece of data reaches the page through `textContent`, never as markup: a target's answer may contain
 * HTML. The Content-Security-Policy allows no network at all and only the page's own script (by its hash),
 * so even markup that got in could neither load nor run anything.
 *
 * Rows are built once as one-line summaries and filtered by hiding them; an exchange, curl and access matrix
 * are built when the row is first opened, which keeps a run of a few thousand results fast.
 */
export function reportHtml(report: Report): string {
  const view = {
    target: targetText(report.target),
    modules: [...MODULES.map(({ id, title }) => ({ id, title })), ...outsideTheSpec(report)],
    // What the run was and what it left, decided in TypeScript (lib/report/outcome.ts) as for every format.
    story: runStory(report),
    leftovers: leftoversText(report) ?? '',
    notJudged: notJudgedTally(report),
    // The matrix's columns in a whole run's order, whatever results a cut-short run has (issue 31.9).
    columns: matrixColumns(report),
    // Required checks without a result (a run cut short before them): the page opens on what needs a look.
    unreached: unreachedCount(report),
    stale: staleEntries(report),
    staleRemedy: report.baseline !== undefined ? staleRemedy(report.baseline, report.baseline.stale.length) : '',
    baselineTally: report.baseline !== undefined ? baselineTally(report) : '',
    baselined: Object.fromEntries(baselineReasons(report)),
    reasons: NOT_JUDGED_REASONS,
    curls: report.results.map((r) => r.exchanges.map((e) => curlFor(e))),
    serverErrorCurls: (report.serverErrors?.entries ?? []).map((e) =>
      curlFor(serverErrorRequest(report.target.baseUrl, e)),
    ),
  }
  return `${pageHead('Shop conformance report', STYLE, SCRIPT)}
<body>
<noscript><p>This page needs JavaScript to show the report; the same data is in report.json beside it.</p></noscript>
<header class="top">
 <div class="heading"><h1>Shop conformance report</h1><div class="sub" id="sub"></div></div>
 <div class="verdict" id="verdict"></div>
</header>
<section class="cards" id="cards" aria-label="Totals"></section>
<section class="failures" id="failures" hidden></section>
<section class="errors" id="run-errors" hidden></section>
<section class="notes" id="not-judged" hidden></section>
<section class="notes" id="not-configured" hidden></section>
<section class="notes" id="passive" hidden></section>
<section class="errors" id="stale" hidden></section>
<section class="notes" id="extensions" hidden></section>
<section class="notes" id="schema" hidden></section>
<section class="notes" id="server-errors" hidden></section>
<section class="meta"><dl id="meta"></dl></section>
<section class="modules"><h2>Modules and checks</h2>
 <p class="hint">Each module's statement, then its results per check. Click a cell to list its results, a module or a check to filter by it.</p>
 <div class="matrix-wrap"><table class="matrix" id="matrix"></table></div>
 <div class="legend" id="legend"></div>
</section>
<div class="toolbar" id="toolbar" role="search">
 <div class="tb-row">
 <label>Status <select id="f-status"><option value="attention">failed, errors or not judged</option><option value="">all</option><option value="failed">failed</option><option value="error">error</option><option value="not-judged">not judged</option><option value="not-configured">not configured</option><option value="baselined">baselined</option><option value="passed">passed</option><option value="not-applicable">not applicable</option><option value="warnings">with warnings</option></select></label>
 <label>Module <select id="f-module"><option value="">all</option></select></label>
 <label>Check <select id="f-check"><option value="">all</option></select></label>
 <label class="search">Search <input id="f-search" type="search" placeholder="id or message" autocomplete="off"></label>
 <button type="button" id="clear">Clear filters</button>
 </div>
 <div class="tb-row">
 <button type="button" id="jump" class="jump">Jump to first failure</button>
 <button type="button" id="next" class="jump">Next failure</button>
 <span class="count" id="count" aria-live="polite"></span>
 </div>
</div>
<section class="results" id="results">
 <h2 id="h-endpoints">Endpoint checks</h2><div id="list-endpoints"></div>
 <h2 id="h-workflows">Workflows</h2><div id="list-workflows"></div>
 <p class="empty" id="empty" hidden>No result matches these filters.</p>
</section>
<script id="report-data" type="application/json">${embed(report)}</script>
<script id="report-view" type="application/json">${embed(view)}</script>
<script>${SCRIPT}</script>
</body></html>
`
}

/**
 * A self-contained page's head: its only script allowed by its hash, no network at all (report.html and
 * matrix.html alike). `script` is the exact text of the page's one inline script.
 */
export function pageHead(title: string, style: string, script: string): string {
  const scriptHash = createHash('sha256').update(script).digest('base64')
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; img-src data:; base-uri 'none'; form-action 'none'`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${title}</title>
<style>${style}</style></head>`
}

/**
 * A server error's request as an exchange records one, for its curl: the caller's token as its label (curl.ts makes it
 * `$TOKEN`), the suite's made-up malformed token as one (no secret), the body as it was sent.
 */
function serverErrorRequest(baseUrl: string, e: ServerErrorEntry): Pick<Exchange, 'request'> {
  let token: string | undefined = `[redacted ${e.caller} token]`
  if (e.caller === 'none') token = undefined
  else if (e.caller === 'malformed') token = `${MALFORMED_TOKEN_PREFIX}0`
  const headers: Record<string, string> = token !== undefined ? { authorization: `Bearer ${token}` } : {}
  return {
    request: {
      method: e.method,
      url: entryUrl(baseUrl, e),
      headers,
      ...(e.body !== undefined ? { body: e.body } : {}),
    },
  }
}

/**
 * The module × check matrix's columns: the suite's check kinds in the order they run and are reported (the plan's),
 * each that the run selected or has a result of — so a run cut short before a kind (its workflows) keeps a whole
 * run's columns —, then any other check a result names (a report of another suite version), `workflow` last.
 */
function matrixColumns(report: Pick<Report, 'plan' | 'results'>): string[] {
  const seen = new Set([
    ...report.results.map((r) => r.check),
    ...(report.plan?.selected ?? []).map((p) => checkOfId(p.id)),
  ])
  const kinds = (report.plan?.kinds ?? []).map((k) => k.name)
  const columns = [...kinds.filter((k) => seen.has(k)), ...[...seen].filter((c) => !kinds.includes(c))]
  return [...columns.filter((c) => c !== 'workflow'), ...columns.filter((c) => c === 'workflow')]
}

/** A result id's check: `<METHOD> <path> › <check>`, or a workflow step's (`workflow <name> › <nn> <step>`). */
function checkOfId(id: string): string {
  return id.startsWith('workflow ') ? 'workflow' : id.slice(id.lastIndexOf(' › ') + 3)
}

/** Required checks of the spec with no result at all (not judged: the run ended before them). */
function unreachedCount(report: Pick<Report, 'results' | 'certification'>): number {
  const skipped = report.results.filter(
    (r) => r.status === 'skipped' && r.applicable !== false && r.extension !== true,
  ).length
  return Math.max(0, report.certification.notJudged - skipped)
}

/** The modules of results from outside the spec (a shop's extensions, a vendor's), titled as such. */
function outsideTheSpec(report: Report): { id: string; title: string }[] {
  const known = new Set(MODULES.map((m) => m.id))
  const extra = new Map<string, string>()
  for (const r of report.results)
    if (r.extension === true && !known.has(r.module)) extra.set(r.module, `${r.module} (${r.origin}, not the spec's)`)
  return [...extra].map(([id, title]) => ({ id, title }))
}

/**
 * JSON inside a script element: `<` escaped, so no `</script>` or `<!--` in the data can end or change it; the line
 * and paragraph separators too. Those two are looked for once before they are replaced: on a whole run's report (some
 * 4 MB) the two replacements of a character that was nowhere took most of the page's 0.15-0.3 s (issue 29.9).
 */
export function embed(value: unknown): string {
  const json = JSON.stringify(value).replace(/</g, '\\u003c')
  return /[\u2028\u2029]/.test(json) ? json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029') : json
}
