// A piece of the page's script (see html-script.ts): it runs inside the same function as the rest, after
// html-script-overview.ts's boxes, and shares their variables and functions.
export const SERVER_ERRORS = String.raw`
  // ---- the server errors the run met: a box of its own (like the shop's schema), never the verdict above ----
  function serverErrorsBox(block, curls) {
    if (!block || !block.answers) return;
    var box = $('server-errors');
    box.hidden = false;
    add(box, el('h2', null, 'Server errors (information: never the certification or the exit status)'));
    add(box, el('p', null, block.text + ' Each request the shop answered with a 5xx, with a curl that repeats it:'));
    (block.entries || []).forEach(function (e, i) {
      var operation = e.endpoint || (e.method + ' ' + e.path);
      var d = add(box, el('details', 'server-error'));
      d.setAttribute('data-operation', operation);
      var times = e.count > 1 ? ' \u00d7' + e.count : '';
      add(d, el('summary', 'mono', operation + ' \u2192 ' + e.status + times + ' \u00b7 ' + e.caller + ' \u00b7 ' + e.message));
      var kv = add(d, el('dl', 'kv'));
      function fact(label, value) {
        if (value === undefined || value === null || value === '') return;
        add(kv, el('dt', null, label));
        add(kv, el('dd', null, value));
      }
      var sent = e.method + ' /rest/' + e.store + e.path + (e.query ? '?' + e.query : '');
      fact('Request', sent + (e.origin === 'extension' ? ' (an extension operation of the shop)' : ''));
      fact('Caller', e.caller);
      fact('The shop answered', e.status + ': ' + e.message);
      fact('Report ID', e.reportId);
      fact('When', e.count > 1 ? e.count + ' times, from ' + e.firstAt + ' to ' + e.lastAt : e.firstAt);
      fact('The body\'s keys', (e.bodyKeys || []).join(', '));
      fact('The shop\'s schema', e.schemaSays);
      fact('Sent by', (e.steps || []).join('; '));
      if ((e.results || []).length) {
        add(kv, el('dt', null, 'In the evidence of'));
        var dd = add(kv, el('dd'));
        e.results.forEach(function (id, k) {
          if (k > 0) add(dd, el('span', null, ', '));
          var b = add(dd, el('button', 'linkish', id));
          b.type = 'button';
          b.addEventListener('click', function () { if (byId[id]) jumpTo(byId[id]); });
        });
        if (e.moreResults) add(dd, el('span', null, ' \u2026 and ' + e.moreResults + ' more'));
      }
      if (e.body !== undefined) add(d, el('pre', 'mono body', pretty(e.body)));
      else if (e.bodyChars) add(d, el('p', null, 'The body sent (' + e.bodyChars + ' characters) was too long to keep: the curl sends none.'));
      curlBox(d, curls[i]);
    });
  }
  serverErrorsBox(report.serverErrors, view.serverErrorCurls || []);
`
