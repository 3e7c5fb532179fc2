import type { Report } from './model.ts'

/**
 * report.html: one self-contained page (no network, no external assets). The report is embedded as JSON
 * and rendered by a small script, so the page and report.json can never disagree.
 */
export function reportHtml(report: Report): string {
  const data = JSON.stringify(report).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Shop conformance report</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#222}
h1{font-size:1.4rem;margin:0 0 .5rem}
.meta{color:#555;margin-bottom:1rem}
.tot span{display:inline-block;margin-right:1rem;font-weight:600}
.passed{color:#1a7f37}.failed{color:#cf222e}.skipped{color:#9a6700}
table{border-collapse:collapse;width:100%;margin-top:1rem}
th,td{border-bottom:1px solid #ddd;padding:.3rem .4rem;text-align:left;vertical-align:top}
tr.r-failed td:first-child{border-left:4px solid #cf222e}tr.r-passed td:first-child{border-left:4px solid #1a7f37}tr.r-skipped td:first-child{border-left:4px solid #9a6700}
code,pre{font:12px/1.35 ui-monospace,monospace}pre{white-space:pre-wrap;background:#f6f8fa;padding:.5rem;max-height:24rem;overflow:auto}
details summary{cursor:pointer}
.filters label{margin-right:1rem}
.matrix td,.matrix th{border:1px solid #ddd}
</style></head>
<body>
<h1>Shop conformance report</h1>
<div class="meta" id="meta"></div>
<div class="tot" id="totals"></div>
<div class="filters">
 <label>Status <select id="f-status"><option value="">all</option><option>failed</option><option>skipped</option><option>passed</option></select></label>
 <label>Module <select id="f-module"><option value="">all</option></select></label>
 <label>Check <select id="f-check"><option value="">all</option></select></label>
</div>
<table><thead><tr><th>Endpoint</th><th>Check</th><th>Status</th><th>Message</th></tr></thead><tbody id="rows"></tbody></table>
<script id="report-data" type="application/json">${data}</script>
<script>
(function(){
var report=JSON.parse(document.getElementById('report-data').textContent);
function el(tag,attrs,text){var e=document.createElement(tag);for(var k in attrs||{})e.setAttribute(k,attrs[k]);if(text!=null)e.textContent=text;return e}
var s=report.summary;
document.getElementById('meta').textContent='Target '+report.target.baseUrl+' · store '+report.target.storeCode+' · spec '+report.spec.version+' · suite '+report.suite.version+' · run '+report.run.id+' · '+(report.durationMs/1000).toFixed(1)+' s';
var tot=document.getElementById('totals');
[['passed',s.passed],['failed',s.failed],['skipped',s.skipped],['warnings',s.warnings]].forEach(function(p){tot.appendChild(el('span',{'class':p[0]},p[1]+' '+p[0]))});
tot.appendChild(el('span',{},s.endpointsChecked+' / '+s.endpointsInCatalog+' endpoints'));
function fill(id,values){var sel=document.getElementById(id);values.forEach(function(v){sel.appendChild(el('option',{},v))})}
function uniq(a){return a.filter(function(v,i){return a.indexOf(v)===i})}
fill('f-module',uniq(report.results.map(function(r){return r.module})));
fill('f-check',uniq(report.results.map(function(r){return r.check})));
function matrix(m){var t=el('table',{'class':'matrix'});var h=el('tr');['caller','expected','seen','answer'].forEach(function(c){h.appendChild(el('th',{},c))});t.appendChild(h);
 Object.keys(m).forEach(function(k){var c=m[k];var tr=el('tr',{'class':c.ok===false?'failed':''});[k,c.expected,c.seen,c.answer].forEach(function(v){tr.appendChild(el('td',{},v))});t.appendChild(tr)});return t}
function render(){
 var st=document.getElementById('f-status').value,mo=document.getElementById('f-module').value,ch=document.getElementById('f-check').value;
 var body=document.getElementById('rows');body.textContent='';
 report.results.forEach(function(r){
  if(st&&r.status!==st||mo&&r.module!==mo||ch&&r.check!==ch)return;
  var tr=el('tr',{'class':'r-'+r.status,'data-id':r.id});
  tr.appendChild(el('td',{},r.endpoint.method+' '+r.endpoint.path+(r.endpoint.alias?' (as '+r.endpoint.alias+')':'')));
  tr.appendChild(el('td',{},r.check));tr.appendChild(el('td',{'class':r.status},r.status));
  var td=el('td');var d=el('details');d.appendChild(el('summary',{},r.message));
  d.appendChild(el('div',{},'Spec: '+r.spec.join('; ')));
  if(r.details&&r.details.matrix)d.appendChild(matrix(r.details.matrix));
  (r.warnings||[]).forEach(function(w){d.appendChild(el('div',{'class':'skipped'},'Warning: '+w))});
  r.exchanges.forEach(function(x){d.appendChild(el('pre',{},x.request.method+' '+x.request.url+'\\n'+(x.request.body!==undefined?JSON.stringify(x.request.body)+'\\n':'')+'→ '+(x.response?x.response.status+' '+JSON.stringify(x.response.body):'error: '+x.error)))});
  td.appendChild(d);tr.appendChild(td);body.appendChild(tr)});
}
['f-status','f-module','f-check'].forEach(function(id){document.getElementById(id).addEventListener('change',render)});
if(s.failed>0)document.getElementById('f-status').value='failed';
render();
})();
</script>
</body></html>
`
}
