/**
 * matrix.html's own rules, after report.html's stylesheet (html-style.ts: colours, pills, cells, exchanges, toolbar).
 */
export const MATRIX_STYLE = `
/* As many columns as implementations, each as wide as the next, within the page: texts wrap, nothing scrolls. */
.summary{table-layout:fixed}.summary thead th:first-child{width:15rem}
.summary th.col{vertical-align:top;text-align:left;white-space:normal;font-weight:400;overflow-wrap:anywhere}
.summary .colname{font-weight:700;font-size:.95rem;display:block;margin-bottom:.2rem}
.cverdict{border-radius:6px;border:1px solid;padding:.1rem .4rem;display:flex;flex-wrap:wrap;gap:0 .5rem;align-items:baseline}
.cverdict .cpct{font-size:1.15rem;font-weight:700;white-space:nowrap}.cverdict .ctext{font-size:.8rem;font-weight:600;text-transform:uppercase}
.cnote{color:var(--muted);font-size:.78rem;margin-top:.15rem}.cnote.partial{color:var(--accent)}
.summary td.stmt{font-size:.82rem}.summary th.mod{white-space:normal}.summary td.stmt.empty{color:#c4c9cf;text-align:center}
.summary tfoot th{text-align:left;font-weight:500}.summary td.counts{font-size:.82rem;font-variant-numeric:tabular-nums}.summary td.counts .k{margin-right:.6rem;white-space:nowrap;display:inline-block}
.summary thead th:first-child{text-align:left;vertical-align:bottom}
.k-not-run{color:var(--ns)}
.history{border:1px solid var(--accent);background:#f3f9ff;border-radius:8px;padding:.4rem .9rem .6rem;margin:.8rem 0}
.history .hbar{display:flex;justify-content:space-between;align-items:center}.history h2{margin:.2rem 0;font-size:1rem}
.history .hbar button{border:1px solid var(--line);background:#fff;border-radius:6px;padding:.1rem .6rem}
.history ol{margin:.2rem 0;padding-left:1.3rem}.history .run{margin:.3rem 0}.history .run.shown .rhead{font-weight:600}
.history ul{margin:.1rem 0;padding-left:1.1rem;font-size:.85rem}
.toolbar label.differ{font-weight:600}.toolbar input[type=checkbox]{width:auto;vertical-align:middle}
/* The grid's head stays in view while its rows scroll (the toolbar does not, here): no scrolling box around it,
   and a fixed layout, so that an opened cell's long evidence wraps instead of widening the table. */
.toolbar{position:static}
.grid-wrap{margin-top:.5rem}
.grid{border-collapse:collapse;width:100%;font-size:.85rem;table-layout:fixed}
.grid th.rlabel{width:28%}
.grid th,.grid td{border:1px solid var(--line);padding:.2rem .45rem;vertical-align:middle}
.grid thead th{background:var(--bg2);position:sticky;top:0;z-index:2;text-align:center;overflow-wrap:anywhere}
.grid thead th.rlabel{text-align:left}
.grid tr.group th{background:#eef3f8;text-align:left;font-weight:600;padding-top:.35rem}
.grid td.rlabel{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.grid td.mc{text-align:center;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;cursor:pointer}
.grid td.mc:hover,.grid td.mc:focus{outline:2px solid var(--accent);outline-offset:-2px}
.grid td.mc.selected{outline:3px solid var(--accent);outline-offset:-3px}
.grid td.mc.baselined{color:#8250df}
.cell-not-run{background:#fff;color:var(--ns);font-style:italic}
.grid tr.differs td.rlabel{font-weight:600}
.grid tr.evidence>td{background:#fff;padding:0}
.grid tr.evidence .detail{border-top:0}
.grid .ehead{display:flex;gap:.4rem;align-items:center;margin:.2rem 0 .4rem}
.mrow.flash td{animation:flash 1.6s ease-out}
`
