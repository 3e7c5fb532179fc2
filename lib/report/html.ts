import { createHash } from 'node:crypto'
import { MODULES } from '../spec/modules.ts'
import { conformance, moduleStatements } from './certify.ts'
import { curlFor } from './curl.ts'
import type { Report } from './model.ts'

/**
 * report.html: one self-contained page (no network, no external assets: inline CSS and JS only). The report
 * is embedded as JSON and rendered in the browser, so the page and report.json can never disagree; beside it
 * sits a second JSON block of what is derived here in TypeScript (the certification statement of
 * certify.ts, and a `curl` per exchange from curl.ts), so the page computes no verdict of its own.
 *
 * Every piece of data reaches the page through `textContent`, never as markup: a target's answer may contain
 * HTML. The Content-Security-Policy allows no network at all and only the page's own script (by its hash),
 * so even markup that got in could neither load nor run anything.
 *
 * Rows are built once as one-line summaries and filtered by hiding them; an exchange, curl and access matrix
 * are built when the row is first opened, which keeps a run of a few thousand results fast.
 */
export function reportHtml(report: Report, options: { baselined?: ReadonlySet<string> } = {}): string {
  const baselined = options.baselined !== undefined ? { baselined: options.baselined } : {}
  const view = {
    conformance: conformance(report.results, { runErrors: report.runErrors, ...baselined }),
    statements: moduleStatements(report.results, baselined),
    modules: MODULES.map(({ id, title }) => ({ id, title })),
    curls: report.results.map((r) => r.exchanges.map((e) => curlFor(e))),
  }
  const scriptHash = createHash('sha256').update(SCRIPT).digest('base64')
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; img-src data:; base-uri 'none'; form-action 'none'`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>Shop conformance report</title>
<style>${STYLE}</style></head>
<body>
<noscript><p>This page needs JavaScript to show the report; the same data is in report.json beside it.</p></noscript>
<header class="top">
 <div class="heading"><h1>Shop conformance report</h1><div class="sub" id="sub"></div></div>
 <div class="verdict" id="verdict"></div>
</header>
<section class="cards" id="cards" aria-label="Totals"></section>
<section class="failures" id="failures" hidden></section>
<section class="errors" id="run-errors" hidden></section>
<section class="meta"><dl id="meta"></dl></section>
<section class="modules"><h2>Modules and checks</h2>
 <p class="hint">Each module's statement, then its results per check. Click a cell to list its results, a module or a check to filter by it.</p>
 <div class="matrix-wrap"><table class="matrix" id="matrix"></table></div>
 <div class="legend" id="legend"></div>
</section>
<div class="toolbar" id="toolbar" role="search">
 <div class="tb-row">
 <label>Status <select id="f-status"><option value="">all</option><option value="failed">failed</option><option value="not-judged">not judged</option><option value="passed">passed</option><option value="not-shown">not shown</option><option value="warnings">with warnings</option></select></label>
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

/** JSON inside a script element: `<` escaped, so no `</script>` or `<!--` in the data can end or change it. */
function embed(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
}

const STYLE = `
:root{--fg:#1f2328;--muted:#656d76;--line:#d0d7de;--bg2:#f6f8fa;--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--nj:#9a6700;--nj-bg:#fff8c5;--ns:#6e7781;--ns-bg:#eef1f4;--accent:#0969da}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;padding:1.25rem 1.5rem 4rem;max-width:1320px;color:var(--fg);background:#fff}
h1{font-size:1.5rem;margin:0}h2{font-size:1.15rem;margin:1.6rem 0 .5rem}
button{font:inherit;cursor:pointer}
code,pre,.mono{font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.top{display:flex;gap:1.5rem;align-items:stretch;justify-content:space-between;flex-wrap:wrap}
.sub{color:var(--muted);margin-top:.3rem}
.verdict{border-radius:10px;padding:.7rem 1.1rem;min-width:270px;border:2px solid;text-align:right}
.verdict .pct{font-size:2rem;font-weight:700;line-height:1.1}
.verdict .vtext{font-size:1.05rem;font-weight:600;text-transform:uppercase;letter-spacing:.03em}
.verdict .vnote{color:var(--muted);font-size:.85rem}
.v-conforms{border-color:var(--pass);background:var(--pass-bg);color:var(--pass)}
.v-does-not-conform{border-color:var(--fail);background:var(--fail-bg);color:var(--fail)}
.v-incomplete{border-color:#bf8700;background:var(--nj-bg);color:var(--nj)}
.v-not-run{border-color:var(--ns);background:var(--ns-bg);color:var(--ns)}
.cards{display:grid;grid-template-columns:repeat(5,minmax(0,1fr));gap:.6rem;margin:1rem 0}
.card{border:1px solid var(--line);border-left:6px solid var(--ns);border-radius:8px;padding:.5rem .8rem;background:#fff;text-align:left}
.card:hover{background:var(--bg2)}
.card .n{font-size:1.6rem;font-weight:700;display:block}.card .l{color:var(--muted)}
.card.c-passed{border-left-color:var(--pass)}.card.c-failed{border-left-color:var(--fail)}.card.c-not-judged{border-left-color:#d4a72c}.card.c-warnings{border-left-color:#bf8700}
.card.c-failed.nonzero .n{color:var(--fail)}
.failures,.errors{border:1px solid var(--fail);background:var(--fail-bg);border-radius:8px;padding:.5rem .9rem;margin:.5rem 0}
.failures h2,.errors h2{margin:.2rem 0 .4rem;font-size:1rem;color:var(--fail)}
.failures ol{margin:0;padding-left:1.4rem}.failures li{margin:.15rem 0}
.linkish{background:none;border:0;padding:0;color:var(--accent);text-align:left;font:inherit}.linkish:hover{text-decoration:underline}
.meta dl,#meta{display:grid;grid-template-columns:max-content 1fr max-content 1fr;gap:.2rem 1rem;margin:.5rem 0;padding:.6rem .9rem;background:var(--bg2);border-radius:8px}
#meta dt{color:var(--muted)}#meta dd{margin:0;overflow-wrap:anywhere}#meta dd.wide{grid-column:2 / -1}
.leftovers summary{cursor:pointer;color:var(--accent)}.leftovers ul{margin:.2rem 0;padding-left:1.2rem;font-size:.85rem}
.hint{color:var(--muted);margin:.2rem 0 .6rem}
.matrix-wrap{overflow-x:auto}
.matrix{border-collapse:collapse;width:100%}
.matrix th,.matrix td{border:1px solid var(--line);padding:.25rem .45rem;vertical-align:middle}
.matrix thead th{background:var(--bg2);font-weight:600;white-space:nowrap}
.matrix th.mod{text-align:left;font-weight:500;white-space:nowrap}
.matrix .stmt{font-size:.85rem;min-width:13rem}
.matrix td.cell{text-align:center;white-space:nowrap;cursor:pointer;min-width:5.5rem;font-variant-numeric:tabular-nums}
.matrix td.cell:hover,.matrix td.cell:focus{outline:2px solid var(--accent);outline-offset:-2px}
.matrix td.cell.selected{outline:3px solid var(--accent);outline-offset:-3px}
.matrix td.empty{background:#fff;color:#c4c9cf;cursor:default}
.cell-failed{background:var(--fail-bg)}.cell-not-judged{background:var(--nj-bg)}.cell-passed{background:var(--pass-bg)}.cell-not-shown{background:var(--ns-bg)}
.cell .k{margin:0 .2rem}.k-failed{color:var(--fail);font-weight:700}.k-not-judged{color:var(--nj);font-weight:600}.k-passed{color:var(--pass)}.k-not-shown{color:var(--ns)}
.matrix .clickable{cursor:pointer}.matrix .clickable:hover{text-decoration:underline}
.legend{color:var(--muted);font-size:.85rem;margin-top:.4rem}.legend span{margin-right:1rem}
.pill{display:inline-block;border-radius:999px;padding:0 .55rem;font-size:.78rem;font-weight:600;white-space:nowrap;border:1px solid transparent;text-align:center}
.p-passed,.p-conforms{background:var(--pass-bg);color:var(--pass);border-color:#aceebb}
.p-failed,.p-does-not-conform{background:var(--fail-bg);color:var(--fail);border-color:#ffcecb}
.p-not-judged,.p-incomplete{background:var(--nj-bg);color:var(--nj);border-color:#f5e0a0}
.p-not-shown,.p-not-run{background:var(--ns-bg);color:var(--ns);border-color:var(--line)}
.toolbar{position:sticky;top:0;z-index:5;background:#fff;border-bottom:1px solid var(--line);padding:.5rem .6rem;margin:1.2rem -.6rem 0}
.tb-row{display:flex;flex-wrap:wrap;gap:.4rem .8rem;align-items:center}.tb-row+.tb-row{margin-top:.4rem}
.toolbar label{white-space:nowrap}
.toolbar select,.toolbar input{font:inherit;padding:.15rem .3rem;max-width:12rem}
.toolbar input{width:10rem}
.toolbar button{border:1px solid var(--line);background:var(--bg2);border-radius:6px;padding:.2rem .6rem}
.toolbar button.jump{border-color:#ffcecb;background:var(--fail-bg);color:var(--fail);font-weight:600}
.toolbar button:disabled{opacity:.45;cursor:default}
.count{color:var(--muted);margin-left:auto}
.row{border:1px solid var(--line);border-left:5px solid var(--ns);border-radius:6px;margin:.25rem 0;scroll-margin-top:6.5rem;background:#fff;content-visibility:auto;contain-intrinsic-size:auto 2.1rem}
.row.r-passed{border-left-color:var(--pass)}.row.r-failed{border-left-color:var(--fail)}.row.r-not-judged{border-left-color:#d4a72c}
.row.current{outline:3px solid var(--fail);outline-offset:1px}
.row.flash{animation:flash 1.6s ease-out}
@keyframes flash{0%{background:#ffd8d3}100%{background:#fff}}
.head{display:grid;grid-template-columns:6.2rem 3.6rem minmax(0,2.2fr) 6.8rem minmax(0,3fr);gap:.6rem;align-items:center;width:100%;background:none;border:0;padding:.3rem .6rem;text-align:left;color:inherit}
.head:hover{background:var(--bg2)}
.head .method{font-weight:600}.head .path,.head .msg{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.head .msg{color:var(--muted)}.r-failed .head .msg{color:var(--fail)}
.head .chk{color:var(--muted)}
.wf{border:1px solid var(--line);border-radius:8px;margin:.6rem 0;padding:.3rem .6rem .5rem;background:var(--bg2)}
.wf h3{font-size:1rem;margin:.3rem 0 .4rem;display:flex;gap:.6rem;align-items:center;flex-wrap:wrap}
.wf .wfmeta{color:var(--muted);font-weight:400;font-size:.85rem}
.wf .row .head{grid-template-columns:6.2rem minmax(0,2.4fr) minmax(0,2fr) minmax(0,2.6fr)}
.detail{border-top:1px solid var(--line);padding:.6rem .9rem .8rem}
.detail .message{white-space:pre-wrap;overflow-wrap:anywhere;margin:.2rem 0 .6rem;font-size:.95rem}
.r-failed .detail .message{color:var(--fail)}
.detail h4{margin:.8rem 0 .3rem;font-size:.9rem}
.detail ul{margin:.2rem 0;padding-left:1.3rem}
.kv{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;font-size:.85rem;color:var(--muted)}.kv dd{margin:0;color:var(--fg);overflow-wrap:anywhere}
.access{border-collapse:collapse;font-size:.85rem;margin:.2rem 0}
.access th,.access td{border:1px solid var(--line);padding:.15rem .5rem;text-align:left;vertical-align:top}
.access th{background:var(--bg2)}.access tr.bad td{background:var(--fail-bg)}.access td.answer{max-width:38rem;overflow-wrap:anywhere}
.exchange{border:1px solid var(--line);border-radius:6px;margin:.5rem 0;overflow:hidden}
.exchange .xh{background:var(--bg2);padding:.3rem .6rem;font-weight:600;overflow-wrap:anywhere}
.exchange .xh .st{margin-left:.4rem}
.xcols{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0}
.xcols>div{padding:.3rem .6rem;min-width:0}.xcols>div+div{border-left:1px solid var(--line)}
.xcols h5{margin:.2rem 0;font-size:.8rem;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
pre{margin:.2rem 0;white-space:pre-wrap;overflow-wrap:anywhere;background:var(--bg2);padding:.4rem .5rem;border-radius:4px;max-height:22rem;overflow:auto}
.curl{border-top:1px solid var(--line);padding:.3rem .6rem .5rem}
.curl pre{background:#0d1117;color:#e6edf3}
.curl .bar{display:flex;justify-content:space-between;align-items:center}
.curl button{border:1px solid var(--line);background:#fff;border-radius:5px;padding:0 .5rem;font-size:.8rem}
.warn{color:var(--nj)}
.empty{color:var(--muted);font-style:italic}
@media (max-width:900px){.cards{grid-template-columns:repeat(2,minmax(0,1fr))}#meta{grid-template-columns:max-content 1fr}.xcols{grid-template-columns:1fr}.xcols>div+div{border-left:0;border-top:1px solid var(--line)}.head{grid-template-columns:6rem 3.4rem minmax(0,1fr)}.head .chk,.head .msg{display:none}}
`

// The page's script. Plain ES5-style JS inside String.raw: no template literals, every text through textContent.
const SCRIPT = String.raw`
(function () {
  'use strict';
  var report = JSON.parse(document.getElementById('report-data').textContent);
  var view = JSON.parse(document.getElementById('report-view').textContent);
  var results = report.results || [];
  var LABEL = { passed: 'passed', failed: 'failed', 'not-judged': 'not judged', 'not-shown': 'not shown' };
  var ORDER = ['failed', 'not-judged', 'passed', 'not-shown'];
  var SYMBOL = { failed: '\u2717', 'not-judged': '?', passed: '\u2713', 'not-shown': '\u2013' };

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  function slug(text) { return String(text).replace(/[^a-z0-9]+/gi, '-').toLowerCase(); }
  function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }
  function categoryOf(r) { return r.status === 'skipped' ? (r.applicable === false ? 'not-shown' : 'not-judged') : r.status; }
  function pill(cat, text) { return el('span', 'pill p-' + slug(cat), text === undefined ? LABEL[cat] || cat : text); }
  function pretty(body) {
    if (body === undefined) return null;
    if (typeof body === 'string') { try { return JSON.stringify(JSON.parse(body), null, 2); } catch (e) { return body; } }
    return JSON.stringify(body, null, 2);
  }
  function headerText(headers) {
    return Object.keys(headers || {}).map(function (k) { return k + ': ' + headers[k]; }).join('\n');
  }

  var moduleTitle = {};
  view.modules.forEach(function (m) { moduleTitle[m.id] = m.title; });

  // ---- rows (one-line summaries; details are built on first open) ----
  var rows = results.map(function (r, i) {
    var wf = null;
    if (r.check === 'workflow') {
      var m = /^workflow (.+?) \u203a (\d+) (.*)$/.exec(r.id);
      wf = m ? { name: m[1], ordinal: Number(m[2]), title: m[3] } : { name: r.id, ordinal: 0, title: r.id };
    }
    return { r: r, i: i, cat: categoryOf(r), wf: wf, hay: (r.id + '\n' + r.message).toLowerCase(), el: null, head: null, detail: null };
  });

  // ---- summary ----
  var count = { passed: 0, failed: 0, 'not-judged': 0, 'not-shown': 0 };
  var warnings = 0;
  rows.forEach(function (x) { count[x.cat]++; warnings += (x.r.warnings || []).length; });
  var c = view.conformance;
  var target = report.target || {};
  document.title = 'Shop conformance: ' + c.verdict + ' (' + c.percent + '%) \u2013 ' + target.baseUrl;
  $('sub').textContent = 'Target ' + target.baseUrl + (target.bundledReferenceTarget ? ' (bundled reference target)' : '') +
    ' \u00b7 spec ' + report.spec.version + ' \u00b7 ' + report.suite.name + ' ' + report.suite.version;
  var verdict = $('verdict');
  verdict.className = 'verdict v-' + slug(c.verdict);
  add(verdict, el('div', 'pct', c.percent + '%')).id = 'conformance-percent';
  add(verdict, el('div', 'vtext', c.verdict)).id = 'overall-verdict';
  add(verdict, el('div', 'vnote', c.passed + ' of ' + plural(c.required, 'required check') + ' passed'));

  var cards = $('cards');
  [['passed', count.passed, 'passed'], ['failed', count.failed, 'failed'], ['not-judged', count['not-judged'], 'not judged (required, skipped)'],
   ['not-shown', count['not-shown'], 'not shown by the spec'], ['warnings', warnings, 'warnings']].forEach(function (p) {
    var b = add(cards, el('button', 'card c-' + p[0] + (p[1] > 0 ? ' nonzero' : '')));
    b.type = 'button';
    b.setAttribute('data-status', p[0]);
    add(b, el('span', 'n', p[1]));
    add(b, el('span', 'l', p[2]));
    b.title = 'List the ' + p[2] + ' results';
    b.addEventListener('click', function () { setFilters({ status: p[0] }); scrollToResults(); });
  });

  var failures = rows.filter(function (x) { return x.cat === 'failed'; });
  if (failures.length > 0) {
    var fbox = $('failures');
    fbox.hidden = false;
    add(fbox, el('h2', null, plural(failures.length, 'failure')));
    var ol = add(fbox, el('ol'));
    failures.slice(0, 15).forEach(function (x) {
      var li = add(ol, el('li'));
      var a = add(li, el('button', 'linkish', x.r.id));
      a.type = 'button';
      a.addEventListener('click', function () { jumpTo(x); });
      add(li, el('span', null, ' \u2014 ' + (x.r.message.length > 160 ? x.r.message.slice(0, 160) + '\u2026' : x.r.message)));
    });
    if (failures.length > 15) add(fbox, el('div', null, '\u2026 and ' + (failures.length - 15) + ' more: filter by status "failed".'));
  }
  if ((report.runErrors || []).length > 0 || report.partial) {
    var ebox = $('run-errors');
    ebox.hidden = false;
    add(ebox, el('h2', null, 'Problems of the run itself (not of the target)'));
    var ul = add(ebox, el('ul'));
    if (report.partial) add(ul, el('li', null, 'Partial run: stopped by ' + report.partial.reason + '; the results cover only what ran.')).id = 'partial';
    (report.runErrors || []).forEach(function (e) { add(ul, el('li', null, e)); });
  }

  var meta = $('meta');
  function fact(label, value, id) {
    if (value === undefined || value === null || value === '') return;
    add(meta, el('dt', null, label));
    var dd = add(meta, el('dd', null, value));
    if (id) dd.id = id;
  }
  var run = report.run || {};
  fact('Target', target.baseUrl + (target.bundledReferenceTarget ? ' (bundled reference target)' : ''));
  fact('Store code', target.storeCode + (target.secondStoreCode ? ' (second: ' + target.secondStoreCode + ')' : ''), 'meta-store');
  if (target.tlsVerification) fact('TLS certificates', 'NOT verified (--insecure)', 'meta-insecure');
  fact('Spec version', report.spec.version);
  fact('Suite version', report.suite.name + ' ' + report.suite.version);
  fact('Run id', run.id, 'meta-run');
  fact('Seed', run.seed, 'meta-seed');
  fact('Started', report.startedAt);
  fact('Duration', (report.durationMs / 1000).toFixed(1) + ' s');
  fact('Checks', report.summary.total + ' results on ' + report.summary.endpointsChecked + ' of ' + report.summary.endpointsInCatalog + ' catalog endpoints');
  fact('Settings', (run.readOnly ? 'read-only, ' : '') + 'concurrency ' + run.concurrency + ', timeout ' + run.timeoutMs + ' ms' +
    ((run.modules || []).length ? ', modules ' + run.modules.join(' ') : '') + ((run.checks || []).length ? ', checks ' + run.checks.join(' ') : ''));
  if ((run.pathAliases || []).length) fact('Path aliases', run.pathAliases.map(function (a) { return a.from + ' \u2192 ' + a.to; }).join(', '));
  if (report.calibration) {
    fact('No-route answer', (report.calibration.noRoute || []).join(' | ') || 'none learned');
    fact('Unknown-store answer', (report.calibration.unknownStore || []).join(' | ') || 'none learned');
  }
  if ((report.created || []).length) {
    var cleanup = report.cleanup || { removed: 0, leftovers: [] };
    var leftovers = cleanup.leftovers || [];
    add(meta, el('dt', null, 'Created on the target'));
    var created = add(meta, el('dd', 'wide'));
    created.id = 'meta-created';
    created.textContent = report.created.length + (report.created.length === 1 ? ' entity' : ' entities') + ', ' + cleanup.removed + ' removed' +
      (leftovers.length ? ', ' + leftovers.length + ' left over' : '') + ' (each listed in report.json)';
    if (leftovers.length) {
      // Grouped by kind and reason: a run can leave dozens of carts behind for the same reason.
      var byReason = {}, order = [];
      leftovers.forEach(function (l) {
        var k = l.kind + '\u0000' + l.reason;
        if (!byReason[k]) { byReason[k] = { kind: l.kind, reason: l.reason, ids: [] }; order.push(k); }
        byReason[k].ids.push(l.id);
      });
      var lo = add(created, el('details', 'leftovers'));
      add(lo, el('summary', null, 'left over, by kind'));
      var lul = add(lo, el('ul'));
      order.forEach(function (k) {
        var g = byReason[k];
        add(lul, el('li', null, g.ids.length + ' \u00d7 ' + g.kind + ': ' + g.reason + ' (' + g.ids.join(', ') + ')'));
      });
    }
  }
  if (report.signature && report.signature.digest) fact('Signature digest', report.signature.digest, 'signature-digest');

  // ---- module x check matrix, with the module statements ----
  var checks = [];
  results.forEach(function (r) { if (checks.indexOf(r.check) < 0) checks.push(r.check); });
  var wfAt = checks.indexOf('workflow');
  if (wfAt >= 0) { checks.splice(wfAt, 1); checks.push('workflow'); }
  var modules = view.statements.map(function (s) { return s.module; });
  results.forEach(function (r) { if (modules.indexOf(r.module) < 0) modules.push(r.module); });
  var statementOf = {};
  view.statements.forEach(function (s) { statementOf[s.module] = s; });
  var tally = {};
  rows.forEach(function (x) {
    var k = x.r.module + '\u0000' + x.r.check;
    var t = tally[k] || (tally[k] = { passed: 0, failed: 0, 'not-judged': 0, 'not-shown': 0, total: 0 });
    t[x.cat]++; t.total++;
  });
  var matrix = $('matrix');
  var thead = add(matrix, el('thead'));
  var hr = add(thead, el('tr'));
  add(hr, el('th', null, 'Module'));
  add(hr, el('th', null, 'Statement'));
  checks.forEach(function (ch) {
    var th = add(hr, el('th', 'clickable', ch));
    th.title = 'Filter by check ' + ch;
    th.addEventListener('click', function () { setFilters({ check: ch }); scrollToResults(); });
  });
  var tbody = add(matrix, el('tbody'));
  var cells = [];
  modules.forEach(function (mod) {
    var tr = add(tbody, el('tr'));
    tr.setAttribute('data-module', mod);
    var th = add(tr, el('th', 'mod clickable', moduleTitle[mod] || mod));
    th.title = mod + ': filter by this module';
    th.addEventListener('click', function () { setFilters({ module: mod }); scrollToResults(); });
    var s = statementOf[mod];
    var st = add(tr, el('td', 'stmt'));
    if (s) { add(st, pill(s.verdict, s.verdict)); add(st, el('span', null, s.verdict === 'conforms' || s.verdict === 'not run' ? '' : ' ' + s.text)); }
    checks.forEach(function (ch) {
      var t = tally[mod + '\u0000' + ch];
      var td = add(tr, el('td', 'cell'));
      td.setAttribute('data-module', mod);
      td.setAttribute('data-check', ch);
      if (!t) { td.className = 'cell empty'; td.textContent = '\u00b7'; return; }
      var worst = ORDER.filter(function (k) { return t[k] > 0; })[0];
      td.className = 'cell cell-' + worst;
      td.tabIndex = 0;
      var words = [];
      ORDER.forEach(function (k) {
        if (t[k] === 0) return;
        add(td, el('span', 'k k-' + k, SYMBOL[k] + t[k]));
        words.push(t[k] + ' ' + LABEL[k]);
      });
      td.title = (moduleTitle[mod] || mod) + ' \u00d7 ' + ch + ': ' + words.join(', ');
      var go = function () { setFilters({ module: mod, check: ch }); scrollToResults(); };
      td.addEventListener('click', go);
      td.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(); } });
      cells.push(td);
    });
  });
  var legend = $('legend');
  ORDER.forEach(function (k) { add(legend, el('span', 'k-' + k, SYMBOL[k] + ' ' + LABEL[k])); });

  // ---- filters ----
  var fStatus = $('f-status'), fModule = $('f-module'), fCheck = $('f-check'), fSearch = $('f-search');
  modules.forEach(function (m) { if (rows.some(function (x) { return x.r.module === m; })) { var o = add(fModule, el('option', null, moduleTitle[m] || m)); o.value = m; } });
  checks.forEach(function (ch) { var o = add(fCheck, el('option', null, ch)); o.value = ch; });

  // ---- result rows ----
  var listEndpoints = $('list-endpoints'), listWorkflows = $('list-workflows');
  var groups = [], groupOf = {};
  function makeRow(x) {
    var r = x.r;
    var div = el('div', 'row r-' + x.cat);
    div.setAttribute('data-id', r.id);
    div.setAttribute('data-status', x.cat);
    div.setAttribute('data-module', r.module);
    div.setAttribute('data-check', r.check);
    var head = add(div, el('button', 'head'));
    head.type = 'button';
    head.setAttribute('aria-expanded', 'false');
    add(head, pill(x.cat));
    if (x.wf) {
      add(head, el('span', 'path', (x.wf.ordinal < 10 ? '0' : '') + x.wf.ordinal + ' ' + x.wf.title));
      add(head, el('span', 'path mono chk', r.endpoint.method === '-' ? r.endpoint.path : r.endpoint.method + ' ' + r.endpoint.path));
    } else {
      add(head, el('span', 'method mono', r.endpoint.method));
      add(head, el('span', 'path mono', r.endpoint.path + (r.endpoint.alias ? ' (as ' + r.endpoint.alias + ')' : '')));
      add(head, el('span', 'chk', r.check));
    }
    add(head, el('span', 'msg', r.message + ((r.warnings || []).length ? ' \u26a0' : '')));
    head.title = r.id;
    head.addEventListener('click', function () { toggle(x); });
    x.el = div;
    x.head = head;
    return div;
  }
  rows.forEach(function (x) {
    if (!x.wf) { listEndpoints.appendChild(makeRow(x)); return; }
    var g = groupOf[x.wf.name];
    if (!g) { g = groupOf[x.wf.name] = { name: x.wf.name, module: x.r.module, rows: [] }; groups.push(g); }
    g.rows.push(x);
  });
  groups.forEach(function (g) {
    g.rows.sort(function (a, b) { return a.wf.ordinal - b.wf.ordinal || a.i - b.i; });
    g.el = add(listWorkflows, el('div', 'wf'));
    g.el.setAttribute('data-workflow', g.name);
    var h = add(g.el, el('h3'));
    var tally = { passed: 0, failed: 0, 'not-judged': 0, 'not-shown': 0 };
    g.rows.forEach(function (x) { tally[x.cat]++; });
    var worst = ORDER.filter(function (k) { return tally[k] > 0; })[0] || 'not-shown';
    add(h, pill(worst));
    add(h, el('span', null, 'workflow ' + g.name));
    add(h, el('span', 'wfmeta', (moduleTitle[g.module] || g.module) + ' \u00b7 ' + plural(g.rows.length, 'step') +
      (tally.failed ? ' \u00b7 ' + tally.failed + ' failed' : '') + (tally['not-judged'] ? ' \u00b7 ' + tally['not-judged'] + ' not judged' : '')));
    g.rows.forEach(function (x) { g.el.appendChild(makeRow(x)); });
  });
  if (groups.length === 0) { $('h-workflows').hidden = true; }

  // ---- details, built on first open ----
  function toggle(x, open) {
    var want = open === undefined ? !x.detail || x.detail.hidden : open;
    if (want && !x.detail) { x.detail = buildDetail(x); x.el.appendChild(x.detail); }
    if (x.detail) x.detail.hidden = !want;
    x.head.setAttribute('aria-expanded', want ? 'true' : 'false');
  }
  function buildDetail(x) {
    var r = x.r;
    var d = el('div', 'detail');
    add(d, el('p', 'message', r.message));
    var kv = add(d, el('dl', 'kv'));
    function pair(k, v) { add(kv, el('dt', null, k)); add(kv, el('dd', 'mono', v)); }
    pair('id', r.id);
    pair('module', (moduleTitle[r.module] || r.module) + ' (' + r.module + ')');
    pair('status', LABEL[x.cat] + (x.cat === 'not-shown' ? ': the spec does not show what this rule would judge' : x.cat === 'not-judged' ? ': a required check that could not be judged' : ''));
    pair('duration', r.durationMs + ' ms');
    if ((r.spec || []).length) {
      add(d, el('h4', null, 'Spec sections enforced'));
      var sl = add(d, el('ul', 'spec'));
      r.spec.filter(function (s, k) { return r.spec.indexOf(s) === k; }).forEach(function (s) { add(sl, el('li', null, s)); });
    }
    if ((r.warnings || []).length) {
      add(d, el('h4', 'warn', 'Warnings'));
      var wl = add(d, el('ul', 'warn'));
      r.warnings.forEach(function (w) { add(wl, el('li', null, w)); });
    }
    var details = r.details || {};
    if (details.matrix && typeof details.matrix === 'object') {
      add(d, el('h4', null, 'Access matrix' + (details.accessClass ? ' (' + details.accessClass + ' endpoint)' : '')));
      var t = add(d, el('table', 'access'));
      var hr = add(add(t, el('thead')), el('tr'));
      ['caller', 'expected', 'seen', 'answer', 'ok'].forEach(function (h) { add(hr, el('th', null, h)); });
      var tb = add(t, el('tbody'));
      Object.keys(details.matrix).forEach(function (caller) {
        var m = details.matrix[caller] || {};
        var tr = add(tb, el('tr', m.ok === false ? 'bad' : ''));
        add(tr, el('td', null, caller));
        add(tr, el('td', null, m.expected));
        add(tr, el('td', null, m.seen));
        add(tr, el('td', 'answer mono', m.answer));
        add(tr, el('td', null, m.ok === false ? '\u2717' : m.ok === true ? '\u2713' : '\u2013'));
      });
    }
    var rest = Object.keys(details).filter(function (k) { return k !== 'matrix' && k !== 'accessClass'; });
    if (rest.length) {
      var extra = {};
      rest.forEach(function (k) { extra[k] = details[k]; });
      add(d, el('h4', null, 'Details'));
      add(d, el('pre', null, JSON.stringify(extra, null, 2)));
    }
    var xs = r.exchanges || [];
    add(d, el('h4', null, xs.length ? plural(xs.length, 'exchange') + ' (secrets redacted)' : 'No exchange recorded'));
    xs.forEach(function (e, j) { add(d, exchangeBox(e, (view.curls[x.i] || [])[j], j, xs.length)); });
    return d;
  }
  function exchangeBox(e, curl, j, n) {
    var box = el('div', 'exchange');
    var req = e.request || {};
    var h = add(box, el('div', 'xh mono', (n > 1 ? (j + 1) + '/' + n + '  ' : '') + req.method + ' ' + req.url));
    if (e.response) add(h, el('span', 'st pill p-not-shown', '\u2192 ' + e.response.status));
    else add(h, el('span', 'st pill p-failed', 'no answer'));
    add(h, el('span', 'st', (e.durationMs !== undefined ? e.durationMs + ' ms' : '')));
    var cols = add(box, el('div', 'xcols'));
    var left = add(cols, el('div'));
    add(left, el('h5', null, 'Request'));
    add(left, el('pre', 'mono', headerText(req.headers) || '(no headers)'));
    var rb = pretty(req.body);
    if (rb !== null) add(left, el('pre', 'mono body', rb));
    var right = add(cols, el('div'));
    add(right, el('h5', null, 'Response'));
    if (e.response) {
      add(right, el('pre', 'mono', 'HTTP ' + e.response.status + '\n' + headerText(e.response.headers)));
      var sb = pretty(e.response.body);
      if (sb !== null && sb !== '') add(right, el('pre', 'mono body', sb));
    }
    if (e.error) add(right, el('pre', 'mono', 'error: ' + e.error));
    if (curl) {
      var cw = add(box, el('div', 'curl'));
      var bar = add(cw, el('div', 'bar'));
      add(bar, el('h5', null, 'Reproduce with curl'));
      var btn = add(bar, el('button', null, 'Copy'));
      btn.type = 'button';
      var pre = add(cw, el('pre', 'mono curl-cmd', curl));
      btn.addEventListener('click', function () { copy(curl, pre, btn); });
    }
    return box;
  }
  function copy(text, pre, btn) {
    function done(ok) { btn.textContent = ok ? 'Copied' : 'Select and copy'; setTimeout(function () { btn.textContent = 'Copy'; }, 1500); }
    function fallback() {
      var range = document.createRange();
      range.selectNodeContents(pre);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
      done(ok);
    }
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    else fallback();
  }

  // ---- filtering ----
  function matches(x, f) {
    if (f.status === 'warnings') { if (!(x.r.warnings || []).length) return false; }
    else if (f.status && x.cat !== f.status) return false;
    if (f.module && x.r.module !== f.module) return false;
    if (f.check && x.r.check !== f.check) return false;
    if (f.q && x.hay.indexOf(f.q) < 0) return false;
    return true;
  }
  function current() { return { status: fStatus.value, module: fModule.value, check: fCheck.value, q: fSearch.value.trim().toLowerCase() }; }
  function apply() {
    var f = current(), shown = 0, shownEndpoints = 0;
    rows.forEach(function (x) {
      var ok = matches(x, f);
      if (x.el.hidden === ok) x.el.hidden = !ok;
      if (ok) { shown++; if (!x.wf) shownEndpoints++; }
    });
    var shownGroups = 0;
    groups.forEach(function (g) {
      var any = g.rows.some(function (x) { return !x.el.hidden; });
      g.el.hidden = !any;
      if (any) shownGroups++;
    });
    $('h-endpoints').hidden = shownEndpoints === 0;
    $('h-workflows').hidden = shownGroups === 0;
    $('empty').hidden = shown > 0;
    $('count').textContent = 'showing ' + shown + ' of ' + rows.length;
    cells.forEach(function (td) {
      var on = f.module && f.check && td.getAttribute('data-module') === f.module && td.getAttribute('data-check') === f.check;
      td.classList.toggle('selected', !!on);
    });
  }
  function setFilters(f) {
    fStatus.value = f.status || '';
    fModule.value = f.module || '';
    fCheck.value = f.check || '';
    fSearch.value = f.q || '';
    apply();
  }
  function scrollToResults() { $('toolbar').scrollIntoView({ block: 'start' }); }
  [fStatus, fModule, fCheck].forEach(function (s) { s.addEventListener('change', apply); });
  var searchTimer = null;
  fSearch.addEventListener('input', function () { clearTimeout(searchTimer); searchTimer = setTimeout(apply, 120); });
  $('clear').addEventListener('click', function () { setFilters({}); });

  // ---- failures: jump to the first, then the next ----
  var cursor = -1, marked = null;
  function jumpTo(x) {
    if (x.el.hidden) setFilters({});
    if (marked) marked.el.classList.remove('current', 'flash');
    marked = x;
    cursor = failures.indexOf(x);
    toggle(x, true);
    x.el.classList.add('current');
    void x.el.offsetWidth;
    x.el.classList.add('flash');
    x.el.scrollIntoView({ block: 'start' });
    x.head.focus({ preventScroll: true });
    updateJump();
  }
  function updateJump() {
    $('jump').disabled = failures.length === 0;
    $('next').disabled = failures.length < 2;
    $('next').textContent = cursor >= 0 ? 'Next failure (' + (cursor + 1) + '/' + failures.length + ')' : 'Next failure';
    if (failures.length === 0) $('jump').textContent = 'No failure';
  }
  $('jump').addEventListener('click', function () { if (failures.length) jumpTo(failures[0]); });
  $('next').addEventListener('click', function () { if (failures.length) jumpTo(failures[(cursor + 1) % failures.length]); });
  updateJump();

  apply();
  document.documentElement.setAttribute('data-ready', 'true');
})();
`
