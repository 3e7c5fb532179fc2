/**
 * report.html's script, inlined in the page and pinned by its hash in the Content-Security-Policy (html.ts
 * hashes exactly this text). One function in four pieces, joined in order: this file's (helpers, the rows,
 * the summary and the run's facts), html-script-matrix.ts (the module x check matrix and the result rows),
 * html-script-detail.ts (a row's details, built on first open) and html-script-filter.ts (filtering and
 * jumping to failures; it closes the function). Each piece starts and ends on a line break, so the joined
 * text reads as the one script it is.
 */
import { DETAIL } from './html-script-detail.ts'
import { FILTER } from './html-script-filter.ts'
import { MATRIX } from './html-script-matrix.ts'

// The page's script. Plain ES5-style JS inside String.raw: no template literals, every text through textContent.
const HEAD = String.raw`
(function () {
  'use strict';
  var report = JSON.parse(document.getElementById('report-data').textContent);
  var view = JSON.parse(document.getElementById('report-view').textContent);
  var results = report.results || [];
  var LABEL = { passed: 'passed', failed: 'failed', baselined: 'baselined', 'not-judged': 'not judged', 'not-configured': 'not configured', 'not-applicable': 'not applicable' };
  var ORDER = ['failed', 'not-judged', 'not-configured', 'baselined', 'passed', 'not-applicable'];
  var SYMBOL = { failed: '\u2717', 'not-judged': '?', 'not-configured': '\u2699', baselined: '\u2298', passed: '\u2713', 'not-applicable': '\u2013' };
  var baselineReason = view.baselined || {};

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
  function categoryOf(r) {
    if (r.status === 'skipped') return r.applicable === false ? 'not-applicable' : r.reason === 'not-configured' ? 'not-configured' : 'not-judged';
    return r.status === 'failed' && Object.prototype.hasOwnProperty.call(baselineReason, r.id) ? 'baselined' : r.status;
  }
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
  var count = { passed: 0, failed: 0, baselined: 0, 'not-judged': 0, 'not-configured': 0, 'not-applicable': 0 };
  var warnings = 0;
  rows.forEach(function (x) { count[x.cat]++; warnings += (x.r.warnings || []).length; });
  var c = report.certification;
  var exit = report.exit;
  var target = report.target || {};
  document.title = 'Shop conformance: ' + c.verdict + ' (' + c.percent + '%)' + (c.scope.whole ? '' : ', partial') + ' \u2013 ' + target.baseUrl;
  $('sub').textContent = 'Target ' + target.baseUrl + (target.bundledReferenceTarget ? ' (bundled reference target)' : '') +
    ' \u00b7 spec ' + report.spec.version + ' \u00b7 ' + report.suite.name + ' ' + report.suite.version;
  var verdict = $('verdict');
  verdict.className = 'verdict v-' + slug(c.verdict);
  add(verdict, el('div', 'pct', c.percent + '%')).id = 'conformance-percent';
  add(verdict, el('div', 'vtext', c.verdict)).id = 'overall-verdict';
  add(verdict, el('div', 'vnote', c.passed + ' of ' + plural(c.required, 'required check') + ' passed'));
  if (!c.scope.whole) add(verdict, el('div', 'vscope', c.scope.text)).id = 'scope';
  add(verdict, el('div', 'vexit', 'exit ' + exit.status + ': ' + exit.reason)).id = 'exit-reason';

  var cards = $('cards');
  // "Not judged" counts the required checks without a verdict, those the run never reached included, but not
  // those left unjudged for a setting the run lacks: they have a card of their own.
  [['passed', count.passed, 'passed'], ['failed', count.failed, 'failed'], ['baselined', count.baselined, 'failed, baselined'],
   ['not-judged', c.notJudged - count['not-configured'], 'not judged (required)'], ['not-configured', count['not-configured'], 'not configured (required)'],
   ['not-applicable', count['not-applicable'], 'not applicable'], ['warnings', warnings, 'warnings']].forEach(function (p) {
    if (p[0] === 'baselined' && !report.baseline) return;
    if (p[0] === 'not-configured' && p[1] === 0) return;
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
  // Why required checks went unjudged, and the baseline entries that no longer match a failure.
  function listBox(id, title, items, line) {
    if (!items.length) return;
    var box = $(id);
    box.hidden = false;
    add(box, el('h2', null, title));
    var list = add(box, el('ul'));
    items.forEach(function (t) { add(list, el('li', null, line(t))); });
  }
  listBox('not-judged', plural(c.notJudged, 'required check') + ' not judged, by reason', view.notJudged || [], function (t) { return t.count + ' \u00d7 ' + t.label; });
  listBox('not-configured', 'Not configured: rules no request judged, and the settings that judge them', c.notConfigured || [], function (n) { return n.text; });
  // The shop's schema and the checks from outside the spec: boxes of their own, never the verdict above.
  if (report.extensions) listBox('extensions', 'Extensions (not the spec\'s: never in its verdict)', [report.extensions.text], function (t) { return t; });
  if (report.schema) listBox('schema', 'The shop\'s schema (information: never the certification or the exit status)', [report.schema.text].concat(report.schema.notes, report.schema.notJudged.map(function (j) { return j.kind + ' not judged: ' + j.reason; }), report.schema.findings.map(function (f) { return f.operation + ' \u2014 ' + f.kind + (f.field ? ' (' + f.field + ')' : '') + ': the schema declares ' + f.declared + ', the spec says ' + f.spec + ' (' + f.section + ')'; })), function (t) { return t; });
  var stale = view.stale || [];
  var one = stale.length === 1;
  listBox('stale', stale.length + (one ? ' stale baseline entry: its check now passes' : ' stale baseline entries: their checks now pass') +
    (report.baseline && report.baseline.allowStale ? ' (allowed by --allow-stale)' : '; remove ' + (one ? 'it' : 'them') + ' from the baseline or pass --allow-stale'), stale, function (e) { return e.id + ' \u2014 ' + e.reason; });

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
  fact('Run id', run.id + (run.shard ? ' (shard ' + run.shard + ')' : ''), 'meta-run');
  fact('Scope', c.scope.text, 'meta-scope');
  if (report.baseline) fact('Baseline', report.baseline.file + ': ' + plural(report.baseline.baselinedFailures.length, 'failure') + ' baselined, ' + report.baseline.newFailures.length + ' new, ' + report.baseline.stale.length + ' stale', 'meta-baseline');
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
`

export const SCRIPT = HEAD + MATRIX + DETAIL + FILTER
