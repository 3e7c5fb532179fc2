// A piece of the page's script (see html-script.ts): it runs inside the same function as the rest, after
// html-script.ts's helpers and summary, and shares their variables and functions.
export const MATRIX = String.raw`
  // ---- module x check matrix, with the module statements ----
  var checks = [];
  results.forEach(function (r) { if (checks.indexOf(r.check) < 0) checks.push(r.check); });
  var wfAt = checks.indexOf('workflow');
  if (wfAt >= 0) { checks.splice(wfAt, 1); checks.push('workflow'); }
  var modules = report.certification.modules.map(function (s) { return s.module; });
  results.forEach(function (r) { if (modules.indexOf(r.module) < 0) modules.push(r.module); });
  var statementOf = {};
  report.certification.modules.forEach(function (s) { statementOf[s.module] = s; });
  var tally = {};
  rows.forEach(function (x) {
    var k = x.r.module + '\u0000' + x.r.check;
    var t = tally[k] || (tally[k] = { passed: 0, failed: 0, baselined: 0, 'not-judged': 0, 'not-configured': 0, 'not-applicable': 0, total: 0 });
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
    var tally = { passed: 0, failed: 0, baselined: 0, 'not-judged': 0, 'not-configured': 0, 'not-applicable': 0 };
    g.rows.forEach(function (x) { tally[x.cat]++; });
    var worst = ORDER.filter(function (k) { return tally[k] > 0; })[0] || 'not-applicable';
    add(h, pill(worst));
    add(h, el('span', null, 'workflow ' + g.name));
    add(h, el('span', 'wfmeta', (moduleTitle[g.module] || g.module) + ' \u00b7 ' + plural(g.rows.length, 'step') +
      (tally.failed ? ' \u00b7 ' + tally.failed + ' failed' : '') + (tally['not-judged'] ? ' \u00b7 ' + tally['not-judged'] + ' not judged' : '')));
    g.rows.forEach(function (x) { g.el.appendChild(makeRow(x)); });
  });
  if (groups.length === 0) { $('h-workflows').hidden = true; }
`
