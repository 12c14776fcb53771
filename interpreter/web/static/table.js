// The browser table, live: listen for the table's version (server-sent events), fetch the
// seat's view when it changes, send moves, point the rulebook at the rule being played.
// Plain JavaScript, no build step.
(function () {
  "use strict";

  function live() { return document.getElementById("live"); }

  function markRule(force) {
    var main = live();
    var frame = document.getElementById("rulebook");
    if (!main || !frame) return;
    var anchor = main.getAttribute("data-rule-anchor") || "";
    var doc;
    try { doc = frame.contentDocument; } catch (e) { return; }
    if (!doc || !doc.body) return;
    var old = doc.querySelectorAll(".rule-now");
    for (var i = 0; i < old.length; i++) old[i].classList.remove("rule-now");
    if (!anchor) return;
    var el = doc.getElementById(anchor);
    if (!el) return;
    el.classList.add("rule-now");
    var shown = frame.getAttribute("data-shown");
    if (force === true || shown !== anchor) {
      frame.setAttribute("data-shown", anchor);
      el.scrollIntoView({block: "start", behavior: shown ? "smooth" : "auto"});
    }
  }

  function scrollLog() {
    var log = document.getElementById("log");
    if (log) log.scrollTop = log.scrollHeight;
  }

  // where the table's scrolling parts are scrolled to, to keep them there when #live is replaced
  function scrolled() {
    var main = live(), at = {};
    if (!main) return at;
    at[""] = main.scrollTop;
    var parts = main.querySelectorAll("[data-scroll]");
    for (var i = 0; i < parts.length; i++) at[parts[i].getAttribute("data-scroll")] = parts[i].scrollTop;
    return at;
  }
  function rescroll(at) {
    var main = live();
    if (!main) return;
    if (at[""]) main.scrollTop = at[""];
    var parts = main.querySelectorAll("[data-scroll]");
    for (var i = 0; i < parts.length; i++) {
      var y = at[parts[i].getAttribute("data-scroll")];
      if (y) parts[i].scrollTop = y;
    }
  }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var at = scrolled();
    ["live", "log"].forEach(function (id) {
      var fresh = doc.getElementById(id);
      var old = document.getElementById(id);
      if (fresh && old) old.replaceWith(fresh);
    });
    rescroll(at);
    markRule();
    scrollLog();
  }

  var fetching = false, again = false;
  function refresh() {
    var main = live();
    if (!main) return;
    if (fetching) { again = true; return; }
    fetching = true;
    fetch(main.getAttribute("data-view-url"), {headers: {"X-Cardrules-Fragment": "1"}, cache: "no-store"})
      .then(function (r) { return r.text(); })
      .then(swap)
      .catch(function () {})
      .then(function () { fetching = false; if (again) { again = false; refresh(); } });
  }

  function send(move) {
    var main = live();
    if (!main) return;
    var body = "move=" + encodeURIComponent(move) + "&version=" + encodeURIComponent(main.getAttribute("data-version"));
    main.classList.add("busy");
    fetch(main.getAttribute("data-move-url"), {
      method: "POST", body: body, cache: "no-store",
      headers: {"Content-Type": "application/x-www-form-urlencoded", "X-Cardrules-Fragment": "1"}
    }).then(function (r) { return r.text(); }).then(swap).catch(function () {
      main.classList.remove("busy");
    });
  }

  function openChooser(slot, moves) {
    var box = document.getElementById("chooser");
    if (!box) return;
    box.innerHTML = "";
    var title = document.createElement("span");
    title.textContent = (slot.getAttribute("data-card") || "") + ": ";
    box.appendChild(title);
    moves.forEach(function (m) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = m;
      b.addEventListener("click", function () { send(m); });
      box.appendChild(b);
      box.appendChild(document.createTextNode(" "));
    });
    box.classList.add("open");
  }

  function playCard(slot) {
    var moves = [];
    try { moves = JSON.parse(slot.getAttribute("data-moves") || "[]"); } catch (e) { moves = []; }
    if (moves.length === 1) send(moves[0]);
    else if (moves.length > 1) openChooser(slot, moves);
  }

  document.addEventListener("click", function (ev) {
    var slot = ev.target.closest && ev.target.closest(".slot.playable");
    if (slot && live() && live().contains(slot)) { ev.preventDefault(); playCard(slot); return; }
    if (ev.target.closest && ev.target.closest(".rule a")) { ev.preventDefault(); markRule(true); return; }
    var btn = ev.target.closest && ev.target.closest("button[data-move]");
    if (btn && live() && live().contains(btn)) { ev.preventDefault(); send(btn.getAttribute("data-move")); }
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Enter" && ev.key !== " ") return;
    var slot = ev.target.closest && ev.target.closest(".slot.playable");
    if (slot) { ev.preventDefault(); playCard(slot); }
  });

  function listen() {
    var main = live();
    if (!main || !window.EventSource) return;
    var url = main.getAttribute("data-events-url");
    if (!url) return;
    var source = new EventSource(url);
    source.addEventListener("version", function (ev) {
      var shown = live() ? live().getAttribute("data-stamp") : null;
      if (String(ev.data) !== String(shown)) refresh();
    });
  }

  // the new-table form: show one seat row per player
  function seatRows() {
    var players = document.getElementById("players");
    if (!players) return;
    function update() {
      var n = parseInt(players.value, 10) || 0;
      var rows = document.querySelectorAll(".seat[data-seat]");
      for (var i = 0; i < rows.length; i++) {
        rows[i].classList.toggle("hidden", parseInt(rows[i].getAttribute("data-seat"), 10) > n);
      }
    }
    var kinds = document.querySelectorAll(".seat select");
    function strength() {
      for (var i = 0; i < kinds.length; i++) {
        var label = kinds[i].parentNode.querySelector(".strength");
        if (label) label.style.visibility = kinds[i].value === "ismcts" ? "visible" : "hidden";
      }
    }
    for (var i = 0; i < kinds.length; i++) kinds[i].addEventListener("change", strength);
    strength();
    players.addEventListener("change", update);
    players.addEventListener("input", update);
    update();
  }

  // the replay page: read a chosen file into the form and send it
  function upload() {
    var file = document.getElementById("record-file");
    if (!file) return;
    file.addEventListener("change", function () {
      var f = file.files && file.files[0];
      if (!f) return;
      var reader = new FileReader();
      reader.onload = function () {
        document.getElementById("record-text").value = reader.result;
        document.getElementById("record-name").value = f.name;
        document.getElementById("record-form").submit();
      };
      reader.readAsText(f);
    });
  }

  window.addEventListener("DOMContentLoaded", function () {
    var frame = document.getElementById("rulebook");
    if (frame) frame.addEventListener("load", function () { markRule(); });
    markRule();
    scrollLog();
    listen();
    seatRows();
    upload();
  });
})();
