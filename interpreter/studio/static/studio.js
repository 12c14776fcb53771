/* The studio's page: the editor (window.CardsEditor from editor.bundle.js, else a plain textarea
   with the same calls), the rulebook of the last version that loaded, files, and "Play it now".
   Lines and columns are 0-based code points, as the language server counts them; the book's
   blocks carry 1-based source lines (data-line). window.studio is what measure.js builds on. */
(function () {
  "use strict";
  var S = window.STUDIO || {};
  var token = S.token || new URLSearchParams(location.search).get("token") || "";
  var pageId = Math.random().toString(36).slice(2) + Date.now().toString(36);
  var $ = function (id) { return document.getElementById(id); };
  var state = { path: null, name: "", sha: null, readonly: false, base: null, loaded: false, version: null,
                rules: [], players: null, title: "", dirty: false, others: 0, cursor: [0, 0], error: null };
  var editor = null, words = null, lintSeq = 0, bookSeq = 0, lastDiags = [];

  // ------------------------------------------------------------ the API
  function api(url, body) {
    var headers = { "Content-Type": "application/json" };
    if (token) headers["X-Studio-Token"] = token;
    var init = body === undefined ? { headers: headers } : { method: "POST", headers: headers, body: JSON.stringify(body) };
    return fetch(url, init).then(function (r) {
      var type = r.headers.get("content-type") || "";
      var got = type.indexOf("json") >= 0 ? r.json() :
        r.text().then(function (t) { return { html: t, version: Number(r.headers.get("X-Rulebook-Version")) }; });
      return got.then(function (data) {
        if (!r.ok) {
          var e = new Error((data && data.error) || r.statusText);
          e.status = r.status; e.data = data; throw e;
        }
        return data;
      });
    });
  }
  function withToken(url) {
    return token ? url + (url.indexOf("?") >= 0 ? "&" : "?") + "token=" + encodeURIComponent(token) : url;
  }

  var plain = window.StudioPlain, layout = window.StudioLayout;  // (plain-editor.js, layout.js)

  // ------------------------------------------------------------ notices and marks
  function setStatus(t) { $("status").textContent = t || ""; }
  function notice(id, html, kind) {
    var old = document.querySelector('#notices [data-id="' + id + '"]');
    if (!html) { if (old) old.remove(); return null; }
    var el = old || document.createElement("div");
    el.className = "notice" + (kind ? " " + kind : ""); el.dataset.id = id; el.innerHTML = html;
    if (!old) $("notices").appendChild(el);
    return el;
  }
  function esc(s) { var d = document.createElement("div"); d.textContent = String(s); return d.innerHTML; }

  function showMarks(diags) {
    var ul = $("marks"); ul.innerHTML = "";
    diags.forEach(function (d) {
      var li = document.createElement("li");
      li.className = d.severity; li.dataset.line = d.line;
      li.textContent = "line " + (d.line + 1) + ", column " + (d.col + 1) + ": " + d.message;
      li.addEventListener("click", function () { jump(null, d.line, d.col); });
      ul.appendChild(li);
    });
  }

  // ------------------------------------------------------------ analysis and the book
  var warnTimer = null;
  function lint(text) {
    var mine = ++lintSeq, path = state.path;
    clearTimeout(warnTimer);
    if (!path) return Promise.resolve([]);
    return api("/studio/api/analyse", { path: path, text: text }).then(function (r) {
      if (mine === lintSeq && path === state.path) {
        applyAnalysis(r);
        if (r.ok) warnTimer = setTimeout(function () { warnings(mine, path, text); }, 300);
      }
      return r.diagnostics;
    }, function (e) { setStatus(e.message); return []; });
  }

  // the fuzzer's static checks, a moment after typing stops (as the language server sends them)
  function warnings(mine, path, text) {
    api("/studio/api/warnings", { path: path, text: text }).then(function (r) {
      if (mine !== lintSeq || path !== state.path || !editor || editor.getText() !== text) return;
      showMarks(lastDiags.concat(r.diagnostics));
    }, function () {});
  }

  function applyAnalysis(r) {
    lastDiags = r.diagnostics;
    showMarks(r.diagnostics);
    state.loaded = r.ok; state.rules = r.rules || []; state.error = r.error || null;
    if (r.players) state.players = r.players;
    if (r.title) state.title = r.title;
    state.base = r.base || null;
    showOutline(r.outline, r.ok);
    var stale = $("stale");
    if (r.ok) {
      stale.hidden = true;
      setStatus((state.dirty ? "unsaved changes · " : "") + "loads (" + r.ms + " ms)");
    } else if (r.error) {
      stale.hidden = false;
      stale.innerHTML = (state.version ? "The rulebook shows the last version that loaded. " : "The file does not load yet. ") +
        (r.error.line ? '<a data-goto="' + (r.error.line - 1) + '">Line ' + r.error.line + "</a>: " : "") + esc(r.error.message);
      setStatus((state.dirty ? "unsaved changes · " : "") + "does not load");
    }
    if (r.ok && r.rulebook_version !== state.version) {
      state.version = r.rulebook_version;
      document.dispatchEvent(new CustomEvent("studio:loaded", { detail: { path: state.path, version: state.version } }));
      loadBook();
    }
    markRule();
  }

  /* Each version of the book loads in a new frame, hidden over the shown one until it has loaded:
     no flicker, and no entry in the browser's history (setting srcdoc again would add one, and
     Back would walk old books instead of going back to the place one came from). */
  function bookFrame(id) {
    var f = document.createElement("iframe"); f.id = id; f.title = "The rulebook"; return f;
  }
  function clearBook() {
    ++bookSeq; state.bookFresh = true;
    var next = $("rulebook-next"); if (next) next.remove();
    $("rulebook").replaceWith(bookFrame("rulebook"));
  }
  function loadBook() {
    var mine = ++bookSeq, path = state.path;
    return api("/studio/api/rulebook?path=" + encodeURIComponent(path)).then(function (r) {
      if (mine !== bookSeq || path !== state.path) return;
      var old = $("rulebook"), y = 0, next = $("rulebook-next");
      try { y = old.contentWindow.scrollY; } catch (e) { /* not loaded */ }
      if (next) next.remove();
      var frame = bookFrame("rulebook-next"), box = old.getBoundingClientRect(), book = $("book").getBoundingClientRect();
      frame.style.cssText = "position:absolute;visibility:hidden;left:" + (box.left - book.left) + "px;top:" + (box.top - book.top) +
        "px;width:" + (box.width || book.width) + "px;height:" + (box.height || book.height) + "px";
      frame.onload = function () {
        if (mine !== bookSeq || path !== state.path) { frame.remove(); return; }
        var doc = frame.contentDocument;
        frame.contentWindow.scrollTo(0, y);
        doc.addEventListener("click", bookClick);
        doc.addEventListener("keydown", keys, true);
        doc.documentElement.dataset.version = String(r.version);
        old.remove();  // (the new frame is not moved: a frame moved in the page loads again)
        frame.removeAttribute("style"); frame.id = "rulebook";
        markRule(!state.bookFresh);  // a file just opened at a rule: its book shows that rule
        state.bookFresh = false;
      };
      frame.srcdoc = r.html;
      old.parentNode.insertBefore(frame, old.nextSibling);
    }, function (e) { setStatus(e.message); });
  }

  function bookClick(e) {
    var doc = $("rulebook").contentDocument;
    var a = e.target.closest("a[href]");
    if (a) {
      var href = a.getAttribute("href");
      e.preventDefault();
      if (href.charAt(0) === "#") {
        var t = doc.getElementById(decodeURIComponent(href.slice(1)));
        if (t) t.scrollIntoView({ block: "start" });
        // a link naming a rule or phase of this file (the contents, "rule 2"): the editor goes there too
        if (t && t.matches("[data-line]:not([data-file])")) toEditor(null, Number(t.dataset.line) - 1);
      } else { window.open(href, "_blank", "noopener"); }
      return;
    }
    var block = e.target.closest("[data-line]");
    if (!block) return;
    var line = Number(block.dataset.line) - 1;
    if (!block.dataset.file) { toEditor(null, line); return; }
    // a rule or phase written in the base: its heading opens the base there (its text is for reading)
    var head = e.target.closest("h3, h4");
    if (head && head.closest("[data-line]") === block) toEditor(block.dataset.file, line);
  }
  // a click in the book that moves the editor's cursor: in the narrow layout the editor shows again
  // (layout.views() gives showView; each version of the book is a new frame, so this is not a frame's listener)
  var showView = null;
  function toEditor(path, line) {
    if (showView && window.matchMedia("(max-width: 900px)").matches) showView("editor");
    jump(path, line, 0);
  }

  function ruleAt(line) {
    var best = null;
    state.rules.forEach(function (r) {
      var inside = line >= r.line && (line < r.endLine || (line === r.endLine && r.endLine === r.line));
      if (!inside) return;
      if (!best || (r.kind === "rule" && best.kind !== "rule") || (r.kind === best.kind && r.line >= best.line)) best = r;
    });
    return best;
  }

  function markRule(quiet) {
    var frame = $("rulebook"), doc = frame.contentDocument;
    if (!doc || !doc.body) { markOutline(ruleAt(state.cursor[0])); return; }
    var r = ruleAt(state.cursor[0]);
    markOutline(r);
    doc.querySelectorAll(".studio-here").forEach(function (el) { el.classList.remove("studio-here"); });
    if (!r) return;
    var sel = r.kind === "rule" ? '.rule[data-rule="' + CSS.escape(r.name) + '"]' : 'section[data-phase="' + CSS.escape(r.name) + '"]';
    var found = doc.querySelectorAll(sel);
    found.forEach(function (el) { el.classList.add("studio-here"); });
    if (found.length && !quiet) {
      var box = found[0].getBoundingClientRect(), h = frame.contentWindow.innerHeight;
      // (a few pixels above it, in whole pixels: scrollIntoView leaves a heading at a fractional
      // offset a fraction of a pixel above the frame's top, as its width and the fonts fall)
      if (box.bottom < 0 || box.top > h) frame.contentWindow.scrollTo(0, Math.max(0, Math.floor(box.top + frame.contentWindow.scrollY) - 6));
    }
  }

  // ------------------------------------------------------------ files
  // A page hears of its file on disk through the presence poll (every POLL_MS): the file's sha256
  // there, or where it went when renamed. A save, rename or open here bumps pollGen, so an answer
  // asked before it (which may predate it) is not taken for a change made elsewhere.
  var POLL_MS = 2000, listing = null, pollGen = 0, saving = false;

  var listSeq = 0;
  function listFiles() {
    var ask = ++listSeq;
    return api("/studio/api/files").then(function (r) {
      if (ask !== listSeq) return listing;  // (a later ask is on its way: its answer is newer)
      listing = r;
      var sel = $("file"); sel.innerHTML = "";
      if (!state.path) sel.appendChild(new Option("(no file open)", ""));
      var mine = document.createElement("optgroup"); mine.label = "Your files (" + r.workdir + ")";
      r.files.forEach(function (f) { var o = new Option(f.name, f.path); mine.appendChild(o); });
      var bund = document.createElement("optgroup"); bund.label = "Bundled games (read-only)";
      r.bundled.forEach(function (f) { bund.appendChild(new Option(f.name, f.path)); });
      if (r.files.length) sel.appendChild(mine);
      sel.appendChild(bund);
      sel.value = state.path || "";
      return r;
    });
  }
  function baseName(path) { return String(path).split(/[\\/]/).pop(); }
  function showFile() {
    var sel = $("file"), u = new URL(location.href);
    if (state.path) {
      if (Array.from(sel.options).some(function (o) { return o.value === state.path; })) {
        sel.value = state.path;
        if (sel.options[0] && sel.options[0].value === "") sel.remove(0);
      } else {  // a file just made: shown at once, while the list is asked again
        sel.insertBefore(new Option(state.name, state.path), sel.firstChild);
        sel.value = state.path;
        listFiles();
      }
      u.searchParams.set("file", state.path);
    } else {  // at once "(no file open)", not the file just closed while the list is asked again
      if (!sel.options[0] || sel.options[0].value !== "") sel.insertBefore(new Option("(no file open)", ""), sel.firstChild);
      sel.value = "";
      u.searchParams.delete("file"); listFiles();
    }
    history.replaceState(state.path ? place(navIndex(), state.path, state.cursor[0], state.cursor[1]) : history.state, "", u);
    document.title = state.path ? state.name + " · cardrules studio" : "cardrules studio";
    var none = !state.path, mineOnly = none || state.readonly;
    ["save", "play", "new-copy", "new-variant"].forEach(function (id) { $(id).disabled = none; });
    $("rename").disabled = $("delete").disabled = mineOnly;
    var why = none ? "No file is open" : "A bundled game cannot be changed here: make it yours with New";
    $("rename").title = mineOnly ? why : "Give this file another name in its folder";
    $("delete").title = mineOnly ? why : "Delete this file from the disk";
    $("editor").inert = none;
    $("no-file").hidden = !(none && state.closed);  // (not while the first file is on its way)
  }

  /* The file `r` as the server sent it, the cursor at `line`/`col`. `how` says what becomes of the
     browser's history: "push" (a jump: a new entry), "pop" (Back or Forward took us here), or
     anything else (the first file, a reload from disk): this entry. */
  function opened(r, how, line, col) {
    line = line || 0; col = col || 0;
    pollGen++;
    state.path = r.path; state.name = r.name; state.sha = r.sha256; state.readonly = r.readonly; state.savedText = r.text;
    state.dirty = false; state.version = null; state.loaded = false; state.rules = []; state.players = null; state.told = null;
    state.closed = false; state.cursor = [line, col];
    clearBook(); $("stale").hidden = true; plain.showHover(null);
    showOutline([], true);
    if (how === "push") pushPlace(r.path, line, col);
    else if (how !== "pop") history.replaceState(place(navIndex(), r.path, line, col), "", fileUrl(r.path));
    showFile();
    document.dispatchEvent(new CustomEvent("studio:opened", { detail: { path: r.path } }));
    notice("readonly", r.readonly ? esc(r.name) + " is a bundled game: it opens read-only here. <b>New variant of it</b> makes a file of yours that states only what changes; <b>New</b> copies it." : null);
    ["open", "conflict", "changed", "gone", "moved"].forEach(function (id) { notice(id, null); });
    others(r.others);
    editor.setText(r.text);
    if (line || col) editor.goto(line, col);
    lint(r.text);
  }

  // Nothing open (a refused first file, or this one deleted): an empty editor that takes no keys.
  function closeFile(why) {
    if (state.path) sendLeave(state.path);
    pollGen++; lintSeq++; bookSeq++; clearTimeout(warnTimer);
    state.path = null; state.name = ""; state.sha = null; state.readonly = false; state.savedText = ""; state.dirty = false;
    state.version = null; state.loaded = false; state.rules = []; state.players = null; state.base = null; state.told = null;
    state.closed = true;
    clearBook(); $("stale").hidden = true; plain.showHover(null); lastDiags = []; showMarks([]); showOutline([], true);
    ["readonly", "conflict", "changed", "gone", "others"].forEach(function (id) { notice(id, null); });
    editor.setText("");
    $("no-file-why").textContent = why || "";
    setStatus("");
    showFile();
  }

  /* Open `path` (see opened for `how`): what the server sent, or null when it was not opened. */
  function openFile(path, how, line, col) {
    return api("/studio/api/open", { path: path, page: pageId }).then(function (r) { opened(r, how, line, col); return r; }, function (e) {
      var el = notice("open", "Not opened: " + esc(e.message) + ' <button type="button" data-act="dismiss">OK</button>', "error");
      el.querySelector('[data-act="dismiss"]').onclick = function () { notice("open", null); };
      if (!state.path) closeFile("The file asked for was not opened: " + e.message);
      else listFiles();  // the list names the file still open (and no longer one deleted meanwhile)
      return null;
    });
  }

  // ------------------------------------------------------------ the way back
  /* Every jump (F12, a click in the book, the outline or the problems, another file) is an entry
     of the browser's history, so Alt+Left / Alt+Right and the browser's Back / Forward walk the
     same list. Each entry says its file and place; the current one follows the cursor, so that
     coming back returns to where one was, not to where one had jumped to. */
  function stored(value) {  // how far Forward goes, kept across a reload (when the browser keeps anything)
    try {
      if (value === undefined) return Number(sessionStorage.getItem("studio-nav-top")) || 0;
      sessionStorage.setItem("studio-nav-top", String(value));
    } catch (e) { /* no storage here: Forward stops at a reload */ }
    return value;
  }
  var nav = { timer: null, top: stored() };
  function place(idx, path, line, col) { return { studio: 1, idx: idx, path: path, line: line, col: col }; }
  function navIndex() { var h = history.state; return h && h.studio ? h.idx : 0; }
  function fileUrl(path) { var u = new URL(location.href); u.searchParams.set("file", path); return u.toString(); }
  function remember() {
    clearTimeout(nav.timer); nav.timer = null;
    if (state.path) history.replaceState(place(navIndex(), state.path, state.cursor[0], state.cursor[1]), "", fileUrl(state.path));
  }
  function rememberSoon() { if (!nav.timer) nav.timer = setTimeout(remember, 400); }
  function pushPlace(path, line, col) {
    var idx = navIndex() + 1;
    nav.top = stored(idx);
    history.pushState(place(idx, path, line, col), "", fileUrl(path));
  }
  function leaveDirty() { return !state.dirty || confirm("Leave " + state.name + " without saving your changes?"); }

  /* Go to a place (path null: this file), keeping the way back. */
  function jump(path, line, col) {
    col = col || 0;
    if (!path || path === state.path) {
      if (line !== state.cursor[0]) { remember(); pushPlace(state.path, line, col); }
      editor.goto(line, col); editor.focus();
      return Promise.resolve(true);
    }
    if (!leaveDirty()) return Promise.resolve(false);
    remember();
    return openFile(path, "push", line, col).then(function (ok) { if (ok) editor.focus(); return ok; });
  }
  function back() { if (navIndex() > 0) { remember(); history.back(); } }
  function forward() { if (navIndex() < nav.top) { remember(); history.forward(); } }
  function popped(e) {
    var h = e.state;
    clearTimeout(nav.timer); nav.timer = null;
    if (!h || !h.studio || !editor) return;
    if (h.path === state.path) { editor.goto(h.line, h.col); return; }
    if (!leaveDirty()) { pushPlace(state.path, state.cursor[0], state.cursor[1]); return; }  // stay: here again
    openFile(h.path, "pop", h.line, h.col);
  }

  // ------------------------------------------------------------ the outline
  function showOutline(items, ok) {
    var ul = $("outline-list"), empty = $("outline-empty");
    if (!items) return;
    if (!items.length && !ok && ul.children.length) return;  // a file that does not parse: keep the last one
    ul.innerHTML = "";
    items.forEach(function (it) {
      var li = document.createElement("li"), b = document.createElement("button");
      li.className = "ol-" + it.kind; li.dataset.kind = it.kind; li.dataset.name = it.name; li.dataset.line = it.line;
      li.style.paddingLeft = (0.3 + 0.9 * it.depth) + "rem";
      b.type = "button"; b.title = it.kind + " " + it.name + " (line " + (it.line + 1) + ")";
      var kind = document.createElement("span"); kind.className = "ol-kind"; kind.textContent = it.kind === "procedure" ? "proc" : it.kind;
      var name = document.createElement("span"); name.className = "ol-name"; name.textContent = it.title || it.name;
      b.appendChild(kind); b.appendChild(name);
      b.addEventListener("click", function () { jump(null, it.line, it.col); });
      li.appendChild(b); ul.appendChild(li);
    });
    empty.hidden = items.length > 0 || !state.path;
    empty.textContent = state.base ? "This variant restates no phase or rule: its base's are in the rulebook." :
      "No phases or rules yet.";
    markOutline(ruleAt(state.cursor[0]));
  }
  function markOutline(r) {
    var ul = $("outline-list"), old = ul.querySelector("li.here");
    var li = r ? ul.querySelector('li[data-kind="' + r.kind + '"][data-name="' + CSS.escape(r.name) + '"]') : null;
    if (old === li) return;
    if (old) old.classList.remove("here");
    if (li) { li.classList.add("here"); if (li.scrollIntoView) li.scrollIntoView({ block: "nearest" }); }
  }

  // ------------------------------------------------------------ shortcuts
  function typing(el) {
    el = el || document.activeElement;
    return !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }
  function showKeys() { var d = $("keys-dialog"); if (!d.open) d.showModal(); }
  /* The page's keys, in the page and in the rulebook's frame (which keeps its own key events). */
  function keys(e) {
    var mod = e.ctrlKey || e.metaKey;
    if (e.altKey && !mod && !e.shiftKey && (e.key === "ArrowLeft" || e.key === "ArrowRight")) {
      e.preventDefault(); e.stopPropagation();
      if (e.key === "ArrowLeft") back(); else forward();
    } else if (mod && !e.altKey && e.key === "s") {
      e.preventDefault(); save(false);
    } else if (e.key === "F1" || (!typing(e.target) && ((e.key === "?" && !mod) || (mod && e.key === "/")))) {
      e.preventDefault(); showKeys();
    }
  }

  function others(n) {
    state.others = n;
    notice("others", n ? "This file is open in " + (n === 1 ? "another tab" : n + " other tabs") +
      " too: what one tab saves, the others show at once." : null);
  }

  // What differs between this tab's text and the disk's, as the server's line diff gives it.
  function diffHtml(d) {
    if (!d || !d.hunks || !d.hunks.length) return "";
    var out = ['<div class="diff" aria-label="What differs"><div class="diff-key"><span class="key-del">- only in your text</span> ' +
               '<span class="key-add">+ only on disk</span></div>'];
    d.hunks.forEach(function (h) {
      out.push('<div class="hunk">your line ' + h.mine + ", line " + h.disk + " on disk</div>");
      h.lines.forEach(function (l) {
        var cls = l[0] === "+" ? "add" : l[0] === "-" ? "del" : "ctx";
        out.push('<div class="' + cls + '"><span class="op">' + (l[0] === " " ? " " : l[0]) + " </span>" + esc(l[1]) + "</div>");
      });
    });
    if (d.more) out.push('<div class="hunk">and ' + d.more + " more changed line" + (d.more === 1 ? "" : "s") + "</div>");
    return out.join("") + "</div>";
  }

  function save(force) {
    if (!state.path) return Promise.resolve();
    if (state.readonly) { notice("readonly", esc(state.name) + " is a bundled game and cannot be saved: <b>New variant of it</b> or <b>New</b> make a file of yours."); return Promise.resolve(); }
    var text = editor.getText(), path = state.path;
    saving = true; pollGen++;
    return api("/studio/api/save", { path: path, text: text, sha256: state.sha, force: !!force, page: pageId }).then(function (r) {
      saving = false; pollGen++;
      if (path !== state.path) return;
      state.sha = r.sha256; state.savedText = text; state.dirty = editor.getText() !== text; state.told = null;
      ["conflict", "changed", "gone"].forEach(function (id) { notice(id, null); });
      setStatus("saved");
    }, function (e) {
      saving = false;
      if (e.data && e.data.conflict) {
        notice("changed", null); notice("gone", null);
        var el = notice("conflict", esc(e.message) + diffHtml(e.data.diff) +
          '<div class="acts"><button type="button" data-act="overwrite">Overwrite</button><button type="button" data-act="reload">Reload from disk</button></div>', "error");
        el.querySelector('[data-act="overwrite"]').onclick = function () { save(true); };
        el.querySelector('[data-act="reload"]').onclick = function () { openFile(state.path, "replace", state.cursor[0], state.cursor[1]); };
      } else { notice("conflict", esc(e.message), "error"); }
    });
  }

  // ---- the file on disk, as the presence poll tells it
  function poll() {
    if (!state.path) return;
    var gen = pollGen, path = state.path;
    api("/studio/api/presence", { path: path, page: pageId }).then(function (r) {
      others(r.others);
      if (gen === pollGen && !saving && path === state.path) onDisk(r);
    }, function () {});
  }
  function onDisk(r) {
    if (r.moved) { follow(r.moved, esc(state.name) + " was renamed to <b>" + esc(baseName(r.moved)) + "</b> in another tab: this tab follows it."); return; }
    if (r.sha256 === state.sha) { state.told = null; notice("changed", null); notice("gone", null); return; }
    var key = r.sha256 || "gone";
    if (state.told === key) return;  // already shown (or kept)
    state.told = key;
    if (!r.sha256) {
      var el = notice("gone", "<b>" + esc(state.name) + "</b> was deleted (in another tab, or by another program). Your text is still here." +
        '<div class="acts"><button type="button" data-act="again">Save it again</button><button type="button" data-act="close">Close it</button></div>', "error");
      el.querySelector('[data-act="again"]').onclick = function () { state.sha = null; save(false); };
      el.querySelector('[data-act="close"]').onclick = function () {
        if (state.dirty && !confirm("Close " + state.name + " without saving your changes?")) return;
        closeFile(state.name + " was deleted.");
      };
      return;
    }
    var gen = pollGen, path = state.path, text = editor.getText();
    api("/studio/api/changes", { path: path, text: text }).then(function (c) {
      if (gen !== pollGen || path !== state.path) return;
      if (c.sha256 !== r.sha256) { state.told = null; return; }  // changed again: the next poll tells
      if (!c.diff.hunks.length) {  // the same text as this tab's: nothing to choose
        state.sha = c.sha256; state.savedText = text; state.dirty = editor.getText() !== text; state.told = null;
        return;
      }
      var el = notice("changed", "<b>" + esc(state.name) + "</b> was changed on disk (saved in another tab, or by another program)" +
        (state.dirty ? "; Reload loses your unsaved changes" : "") + "." + diffHtml(c.diff) +
        '<div class="acts"><button type="button" data-act="reload">Reload</button><button type="button" data-act="keep">Keep mine</button></div>', "changed");
      el.querySelector('[data-act="reload"]').onclick = function () { openFile(state.path); };
      el.querySelector('[data-act="keep"]').onclick = function () {  // Save then writes this text over that version
        state.sha = c.sha256; state.savedText = null; state.dirty = true; state.told = null;
        notice("changed", null); setStatus("unsaved changes (yours, kept: Save writes them over the disk's)");
      };
    }, function () { state.told = null; });
  }
  // The file has another name now: the same text, so this tab keeps its own and goes on there.
  function follow(to, html, kind) {
    pollGen++;
    Array.from($("file").options).forEach(function (o) {  // (the list is asked again; meanwhile, the new name)
      if (o.value === state.path) { o.value = to; o.text = o.text.slice(0, o.text.length - state.name.length) + baseName(to); }
    });
    state.path = to; state.name = baseName(to); state.version = null; state.told = null;
    clearBook();
    showFile();
    notice("moved", html, kind);
    lint(editor.getText());
  }
  function brokenVariants(r) {
    if (!r.variants || !r.variants.length) return "";
    return " These files name it as their base and no longer load (they were not changed: mend their <code>of \"...\"</code> line): " +
      r.variants.map(function (p) { return "<b>" + esc(baseName(p)) + "</b>"; }).join(", ") + ".";
  }
  function sendLeave(path) {
    var headers = { "Content-Type": "application/json" }; if (token) headers["X-Studio-Token"] = token;
    fetch("/studio/api/presence", { method: "POST", keepalive: true, headers: headers,
                                     body: JSON.stringify({ path: path, page: pageId, leave: true }) }).catch(function () {});
  }

  // ---- new, rename, delete: a dialog each
  var nameAct = null;
  function askName(title, hint, stem, ok, act) {
    var d = $("name-dialog"), input = $("name-input");
    $("name-title").textContent = title; $("name-hint").innerHTML = hint; $("name-ok").textContent = ok;
    $("name-error").hidden = true; input.value = stem; nameAct = act;
    d.showModal(); input.focus(); input.select();
  }
  function submitName(ev) {
    ev.preventDefault();
    var ok = $("name-ok");
    if (ok.disabled || !nameAct) return;
    ok.disabled = true;
    nameAct($("name-input").value.trim()).then(function () { $("name-dialog").close(); }, function (e) {
      var err = $("name-error"); err.textContent = e.message; err.hidden = false; $("name-input").focus();
    }).then(function () { ok.disabled = false; });
  }
  function freeName(stem) {  // the first of stem, stem-2, ... that is no file of the working folder
    var taken = {};
    (listing ? listing.files : []).forEach(function (f) { if (f.folder === listing.workdir) taken[f.name] = true; });
    for (var n = 1; ; n++) { var s = n === 1 ? stem : stem + "-" + n; if (!taken[s + ".cards"]) return s; }
  }

  function makeNew(kind) {
    if (!state.path) return;
    if (state.dirty && !confirm("Leave " + state.name + " without saving your changes?")) return;
    var stem = state.name.replace(/\.cards$/, ""), from = state.path, variant = kind === "variant";
    var where = esc(listing ? listing.workdir : "the working folder");
    askName(variant ? "New variant of " + state.name : "New copy of " + state.name,
      variant ? "A file that names " + esc(state.name) + " as its base and states only what changes, in " + where + "."
              : "A copy of " + esc(state.name) + " in " + where + ".",
      freeName(stem + (variant ? "-variant" : "-copy")), "Make it", function (name) {
        return api("/studio/api/new", { from: from, kind: kind, name: name, page: pageId }).then(function (r) {
          remember(); opened(r, "push"); setStatus("made " + r.name);
        });
      });
  }
  function renameFile() {
    if (!state.path || state.readonly) return;
    var old = state.name, path = state.path;
    askName("Rename " + old, "Its new name, in the same folder. A variant that names it as its base is not changed: it is listed if it no longer loads.",
      old.replace(/\.cards$/, ""), "Rename", function (name) {
        return api("/studio/api/rename", { path: path, name: name, page: pageId }).then(function (r) {
          follow(r.path, "Renamed " + esc(old) + " to <b>" + esc(r.name) + "</b>." + brokenVariants(r), r.variants.length ? "error" : "");
        });
      });
  }
  function askDelete() {
    if (!state.path || state.readonly) return;
    $("delete-name").textContent = state.name;
    $("delete-hint").textContent = "It is removed from the disk; the studio keeps no copy." +
      (state.dirty ? " Your unsaved changes go with it." : "");
    $("delete-error").hidden = true;
    $("delete-dialog").showModal(); $("delete-cancel").focus();
  }
  function submitDelete(ev) {
    ev.preventDefault();
    var ok = $("delete-ok"), name = state.name;
    if (ok.disabled || !state.path) return;
    ok.disabled = true;
    api("/studio/api/delete", { path: state.path, sha256: state.sha, page: pageId }).then(function (r) {
      $("delete-dialog").close();
      closeFile(name + " was deleted.");
      if (r.variants.length) notice("moved", "Deleted " + esc(name) + "." + brokenVariants(r), "error");
    }, function (e) {
      var err = $("delete-error"); err.textContent = e.message; err.hidden = false;
    }).then(function () { ok.disabled = false; });
  }

  function openElsewhere(path, line, col) { jump(path, line, col); }

  // ------------------------------------------------------------ play it now
  var BOTS = [["person", "a person (you)"], ["greedy", "bot: greedy"], ["random", "bot: random"], ["ismcts:200", "bot: search, 200 iterations"]];
  function seatRows() {
    var n = Number($("play-players").value), box = $("play-seats"), old = Array.from(box.querySelectorAll("select")).map(function (s) { return s.value; });
    box.innerHTML = "";
    for (var i = 0; i < n; i++) {
      var lab = document.createElement("label"); lab.textContent = "P" + (i + 1) + " ";
      var s = document.createElement("select"); s.name = "seat" + (i + 1);
      BOTS.forEach(function (b) { s.appendChild(new Option(b[1], b[0])); });
      s.value = old[i] || (i === 0 ? "person" : "greedy");
      lab.appendChild(s); box.appendChild(lab);
    }
  }
  function openPlay() {
    if (!state.version || !state.players) { notice("play", "This file has not loaded yet: mend the error shown, then play.", "error"); return; }
    notice("play", null);
    $("play-title").textContent = state.title + (state.loaded ? "" : " (the last version that loaded)");
    var sel = $("play-players"), keep = sel.value; sel.innerHTML = "";
    for (var n = state.players[0]; n <= state.players[1]; n++) sel.appendChild(new Option(String(n), String(n)));
    if (keep && Number(keep) >= state.players[0] && Number(keep) <= state.players[1]) sel.value = keep;
    seatRows();
    $("play-error").hidden = true;
    $("play-dialog").showModal();
  }
  function startPlay(ev) {
    ev.preventDefault();
    var seats = Array.from($("play-seats").querySelectorAll("select")).map(function (s) { return s.value; });
    var win = window.open("about:blank", "_blank");
    api("/studio/api/play", { path: state.path, players: Number($("play-players").value), seats: seats,
                              seed: $("play-seed").value.trim() || null }).then(function (r) {
      $("play-dialog").close();
      if (win) win.location.href = r.url; else notice("play", 'The table is open: <a target="_blank" href="' + esc(r.url) + '">go to it</a>.');
    }, function (e) {
      if (win) win.close();
      var err = $("play-error"); err.hidden = false;
      err.textContent = (e.data && e.data.located) || e.message;
    });
  }

  // ------------------------------------------------------------ start
  window.studio = {
    current: function () { return { path: state.path, text: editor ? editor.getText() : "", base: state.base, loaded: state.loaded }; },
    api: api,
    openReplay: function (url) { window.open(url, "_blank"); },
    goto: function (line, col) { editor.goto(line, col || 0); },
    jump: jump,
    state: state
  };

  function start() {
    layout.splitter(); showView = layout.views();  // (the book's clicks, and the stale notice's line: toEditor)
    $("stale").addEventListener("click", function (e) {
      var a = e.target.closest("[data-goto]"); if (a) toEditor(null, Number(a.dataset.goto));
    });
    $("file").addEventListener("change", function () {
      var to = $("file").value;
      if (!to) return;
      $("file").value = state.path || "";  // until it opens
      jump(to, 0, 0);
    });
    $("keys-open").addEventListener("click", showKeys);
    if (/Mac|iPhone|iPad/.test(navigator.platform || "")) {
      document.querySelectorAll("#keys-dialog kbd.mod").forEach(function (k) { k.textContent = "\u2318"; });
    }
    window.addEventListener("popstate", popped);
    window.addEventListener("keydown", keys, true);
    $("save").addEventListener("click", function () { save(false); });
    $("new-copy").addEventListener("click", function () { makeNew("copy"); });
    $("new-variant").addEventListener("click", function () { makeNew("variant"); });
    $("rename").addEventListener("click", renameFile);
    $("delete").addEventListener("click", askDelete);
    $("name-form").addEventListener("submit", submitName);
    $("name-cancel").addEventListener("click", function () { $("name-dialog").close(); });
    $("delete-form").addEventListener("submit", submitDelete);
    $("delete-cancel").addEventListener("click", function () { $("delete-dialog").close(); });
    $("play").addEventListener("click", openPlay);
    $("play-players").addEventListener("change", seatRows);
    $("play-start").addEventListener("click", startPlay);
    window.addEventListener("beforeunload", function (e) { if (state.dirty) { e.preventDefault(); e.returnValue = ""; } });
    window.addEventListener("pagehide", function () { if (state.path) sendLeave(state.path); });
    setInterval(poll, POLL_MS);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
    showFile();

    api("/studio/api/words").then(function (w) {
      words = w;
      var opts = {
        doc: "", words: words,
        onChange: function (text) {
          var was = state.dirty; state.dirty = text !== state.savedText;
          if (state.dirty !== was) setStatus(state.dirty ? "unsaved changes" : "");
        },
        lint: lint,
        // (no file, or a refusal: nothing to show, and never an error thrown into the editor)
        hover: function (text, line, col) {
          if (!state.path) return Promise.resolve(null);
          return api("/studio/api/hover", { path: state.path, text: text, line: line, col: col }).catch(function () { return null; });
        },
        complete: function (text, line, col) {
          if (!state.path) return Promise.resolve([]);
          return api("/studio/api/complete", { path: state.path, text: text, line: line, col: col }).catch(function () { return []; });
        },
        definition: function (text, line, col) {
          if (!state.path) return Promise.resolve(null);
          return api("/studio/api/definition", { path: state.path, text: text, line: line, col: col }).then(function (r) {
            if (r && r.path !== state.path && !window.CardsEditor) { openElsewhere(r.path, r.line, r.col); return null; }
            return r;
          }, function (e) { setStatus(e.message); return null; });
        },
        path: function () { return state.path; },
        onOpen: openElsewhere,
        onJump: function (line, col) { jump(null, line, col); },
        onCursor: function (line, col) { state.cursor = [line, col]; markRule(); rememberSoon(); }
      };
      editor = window.CardsEditor ? window.CardsEditor.create($("editor"), opts) : plain.editor($("editor"), opts);
      window.studio.editor = editor;
      return listFiles();
    }).then(function (r) {
      var first = S.start || (r.files[0] && r.files[0].path) || (r.bundled[0] && r.bundled[0].path);
      var h = history.state;  // a reload: back at the place it showed
      if (first && h && h.studio && h.path === first) return openFile(first, "replace", h.line, h.col);
      if (first) return openFile(first, "replace");
      closeFile("There is no file to open here.");
    }).catch(function (e) { notice("start", esc(e.message), "error"); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
