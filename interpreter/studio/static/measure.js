/* The studio's measure panels: what did my change do (Diff, Balance) and Fuzz it.
 *
 * Fills <section id="measure"> with three tabs. Talks to /studio/api/measure/... through
 * window.studio.api (which adds the token); follows the file being edited through
 * window.studio.current() and the "studio:opened" and "studio:loaded" events. Plain DOM, no
 * framework: each panel is a small object with the elements it owns and a refresh() the page calls.
 * A panel is its controls (.measure-side) and, once there is one, a report's page beside them at
 * the panel's full height (.paged): the page scrolls itself, the panel never does. */
(function () {
  "use strict";

  var root = document.getElementById("measure");
  if (!root || !window.studio) { return; }
  var API = "/studio/api/measure";
  var POLL_MS = 250;           // how often a running job is asked how far it got
  var DIFF_DEBOUNCE_MS = 300;  // after a new version loads, before the diff is asked for
  var query = (document.currentScript && new URL(document.currentScript.src).search) || "";

  // ------------------------------------------------------------------ small helpers
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") { node.textContent = attrs[k]; }
      else if (k === "on") { Object.keys(attrs.on).forEach(function (ev) { node.addEventListener(ev, attrs.on[ev]); }); }
      else if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) { node.setAttribute(k, attrs[k]); }
    });
    (children || []).forEach(function (c) { node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return node;
  }
  function current() { return window.studio.current() || {}; }
  function api(url, body) {
    // one shape for every answer: the JSON, or {error} when the call failed
    return Promise.resolve()
      .then(function () { return window.studio.api(API + url, body); })
      .then(function (r) { return r || {}; }, function (e) { return { error: (e && e.message) || String(e) }; });
  }
  function frame(title) {
    // a report is a page of its own (its own printable style): shown in a frame, never run as script
    return el("iframe", { "class": "measure-page", title: title, sandbox: "allow-same-origin allow-popups allow-modals" });
  }
  function show(iframe, html) {
    iframe.srcdoc = html;
    iframe.hidden = false;
    iframe.parentNode.classList.add("paged");
  }
  function hide(iframe) {
    iframe.hidden = true;
    if (iframe.parentNode) { iframe.parentNode.classList.remove("paged"); }
  }
  function everLoaded() {   // a version of the file loaded (the panels measure the last one that did)
    var st = window.studio.state;
    return st ? !!st.version : !!current().loaded;
  }
  function baseName(path) { return String(path).split("/").pop(); }
  function printFrame(iframe) {
    if (iframe.contentWindow) { iframe.contentWindow.focus(); iframe.contentWindow.print(); }
  }
  function numberField(label, name, value, min, max, hint) {
    var input = el("input", { type: "number", name: name, value: value, min: min, max: max, step: 1, inputmode: "numeric" });
    return { input: input, label: el("label", { title: hint || null }, [label + " ", input]) };
  }

  var style = el("link", { rel: "stylesheet", href: "/studio/static/measure.css" + query });
  document.head.appendChild(style);

  // ------------------------------------------------------------------ tabs
  var tabs = el("div", { "class": "measure-tabs", role: "tablist", "aria-label": "Measure" });
  var panels = el("div", { "class": "measure-panels" });
  root.appendChild(tabs);
  root.appendChild(panels);
  var all = [];

  function addTab(id, title, panel) {
    var button = el("button", { type: "button", role: "tab", id: "measure-tab-" + id, "aria-controls": "measure-" + id,
                                "aria-selected": "false", text: title });
    panel.node.id = "measure-" + id;
    panel.node.setAttribute("role", "tabpanel");
    panel.node.setAttribute("aria-labelledby", button.id);
    panel.node.hidden = true;
    button.addEventListener("click", function () { select(id); });
    tabs.appendChild(button);
    panels.appendChild(panel.node);
    all.push({ id: id, button: button, panel: panel });
  }
  function select(id) {
    all.forEach(function (t) {
      var on = t.id === id;
      t.button.setAttribute("aria-selected", on ? "true" : "false");
      t.panel.node.hidden = !on;
      if (on && t.panel.shown) { t.panel.shown(); }
    });
  }

  // ------------------------------------------------------------------ Diff
  function DiffPanel() {
    var self = this;
    this.note = el("p", { "class": "measure-note", text: "The diff of a variant against its base appears here." });
    this.print = el("button", { type: "button", text: "Print", hidden: true, on: { click: function () { printFrame(self.page); } } });
    this.page = frame("What changes: the diff against the base");
    this.page.hidden = true;
    this.node = el("div", { "class": "measure-panel measure-diff" }, [el("div", { "class": "measure-side" }, [this.note, this.print]), this.page]);
    this.shownFor = null;
    this.timer = null;
  }
  DiffPanel.prototype.refresh = function () {
    var self = this;
    clearTimeout(this.timer);
    this.timer = setTimeout(function () { self.load(); }, DIFF_DEBOUNCE_MS);
  };
  DiffPanel.prototype.load = function () {
    var self = this, cur = current();
    if (!cur.path) { return; }
    if (!cur.base) {
      this.note.textContent = "This file is not a variant, so there is nothing to compare it with. " +
        "A variant names its base on its first line (variant NAME \"Title\" of \"base.cards\") and states only what changes.";
      hide(this.page); this.print.hidden = true; this.shownFor = null;
      return;
    }
    api("/diff", { path: cur.path }).then(function (r) {
      if (r.error) { self.note.textContent = r.error; return; }
      if (!r.variant) {   // (its base did not load: nothing to compare it with yet)
        self.note.textContent = "Its base, " + baseName(cur.base) + ", does not load, so there is nothing to compare it with yet.";
        hide(self.page); self.print.hidden = true; self.shownFor = null;
        return;
      }
      var what = r.identical ? "identical in meaning to its base"
        : r.rule_changes + " change" + (r.rule_changes === 1 ? "" : "s") + " to the rules, " +
          r.prose_changes + " to the prose";
      self.note.textContent = (current().loaded ? "" : "The last version that loaded: ") +
        "Compared with " + r.base + ": " + what + ". (As cardrules diff gives it.)";
      if (self.shownFor !== r.html) {
        // a new frame each time: setting srcdoc again would add an entry to the browser's history
        var page = frame(self.page.title); self.page.replaceWith(page); self.page = page;
        show(self.page, r.html); self.shownFor = r.html;
      }
      self.print.hidden = false;
    });
  };
  DiffPanel.prototype.shown = function () { this.load(); };

  // ------------------------------------------------------------------ a job's panel (Balance, Fuzz)
  function JobPanel(kind, opts) {
    var self = this;
    this.kind = kind;
    this.opts = opts;
    this.form = el("form", { "class": "measure-form", novalidate: "" });   // the server checks the numbers and says why
    opts.fields(this);
    this.run = el("button", { type: "submit", text: opts.run });
    this.stop = el("button", { type: "button", text: "Stop", disabled: true, on: { click: function () { self.doStop(); } } });
    this.why = el("span", { "class": "measure-why", hidden: true });   // why the run button is off
    this.form.appendChild(el("span", { "class": "measure-buttons" }, [this.run, this.stop, this.why]));
    this.form.addEventListener("submit", function (ev) { ev.preventDefault(); self.start(); });
    this.bar = el("progress", { max: 1, value: 0, "aria-label": opts.progressLabel });
    this.state = el("span", { "class": "measure-state", role: "status" });
    this.error = el("p", { "class": "measure-error", hidden: true });
    this.out = el("div", { "class": "measure-out" });
    this.page = null;
    this.node = el("div", { "class": "measure-panel measure-" + kind }, [el("div", { "class": "measure-side" }, [
      el("p", { "class": "measure-note", text: opts.intro }), this.form,
      el("div", { "class": "measure-progress" }, [this.bar, this.state]), this.error, this.out])]);
    this.timer = null;
    this.path = null;
    this.resultFor = null;
    this.running = false;
  }
  JobPanel.prototype.say = function (text) { this.error.textContent = text || ""; this.error.hidden = !text; };
  JobPanel.prototype.clear = function () {
    this.out.textContent = "";
    if (this.page) { this.page.remove(); this.page = null; }
    this.node.classList.remove("paged");
  };
  JobPanel.prototype.showPage = function (title, html) {   // the report, beside the controls
    if (!this.page) { this.page = frame(title); this.node.appendChild(this.page); }
    show(this.page, html);
    return this.page;
  };
  // the run button is on only when a run can start; else the reason is shown beside it
  JobPanel.prototype.gate = function () {
    var why = this.opts.why ? this.opts.why(this, current()) : "";
    this.run.disabled = this.running || !!why;
    this.run.title = why;
    this.why.textContent = why;
    this.why.hidden = !why;
  };
  JobPanel.prototype.shown = function () { if (this.opts.shown) { this.opts.shown(this, current()); } };
  JobPanel.prototype.refresh = function () {
    var cur = current();
    if (cur.path !== this.path) {   // another file: its own job, if any
      this.path = cur.path; this.resultFor = null; this.clear(); this.say(""); this.running = false;
      this.poll();
    }
    if (this.opts.refresh) { this.opts.refresh(this, cur); }
    this.gate();
  };
  JobPanel.prototype.start = function () {
    var self = this, cur = current();
    if (!cur.path) { return; }
    var body = this.opts.body(this);
    body.path = cur.path;
    this.say("");
    this.clear();
    this.resultFor = null;
    this.running = true; this.gate();
    api("/" + this.kind + "/start", body).then(function (st) {
      if (st.error) { self.say(st.error); self.running = false; self.gate(); return; }
      self.update(st);
    });
  };
  JobPanel.prototype.doStop = function () {
    var self = this;
    this.stop.disabled = true;
    api("/" + this.kind + "/stop", { path: this.path }).then(function (st) { if (!st.error) { self.update(st); } });
  };
  JobPanel.prototype.poll = function () {
    var self = this, path = this.path;
    clearTimeout(this.timer);
    if (!path) { return; }
    api("/" + this.kind + "/status", { path: path }).then(function (st) {
      if (path !== self.path) { return; }
      if (st.error) { self.say(st.error); return; }
      self.update(st);
    });
  };
  JobPanel.prototype.update = function (st) {
    var self = this, running = st.state === "starting" || st.state === "running";
    this.running = running;
    this.gate();
    this.stop.disabled = !running;
    this.bar.max = Math.max(st.total || 1, 1);
    this.bar.value = st.done || 0;
    this.bar.hidden = st.state === "idle";
    var words = { idle: "", starting: "starting", running: "", done: "done", stopped: "", failed: "failed" }[st.state];
    this.state.textContent = st.state === "idle" ? "" :
      this.opts.count(st) + (st.message && st.state !== "failed" ? " \u00b7 " + st.message : "") + (words ? " \u00b7 " + words : "") +
      (st.seconds !== undefined ? " \u00b7 " + st.seconds.toFixed(1) + " s" : "");
    if (st.state === "failed") { this.say(st.message); }
    if (running) {
      this.timer = setTimeout(function () { self.poll(); }, POLL_MS);
    } else if (st.has_result && this.resultFor !== this.path) {
      this.resultFor = this.path;
      api("/" + this.kind + "/result", { path: this.path }).then(function (r) {
        if (r.error) { self.say(r.error); return; }
        self.clear();
        self.opts.result(self, r);
      });
    } else if (!st.has_result && st.state !== "done") {
      this.clear();
    }
  };

  // ------------------------------------------------------------------ Balance
  // what the file can be compared with: its base (a variant) or any other file the studio lists
  function fillAgainst(p, cur) {
    var sel = p.fields.against, key = cur.path + "\n" + (cur.base || "");
    if (sel.dataset.key === key) { return; }
    sel.dataset.key = key;
    var keep = sel.dataset.path === cur.path ? sel.value : "";
    sel.dataset.path = cur.path;
    sel.innerHTML = "";
    sel.appendChild(el("option", { value: "", text: cur.base ? "its base, " + baseName(cur.base) : "(choose a file)" }));
    window.studio.api("/studio/api/files").then(function (r) {
      if (sel.dataset.key !== key) { return; }
      [["Your files", r.files || []], ["Bundled games", r.bundled || []]].forEach(function (g) {
        var group = el("optgroup", { label: g[0] });
        g[1].forEach(function (f) {
          if (f.path !== cur.path && f.path !== cur.base) { group.appendChild(el("option", { value: f.path, text: f.name })); }
        });
        if (group.children.length) { sel.appendChild(group); }
      });
      sel.value = keep;
      if (sel.value !== keep) { sel.value = ""; }
      p.gate();
    }, function () {});
  }

  var balance = new JobPanel("balance", {
    run: "Compare",
    progressLabel: "games played",
    intro: "Play this file and another (a variant and its base, or any two) on the same deals (balance --against), " +
           "and see what changes in play: who wins, how long a game lasts, which rules are used.",
    fields: function (p) {
      var against = el("select", { name: "against" });
      var games = numberField("Games", "games", 50, 1, 1000, "games of each ruleset (1 to 1000)");
      var seed = numberField("Seed", "seed", 0, 0, null, "game i is dealt with seed+i");
      var players = el("input", { type: "number", name: "players", min: 1, step: 1, placeholder: "fewest", size: 6 });
      var bots = el("select", { name: "bots" }, [el("option", { value: "random", text: "random" }),
                                                 el("option", { value: "greedy", text: "greedy" })]);
      var engine = el("select", { name: "engine" }, [el("option", { value: "python", text: "python" }),
                                                     el("option", { value: "auto", text: "auto" }),
                                                     el("option", { value: "native", text: "native (C)" })]);
      var skill = el("input", { type: "checkbox", name: "skill" });
      against.addEventListener("change", function () { p.gate(); });
      p.fields = { against: against, games: games.input, seed: seed.input, players: players, bots: bots, engine: engine, skill: skill };
      [el("label", { "class": "measure-wide" }, ["Compare with ", against]), games.label, el("label", {}, ["Players ", players]),
       el("label", {}, ["Seats played by ", bots]), seed.label,
       el("label", { title: "python starts at once; native builds the rules in C first" }, ["Engine ", engine]),
       el("label", { title: "also seat the strongest player each game allows (the report names it, and why) at each seat in turn among the others" }, [skill, " skill question"])]
        .forEach(function (n) { p.form.appendChild(n); });
    },
    refresh: function (p, cur) { if (cur.path) { fillAgainst(p, cur); } },
    shown: function (p, cur) { if (cur.path) { p.fields.against.dataset.key = ""; fillAgainst(p, cur); } },   // new files
    why: function (p, cur) {
      if (!cur.path) { return "Open a file first."; }
      if (!everLoaded()) { return "This file has not loaded yet: mend the error shown, then compare."; }
      if (!cur.base && !p.fields.against.value) { return "This file is not a variant: choose a file to compare it with."; }
      return "";
    },
    body: function (p) {
      var f = p.fields, body = { games: f.games.value === "" ? null : Number(f.games.value),
                                 seed: f.seed.value === "" ? null : Number(f.seed.value),
                                 bots: f.bots.value, engine: f.engine.value, skill: f.skill.checked };
      if (f.players.value !== "") { body.players = Number(f.players.value); }
      if (f.against.value) { body.against = f.against.value; }
      return body;
    },
    // each side's games against the number asked for (they are played one side after the other)
    count: function (st) {
      if (!st.parts || !st.parts.length) { return (st.done || 0) + " / " + (st.total || 0) + " games"; }
      var left = st.done || 0, sides = [], skill = [0, 0];
      st.parts.forEach(function (part) {
        var done = Math.min(left, part.games);
        left -= done;
        if (part.skill) { skill[0] += done; skill[1] += part.games; }
        else { sides.push(part.label + ": " + done + " / " + part.games + " games"); }
      });
      return sides.join(" \u00b7 ") + (skill[1] ? " \u00b7 skill question: " + skill[0] + " / " + skill[1] + " games" : "");
    },
    result: function (p, r) {
      var page = p.showPage("The balance report", r.html);
      p.out.appendChild(el("p", { "class": "measure-note", text: r.engine || "" }));
      p.out.appendChild(el("ul", { "class": "measure-summary" }, (r.summary || []).map(function (s) { return el("li", { text: s }); })));
      p.out.appendChild(el("button", { type: "button", text: "Print the report", on: { click: function () { printFrame(page); } } }));
    }
  });

  // ------------------------------------------------------------------ Fuzz
  var fuzz = new JobPanel("fuzz", {
    run: "Fuzz it",
    progressLabel: "configurations played",
    intro: "Hunt for inconsistencies as cardrules fuzz does: games for every player count and option, checked after " +
           "every move; each finding comes with the shortest game that shows it, opened in the replay view.",
    fields: function (p) {
      var games = numberField("Games per configuration", "games", 4, 1, 50, "for each player count and option combination (1 to 50)");
      var seed = numberField("Seed", "seed", 0, 0, null);
      p.fields = { games: games.input, seed: seed.input };
      p.form.appendChild(games.label);
      p.form.appendChild(seed.label);
    },
    why: function (p, cur) {
      if (!cur.path) { return "Open a file first."; }
      return everLoaded() ? "" : "This file has not loaded yet: mend the error shown, then fuzz it.";
    },
    body: function (p) {
      return { games: p.fields.games.value === "" ? null : Number(p.fields.games.value),
               seed: p.fields.seed.value === "" ? null : Number(p.fields.seed.value) };
    },
    count: function (st) {
      var configs = Math.max((st.total || 1) - 1, 0);
      return Math.min(st.done || 0, configs) + " / " + configs + " configurations";
    },
    result: function (p, r) {
      var rep = r.report || {}, n = (r.findings || []).length;
      p.out.appendChild(el("p", { "class": "measure-note", text:
        (n ? n + " finding" + (n === 1 ? "" : "s") : "No findings") + " (" + rep.configurations + " configurations, " +
        rep.games + " games of which " + rep.seeker_games + " rule-seeking, " + Number(rep.seconds || 0).toFixed(1) + " s)" }));
      var list = el("ol", { "class": "measure-findings" });
      (r.findings || []).forEach(function (f) {
        var item = el("li", {}, [el("span", { "class": "measure-tag", text: f.kind }), " " + f.sentence]);
        if (f.rules && f.rules.length) { item.appendChild(el("div", { "class": "measure-sub", text: "rules involved: " + f.rules.join(", ") })); }
        if (f.location) { item.appendChild(el("div", { "class": "measure-sub", text: "at " + f.location })); }
        (f.replays || []).forEach(function (rp) {
          var what = (rp.label ? rp.label + ": " : "") + rp.moves + " move" + (rp.moves === 1 ? "" : "s") +
            (rp.steps < rp.moves ? " (the last one fails: shown just before it)" : "");
          var open = el("a", { href: rp.url, "class": "measure-replay", text: "Open the replay",
                               on: { click: function (ev) { ev.preventDefault(); window.studio.openReplay(rp.url); } } });
          item.appendChild(el("div", { "class": "measure-sub" }, [open, " \u00b7 " + what]));
        });
        list.appendChild(item);
      });
      p.out.appendChild(list);
    }
  });

  var diff = new DiffPanel();
  addTab("diff", "Diff", diff);
  addTab("balance", "Balance", balance);
  addTab("fuzz", "Fuzz", fuzz);
  select("diff");

  function refresh() { diff.refresh(); balance.refresh(); fuzz.refresh(); }
  document.addEventListener("studio:loaded", refresh);
  document.addEventListener("studio:opened", function () { balance.refresh(); fuzz.refresh(); });
  if (current().path) { refresh(); }
  window.studioMeasure = { select: select, refresh: refresh };
})();
