// A piece of the page's script (see html-script.ts): it runs inside the same function as the rest, after
// html-script-overview.ts's matrix, and shares their variables and functions. What a result shows as its
// evidence (its exchanges, curl, access matrix) is html-script-evidence.ts's, which matrix.html shows too.
export const DETAIL = String.raw`
  // ---- details, built on first open ----
  function toggle(x, open) {
    var want = open === undefined ? !x.detail || x.detail.hidden : open;
    if (want && !x.detail) { x.detail = buildDetail(x); x.el.appendChild(x.detail); }
    if (x.detail) x.detail.hidden = !want;
    x.head.setAttribute('aria-expanded', want ? 'true' : 'false');
    // An opened result is what the address names, so the address bar is a link to it.
    if (want) writeHash('result=' + encodeURIComponent(x.r.id));
  }
  function buildDetail(x) {
    var r = x.r;
    var d = el('div', 'detail');
    add(d, el('p', 'message', r.message));
    var kv = add(d, el('dl', 'kv'));
    function pair(k, v) { add(kv, el('dt', null, k)); add(kv, el('dd', 'mono', v)); }
    pair('id', r.id);
    add(kv, el('dt', null, 'link'));
    var link = add(kv, el('dd'));
    var a = add(link, el('a', null, 'this result'));
    a.href = '#result=' + encodeURIComponent(r.id);
    a.title = 'The page\'s address with this result selected: send it to point someone at this result';
    pair('module', (moduleTitle[r.module] || r.module) + ' (' + r.module + ')');
    var why = x.cat === 'not-applicable' ? ': the check does not apply to this endpoint'
      : x.cat === 'not-judged' ? ': a required check that could not be judged' + (r.reason ? ' (' + (view.reasons[r.reason] || r.reason) + ')' : '')
        : x.cat === 'not-configured' ? ': a required check not judged, as the run lacks a setting it needs (the message says which)'
        : x.cat === 'error' ? ': the check\'s own code threw (' + (r.origin === 'vendor' ? 'the vendor\'s check' : 'the suite') + '): neither a failure of the shop nor a pass'
        : x.cat === 'baselined' ? ': failed, and listed in the baseline (' + baselineReason[r.id] + '): it does not fail the run, and the run does not conform' : '';
    pair('status', LABEL[x.cat] + why);
    pair('duration', r.durationMs + ' ms');
    evidence(d, r, view.curls[x.i] || []);
    return d;
  }
`
