// views.js: the page's non-picture views (IR text, diffs, the frontier table, counts, notes,
// errors) and each stepping phase's detail panel and picture highlight. Pure rendering: every
// function takes model data and a container and replaces the container's content; state lives
// in app.js. Invariants: a text line or table row that belongs to a block carries
// data-key=KEY, so selecting a block highlights it everywhere by one query.
"use strict";
window.PG = window.PG || {};

(function () {
  function h(tag, attrs, kids) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "cls") e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    for (const c of kids || []) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    return e;
  }
  PG.h = h;

  function list(xs) { return xs && xs.length ? xs.join(", ") : "—"; }
  PG.list = list;

  PG.renderCounts = function (tbody, counts, flavour) {
    tbody.textContent = "";
    for (const c of counts) {
      const tr = h("tr", { cls: c.flavour === flavour ? "on" : "", "data-flavour": c.flavour });
      for (const v of [c.flavour, c.phis, c.copies, c.temps, c.promoted, c.left]) tr.appendChild(h("td", { text: String(v) }));
      tbody.appendChild(tr);
    }
  };

  PG.renderNotes = function (ul, notes) {
    ul.textContent = "";
    for (const n of notes || []) ul.appendChild(h("li", { text: n }));
  };

  PG.renderError = function (box, err, onGoto) {
    box.textContent = "";
    if (!err) { box.hidden = true; return; }
    box.hidden = false;
    if (err.line) {
      const where = h("span", { cls: "where", text: "line " + err.line + ", column " + err.col });
      where.addEventListener("click", function () { onGoto(err.line, err.col); });
      box.appendChild(h("div", {}, ["Error at ", where, ": " + err.message]));
    } else {
      box.appendChild(h("div", { text: "Error: " + err.message }));
    }
    box.appendChild(h("pre", { text: err.rendered }));
  };

  PG.renderFrontier = function (tbody, blocks, onPick) {
    tbody.textContent = "";
    for (const b of blocks || []) {
      const tr = h("tr", { "data-key": b.name }, [
        h("td", { text: b.name + (b.reachable ? "" : " (unreachable)") }),
        h("td", { text: b.idom || "—" }),
        h("td", { cls: "df", text: "{" + b.df.join(", ") + "}" }),
      ]);
      tr.addEventListener("click", function () { onPick(b.name); });
      tbody.appendChild(tr);
    }
  };

  // The printed function, line-numbered; block labels are clickable.
  PG.renderText = function (pre, stage, onPick) {
    pre.textContent = "";
    if (!stage) return;
    let block = -1, started = false;
    stage.text.split("\n").forEach(function (line, i) {
      const code = line.split(" ;")[0].trimEnd();
      const isLabel = line.length && !/^\s/.test(line) && code.endsWith(":") && !line.startsWith("define");
      if (isLabel) { block++; started = true; }
      else if (/^\s/.test(line) && !started) { block = 0; started = true; }
      const key = block >= 0 && line !== "}" ? stage.keys[block] : null;
      const span = h("span", { cls: isLabel ? "lab" : "" }, [h("i", { cls: "n", text: String(i + 1) }), line]);
      if (key) span.setAttribute("data-key", key);
      if (isLabel) span.addEventListener("click", function () { onPick(key); });
      pre.appendChild(span);
    });
  };

  PG.renderDiff = function (pre, diff) {
    pre.textContent = "";
    if (!diff) return;
    pre.appendChild(h("span", { text: "--- " + diff.from + "   +++ " + diff.to + "   (" + diff.removed + " lines removed, " + diff.added + " added)" }));
    for (const [tag, line] of diff.lines) {
      pre.appendChild(h("span", { cls: tag === "+" ? "d-add" : tag === "-" ? "d-del" : "" , text: tag + " " + line }));
    }
  };

  // Marks everything carrying data-key=KEY under `root` with h-sel (and the frontier rows h-df).
  PG.selectIn = function (root, key, df) {
    root.querySelectorAll(".h-sel, .h-df").forEach(function (e) { e.classList.remove("h-sel", "h-df"); });
    if (!key) return;
    root.querySelectorAll("[data-key=\"" + CSS.escape(key) + "\"]").forEach(function (e) { if (e.tagName !== "g") e.classList.add("h-sel"); });
    for (const d of df || []) {
      root.querySelectorAll("tr[data-key=\"" + CSS.escape(d) + "\"]").forEach(function (e) { if (d !== key) e.classList.add("h-df"); });
    }
  };

  function facts(rows) {
    return h("table", { cls: "facts" }, rows.map(function (r) { return h("tr", {}, [h("td", { text: r[0] }), h("td", { text: r[1] })]); }));
  }

  function add(spec, name, cls) {
    (spec.blocks[name] = spec.blocks[name] || []).push(cls);
  }

  // Placement: the variable's facts and the worklist; picture: defs, worklist, φs, pruned.
  PG.placement = {
    detail: function (div, v, s) {
      div.textContent = "";
      div.appendChild(facts([
        ["written in (defs)", list(v.defs)],
        ["read before written in", list(v.uses)],
        ["live on entry to", list(v.live_in)],
        ["iterated frontier DF⁺(defs)", list(v.idf)],
        ["worklist (top last)", list(s.worklist)],
        ["φ so far", list(s.phis)],
        ["pruned so far", list(s.pruned)],
        ["LLVM fast path", v.fast_path || "—"],
      ]));
    },
    spec: function (v, s) {
      const spec = { by: "key", blocks: {}, badges: {} };
      for (const d of v.defs) add(spec, d, "h-def");
      for (const f of s.frontier) add(spec, f, "h-scan");
      for (const w of s.worklist) add(spec, w, "h-work");
      for (const p of s.pruned) { add(spec, p, "h-pruned"); (spec.badges[p] = spec.badges[p] || []).push({ text: "pruned", cls: "pruned" }); }
      for (const p of s.phis) { add(spec, p, "h-phi"); (spec.badges[p] = spec.badges[p] || []).push("φ " + v.var); }
      if (s.block) add(spec, s.block, "h-current");
      return spec;
    },
  };

  // Renaming: each variable's stack; picture: the block, its dominator-tree path, the line.
  PG.renaming = {
    detail: function (div, r, s) {
      div.textContent = "";
      div.appendChild(h("p", { text: "Dominator-tree path: " + list(s.path) }));
      const t = h("table", {}, [h("tr", {}, [h("th", { text: "variable" }), h("th", { text: "stack (bottom … top)" })])]);
      r.vars.forEach(function (name, k) {
        const stack = s.stacks[k];
        const cells = stack.map(function (x, i) { return h("code", { cls: i === stack.length - 1 ? "top" : "", text: x }); });
        const td = h("td", {}, cells.length ? [].concat.apply([], cells.map(function (c) { return [c, " "]; })) : ["(empty: " + "reads give the undefined value)"]);
        t.appendChild(h("tr", { cls: s.var === k ? "on" : "" }, [h("td", { text: name }), td]));
      });
      div.appendChild(t);
    },
    spec: function (r, s) {
      const spec = { by: "key", blocks: {}, badges: {}, lines: [], edges: [] };
      for (const p of s.path) add(spec, p, "h-path");
      add(spec, s.block, "h-current");
      if (s.line !== null && s.line !== undefined) spec.lines.push([s.block, s.line]);
      if (s.edge) spec.edges.push([s.edge[0], s.edge[1], "h-edge"]);
      for (const p of r.phis) (spec.badges[p.block] = spec.badges[p.block] || []).push(p.name);
      return spec;
    },
  };

  // Phi elimination: every edge's copies; picture (the SSA stage, by block name): the edge and
  // its moves so far.
  PG.phielim = {
    edgeOf: function (pe, s) {
      return s.edge ? pe.edges.findIndex(function (e) { return e.edge[0] === s.edge[0] && e.edge[1] === s.edge[1]; }) : -1;
    },
    detail: function (div, pe, s) {
      div.textContent = "";
      const cur = PG.phielim.edgeOf(pe, s);
      const t = h("table", {}, [h("tr", {}, ["edge", "place", "parallel copy", "moves in order"].map(function (x) { return h("th", { text: x }); }))]);
      pe.edges.forEach(function (e, k) {
        const moves = e.moves.map(function (m, i) { return h("code", { cls: k === cur && i < s.done ? "top" : "", text: m[0] + " ← " + m[1] }); });
        const mv = h("td", {}, [].concat.apply([], moves.map(function (c) { return [c, "; "]; })));
        t.appendChild(h("tr", { cls: k === cur ? "on" : "" }, [
          h("td", { text: e.edge[0] + " → " + e.edge[1] }), h("td", { text: e.place }),
          h("td", { text: e.parallel.map(function (p) { return p[0] + " ← " + p[1]; }).join(" ‖ ") }), mv]));
      });
      div.appendChild(t);
      const c = pe.counts;
      div.appendChild(h("p", { text: c.phis + " φs, " + c.copies + " copies, " + c.temps + " temporaries, " + c.split + " split edges." }));
    },
    spec: function (pe, s) {
      const spec = { by: "block", blocks: {}, edges: [] };
      for (const e of pe.edges) if (e.place === "split") spec.edges.push([e.edge[0], e.edge[1], "h-split"]);
      const k = PG.phielim.edgeOf(pe, s);
      if (k >= 0) {
        const e = pe.edges[k];
        const done = e.moves.slice(0, s.done).map(function (m) { return m[0] + " ← " + m[1]; });
        spec.edges.push([e.edge[0], e.edge[1], "h-edge", done.length ? done.join("\n") : "[" + e.place + "]"]);
        add(spec, e.edge[1], "h-current");
      }
      return spec;
    },
  };
})();
