/**
 * matrix.html's script, inlined in the page and pinned by its hash in the Content-Security-Policy (matrix-html.ts).
 * One function in pieces, joined in order: this file's (the data, the heading, the implementation × module
 * summary and a column's history), html-script-dom.ts and html-script-evidence.ts (report.html's helpers and
 * its evidence of a result, shared) and matrix-script-grid.ts (the grid of results, a cell's evidence, the
 * filters; it closes the function). Plain ES5-style JS: every text through textContent.
 */
import { DOM } from './html-script-dom.ts'
import { EVIDENCE } from './html-script-evidence.ts'
import { GRID } from './matrix-script-grid.ts'
import { CELL_OUTCOMES } from './matrix-history.ts'

const HEAD = String.raw`
(function () {
  'use strict';
  var matrix = JSON.parse(document.getElementById('matrix-data').textContent);
  var view = JSON.parse(document.getElementById('matrix-view').textContent);
  var columns = matrix.columns, rowsData = matrix.rows;
  var ORDER = ${JSON.stringify(CELL_OUTCOMES)};
  var SYMBOL = { failed: '\u2717', error: '!', 'not judged': '?', 'not configured': '\u2699', passed: '\u2713', 'not applicable': '\u2013', 'not run': '\u25cb' };
  var moduleTitle = {};
  matrix.modules.forEach(function (m) { moduleTitle[m.id] = m.title; });
  function pill(kind, text) { return el('span', 'pill p-' + slug(kind), text === undefined ? kind : text); }
  function day(iso) { return String(iso).replace('T', ' ').slice(0, 16); }

  // ---- heading and scope ----
  document.title = 'Conformance matrix: ' + columns.map(function (c) { return c.label; }).join(' \u00b7 ');
  $('sub').textContent = plural(columns.length, 'implementation') + ' \u00b7 spec ' + matrix.spec.version +
    ' \u00b7 built ' + day(matrix.generatedAt) + ' UTC by ' + matrix.suite.name + ' ' + matrix.suite.version;
  add($('scope'), el('p', null, matrix.scope.text)).id = 'scope-text';

  // ---- a column's history: on hover its title, on click the runs and what changed in each ----
  function historyTitle(c) {
    var v = view.columns[c], n = 0;
    v.runs.forEach(function (r) { n += r.changes.length; });
    return columns[c].label + ': ' + plural(v.runs.length, 'run') + ' taken' + (v.runs.length ? ' (' + day(v.runs[v.runs.length - 1].date) + ' \u2026 ' + day(v.runs[0].date) + ')' : '') +
      ', ' + plural(n, 'change') + ' since the first' + (v.newer ? ', ' + v.newer + ' after the report shown' : '') + '; click for them';
  }
  var historyOf = -1;
  function showHistory(c) {
    var box = $('history');
    if (historyOf === c && !box.hidden) { box.hidden = true; historyOf = -1; return; }
    historyOf = c;
    box.textContent = '';
    box.hidden = false;
    box.setAttribute('data-col', String(c));
    var v = view.columns[c], col = columns[c];
    var head = add(box, el('div', 'hbar'));
    add(head, el('h2', null, col.label + ' \u2014 history'));
    var close = add(head, el('button', null, 'Close'));
    close.type = 'button';
    close.addEventListener('click', function () { box.hidden = true; historyOf = -1; });
    add(box, el('p', 'hint', 'Only the transitions: a result is listed in a run where its outcome changed. The matrix shows run ' + col.report.runId + '.'));
    var list = add(box, el('ol', 'runs'));
    v.runs.forEach(function (r, k) {
      var li = add(list, el('li', 'run' + (r.runId === col.report.runId ? ' shown' : '')));
      li.setAttribute('data-run', r.runId);
      var line = day(r.date) + ' \u00b7 run ' + r.runId + ' \u00b7 suite ' + r.suiteVersion + ' \u00b7 ' +
        (r.first ? 'first run taken: ' + r.recorded + ' results recorded' : plural(r.changes.length, 'change'));
      add(li, el('div', 'rhead', line + (r.runId === col.report.runId ? ' (shown)' : k < v.newer ? ' (after the report shown)' : '')));
      if (!r.changes.length) return;
      var ul = add(li, el('ul'));
      r.changes.forEach(function (t) {
        var item = add(ul, el('li', 'change'));
        var b = add(item, el('button', 'linkish mono', t.id));
        b.type = 'button';
        b.addEventListener('click', function () { showRow(t.id, c); });
        add(item, el('span', null, ': ' + (t.from === null ? 'new' : t.from) + ' \u2192 ' + t.to));
      });
    });
    box.scrollIntoView({ block: 'nearest' });
  }

  // ---- implementation x module summary ----
  var summary = $('summary');
  var shr = add(add(summary, el('thead')), el('tr'));
  add(shr, el('th', null, 'Module'));
  columns.forEach(function (col, c) {
    var th = add(shr, el('th', 'col'));
    th.setAttribute('data-col', String(c));
    var name = add(th, el('button', 'colname linkish', col.label));
    name.type = 'button';
    name.title = historyTitle(c);
    name.addEventListener('click', function () { showHistory(c); });
    var cert = col.certification;
    var verdict = add(th, el('div', 'cverdict v-' + slug(cert.verdict)));
    add(verdict, el('span', 'cpct', cert.percent + '%'));
    add(verdict, el('span', 'ctext', cert.verdict));
    add(th, el('div', 'cnote', cert.passed + ' of ' + plural(cert.required, 'required check') + ' passed'));
    if (!col.report.whole || col.report.partial) add(th, el('div', 'cnote partial', col.report.partial || col.report.scope));
    add(th, el('div', 'cnote', day(col.report.startedAt) + ' \u00b7 suite ' + col.report.suiteVersion + (col.report.readOnly ? ' \u00b7 read-only' : '') +
      (col.reports > 1 ? ' \u00b7 newest of ' + col.reports + ' reports' : '')));
    th.title = col.report.file + ': ' + cert.headline + ' (exit ' + col.report.exit.status + ': ' + col.report.exit.reason + ')';
  });
  var sbody = add(summary, el('tbody'));
  matrix.modules.forEach(function (m) {
    var tr = add(sbody, el('tr'));
    tr.setAttribute('data-module', m.id);
    var th = add(tr, el('th', 'mod clickable', m.title));
    th.title = m.id + ': show its results below';
    th.addEventListener('click', function () { setFilters({ differ: fDiffer.checked, module: m.id }); scrollToGrid(); });
    columns.forEach(function (col, c) {
      var s = col.modules.filter(function (x) { return x.module === m.id; })[0];
      var td = add(tr, el('td', 'stmt'));
      td.setAttribute('data-col', String(c));
      if (!s) { td.className = 'stmt empty'; td.textContent = '\u00b7'; td.title = col.label + ': the module was not selected in this run'; return; }
      add(td, pill(s.verdict));
      if (s.verdict !== 'conforms' && s.verdict !== 'not run') add(td, el('span', 'stext', ' ' + s.text));
    });
  });
  var sfoot = add(add(summary, el('tfoot')), el('tr'));
  add(sfoot, el('th', null, 'Results compared'));
  columns.forEach(function (col) {
    var td = add(sfoot, el('td', 'counts'));
    ORDER.forEach(function (k) {
      if (!col.counts[k]) return;
      add(td, el('span', 'k k-' + slug(k), col.counts[k] + ' ' + k));
    });
    if (col.outsideTheSpec) td.title = col.outsideTheSpec + ' results from outside the spec (the shop\'s extension operations, a vendor\'s checks) not compared';
  });
`

export const MATRIX_SCRIPT = HEAD + DOM + EVIDENCE + GRID
