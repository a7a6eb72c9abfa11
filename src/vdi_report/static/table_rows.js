// VdiRows.writer(tbody, columns): a function that writes rows into a calculator's table body
// (report/calculator.py puts this script before calculator.js; verdict_calculator.js uses it too).
// rows: [{attrs: {"data-phase": ..., ...}, cells: [{value: data-value text, html: cell HTML}]}],
// one cell per column, in the order of `columns` (each <td> gets data-col and data-value).
// The body is written whole only when the rows themselves change (their attributes); otherwise
// only the cells whose text changed are rewritten: parsing a whole table again on every
// keystroke took 4.5 ms of the 2 ms a keystroke may take (issue 27). write([]) empties the body.
// VdiRows.integer(x): x rounded, with thousands separators ("12,345"), for both tables' figures.
(function (root) {
  // one formatter for every figure: Number.toLocaleString built one per call (8 ms a keystroke)
  var INTEGER = new Intl.NumberFormat("en-US");
  function integer(x) { return INTEGER.format(Math.round(x)); }
  function attr(s) { return String(s).replace(/&/g, "&amp;").replace(/"/g, "&quot;"); }
  function writer(body, columns) {
    var shape = null, tds = [], last = [];
    return function write(rows) {
      var s = rows.map(function (r) { return JSON.stringify(r.attrs); }).join("\n");
      if (s !== shape) {
        body.innerHTML = rows.map(function (r) {
          var a = Object.keys(r.attrs).map(function (k) { return " " + k + "=\"" + attr(r.attrs[k]) + "\""; });
          return "<tr" + a.join("") + ">" + r.cells.map(function (x, j) {
            return "<td data-col=\"" + columns[j] + "\" data-value=\"" + attr(x.value) + "\">" + x.html + "</td>";
          }).join("") + "</tr>";
        }).join("");
        tds = Array.prototype.map.call(body.rows, function (tr) { return tr.cells; });
        shape = s; last = rows;
        return;
      }
      rows.forEach(function (r, i) {
        r.cells.forEach(function (x, j) {
          var was = last[i].cells[j];
          if (x.html !== was.html) {  // plain text (most cells) is set as text: no HTML parser
            if (/[&<]/.test(x.html)) { tds[i][j].innerHTML = x.html; } else { tds[i][j].textContent = x.html; }
          }
          if (x.value !== was.value) { tds[i][j].setAttribute("data-value", x.value); }
        });
      });
      last = rows;
    };
  }
  root.VdiRows = { writer: writer, integer: integer };
})(typeof window !== "undefined" ? window : this);
