// Draws the report's charts (report/charts.py: each .vdi-chart is followed by its vegaEmbed
// call, waiting as inert text under the type this <script>'s data-deferred names): at once for a
// chart within a screen of the view (IntersectionObserver), the others one by one once the page
// has loaded and the browser is idle, and every one left before printing. Drawing all of them
// during the load took 2 s of it at 1366 x 768 (issue 27: the page ready in 1.5 s).
(function () {
  var type = document.currentScript.dataset.deferred;
  function draw(box) {
    var old = box.nextElementSibling;
    if (!old || old.tagName !== "SCRIPT" || old.type !== type) return;  // drawn already
    var s = document.createElement("script");
    s.type = "module";  // after the vega bundle, a module in the head
    s.textContent = old.textContent;
    old.replaceWith(s);
  }
  function all() { return Array.prototype.slice.call(document.querySelectorAll(".vdi-chart")); }
  document.addEventListener("DOMContentLoaded", function () {
    var charts = all();
    if (!("IntersectionObserver" in window)) { charts.forEach(draw); return; }
    var seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) { if (e.isIntersecting) { seen.unobserve(e.target); draw(e.target); } });
    }, { rootMargin: "100% 0px" });
    charts.forEach(function (c) { seen.observe(c); });
    var idle = window.requestIdleCallback || function (f) { return setTimeout(f, 50); };
    function next() {
      var left = all().filter(function (c) { var n = c.nextElementSibling; return n && n.type === type; });
      if (!left.length) return;
      seen.unobserve(left[0]); draw(left[0]); idle(next, { timeout: 2000 });
    }
    window.addEventListener("load", function () { idle(next, { timeout: 2000 }); });
    window.addEventListener("beforeprint", function () { all().forEach(draw); });
  });
})();
