/* The studio page's layout: the splitter between the editor and the panels below it (dragged, or
   the arrow keys), and, below 900 px wide, the buttons that choose the one part shown
   (studio.css). Both are kept in the browser's storage between visits. studio.js calls
   window.StudioLayout.splitter() and views(), which gives the function that shows a part. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };

  // ------------------------------------------------------------ layout: the splitter, the narrow views
  var SPLIT_KEY = "cardrules.studio.panels-height", VIEW_KEY = "cardrules.studio.view", SPLIT_STEP = 24;
  // (nothing kept where the browser keeps no storage: a private window)
  function keepPref(key, value) { try { localStorage.setItem(key, String(value)); } catch (e) { /* private mode */ } }
  function recall(key) { try { return localStorage.getItem(key); } catch (e) { return null; } }

  // the panels' height in pixels, kept between the tabs' contents and the editor's room
  function splitter() {
    var bar = $("splitter"), root = document.documentElement;
    if (!bar) return;
    var wanted = Number(recall(SPLIT_KEY)) || window.innerHeight * 0.3, now = 0;
    function bounds() { return [72, Math.max(120, window.innerHeight - 200)]; }
    function set(px, keep) {
      var b = bounds();
      now = Math.round(Math.min(Math.max(px, b[0]), b[1]));
      root.style.setProperty("--measure-h", now + "px");
      bar.setAttribute("aria-valuemin", b[0]); bar.setAttribute("aria-valuemax", b[1]); bar.setAttribute("aria-valuenow", now);
      if (keep) { wanted = now; keepPref(SPLIT_KEY, now); }
    }
    set(wanted, false);
    bar.addEventListener("pointerdown", function (e) {
      if (e.button !== 0) return;
      e.preventDefault();
      var y0 = e.clientY, h0 = now;
      bar.setPointerCapture(e.pointerId); bar.focus();
      document.body.classList.add("resizing");
      function move(ev) { set(h0 + y0 - ev.clientY, false); }
      function up(ev) {
        set(h0 + y0 - ev.clientY, true);
        document.body.classList.remove("resizing");
        bar.removeEventListener("pointermove", move); bar.removeEventListener("pointerup", up); bar.removeEventListener("pointercancel", up);
      }
      bar.addEventListener("pointermove", move); bar.addEventListener("pointerup", up); bar.addEventListener("pointercancel", up);
    });
    bar.addEventListener("keydown", function (e) {
      var step = e.shiftKey ? SPLIT_STEP * 4 : SPLIT_STEP;
      var to = { ArrowUp: now + step, ArrowDown: now - step, Home: 0, End: Infinity }[e.key];
      if (to === undefined) return;
      e.preventDefault(); set(to, true);
    });
    window.addEventListener("resize", function () { set(wanted, false); });
  }

  // below 900 px wide one part shows at a time (studio.css); these buttons choose it
  function views() {
    var nav = $("views");
    if (!nav) return null;
    function show(view) {
      document.body.dataset.view = view;
      nav.querySelectorAll("button").forEach(function (b) { b.setAttribute("aria-pressed", b.dataset.view === view ? "true" : "false"); });
    }
    nav.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-view]");
      if (b) { show(b.dataset.view); keepPref(VIEW_KEY, b.dataset.view); }
    });
    var saved = recall(VIEW_KEY);
    show(nav.querySelector('[data-view="' + saved + '"]') ? saved : "editor");
    return show;
  }

  window.StudioLayout = { splitter: splitter, views: views };
})();
