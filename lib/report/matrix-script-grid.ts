// A piece of matrix.html's script (see matrix-script.ts): the grid of results, a cell's evidence and the filters.
// It runs inside the same function as the rest, after the summary, and closes the function.
export const GRID = String.raw`
  // ---- the grid: one row per result id, grouped by module and check; one cell per implementation ----
  var grid = $('grid');
  var ghr = add(add(grid, el('thead')), el('tr'));
  add(ghr, el('th', 'rlabel', 'Result'));
  columns.forEach(function (col, c) {
    var th = add(ghr, el('th', 'colhead'));
    th.setAttribute('data-col', String(c));
    var b = add(th, el('button', 'linkish', col.label));
    b.type = 'button';
    b.title = historyTitle(c);
    b.addEventListener('click', function () { showHistory(c); });
    add(th, el('div', null, '')).appendChild(pill(col.certification.verdict, col.certification.percent + '%'));
  });
  var gbody = add(grid, el('tbody'));
  var rows = [], groups = [], byId = {};
  rowsData.forEach(function (row, i) {
    var key = row.module + '\u0000' + row.check;
    var g = groups[groups.length - 1];
    if (!g || g.key !== key) {
      g = { key: key, rows: [], el: add(gbody, el('tr', 'group')) };
      var th = add(g.el, el('th', null, (moduleTitle[row.module] || row.module) + ' \u203a ' + row.check));
      th.colSpan = columns.length + 1;
      groups.push(g);
    }
    var tr = add(gbody, el('tr', 'mrow' + (row.differs ? ' differs' : '')));
    tr.setAttribute('data-id', row.id);
    var label = add(tr, el('td', 'rlabel mono', row.label));
    label.title = row.id;
    var x = { row: row, i: i, el: tr, cells: [], detail: null, open: -1 };
    row.cells.forEach(function (cell, c) {
      var td = add(tr, el('td', 'mc cell-' + slug(cell.outcome) + (cell.baselined ? ' baselined' : '')));
      td.setAttribute('data-col', String(c));
      td.setAttribute('data-outcome', cell.outcome);
      td.tabIndex = 0;
      td.textContent = SYMBOL[cell.outcome] + ' ' + cell.outcome + (cell.baselined ? ' \u2298' : '');
      td.title = columns[c].label + ': ' + cell.outcome + (cell.baselined ? ' (listed in its report\'s baseline)' : '') + (cell.message ? ' \u2014 ' + cell.message : '') + '. Click for the evidence.';
      var go = function () { openCell(x, c); };
      td.addEventListener('click', go);
      td.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(); } });
      x.cells.push(td);
    });
    g.rows.push(x);
    rows.push(x);
    byId[row.id] = x;
  });

  // ---- a cell's evidence, from its column's report, under its row ----
  function openCell(x, c, quiet) {
    if (x.detail && x.open === c) { closeCell(x); if (!quiet) writeHash(filterHash(current())); return; }
    closeCell(x);
    x.open = c;
    x.cells[c].classList.add('selected');
    x.detail = el('tr', 'evidence');
    x.detail.setAttribute('data-col', String(c));
    var td = add(x.detail, el('td'));
    td.colSpan = columns.length + 1;
    td.appendChild(cellDetail(x, c));
    x.el.parentNode.insertBefore(x.detail, x.el.nextSibling);
    if (!quiet) writeHash('cell=' + c + '~' + encodeURIComponent(x.row.id));
  }
  function closeCell(x) {
    if (!x.detail) return;
    x.detail.parentNode.removeChild(x.detail);
    x.cells[x.open].classList.remove('selected');
    x.detail = null;
    x.open = -1;
  }
  function cellDetail(x, c) {
    var cell = x.row.cells[c], col = columns[c], r = view.columns[c].evidence[x.i];
    var d = el('div', 'detail');
    var h = add(d, el('h4', 'ehead'));
    add(h, pill(cell.outcome));
    add(h, el('span', null, ' ' + col.label + ' \u00b7 ' + x.row.id));
    if (r) add(d, el('p', 'message', r.message));
    var kv = add(d, el('dl', 'kv'));
    function pair(k, v) { add(kv, el('dt', null, k)); add(kv, el('dd', 'mono', v)); }
    pair('report', col.report.file + ' (run ' + col.report.runId + ', ' + day(col.report.startedAt) + ', suite ' + col.report.suiteVersion + ')');
    if (r && r.reason) pair('not judged', view.reasons[r.reason] || r.reason);
    if (cell.baselined) pair('baseline', 'listed in the report\'s baseline: it failed, and did not fail that run');
    var ts = view.columns[c].changed[x.row.id];
    pair('history here', ts ? ts.map(function (t) { return t.status + ' (' + day(t.date) + ', run ' + t.runId + ')'; }).join(' \u2192 ') : 'the same in every run taken (' + view.columns[c].runs.length + ')');
    if (!r && view.columns[c].carried) add(d, el('p', 'message', (cell.message ? cell.message + ' \u2014 ' : '') + 'carried from the earlier matrix (--history): the evidence is in ' + col.report.file + '.'));
    else if (!r) add(d, el('p', 'message', 'Not run: ' + col.report.file + ' has no result ' + x.row.id + ' (a suite version without this check, a slice, or a run cut short). It is not counted as passed.'));
    else evidence(d, r, r.curls || []);
    return d;
  }

  // ---- filters ----
  var fDiffer = $('f-differ'), fModule = $('f-module'), fCheck = $('f-check'), fStatus = $('f-status');
  matrix.modules.forEach(function (m) { var o = add(fModule, el('option', null, m.title)); o.value = m.id; });
  matrix.checks.forEach(function (ch) { var o = add(fCheck, el('option', null, ch)); o.value = ch; });
  ORDER.forEach(function (k) {
    if (!columns.some(function (col) { return col.counts[k] > 0; })) return;
    var o = add(fStatus, el('option', null, 'in some column: ' + k));
    o.value = k;
  });
  function current() { return { differ: fDiffer.checked, module: fModule.value, check: fCheck.value, status: fStatus.value }; }
  function matches(x, f) {
    if (f.differ && !x.row.differs) return false;
    if (f.module && x.row.module !== f.module) return false;
    if (f.check && x.row.check !== f.check) return false;
    if (f.status && !x.row.cells.some(function (cell) { return cell.outcome === f.status; })) return false;
    return true;
  }
  function apply(quiet) {
    var f = current(), shown = 0;
    rows.forEach(function (x) {
      var ok = matches(x, f);
      x.el.hidden = !ok;
      if (!ok) closeCell(x);
      if (ok) shown++;
    });
    groups.forEach(function (g) { g.el.hidden = !g.rows.some(function (x) { return !x.el.hidden; }); });
    $('count').textContent = 'showing ' + shown + ' of ' + rows.length + ' results (' + matrix.scope.differing + ' differ)';
    $('empty').hidden = shown > 0;
    if (!quiet) writeHash(filterHash(f));
  }
  function setFilters(f, quiet) {
    fDiffer.checked = !!f.differ;
    fModule.value = f.module || '';
    fCheck.value = f.check || '';
    fStatus.value = f.status || '';
    apply(quiet);
  }
  function scrollToGrid() { $('toolbar').scrollIntoView({ block: 'start' }); }
  [fDiffer, fModule, fCheck, fStatus].forEach(function (s) { s.addEventListener('change', function () { apply(); }); });
  $('clear').addEventListener('click', function () { setFilters({}); });
  // A row named elsewhere (a column's history): shown, whatever the filters, with the cell of that column open.
  function showRow(id, c) {
    var x = byId[id];
    if (!x) return;
    if (x.el.hidden) setFilters({}, true);
    if (x.open !== c) openCell(x, c);
    x.el.classList.remove('flash');
    void x.el.offsetWidth;
    x.el.classList.add('flash');
    x.el.scrollIntoView({ block: 'center' });
  }

  // ---- the address names the filters (#differ=1&module=quote) or a cell (#cell=2~<result id>) ----
  function filterHash(f) {
    var parts = ['differ=' + (f.differ ? '1' : '0')];
    ['module', 'check', 'status'].forEach(function (k) { if (f[k]) parts.push(k + '=' + encodeURIComponent(f[k])); });
    return parts.join('&');
  }
  function followHash() {
    var h = readHash();
    if (h.cell !== undefined) {
      var at = h.cell.indexOf('~'), c = Number(h.cell.slice(0, at)), x = byId[h.cell.slice(at + 1)];
      if (x && columns[c]) { setFilters({}, true); openCell(x, c, true); x.el.scrollIntoView({ block: 'center' }); return true; }
    }
    if (h.differ !== undefined || h.module || h.check || h.status) { setFilters({ differ: h.differ === '1', module: h.module, check: h.check, status: h.status }, true); return true; }
    return false;
  }
  window.addEventListener('hashchange', function () { if (!writing) followHash(); });

  var legend = $('legend');
  ORDER.forEach(function (k) { add(legend, el('span', 'k-' + slug(k), SYMBOL[k] + ' ' + k)); });
  add(legend, el('span', null, '\u2298 listed in the report\'s baseline'));
  // Opens on where the implementations differ (every row when none does).
  if (!followHash()) setFilters({ differ: matrix.scope.differing > 0 }, true);
  document.documentElement.setAttribute('data-ready', 'true');
})();
`
