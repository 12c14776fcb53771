// The studio's editor: CodeMirror 6 set up for .cards files, talking to the studio server
// through the functions the page passes in (lint, hover, complete, definition), so that the
// editor holds no second analysis of the language: every word list and every diagnostic comes
// from the server (interpreter/language/highlight.py's words, the language server's analysis).
//
// build.mjs bundles this file into ../static/editor.bundle.js, an IIFE that sets
// window.CardsEditor = {create}. Lines and columns crossing that boundary are 0-based and
// counted in code points, like the language server's; CodeMirror counts UTF-16 units, so
// every position is converted at the edge (toPos, toLineCol).

import {Compartment, EditorState, RangeSetBuilder} from "@codemirror/state";
import {
  Decoration, EditorView, ViewPlugin, crosshairCursor, drawSelection, dropCursor, highlightActiveLine, highlightActiveLineGutter,
  highlightSpecialChars, hoverTooltip, keymap, lineNumbers, rectangularSelection,
} from "@codemirror/view";
import {
  HighlightStyle, StreamLanguage, bracketMatching, indentOnInput, indentService, indentUnit, syntaxHighlighting,
} from "@codemirror/language";
import {defaultKeymap, history, historyKeymap, indentWithTab} from "@codemirror/commands";
import {lintGutter, lintKeymap, linter} from "@codemirror/lint";
import {autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap} from "@codemirror/autocomplete";
import {highlightSelectionMatches, search, searchKeymap} from "@codemirror/search";
import {highlightCode, tags as t} from "@lezer/highlight";

// ------------------------------------------------------------------ positions

/** The document offset of a 0-based line and code-point column (clamped to the document). */
function toPos(doc, line, col) {
  if (line < 0) return 0;
  if (line >= doc.lines) return doc.length;
  const l = doc.line(line + 1), s = l.text;
  let off = 0;
  for (let cp = 0; cp < col && off < s.length; cp++) off += s.codePointAt(off) > 0xffff ? 2 : 1;
  return l.from + off;
}

/** The 0-based line and code-point column of a document offset. */
function toLineCol(doc, pos) {
  const l = doc.lineAt(pos);
  let col = 0;
  for (let off = 0; off < pos - l.from; col++) off += l.text.codePointAt(off) > 0xffff ? 2 : 1;
  return {line: l.number - 1, col};
}

const WORD_CHAR = /[A-Za-z0-9_]/;

/** The word under `pos` ({from, to}; side < 0: the character before pos, else the one after), or
 * null when that character is not part of a name. */
function wordAt(doc, pos, side = 1) {
  const l = doc.lineAt(pos), s = l.text, p = pos - l.from;
  const under = side < 0 ? p - 1 : p;
  if (under < 0 || under >= s.length || !WORD_CHAR.test(s[under])) return null;
  let a = under, b = under + 1;
  while (a > 0 && WORD_CHAR.test(s[a - 1])) a--;
  while (b < s.length && WORD_CHAR.test(s[b])) b++;
  if (/[0-9]/.test(s[a])) return null;
  return {from: l.from + a, to: l.from + b};
}

// ------------------------------------------------------------------ the cards language

// The words that declare a name, and what the name is (as interpreter/language/highlight.py colours
// the name that follows them; tests/studio/test_studio_bundle.py checks the two agree).
const DECLARES = {
  define: "function", procedure: "function", advice: "function",
  phase: "label", rule: "label", action: "label",
  zone: "variable", option: "variable", var: "variable", deck: "variable", group: "variable",
  value: "variable", interpretation: "variable",
  game: "namespace", variant: "namespace",
};
const LINE_START_WORDS = new Set(["suits", "ranks", "cards", "copies"]);
const CONSTANTS = ["true", "false", "none"];

const TOKENS = {
  comment: t.lineComment, string: t.string, number: t.integer, operator: t.operator, punctuation: t.punctuation,
  keyword: t.keyword, declare: t.definitionKeyword, atom: t.bool, builtin: t.standard(t.function(t.variableName)),
  builtinName: t.standard(t.variableName), context: t.modifier, attribute: t.propertyName, name: t.variableName,
  "def-function": t.definition(t.function(t.variableName)), "use-function": t.function(t.variableName),
  "def-label": t.definition(t.labelName), "use-label": t.labelName,
  "def-variable": t.definition(t.variableName), "use-variable": t.special(t.variableName),
  "def-namespace": t.definition(t.namespace), "use-namespace": t.namespace,
};

/** The names a document declares, {name: kind}, found the way the tokenizer finds them. */
function declaredNames(text) {
  const out = Object.create(null);
  const re = /^[ \t]*(?:new[ \t]+)?(define|procedure|advice|phase|rule|action|zone|option|var|deck|group|value|interpretation|game|variant)[ \t]+([A-Za-z_][A-Za-z0-9_]*)/gm;
  for (let m; (m = re.exec(text));) if (!(m[2] in out)) out[m[2]] = DECLARES[m[1]];
  return out;
}

/** A StreamLanguage colouring the words the server sent, and the names this document declares. */
function cardsLanguage(words, declared) {
  const set = xs => new Set(xs || []);
  const keywords = set(words.keywords), builtins = set(words.builtins), names = set(words.names);
  const context = set(words.context), constants = set(words.constants || CONSTANTS);
  return StreamLanguage.define({
    name: "cards",
    startState: () => ({declaring: null}),
    copyState: s => ({declaring: s.declaring}),
    token(stream, state) {
      if (stream.eatSpace()) return null;
      const declaring = state.declaring;
      state.declaring = null;
      const ch = stream.peek();
      if (ch === "#") { stream.skipToEnd(); return "comment"; }
      if (ch === '"') {
        stream.next();
        for (let c; (c = stream.next()) !== undefined;) {
          if (c === "\\") stream.next();
          else if (c === '"') break;
        }
        return "string";
      }
      if (stream.match(/^[0-9]+/)) return "number";
      if (stream.match("..")) return "operator";
      if (ch === ".") {
        stream.next();
        if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*/)) return "attribute";
        return "punctuation";
      }
      if (stream.match(/^(==|!=|<=|>=|[<>=+\-*/])/)) return "operator";
      if (stream.match(/^[()[\],:]/)) return "punctuation";
      const sol = stream.string.slice(0, stream.pos).trim() === "";
      const m = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/);
      if (!m) { stream.next(); return null; }
      const w = m[0];
      if (declaring) return "def-" + declaring;
      if (w in DECLARES && keywords.has(w)) {
        state.declaring = DECLARES[w];
        return "declare";
      }
      if (w === "new") { state.declaring = null; return "keyword"; }
      if (sol && LINE_START_WORDS.has(w)) return "keyword";
      if (constants.has(w)) return "atom";
      if (builtins.has(w) && stream.match(/^\s*\(/, false)) return "builtin";
      if (keywords.has(w)) return "keyword";
      if (names.has(w)) return "builtinName";
      if (context.has(w)) return "context";
      if (declared[w]) return "use-" + declared[w];
      return "name";
    },
    languageData: {commentTokens: {line: "#"}, closeBrackets: {brackets: ["(", "[", '"']}},
    tokenTable: TOKENS,
  });
}

/** Where comments start on a line: the index of its '#' outside strings, or the line's length. */
function commentStart(s) {
  for (let i = 0, quoted = false; i < s.length; i++) {
    if (quoted && s[i] === "\\") i++;
    else if (s[i] === '"') quoted = !quoted;
    else if (!quoted && s[i] === "#") return i;
  }
  return s.length;
}

/** True if the character at `index` of the line is inside a comment or a string. */
function inCommentOrString(s, index) {
  if (index >= commentStart(s)) return true;
  let quoted = false;
  for (let i = 0; i < index; i++) {
    if (quoted && s[i] === "\\") i++;
    else if (s[i] === '"') quoted = !quoted;
  }
  return quoted;
}

/** Indent like the language: as the line before, one level more after a line ending in ':'. The
 * lines are the context's: when Enter breaks a line at pos, the line before is its part before pos. */
const cardsIndent = indentService.of((context, pos) => {
  const above = l => (l.from > 0 ? context.lineAt(l.from - 1, -1) : null);
  let l = context.lineAt(pos, -1);
  if (context.simulatedBreak !== pos) l = above(l);
  for (; l; l = above(l)) {
    const text = l.text;
    if (!text.trim()) continue;
    const indent = /^[ \t]*/.exec(text)[0].replace(/\t/g, " ".repeat(context.unit)).length;
    return text.slice(0, commentStart(text)).trimEnd().endsWith(":") ? indent + context.unit : indent;
  }
  return 0;
});

// ------------------------------------------------------------------ wrapping

const WRAP_MORE = 4;  // a wrapped line's rows after the first: this much further in than its indentation
const hangs = new Map();

/** Long lines wrap; the rows after the first hang under the line's text, further in, so that the
 * indentation that says what a line belongs to still shows (a negative text-indent for the first row). */
const hangingIndent = ViewPlugin.fromClass(class {
  constructor(view) { this.decorations = this.build(view); }
  update(u) { if (u.docChanged || u.viewportChanged) this.decorations = this.build(u.view); }
  build(view) {
    const out = new RangeSetBuilder(), doc = view.state.doc;
    for (const {from, to} of view.visibleRanges) {
      for (let pos = from; pos <= to;) {
        const line = doc.lineAt(pos);
        if (line.length) {
          const n = /^[ \t]*/.exec(line.text)[0].replace(/\t/g, "    ").length + WRAP_MORE;
          if (!hangs.has(n)) {
            hangs.set(n, Decoration.line({attributes: {style: `padding-left: calc(6px + ${n}ch); text-indent: -${n}ch`}}));
          }
          out.add(line.from, line.from, hangs.get(n));
        }
        pos = line.to + 1;
      }
    }
    return out.finish();
  }
}, {decorations: v => v.decorations});

// ------------------------------------------------------------------ the look

// The rulebook's palette (interpreter/templates/rulebook.css): ink on warm paper, a rust accent;
// and its dark counterpart (warm light ink on a dark brown-grey), for a system in dark mode.
const LIGHT = {
  ink: "#1f1d1a", muted: "#6b665e", accent: "#7b2d18", line: "#d8d1c2", tint: "#f6f1e6", paper: "#fffdf8",
  comment: "#77705f", string: "#2d6a34", number: "#9a4d00", modifier: "#6a3d8a", builtin: "#2f5d8a",
  func: "#1d4f7a", label: "#8a5300", variable: "#1f6360", property: "#4f5a66",
  selection: "#e9dcc0", activeLine: "#fbf5e9", activeGutter: "#efe6d3", bracket: "#f1e1b8", bracketLine: "#d9bd7a",
  nonmatching: "#f7d4cc", selectionMatch: "#f3ead6", search: "#f6e3a6", searchLine: "#d6b65a",
  error: "#b3261e", warning: "#b36b00", info: "#2f5d8a", tooltip: "#fffefb", picked: "#efe2c6",
  shadow: "rgba(60, 45, 20, 0.15)",
};
const DARK = {
  ink: "#e8e2d6", muted: "#a39c8f", accent: "#f0a27a", line: "#4a453d", tint: "#2a2723", paper: "#1e1c19",
  comment: "#9a937f", string: "#9ccf8f", number: "#f0b46a", modifier: "#c9a3e6", builtin: "#8fbbe8",
  func: "#9cc7f0", label: "#e8bf72", variable: "#7fcfc6", property: "#b4bfca",
  selection: "#4b3f2c", activeLine: "#26231f", activeGutter: "#332f29", bracket: "#5a4a25", bracketLine: "#a08440",
  nonmatching: "#6a2f28", selectionMatch: "#3a3328", search: "#5e4d1c", searchLine: "#a08a3c",
  error: "#ff7b6e", warning: "#f0b050", info: "#8fbbe8", tooltip: "#2a2723", picked: "#4b3f2c",
  shadow: "rgba(0, 0, 0, 0.5)",
};
const MONO = '"DejaVu Sans Mono", Menlo, Consolas, monospace';

const highlightFor = P => HighlightStyle.define([
  {tag: t.lineComment, color: P.comment, fontStyle: "italic"},
  {tag: t.string, color: P.string},
  {tag: [t.integer, t.bool], color: P.number},
  {tag: t.keyword, color: P.accent, fontWeight: "600"},
  {tag: t.definitionKeyword, color: P.accent, fontWeight: "700"},
  {tag: t.modifier, color: P.modifier},
  {tag: [t.standard(t.function(t.variableName)), t.standard(t.variableName)], color: P.builtin},
  {tag: t.definition(t.function(t.variableName)), color: P.func, fontWeight: "700"},
  {tag: t.function(t.variableName), color: P.func},
  {tag: t.definition(t.labelName), color: P.label, fontWeight: "700"},
  {tag: t.labelName, color: P.label},
  {tag: t.definition(t.variableName), color: P.variable, fontWeight: "700"},
  {tag: t.special(t.variableName), color: P.variable},
  {tag: [t.definition(t.namespace), t.namespace], color: P.ink, fontWeight: "700"},
  {tag: t.propertyName, color: P.property},
  {tag: [t.operator, t.punctuation], color: P.muted},
]);

const themeFor = (P, dark) => EditorView.theme({
  "&": {color: P.ink, backgroundColor: P.paper, fontSize: "14px", height: "100%"},
  "&.cm-focused": {outline: "none"},
  ".cm-scroller": {fontFamily: MONO, lineHeight: "1.5"},
  ".cm-content": {caretColor: P.accent, padding: "6px 0"},
  ".cm-cursor, .cm-dropCursor": {borderLeftColor: P.accent, borderLeftWidth: "2px"},
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection":
    {backgroundColor: P.selection},
  ".cm-activeLine": {backgroundColor: P.activeLine},
  ".cm-gutters": {backgroundColor: P.tint, color: P.muted, borderRight: `1px solid ${P.line}`},
  ".cm-activeLineGutter": {backgroundColor: P.activeGutter, color: P.ink},
  ".cm-lineNumbers .cm-gutterElement": {padding: "0 6px 0 10px"},
  "&.cm-focused .cm-matchingBracket": {backgroundColor: P.bracket, outline: `1px solid ${P.bracketLine}`},
  "&.cm-focused .cm-nonmatchingBracket": {backgroundColor: P.nonmatching},
  ".cm-selectionMatch": {backgroundColor: P.selectionMatch},
  ".cm-searchMatch": {backgroundColor: P.search, outline: `1px solid ${P.searchLine}`},
  // diagnostics: a wavy line under the text, a coloured mark in the gutter, readable messages
  ".cm-lintRange-error": {backgroundImage: "none", textDecoration: `underline wavy ${P.error}`, textDecorationSkipInk: "none",
                          textUnderlineOffset: "3px"},
  ".cm-lintRange-warning": {backgroundImage: "none", textDecoration: `underline wavy ${P.warning}`, textDecorationSkipInk: "none",
                            textUnderlineOffset: "3px"},
  ".cm-lintRange-info": {backgroundImage: "none", textDecoration: `underline dotted ${P.info}`, textUnderlineOffset: "3px"},
  ".cm-gutter-lint": {width: "1.3em"},
  ".cm-gutter-lint .cm-gutterElement": {padding: "0 0 0 3px"},
  ".cm-lint-marker": {width: "1em", height: "1em", marginTop: "0.2em"},
  ".cm-diagnostic": {fontFamily: "system-ui, sans-serif", padding: "4px 8px", maxWidth: "40em", whiteSpace: "pre-wrap"},
  ".cm-diagnostic-error": {borderLeft: `4px solid ${P.error}`},
  ".cm-diagnostic-warning": {borderLeft: `4px solid ${P.warning}`},
  ".cm-diagnostic-info": {borderLeft: `4px solid ${P.info}`},
  ".cm-tooltip": {backgroundColor: P.tooltip, border: `1px solid ${P.line}`, borderRadius: "6px",
                  boxShadow: `0 3px 12px ${P.shadow}`, color: P.ink},
  ".cm-tooltip.cm-tooltip-autocomplete > ul": {fontFamily: MONO},
  ".cm-tooltip-autocomplete ul li[aria-selected]": {backgroundColor: P.picked, color: P.ink},
  ".cm-completionDetail": {color: P.muted, fontStyle: "normal", marginLeft: "1em"},
  ".cm-completionIcon-keyword:after": {content: "'k'", fontStyle: "italic"},  // the default key emoji is missing from many fonts
  ".cm-completionMatchedText": {textDecoration: "none", fontWeight: "700", color: P.accent},
  ".cm-panels": {backgroundColor: P.tint, color: P.ink},
  ".cm-panels.cm-panels-bottom": {borderTop: `1px solid ${P.line}`},
  // hover: the server's markdown as paragraphs and code
  ".cm-cards-hover": {fontFamily: "Georgia, 'Iowan Old Style', serif", fontSize: "14px", lineHeight: "1.45",
                      padding: "6px 10px", maxWidth: "36em", maxHeight: "24em", overflowY: "auto"},
  ".cm-cards-hover p, .cm-cards-hover ul": {margin: "0.3em 0"},
  ".cm-cards-hover ul": {paddingLeft: "1.3em"},
  ".cm-cards-hover code": {fontFamily: MONO, fontSize: "0.88em", backgroundColor: P.tint, padding: "0 0.2em", borderRadius: "3px"},
  ".cm-cards-hover pre": {fontFamily: MONO, fontSize: "0.88em", backgroundColor: P.tint, border: `1px solid ${P.line}`,
                          borderRadius: "4px", padding: "4px 8px", margin: "0.4em 0", whiteSpace: "pre-wrap"},
  ".cm-cards-hover strong": {color: P.accent},
  ".cm-cards-link": {textDecoration: "underline", textDecorationColor: P.accent, cursor: "pointer"},
}, {dark});

const cardsHighlight = highlightFor(LIGHT), cardsTheme = themeFor(LIGHT, false);
const darkHighlight = highlightFor(DARK), darkTheme = themeFor(DARK, true);
const DARK_QUERY = "(prefers-color-scheme: dark)";

/** The look that fits the system's colour scheme now: the paper theme, or the dark one. */
function look() {
  const dark = typeof matchMedia === "function" && matchMedia(DARK_QUERY).matches;
  return dark ? [darkTheme, syntaxHighlighting(darkHighlight)] : [cardsTheme, syntaxHighlighting(cardsHighlight)];
}

// ------------------------------------------------------------------ hover markdown

function escapeHtml(s) {
  return s.replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

/** Inline markdown (code spans, **strong**, *emphasis*, [links](...) as their text) as HTML. */
function inline(s) {
  return s.split(/(`[^`]*`)/).map(part => {
    if (part.length > 1 && part.startsWith("`") && part.endsWith("`")) return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
    return escapeHtml(part)
      .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
      .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
      .replace(/(^|[^*\w])\*([^*\s][^*]*)\*(?!\w)/g, "$1<em>$2</em>")
      .replace(/(^|\W)_([^_\s][^_]*)_(?!\w)/g, "$1<em>$2</em>");
  }).join("");
}

/** Code as HTML coloured like the editor (language: the editor's cards language, or none). */
function codeToHtml(code, language) {
  if (!language) return escapeHtml(code);
  const out = [], dark = typeof matchMedia === "function" && matchMedia(DARK_QUERY).matches;
  highlightCode(code, language.parser.parse(code), dark ? darkHighlight : cardsHighlight,
    (text, classes) => out.push(classes ? `<span class="${classes}">${escapeHtml(text)}</span>` : escapeHtml(text)),
    () => out.push("\n"));
  return out.join("");
}

/** The small markdown the language server writes, as HTML: paragraphs, bullet lists, fenced code
 * (coloured with `language` when the fence says cards or nothing). */
function markdownToHtml(md, language = null) {
  const out = [], lines = md.replace(/\r\n?/g, "\n").split("\n");
  let para = [], list = null;
  const flush = () => {
    if (para.length) out.push(`<p>${inline(para.join(" "))}</p>`);
    para = [];
    if (list) out.push(`<ul>${list.map(i => `<li>${inline(i)}</li>`).join("")}</ul>`);
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*```/.test(line)) {
      flush();
      const code = [], info = line.trim().slice(3).trim();
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]); i++) code.push(lines[i]);
      out.push(`<pre><code>${codeToHtml(code.join("\n"), !info || info === "cards" ? language : null)}</code></pre>`);
    } else if (/^\s*[-*] /.test(line)) {
      if (para.length) { out.push(`<p>${inline(para.join(" "))}</p>`); para = []; }
      (list = list || []).push(line.replace(/^\s*[-*] /, ""));
    } else if (!line.trim()) {
      flush();
    } else if (list && /^\s+\S/.test(line)) {
      list[list.length - 1] += " " + line.trim();
    } else {
      if (list) flush();
      para.push(line.trim());
    }
  }
  flush();
  return out.join("");
}

// ------------------------------------------------------------------ create

const COMPLETION_TYPES = {
  keyword: "keyword", builtin: "function", define: "function", procedure: "function", advice: "function",
  var: "variable", zone: "variable", option: "variable", local: "variable", value: "constant", deck: "class",
  phase: "type", rule: "type", action: "method", suit: "enum", rank: "enum", card: "enum", group: "enum",
  attribute: "property", attr: "property", file: "namespace", game: "namespace", variant: "namespace",
  type: "type", enum: "enum",
};

/** Create an editor in `parent`. See the contract in the studio's brief: lines and columns are
 * 0-based code points; every callback is optional. */
function create(parent, options = {}) {
  const o = options;
  let words = o.words || {};
  const language = new Compartment(), theme = new Compartment();
  let declared = declaredNames(o.doc || "");
  let quiet = false;  // setText: no onChange for a document the page itself put in
  let path = o.path == null ? null : o.path;

  const here = view => toLineCol(view.state.doc, view.state.selection.main.head);

  const lintSource = async view => {
    if (!o.lint) return [];
    const doc = view.state.doc, text = doc.toString();
    const diags = (await o.lint(text)) || [];
    return diags.map(d => {
      let from = toPos(doc, d.line, d.col);
      let to = d.endLine == null ? from : toPos(doc, d.endLine, d.endCol == null ? d.col : d.endCol);
      if (to < from) [from, to] = [to, from];
      if (to === from) {  // a point: mark the word there, or the character
        const w = wordAt(doc, from);
        if (w) [from, to] = [w.from, w.to];
        else if (from < doc.lineAt(from).to) to = from + 1;
      }
      const severity = ["error", "warning", "info"].includes(d.severity) ? d.severity : "error";
      return {from, to, severity, message: String(d.message || "")};
    });
  };

  const hoverSource = async (view, pos, side) => {
    if (!o.hover) return null;
    const w = wordAt(view.state.doc, pos, side), line = view.state.doc.lineAt(pos);
    if (!w || inCommentOrString(line.text, w.from - line.from)) return null;
    const doc = view.state.doc, at = toLineCol(doc, side < 0 ? pos - 1 : pos);
    const res = await o.hover(doc.toString(), at.line, at.col);
    if (!res || !res.markdown || view.state.doc !== doc) return null;
    return {
      pos: w.from, end: w.to, above: true,
      create() {
        const dom = document.createElement("div");
        dom.className = "cm-cards-hover";
        dom.innerHTML = markdownToHtml(String(res.markdown), language.get(view.state));
        return {dom};
      },
    };
  };

  const completeSource = async context => {
    if (!o.complete) return null;
    const word = context.matchBefore(/[A-Za-z_][A-Za-z0-9_]*/);
    const afterDot = context.state.sliceDoc(context.pos - 1, context.pos) === ".";
    if (!context.explicit && !afterDot && (!word || word.from === word.to)) return null;
    const at = toLineCol(context.state.doc, context.pos);
    const items = (await o.complete(context.state.doc.toString(), at.line, at.col)) || [];
    if (context.aborted) return null;
    return {
      from: word ? word.from : context.pos,
      options: items.map((it, i) => ({
        label: it.label, detail: it.detail || undefined, type: COMPLETION_TYPES[it.kind] || it.kind || undefined,
        boost: -i / Math.max(items.length, 1),  // keep the server's order among equally good matches
        apply: it.insert || undefined,  // the language server's items may say what to insert and what it means
        info: it.doc ? () => {
          const dom = document.createElement("div");
          dom.className = "cm-cards-hover";
          dom.innerHTML = markdownToHtml(String(it.doc), language.get(context.state));
          return dom;
        } : undefined,
      })),
      validFor: /^[A-Za-z0-9_]*$/,
    };
  };

  const gotoPos = (view, pos) => {
    view.dispatch({selection: {anchor: pos}, effects: EditorView.scrollIntoView(pos, {y: "center"})});
    view.focus();
  };

  const definitionAt = async (view, pos) => {
    if (!o.definition) return false;
    const doc = view.state.doc, at = toLineCol(doc, pos);
    const res = await o.definition(doc.toString(), at.line, at.col);
    if (!res) return false;
    const p = typeof path === "function" ? path() : path;
    if (!res.path || res.path === p || (p == null && !o.onOpen)) {
      if (o.onJump) o.onJump(res.line, res.col);  // the page keeps the way back
      else gotoPos(view, toPos(view.state.doc, res.line, res.col));
    } else if (o.onOpen) {
      o.onOpen(res.path, res.line, res.col);
    }
    return true;
  };

  const run = f => { Promise.resolve().then(f).catch(e => console.error("CardsEditor:", e)); return true; };

  // the names the document declares: re-coloured a moment after they change
  let declTimer = null;
  const redeclare = view => {
    clearTimeout(declTimer);
    declTimer = setTimeout(() => {
      const now = declaredNames(view.state.doc.toString());
      if (JSON.stringify(now) !== JSON.stringify(declared)) {
        declared = now;
        view.dispatch({effects: language.reconfigure(cardsLanguage(words, declared))});
      }
    }, 300);
  };

  const extensions = () => [
    lineNumbers(), lintGutter(), highlightActiveLineGutter(), highlightSpecialChars(), history(), drawSelection(),
    dropCursor(), EditorState.allowMultipleSelections.of(true), indentOnInput(), bracketMatching(), closeBrackets(),
    rectangularSelection(), crosshairCursor(), highlightActiveLine(), highlightSelectionMatches(), search({top: false}),
    indentUnit.of("    "), EditorState.tabSize.of(4), cardsIndent,
    language.of(cardsLanguage(words, declared)), theme.of(look()), EditorView.lineWrapping, hangingIndent,
    linter(lintSource, {delay: o.lintDelay == null ? 150 : o.lintDelay}),
    hoverTooltip(hoverSource, {hideOnChange: true, hoverTime: 250}),
    autocompletion({override: [completeSource], activateOnTyping: true, icons: true}),
    keymap.of([
      {key: "F12", run: view => run(() => definitionAt(view, view.state.selection.main.head))},
      ...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...completionKeymap,
      ...lintKeymap, indentWithTab,
    ]),
    EditorView.domEventHandlers({
      mousedown(e, view) {
        if (e.button !== 0 || !(e.ctrlKey || e.metaKey)) return false;
        const pos = view.posAtCoords({x: e.clientX, y: e.clientY});
        if (pos == null) return false;
        e.preventDefault();
        run(() => definitionAt(view, pos));
        return true;
      },
    }),
    EditorView.updateListener.of(u => {
      if (u.docChanged) {
        redeclare(u.view);
        if (!quiet && o.onChange) o.onChange(u.state.doc.toString());
      }
      if ((u.selectionSet || u.docChanged) && o.onCursor) {
        const at = here(u.view);
        o.onCursor(at.line, at.col);
      }
    }),
    EditorView.contentAttributes.of({"aria-label": "Rules source (.cards)", spellcheck: "false"}),
  ];

  const view = new EditorView({state: EditorState.create({doc: o.doc || "", extensions: extensions()}), parent});
  if (o.onCursor) o.onCursor(0, 0);
  // the system's light or dark mode, followed while the page is open
  const scheme = typeof matchMedia === "function" ? matchMedia(DARK_QUERY) : null;
  if (scheme && scheme.addEventListener) {
    scheme.addEventListener("change", () => view.dispatch({effects: theme.reconfigure(look())}));
  }

  return {
    view,
    getText: () => view.state.doc.toString(),
    /** Replace the whole document (another file or a reload): a fresh history, no onChange. */
    setText(text) {
      declared = declaredNames(text);
      quiet = true;
      try {
        view.setState(EditorState.create({doc: text, extensions: extensions()}));
      } finally {
        quiet = false;
      }
      // a new file starts at its top left, whatever the last one was scrolled to
      view.scrollDOM.scrollTop = 0;
      view.scrollDOM.scrollLeft = 0;
    },
    /** Put the cursor at a 0-based line and code-point column, scrolled into the middle. */
    goto(line, col = 0) { gotoPos(view, toPos(view.state.doc, line, col)); },
    focus() { view.focus(); },
    /** The path definitions are compared with (a string, or a function giving it). */
    setPath(p) { path = p; },
    /** New word lists (as create's `words`), for a page that creates the editor before they arrive. */
    setWords(w) {
      words = w || {};
      view.dispatch({effects: language.reconfigure(cardsLanguage(words, declared))});
    },
  };
}

window.CardsEditor = {create, toPos, toLineCol, markdownToHtml, declaredNames};
