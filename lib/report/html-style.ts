/** report.html's stylesheet, inlined in the page's `<style>` (the page loads nothing: see html.ts). */
export const STYLE = `
:root{--fg:#1f2328;--muted:#656d76;--line:#d0d7de;--bg2:#f6f8fa;--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--nj:#9a6700;--nj-bg:#fff8c5;--ns:#6e7781;--ns-bg:#eef1f4;--err:#bc4c00;--err-bg:#fff1e5;--accent:#0969da}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;padding:1.25rem 1.5rem 4rem;max-width:1320px;color:var(--fg);background:#fff}
h1{font-size:1.5rem;margin:0}h2{font-size:1.15rem;margin:1.6rem 0 .5rem}
button{font:inherit;cursor:pointer}
code,pre,.mono{font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.top{display:flex;gap:1.5rem;align-items:stretch;justify-content:space-between;flex-wrap:wrap}
.sub{color:var(--muted);margin-top:.3rem}
.verdict{border-radius:10px;padding:.7rem 1.1rem;min-width:270px;border:2px solid;text-align:right}
.verdict .pct{font-size:2rem;font-weight:700;line-height:1.1}
.verdict .vtext{font-size:1.05rem;font-weight:600;text-transform:uppercase;letter-spacing:.03em}
.verdict .vnote{color:var(--muted);font-size:.85rem}
.v-conforms{border-color:var(--pass);background:var(--pass-bg);color:var(--pass)}
.v-does-not-conform{border-color:var(--fail);background:var(--fail-bg);color:var(--fail)}
.v-incomplete{border-color:#bf8700;background:var(--nj-bg);color:var(--nj)}
.v-not-run{border-color:var(--ns);background:var(--ns-bg);color:var(--ns)}
.v-partial{border-color:var(--accent);background:#ddf4ff;color:var(--accent)}
.verdict .vscope,.verdict .vexit{font-size:.85rem;color:var(--fg);max-width:30rem;margin-left:auto}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.6rem;margin:1rem 0}
.card{border:1px solid var(--line);border-left:6px solid var(--ns);border-radius:8px;padding:.5rem .8rem;background:#fff;text-align:left;display:flex;flex-direction:column;justify-content:flex-start}
.card:hover{background:var(--bg2)}
.card .n{font-size:1.6rem;font-weight:700;display:block}.card .l{color:var(--muted)}.card .ext{display:block;font-size:.8rem;color:var(--muted)}
.card.c-passed{border-left-color:var(--pass)}.card.c-failed{border-left-color:var(--fail)}.card.c-error{border-left-color:var(--err)}.card.c-not-judged{border-left-color:#d4a72c}.card.c-not-configured{border-left-color:#6e7781}.card.c-warnings{border-left-color:#bf8700}
.card.c-failed.nonzero .n{color:var(--fail)}.card.c-error.nonzero .n{color:var(--err)}
.failures,.errors{border:1px solid var(--fail);background:var(--fail-bg);border-radius:8px;padding:.5rem .9rem;margin:.5rem 0}
.failures h2,.errors h2{margin:.2rem 0 .4rem;font-size:1rem;color:var(--fail)}
.notes{border:1px solid #d4a72c;background:var(--nj-bg);border-radius:8px;padding:.5rem .9rem;margin:.5rem 0}.notes h2{margin:.2rem 0 .4rem;font-size:1rem;color:var(--nj)}.notes ul,.errors ul{margin:0;padding-left:1.4rem}
.failures ol{margin:0;padding-left:1.4rem}.failures li{margin:.15rem 0}
.linkish{background:none;border:0;padding:0;color:var(--accent);text-align:left;font:inherit}.linkish:hover{text-decoration:underline}
.meta dl,#meta{display:grid;grid-template-columns:max-content 1fr max-content 1fr;gap:.2rem 1rem;margin:.5rem 0;padding:.6rem .9rem;background:var(--bg2);border-radius:8px}
#meta dt{color:var(--muted)}#meta dd{margin:0;overflow-wrap:anywhere}#meta dd.wide{grid-column:2 / -1}
.leftovers summary{cursor:pointer;color:var(--accent)}.leftovers ul{margin:.2rem 0;padding-left:1.2rem;font-size:.85rem}
.hint{color:var(--muted);margin:.2rem 0 .6rem}
.matrix-wrap{overflow-x:auto}
.matrix{border-collapse:collapse;width:100%}
.matrix th,.matrix td{border:1px solid var(--line);padding:.25rem .45rem;vertical-align:middle}
.matrix thead th{background:var(--bg2);font-weight:600;font-size:.85rem}
.matrix th.mod{text-align:left;font-weight:500;font-size:.9rem;min-width:9rem;max-width:15rem}
.matrix .stmt{font-size:.8rem;min-width:9rem;max-width:15rem}
.matrix td.cell{text-align:center;cursor:pointer;min-width:3.5rem;font-variant-numeric:tabular-nums}
.matrix td.cell .k{white-space:nowrap;display:inline-block}
.matrix td.cell:hover,.matrix td.cell:focus{outline:2px solid var(--accent);outline-offset:-2px}
.matrix td.cell.selected{outline:3px solid var(--accent);outline-offset:-3px}
.matrix td.empty{background:#fff;color:#c4c9cf;cursor:default}
.cell-failed{background:var(--fail-bg)}.cell-error{background:var(--err-bg)}.cell-not-judged{background:var(--nj-bg)}.cell-not-configured{background:#f0f1f3}.cell-baselined{background:#fbefff}.cell-passed{background:var(--pass-bg)}.cell-not-applicable{background:var(--ns-bg)}
.cell .k{margin:0 .2rem}.k-failed{color:var(--fail);font-weight:700}.k-error{color:var(--err);font-weight:700}.k-not-judged{color:var(--nj);font-weight:600}.k-not-configured{color:#57606a;font-weight:600}.k-baselined{color:#8250df}.k-passed{color:var(--pass)}.k-not-applicable{color:var(--ns)}
.matrix .clickable{cursor:pointer}.matrix .clickable:hover{text-decoration:underline}
.legend{color:var(--muted);font-size:.85rem;margin-top:.4rem}.legend span{margin-right:1rem}
.pill{display:inline-block;border-radius:999px;padding:0 .55rem;font-size:.78rem;font-weight:600;white-space:nowrap;border:1px solid transparent;text-align:center}
.p-passed,.p-conforms{background:var(--pass-bg);color:var(--pass);border-color:#aceebb}
.p-failed,.p-does-not-conform{background:var(--fail-bg);color:var(--fail);border-color:#ffcecb}
.p-error{background:var(--err-bg);color:var(--err);border-color:#ffd8b5}
.p-not-judged,.p-incomplete{background:var(--nj-bg);color:var(--nj);border-color:#f5e0a0}
.p-not-configured{background:#f0f1f3;color:#57606a;border-color:#d0d7de}
.p-not-applicable,.p-not-run{background:var(--ns-bg);color:var(--ns);border-color:var(--line)}
.p-baselined{background:#fbefff;color:#8250df;border-color:#eed7ff}.p-partial{background:#ddf4ff;color:var(--accent);border-color:#b6e3ff}
.toolbar{position:sticky;top:0;z-index:5;background:#fff;border-bottom:1px solid var(--line);padding:.5rem .6rem;margin:1.2rem -.6rem 0}
.tb-row{display:flex;flex-wrap:wrap;gap:.4rem .8rem;align-items:center}.tb-row+.tb-row{margin-top:.4rem}
.toolbar label{white-space:nowrap}
.toolbar select,.toolbar input{font:inherit;padding:.15rem .3rem;max-width:12rem}
.toolbar input{width:10rem}
.toolbar button{border:1px solid var(--line);background:var(--bg2);border-radius:6px;padding:.2rem .6rem}
.toolbar button.jump{border-color:#ffcecb;background:var(--fail-bg);color:var(--fail);font-weight:600}
.toolbar button:disabled{opacity:.45;cursor:default}
.count{color:var(--muted);margin-left:auto}
.row{border:1px solid var(--line);border-left:5px solid var(--ns);border-radius:6px;margin:.25rem 0;scroll-margin-top:6.5rem;background:#fff;content-visibility:auto;contain-intrinsic-size:auto 2.1rem}
.row.r-passed{border-left-color:var(--pass)}.row.r-failed{border-left-color:var(--fail)}.row.r-error{border-left-color:var(--err)}.row.r-not-judged{border-left-color:#d4a72c}.row.r-not-configured{border-left-color:#6e7781}.row.r-baselined{border-left-color:#8250df}
.row.current{outline:3px solid var(--fail);outline-offset:1px}
.row.flash{animation:flash 1.6s ease-out}
@keyframes flash{0%{background:#ffd8d3}100%{background:#fff}}
.head{display:grid;grid-template-columns:6.2rem 3.6rem minmax(0,2.2fr) 6.8rem minmax(0,3fr);gap:.6rem;align-items:center;width:100%;background:none;border:0;padding:.3rem .6rem;text-align:left;color:inherit}
.head:hover{background:var(--bg2)}
.head .method{font-weight:600}.head .path,.head .msg{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.head .msg{color:var(--muted)}.r-failed .head .msg{color:var(--fail)}
.head .chk{color:var(--muted)}
.wf{border:1px solid var(--line);border-radius:8px;margin:.6rem 0;padding:.3rem .6rem .5rem;background:var(--bg2)}
.wf h3{font-size:1rem;margin:.3rem 0 .4rem;display:flex;gap:.6rem;align-items:center;flex-wrap:wrap}
.wf .wfmeta{color:var(--muted);font-weight:400;font-size:.85rem}
.wf .row .head{grid-template-columns:6.2rem minmax(0,2.4fr) minmax(0,2fr) minmax(0,2.6fr)}
.detail{border-top:1px solid var(--line);padding:.6rem .9rem .8rem}
.detail .message{white-space:pre-wrap;overflow-wrap:anywhere;margin:.2rem 0 .6rem;font-size:.95rem}
.r-failed .detail .message{color:var(--fail)}
.detail h4{margin:.8rem 0 .3rem;font-size:.9rem}
.detail ul{margin:.2rem 0;padding-left:1.3rem}
.kv{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;font-size:.85rem;color:var(--muted)}.kv dd{margin:0;color:var(--fg);overflow-wrap:anywhere}
.access{border-collapse:collapse;font-size:.85rem;margin:.2rem 0}
.access th,.access td{border:1px solid var(--line);padding:.15rem .5rem;text-align:left;vertical-align:top}
.access th{background:var(--bg2)}.access tr.bad td{background:var(--fail-bg)}.access td.answer{max-width:38rem;overflow-wrap:anywhere}
.exchange{border:1px solid var(--line);border-radius:6px;margin:.5rem 0;overflow:hidden}
.exchange .xh{background:var(--bg2);padding:.3rem .6rem;font-weight:600;overflow-wrap:anywhere}
.exchange .xh .st{margin-left:.4rem}
.xcols{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0}
.xcols>div{padding:.3rem .6rem;min-width:0}.xcols>div+div{border-left:1px solid var(--line)}
.xcols h5{margin:.2rem 0;font-size:.8rem;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
pre{margin:.2rem 0;white-space:pre-wrap;overflow-wrap:anywhere;background:var(--bg2);padding:.4rem .5rem;border-radius:4px;max-height:22rem;overflow:auto}
.curl{border-top:1px solid var(--line);padding:.3rem .6rem .5rem}
.curl pre{background:#0d1117;color:#e6edf3}
.curl .bar{display:flex;justify-content:space-between;align-items:center}
.curl button{border:1px solid var(--line);background:#fff;border-radius:5px;padding:0 .5rem;font-size:.8rem}
.warn{color:var(--nj)}
.empty{color:var(--muted);font-style:italic}
@media (max-width:900px){.cards{grid-template-columns:repeat(2,minmax(0,1fr))}#meta{grid-template-columns:max-content 1fr}.xcols{grid-template-columns:1fr}.xcols>div+div{border-left:0;border-top:1px solid var(--line)}.head{grid-template-columns:6rem 3.4rem minmax(0,1fr)}.head .chk,.head .msg{display:none}}
`
