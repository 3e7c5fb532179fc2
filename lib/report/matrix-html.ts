import { NOT_JUDGED_REASONS } from '../results/verdict.ts'
import type { Result } from '../results/result.ts'
import { curlFor } from './curl.ts'
import { embed, pageHead } from './html.ts'
import { STYLE } from './html-style.ts'
import type { Built } from './matrix.ts'
import { runChanges, type Transition } from './matrix-history.ts'
import { MATRIX_SCRIPT } from './matrix-script.ts'
import { MATRIX_STYLE } from './matrix-style.ts'

/**
 * matrix.html: one self-contained page, as report.html is (no network, inline CSS and JS only, the same
 * Content-Security-Policy, every piece of data through textContent). matrix.json is embedded as it is written,
 * and beside it what the page shows on demand: each cell's evidence from its column's report (message, spec
 * sections, details, exchanges and a curl for each, made by curl.ts as report.html's are) and each column's
 * history (the runs taken, what changed in each). The page judges nothing: the verdicts are the reports'.
 */
export function matrixHtml(built: Built): string {
  const { matrix, history, shown } = built
  const view = {
    reasons: NOT_JUDGED_REASONS,
    columns: matrix.columns.map((column, c) => {
      const h = history.implementations.find(
        (i) => i.name === column.implementation.name && i.version === column.implementation.version,
      )
      // Newest first: the runs above the shown one were taken after it (an earlier matrix's history, --history).
      const runs = (h === undefined ? [] : runChanges(h)).reverse()
      // A result's own transitions, where it ever changed: a cell shows them beside its evidence.
      const changed: Record<string, Transition[]> = {}
      for (const [id, ts] of Object.entries(h?.results ?? {})) if (ts.length > 1) changed[id] = ts
      // A column carried from the earlier matrix has no report here: its cells' evidence is in its report's file.
      const byId = new Map((shown[c]?.results ?? []).map((r) => [r.id, r]))
      return {
        carried: built.carried.includes(c),
        runs,
        newer: Math.max(
          0,
          runs.findIndex((r) => r.runId === column.report.runId),
        ),
        changed,
        evidence: matrix.rows.map((row) => evidenceOf(byId.get(row.id))),
      }
    }),
  }
  return `${pageHead('Conformance matrix', STYLE + MATRIX_STYLE, MATRIX_SCRIPT)}
<body>
<noscript><p>This page needs JavaScript to show the matrix; the same data is in matrix.json and history.json beside it.</p></noscript>
<header class="top"><div class="heading"><h1>Conformance matrix</h1><div class="sub" id="sub"></div></div></header>
<section class="notes" id="scope"></section>
<section class="modules"><h2>Implementations by module</h2>
 <p class="hint">Each column's verdict and percentage are its report's own certification; a module's statement is that report's. Point at an implementation for its history, click it for what changed in each run; click a module to see its results below.</p>
 <div class="matrix-wrap"><table class="matrix summary" id="summary"></table></div>
</section>
<section class="history" id="history" hidden></section>
<div class="toolbar" id="toolbar" role="search">
 <div class="tb-row">
 <label class="differ"><input type="checkbox" id="f-differ"> only where implementations differ</label>
 <label>Module <select id="f-module"><option value="">all</option></select></label>
 <label>Check <select id="f-check"><option value="">all</option></select></label>
 <label>Status <select id="f-status"><option value="">any</option></select></label>
 <button type="button" id="clear">Clear filters</button>
 <span class="count" id="count" aria-live="polite"></span>
 </div>
</div>
<section class="results"><div class="grid-wrap"><table class="grid" id="grid"></table></div>
 <p class="empty" id="empty" hidden>No result matches these filters.</p>
 <div class="legend" id="legend"></div>
</section>
<script id="matrix-data" type="application/json">${embed(matrix)}</script>
<script id="matrix-view" type="application/json">${embed(view)}</script>
<script>${MATRIX_SCRIPT}</script>
</body></html>
`
}

/** What a cell shows when opened: its result as the column's report has it (the rules' quotes left to the report). */
function evidenceOf(r: Result | undefined): unknown {
  if (r === undefined) return null
  const { rules: _rules, durationMs: _ms, ...shown } = r
  return { ...shown, curls: r.exchanges.map((e) => curlFor(e)) }
}
