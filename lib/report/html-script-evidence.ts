// A piece of the pages' scripts (report.html: html-script.ts; matrix.html: matrix-script.ts): a result's evidence
// as both pages show it — its spec sections, warnings, access matrix, other details and exchanges, each with a
// curl that repeats it (made by curl.ts and handed to the page) — inside the same function as the rest.
export const EVIDENCE = String.raw`
  // ---- a result's evidence, appended to d; curls: one per exchange ----
  function evidence(d, r, curls) {
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
    xs.forEach(function (e, j) { add(d, exchangeBox(e, curls[j], j, xs.length)); });
  }
  function exchangeBox(e, curl, j, n) {
    var box = el('div', 'exchange');
    var req = e.request || {};
    var h = add(box, el('div', 'xh mono', (n > 1 ? (j + 1) + '/' + n + '  ' : '') + req.method + ' ' + req.url));
    if (e.response) add(h, el('span', 'st pill p-not-applicable', '\u2192 ' + e.response.status));
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
    curlBox(box, curl);
    return box;
  }
  // A curl that repeats a request, with a button that copies it (an exchange's, a server error's).
  function curlBox(box, curl) {
    if (!curl) return;
    var cw = add(box, el('div', 'curl'));
    var bar = add(cw, el('div', 'bar'));
    add(bar, el('h5', null, 'Reproduce with curl'));
    var btn = add(bar, el('button', null, 'Copy'));
    btn.type = 'button';
    var pre = add(cw, el('pre', 'mono curl-cmd', curl));
    btn.addEventListener('click', function () { copy(curl, pre, btn); });
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
`
