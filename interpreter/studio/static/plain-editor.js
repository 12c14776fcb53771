/* The studio's plain editor, for a page without editor.bundle.js: a textarea with the calls
   window.CardsEditor.create's editor answers (getText, setText, goto, focus), the hover box it
   fills, and the code-point positions both editors count in (0-based lines and columns, as the
   language server counts them). studio.js takes them from window.StudioPlain. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };

  // ------------------------------------------------------------ positions (code points)
  function lineColAt(text, index) {
    var before = text.slice(0, index).split("\n");
    return [before.length - 1, Array.from(before[before.length - 1]).length];
  }
  function indexAt(text, line, col) {
    var lines = text.split("\n"), i = 0;
    line = Math.max(0, Math.min(line, lines.length - 1));
    for (var k = 0; k < line; k++) i += lines[k].length + 1;
    var s = lines[line], j = 0, cp = 0;
    while (cp < col && j < s.length) { j += s.codePointAt(j) > 0xffff ? 2 : 1; cp++; }
    return i + j;
  }

  // ------------------------------------------------------------ the plain editor (no bundle)
  function editor(parent, o) {
    var ta = document.createElement("textarea");
    ta.className = "fallback"; ta.spellcheck = false; ta.value = o.doc || "";
    ta.setAttribute("aria-label", "The ruleset's text");
    parent.appendChild(ta);
    var timer = null, hoverTimer = null;
    function cursor() {
      var lc = lineColAt(ta.value, ta.selectionStart);
      if (o.onCursor) o.onCursor(lc[0], lc[1]);
      clearTimeout(hoverTimer);
      hoverTimer = setTimeout(function () {
        if (!o.hover) return;
        o.hover(ta.value, lc[0], lc[1]).then(showHover, function () {});
      }, 200);
    }
    function lintSoon() {
      clearTimeout(timer);
      timer = setTimeout(function () { if (o.lint) o.lint(ta.value); }, 150);
    }
    ta.addEventListener("input", function () { if (o.onChange) o.onChange(ta.value); lintSoon(); cursor(); });
    ["keyup", "click", "select"].forEach(function (ev) { ta.addEventListener(ev, cursor); });
    ta.addEventListener("keydown", function (e) {
      if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey && !e.metaKey) {
        e.preventDefault(); ta.setRangeText("    ", ta.selectionStart, ta.selectionEnd, "end");
        ta.dispatchEvent(new Event("input"));
      }
    });
    return {
      getText: function () { return ta.value; },
      setText: function (t) { ta.value = t; ta.setSelectionRange(0, 0); ta.scrollTop = 0; lintSoon(); },
      goto: function (line, col) {
        var i = indexAt(ta.value, line, col || 0);
        ta.focus(); ta.setSelectionRange(i, i);
        var lh = parseFloat(getComputedStyle(ta).lineHeight) || 19;
        ta.scrollTop = Math.max(0, line * lh - ta.clientHeight / 3);
        cursor();
      },
      focus: function () { ta.focus(); },
      view: ta
    };
  }

  function mdToHtml(md) {
    var esc = function (s) { return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); };
    return md.split(/```[a-z]*\n?/).map(function (part, i) {
      if (i % 2) return "<pre>" + esc(part) + "</pre>";
      return esc(part).replace(/`([^`]+)`/g, "<code>$1</code>").replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
        .replace(/\*([^*]+)\*/g, "<em>$1</em>").replace(/\n\n+/g, "<br><br>").replace(/\n/g, " ");
    }).join("");
  }
  function showHover(h) {
    var box = $("hover");
    if (!h || !h.markdown) { box.hidden = true; box.innerHTML = ""; return; }
    box.innerHTML = mdToHtml(h.markdown); box.hidden = false;
  }

  window.StudioPlain = { editor: editor, showHover: showHover, lineColAt: lineColAt, indexAt: indexAt };
})();
