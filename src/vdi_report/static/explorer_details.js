// The evidence explorer's details rows: a click (or Enter) on a record shows the columns not
// shown, under it; #record=ID shows one record. report/explorer.py inlines this module with
// __TABLE__ (the table's id) and __DETAILS__ (column name -> index, JSON) filled in.
(async () => {
  await new Promise(r => window._itables_underscore_version ? r()
    : window.addEventListener("itables-version-ready", () => r(), {once: true}));
  const { jQuery: $ } = await window._itables_underscore_version;
  const DataTable = $.fn.dataTable;
  // the table DataTables drives (its scrolling header is a second element with the same id)
  const find = () => Array.from(DataTable.tables()).find(t => t.id === "__TABLE__");
  const details = __DETAILS__;
  const esc = s => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const api = () => $(table).DataTable();
  function toggle(tr) {
    const row = api().row(tr);
    if (!row.any()) return;
    const open = row.child.isShown();
    tr.classList.toggle("vdi-open", !open);
    tr.setAttribute("aria-expanded", String(!open));
    if (open) { row.child.hide(); return; }
    const data = row.data();
    const items = Object.entries(details).filter(([, i]) => data[i] !== "")
      .map(([name, i]) => "<dt>" + esc(name) + "</dt><dd>" + esc(data[i]) + "</dd>").join("");
    row.child('<dl class="vdi-details">' + items + "</dl>").show();
  }
  const rowOf = e => {
    const tr = e.target.closest("tbody tr");
    return tr && !tr.querySelector(".vdi-details") ? tr : null;
  };
  function mark() {
    table.querySelectorAll("tbody tr").forEach(tr => {
      if (tr.querySelector(".vdi-details") || tr.hasAttribute("tabindex")) return;
      tr.tabIndex = 0;
      tr.setAttribute("aria-expanded", "false");
      tr.title = "Click or Enter: test, statistic, vantage, condition, locator, line, why not used";
    });
  }
  await new Promise(r => {
    const t = setInterval(() => { if (find()) { clearInterval(t); r(); } }, 50);
  });
  const table = find();
  table.addEventListener("click", e => { const tr = rowOf(e); if (tr) toggle(tr); });
  table.addEventListener("keydown", e => { const tr = rowOf(e); if (tr && e.key === "Enter") toggle(tr); });
  $(table).on("draw.dt", mark);
  mark();
  // With scrolling, DataTables shows a copy of the footer (and copies it again as it redraws):
  // a filter box in any copy filters its column (listened to on the scroller, so copies count).
  const scroller = table.closest(".dt-scroll");
  const filter = e => {
    const box = e.target.closest("tfoot input"), th = box && box.closest("th");
    if (!th) return;
    const col = api().column(Array.prototype.indexOf.call(th.parentElement.children, th) + ":visIdx");
    if (col.search() !== box.value) col.search(box.value).draw();
  };
  scroller?.addEventListener("keyup", filter);
  scroller?.addEventListener("change", filter);
  // A record id anywhere in the report links here as #record=ID: the explorer shows that record
  // alone (its Record column matched exactly, other searches cleared), opened, in view.
  function showRecord() {
    const m = /^#record=([A-Z][A-Z0-9]*-[0-9]{4})$/.exec(location.hash);
    if (!m) return;
    const dt = api();
    dt.search("");
    dt.columns().search("");
    dt.column(0).search("^" + m[1] + "$", true, false).draw();
    const tr = table.querySelector("tbody tr[tabindex]");
    if (tr && dt.rows({search: "applied"}).count() === 1 && tr.getAttribute("aria-expanded") !== "true") toggle(tr);
    document.getElementById("evidence-explorer").scrollIntoView();
  }
  window.addEventListener("hashchange", showRecord);
  showRecord();
})();
