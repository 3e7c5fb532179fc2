// A piece of the page's script (see html-script.ts): it runs inside the same function as the rest, after
// html-script-detail.ts's details; it closes the function, and shares their variables and functions.
export const FILTER = String.raw`
  // ---- filtering ----
  function matches(x, f) {
    if (f.status === 'warnings') { if (!(x.r.warnings || []).length) return false; }
    else if (f.status === 'attention') { if (x.cat !== 'failed' && x.cat !== 'error' && x.cat !== 'not-judged' && x.cat !== 'not-configured') return false; }
    else if (f.status && x.cat !== f.status) return false;
    if (f.module && x.r.module !== f.module) return false;
    if (f.check && x.r.check !== f.check) return false;
    if (f.q && x.hay.indexOf(f.q) < 0) return false;
    return true;
  }
  function current() { return { status: fStatus.value, module: fModule.value, check: fCheck.value, q: fSearch.value.trim().toLowerCase() }; }
  // quiet: the address is left as it is (a page that opens on no filter of its own).
  function apply(quiet) {
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
    if (!quiet) writeHash(filterHash(f));
  }
  function setFilters(f) {
    fStatus.value = f.status || '';
    fModule.value = f.module || '';
    fCheck.value = f.check || '';
    fSearch.value = f.q || '';
    apply();
  }
  function scrollToResults() { $('toolbar').scrollIntoView({ block: 'start' }); }
  [fStatus, fModule, fCheck].forEach(function (s) { s.addEventListener('change', function () { apply(); }); });
  var searchTimer = null;
  fSearch.addEventListener('input', function () { clearTimeout(searchTimer); searchTimer = setTimeout(apply, 120); });
  $('clear').addEventListener('click', function () { setFilters({}); });

  // ---- deep links: the URL hash names a result (#result=<id>) or a filter (#status=failed&module=quote) ----
  function filterHash(f) {
    var parts = [];
    ['status', 'module', 'check', 'q'].forEach(function (k) { if (f[k]) parts.push(k + '=' + encodeURIComponent(f[k])); });
    if (!f.status) parts.unshift('status=all');
    return parts.join('&');
  }
  var byId = {};
  rows.forEach(function (x) { byId[x.r.id] = x; });
  function followHash() {
    var h = readHash();
    if (h.result !== undefined && byId[h.result]) { jumpTo(byId[h.result]); return true; }
    if (h.status !== undefined || h.module || h.check || h.q) {
      setFilters({ status: h.status === 'all' ? '' : h.status, module: h.module, check: h.check, q: h.q });
      return true;
    }
    return false;
  }
  window.addEventListener('hashchange', function () { if (!writing) followHash(); });

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
    writeHash('result=' + encodeURIComponent(x.r.id));
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

  // What needs a look comes first: without a link, the page opens on the failures and the unjudged checks
  // (all judged results when there are none), never on every row of the run. A run that never started has no
  // result to filter: it opens on its reason (the verdict box and the run's problems above), and says it here.
  // A run cut short opens on its failures and unjudged checks too, those it never reached included (issue 31.9).
  var neverStarted = view.story.kind === 'not made';
  if (neverStarted) $('empty').textContent = 'No result: the run never started (' + (report.runErrors || [])[0] + ').';
  else if (view.unreached > 0) $('empty').textContent = 'No result matches these filters. ' + view.unreached + (view.unreached === 1 ? ' required check has' : ' required checks have') + ' no result: the run ended before them (not judged; see "not judged, by reason" above).';
  if (!followHash()) {
    if (neverStarted) { fStatus.value = ''; apply(true); $('run-errors').scrollIntoView({ block: 'start' }); }
    else setFilters({ status: count.failed + count.error + extra.error + count['not-judged'] + count['not-configured'] + view.unreached > 0 ? 'attention' : 'passed' });
  }
  document.documentElement.setAttribute('data-ready', 'true');
})();
`
