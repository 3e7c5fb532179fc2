// A piece of the pages' scripts (report.html: html-script.ts; matrix.html: matrix-script.ts): the helpers both
// build their pages with, inside the same function as the rest. Every text goes through textContent.
export const DOM = String.raw`
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
  function pretty(body) {
    if (body === undefined) return null;
    if (typeof body === 'string') { try { return JSON.stringify(JSON.parse(body), null, 2); } catch (e) { return body; } }
    return JSON.stringify(body, null, 2);
  }
  function headerText(headers) {
    return Object.keys(headers || {}).map(function (k) { return k + ': ' + headers[k]; }).join('\n');
  }
  // The address (#key=value&...) names what the page shows: a link to it opens it so; a change of it by the page is not followed back.
  var writing = false;
  function writeHash(hash) {
    if (location.hash.slice(1) === hash) return;
    writing = true;
    history.replaceState(null, '', '#' + hash);
    writing = false;
  }
  function readHash() {
    var out = {};
    location.hash.slice(1).split('&').forEach(function (p) {
      var i = p.indexOf('=');
      if (i > 0) { try { out[p.slice(0, i)] = decodeURIComponent(p.slice(i + 1)); } catch (e) { /* a mangled link selects nothing */ } }
    });
    return out;
  }
`
