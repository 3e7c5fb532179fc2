/**
 * report.html's script, inlined in the page and pinned by its hash in the Content-Security-Policy (html.ts
 * hashes exactly this text). One function in pieces, joined in order: this file's (what a result becomes on the
 * page: its row, with its category, and its line in the list), html-script-dom.ts (the helpers, shared with
 * matrix.html), html-script-overview.ts (the summary, the run's facts, the module x check matrix),
 * html-script-server-errors.ts (the server errors the run met, each with its curl),
 * html-script-detail.ts (a row's details, built on first open), html-script-evidence.ts (a result's evidence:
 * its exchanges and curl, shared with matrix.html) and html-script-filter.ts (filtering and jumping to
 * failures; it closes the function). Each piece starts and ends on a line break, so the joined text reads as
 * the one script it is; functions are hoisted, so a piece may call one defined in a later piece.
 */
import { DETAIL } from './html-script-detail.ts'
import { DOM } from './html-script-dom.ts'
import { EVIDENCE } from './html-script-evidence.ts'
import { FILTER } from './html-script-filter.ts'
import { OVERVIEW } from './html-script-overview.ts'
import { SERVER_ERRORS } from './html-script-server-errors.ts'

// The page's script. Plain ES5-style JS inside String.raw: no template literals, every text through textContent.
const HEAD = String.raw`
(function () {
  'use strict';
  var report = JSON.parse(document.getElementById('report-data').textContent);
  var view = JSON.parse(document.getElementById('report-view').textContent);
  var results = report.results || [];
  var LABEL = { passed: 'passed', failed: 'failed', error: 'error', baselined: 'baselined', 'not-judged': 'not judged', 'not-configured': 'not configured', 'not-applicable': 'not applicable' };
  var ORDER = ['failed', 'error', 'not-judged', 'not-configured', 'baselined', 'passed', 'not-applicable'];
  var SYMBOL = { failed: '\u2717', error: '!', 'not-judged': '?', 'not-configured': '\u2699', baselined: '\u2298', passed: '\u2713', 'not-applicable': '\u2013' };
  // A tally of each category, for the cards, the matrix and a workflow's heading.
  function zeroTally() { return { passed: 0, failed: 0, error: 0, baselined: 0, 'not-judged': 0, 'not-configured': 0, 'not-applicable': 0 }; }
  var baselineReason = view.baselined || {};

  function categoryOf(r) {
    if (r.status === 'skipped') return r.applicable === false ? 'not-applicable' : r.reason === 'not-configured' ? 'not-configured' : 'not-judged';
    return r.status === 'failed' && Object.prototype.hasOwnProperty.call(baselineReason, r.id) ? 'baselined' : r.status;
  }
  function pill(cat, text) { return el('span', 'pill p-' + slug(cat), text === undefined ? LABEL[cat] || cat : text); }

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

  // ---- result rows: each result's line, in the endpoints' list or under its workflow ----
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
    add(head, el('span', 'msg', (x.cat === 'baselined' ? 'baselined (' + baselineReason[r.id] + '): ' : '') + r.message + ((r.warnings || []).length ? ' \u26a0' : '')));
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
    var tally = zeroTally();
    g.rows.forEach(function (x) { tally[x.cat]++; });
    var worst = ORDER.filter(function (k) { return tally[k] > 0; })[0] || 'not-applicable';
    add(h, pill(worst));
    add(h, el('span', null, 'workflow ' + g.name));
    add(h, el('span', 'wfmeta', (moduleTitle[g.module] || g.module) + ' \u00b7 ' + plural(g.rows.length, 'step') +
      (tally.failed ? ' \u00b7 ' + tally.failed + ' failed' : '') + (tally.error ? ' \u00b7 ' + plural(tally.error, 'error') : '') + (tally['not-judged'] ? ' \u00b7 ' + tally['not-judged'] + ' not judged' : '')));
    g.rows.forEach(function (x) { g.el.appendChild(makeRow(x)); });
  });
  if (groups.length === 0) { $('h-workflows').hidden = true; }
`

export const SCRIPT = HEAD + DOM + OVERVIEW + SERVER_ERRORS + DETAIL + EVIDENCE + FILTER
