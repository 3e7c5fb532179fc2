// A piece of the page's script (see html-script.ts): it runs inside the same function as the rest, after
// html-script.ts's helpers and result rows, and shares their variables and functions.
export const OVERVIEW = String.raw`
  // ---- summary ----
  // The spec's results, as the verdict box counts them; an extension's or a vendor's are counted apart (extra).
  var count = zeroTally();
  var extra = zeroTally();
  var warnings = 0;
  rows.forEach(function (x) {
    if (x.r.extension) { extra[x.cat]++; return; }
    count[x.cat]++;
    warnings += (x.r.warnings || []).length;
  });
  var c = report.certification;
  var exit = report.exit;
  var target = report.target || {};
  document.title = 'Shop conformance: ' + c.verdict + (report.passive ? '' : ' (' + c.percent + '%)' + (c.scope.whole ? '' : ', partial')) + ' \u2013 ' + view.target;
  $('sub').textContent = 'Target ' + view.target +
    ' \u00b7 spec ' + report.spec.version + ' \u00b7 ' + report.suite.name + ' ' + report.suite.version;
  var verdict = $('verdict');
  verdict.className = 'verdict v-' + slug(c.verdict);
  // A passive report is no share of the suite: it says what the traffic showed (docs/passive.md).
  if (!report.passive) add(verdict, el('div', 'pct', c.percent + '%')).id = 'conformance-percent';
  add(verdict, el('div', 'vtext', c.verdict)).id = 'overall-verdict';
  add(verdict, el('div', 'vnote', report.passive ? c.failed + ' failed, ' + c.passed + ' passed from the traffic; ' + c.notJudged + ' not observed' : c.passed + ' of ' + plural(c.required, 'required check') + ' passed'));
  if (!c.scope.whole) add(verdict, el('div', 'vscope', c.scope.text)).id = 'scope';
  add(verdict, el('div', 'vexit', 'exit ' + exit.status + ': ' + exit.reason)).id = 'exit-reason';
  if (view.story.kind === 'cut short') add(verdict, el('div', 'vscope', view.story.text)).id = 'run-story';
  if (view.leftovers) add(verdict, el('div', 'vscope', 'Left on the shop: ' + view.leftovers)).id = 'leftovers';

  var cards = $('cards');
  // "Not judged" counts the required checks without a verdict, those the run never reached included, but not
  // those left unjudged for a setting the run lacks: they have a card of their own.
  // "Errors" only when a check's code threw: the suite's or a vendor's bug, never the shop's failure.
  [['passed', count.passed, 'passed'], ['failed', count.failed, 'failed'], ['error', count.error, 'errors (a check\'s code threw)'], ['baselined', count.baselined, 'failed, baselined'],
   ['not-judged', c.notJudged - count['not-configured'], 'not judged (required)'], ['not-configured', count['not-configured'], 'not configured (required)'],
   ['not-applicable', count['not-applicable'], 'not applicable'], ['warnings', warnings, 'warnings']].forEach(function (p) {
    if (p[0] === 'baselined' && !report.baseline) return;
    if ((p[0] === 'not-configured' || p[0] === 'error') && p[1] === 0 && !extra[p[0]]) return;
    var b = add(cards, el('button', 'card c-' + p[0] + (p[1] > 0 ? ' nonzero' : '')));
    b.type = 'button';
    b.setAttribute('data-status', p[0]);
    add(b, el('span', 'n', p[1]));
    add(b, el('span', 'l', p[2]));
    if (extra[p[0]] > 0) add(b, el('span', 'ext', '+' + extra[p[0]] + ' of extensions')).title = 'Results of checks from outside the spec (the shop\'s extension operations, a vendor\'s checks): never in the verdict';
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
  if ((report.runErrors || []).length > 0 || view.story.kind === 'cut short') {
    var ebox = $('run-errors');
    ebox.hidden = false;
    add(ebox, el('h2', null, 'Problems of the run itself (not of the target)'));
    var ul = add(ebox, el('ul'));
    if (view.story.kind === 'cut short') add(ul, el('li', null, 'Cut short: ' + view.story.text + '; the results cover only what ran.')).id = 'partial';
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
  // A passive report's scope: the traffic it judged, endpoint by endpoint (docs/passive.md).
  if (report.passive) listBox('passive', 'Passive: judged from traffic the suite did not send, not a certification \u2014 ' + report.passive.text, report.passive.endpoints, function (e) {
    return e.endpoint + ' (' + e.access + ') \u2014 ' + plural(e.exchanges, 'exchange') + ': ' + Object.keys(e.callers).map(function (k) { return k + ' \u00d7' + e.callers[k]; }).join(', ');
  });
  listBox('not-judged', plural(c.notJudged, 'required check') + ' not judged, by reason', view.notJudged || [], function (t) { return t.count + ' \u00d7 ' + t.label; });
  listBox('not-configured', 'Not configured: rules no request judged, and the settings that judge them', c.notConfigured || [], function (n) { return n.text; });
  // The shop's schema and the checks from outside the spec: boxes of their own, never the verdict above.
  var unchecked = report.schema && report.schema.status === 'broken' ? ['Not checked: the shop\'s schema endpoint is broken, and its extension endpoints are the operations it lists (below: what it answered, and how to check them anyway).'] : [];
  if (report.extensions || unchecked.length) listBox('extensions', 'Extensions (not the spec\'s: never in its verdict)', (report.extensions ? [report.extensions.text] : []).concat(unchecked), function (t) { return t; });
  if (report.schema) listBox('schema', 'The shop\'s schema (information: never the certification or the exit status)', [report.schema.text].concat(report.schema.notes, report.schema.notJudged.map(function (j) { return j.kind + ' not judged: ' + j.reason; }), report.schema.findings.map(function (f) { return f.operation + ' \u2014 ' + f.kind + (f.field ? ' (' + f.field + ')' : '') + ': the schema declares ' + f.declared + ', the spec says ' + f.spec + ' (' + f.section + ')'; })), function (t) { return t; });
  var stale = view.stale || [];
  var one = stale.length === 1;
  listBox('stale', stale.length + (one ? ' stale baseline entry: its check now passes' : ' stale baseline entries: their checks now pass') +
    (report.baseline && report.baseline.allowStale ? ' (allowed by --allow-stale)' : '; ' + view.staleRemedy), stale, function (e) { return e.id + ' \u2014 ' + e.reason; });

  var meta = $('meta');
  function fact(label, value, id) {
    if (value === undefined || value === null || value === '') return;
    add(meta, el('dt', null, label));
    var dd = add(meta, el('dd', null, value));
    if (id) dd.id = id;
  }
  var run = report.run || {};
  fact('Target', view.target, 'meta-target');
  fact('Store code', target.storeCode + (target.secondStoreCode ? ' (second: ' + target.secondStoreCode + ')' : ''), 'meta-store');
  if (target.tlsVerification) fact('TLS certificates', 'NOT verified (--insecure)', 'meta-insecure');
  fact('Spec version', report.spec.version);
  fact('Suite version', report.suite.name + ' ' + report.suite.version);
  fact('Run id', run.id + (run.shard ? ' (shard ' + run.shard + ')' : ''), 'meta-run');
  fact('Scope', c.scope.text, 'meta-scope');
  if (report.baseline) fact('Baseline', report.baseline.file + ': ' + view.baselineTally, 'meta-baseline');
  fact('Seed', run.seed, 'meta-seed');
  fact('Started', report.startedAt);
  fact('Duration', (report.durationMs / 1000).toFixed(1) + ' s');
  fact('Checks', report.summary.total + ' results on ' + report.summary.endpointsChecked + ' of ' + report.summary.endpointsInCatalog + ' catalog endpoints');
  fact('Settings', (run.readOnly ? 'read-only, ' : '') + 'concurrency ' + run.concurrency + (run.maxRps ? ', at most ' + run.maxRps + ' requests a second' : '') + ', timeout ' + run.timeoutMs + ' ms' +
    (run.maxTimeoutMs ? ' (growing to ' + run.maxTimeoutMs + ' ms at most)' : '') +
    ((run.modules || []).length ? ', modules ' + run.modules.join(' ') : '') + ((run.checks || []).length ? ', checks ' + run.checks.join(' ') : ''));
  // The longest deadline each kind of call was given (lib/shop/deadlines.ts), as the console and summary.md say them.
  if (run.deadlines) {
    var secs = function (ms) { return Number((ms / 1000).toFixed(1)) + ' s'; };
    fact('Deadlines used', 'reads ' + secs(run.deadlines.read) + ', writes ' + secs(run.deadlines.write) + ', heavy writes ' + secs(run.deadlines.heavyWrite), 'meta-deadlines');
  }
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
  // A whole run's columns in its order (html.ts), a cut-short run's too.
  var checks = view.columns.slice();
  var modules = report.certification.modules.map(function (s) { return s.module; });
  results.forEach(function (r) { if (modules.indexOf(r.module) < 0) modules.push(r.module); });
  var statementOf = {};
  report.certification.modules.forEach(function (s) { statementOf[s.module] = s; });
  var tally = {};
  rows.forEach(function (x) {
    var k = x.r.module + '\u0000' + x.r.check;
    var t = tally[k] || (tally[k] = zeroTally());
    t[x.cat]++;
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

`
