// The evidence explorer's table is set up when it comes near the screen (IntersectionObserver),
// or at once where the browser has no observer (report/explorer.py: the <script> that runs this
// names the explorer's box and the type its deferred scripts wait under, as data attributes).
// The DataTables bundle (page_head.explorer_bundle_html, in the head) waits under the same type and
// runs first, as a classic script (data-classic); then the box's scripts, as modules, in order.
(function () {
  var me = document.currentScript;
  var box = document.getElementById(me.dataset.box);
  function start() {
    document.querySelectorAll('script[type="' + me.dataset.deferred + '"]').forEach(function (old) {
      var s = document.createElement("script");
      s.type = old.dataset.classic ? "text/javascript" : "module";
      s.textContent = old.textContent;
      old.replaceWith(s);
    });
  }
  if (!("IntersectionObserver" in window)) { start(); return; }
  var seen = new IntersectionObserver(function (entries) {
    if (entries.some(function (e) { return e.isIntersecting; })) { seen.disconnect(); start(); }
  }, { rootMargin: "100% 0px" });
  seen.observe(box);
})();
