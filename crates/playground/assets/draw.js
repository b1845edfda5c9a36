// draw.js: SVG pictures of the server's laid-out graphs, and their highlighting.
// The server gives every node its box (x, y, w, h) and lines, and every edge its polyline;
// this file only draws them (no layout here). Invariants: a node is <g class="node"
// data-key=KEY data-block=NAME>, an edge <path class="edge" data-from data-to>; highlights are
// classes starting with "h-" plus <g class="badge"> and <g class="elabel"> overlays, all removed
// by the next highlight, so highlighting is a pure function of (picture, spec).
"use strict";
window.PG = window.PG || {};

(function () {
  const NS = "http://www.w3.org/2000/svg";
  const PAD = 6, LINE_H = 15;

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function text(parent, x, y, str, cls) {
    const t = el("text", { x: x, y: y, class: cls || "" }, parent);
    t.textContent = str;
    return t;
  }

  // A smooth path through the polyline's points (quadratic curves at the bends).
  function pathOf(points) {
    if (points.length < 2) return "";
    let d = "M" + points[0][0] + "," + points[0][1];
    for (let i = 1; i < points.length - 1; i++) {
      const p = points[i], q = points[i + 1];
      d += " Q" + p[0] + "," + p[1] + " " + (p[0] + q[0]) / 2 + "," + (p[1] + q[1]) / 2;
    }
    const last = points[points.length - 1];
    return d + " L" + last[0] + "," + last[1];
  }

  // Draws picture `pic` into container `box`; `onPick(key)` is called when a block is clicked.
  PG.drawPicture = function (box, pic, id, onPick) {
    box.textContent = "";
    if (!pic) return null;
    if (pic.message) {
      const m = document.createElement("div");
      m.className = "message";
      m.textContent = pic.message;
      box.appendChild(m);
      return null;
    }
    const svg = el("svg", { id: id, width: pic.width, height: pic.height, viewBox: "0 0 " + pic.width + " " + pic.height }, box);
    const defs = el("defs", {}, svg);
    const marker = el("marker", { id: id + "-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", class: "arrow" }, marker);
    const edges = el("g", { class: "edges" }, svg);
    for (const e of pic.edges) {
      el("path", { d: pathOf(e.points), class: "edge" + (e.back ? " back" : ""), "data-from": e.from, "data-to": e.to, "marker-end": "url(#" + id + "-arrow)" }, edges);
    }
    const nodes = el("g", { class: "nodes" }, svg);
    for (const n of pic.nodes) drawNode(nodes, n, onPick);
    el("g", { class: "overlay" }, svg);
    return svg;
  };

  function drawNode(parent, n, onPick) {
    const g = el("g", { class: "node", transform: "translate(" + n.x + "," + n.y + ")", "data-key": n.key, "data-block": n.block }, parent);
    el("rect", { class: "box", width: n.w, height: n.h, rx: 4 }, g);
    text(g, PAD, PAD + 11, n.block + ":", "label");
    n.lines.forEach(function (l, k) {
      const y = PAD + (k + 1) * LINE_H;
      el("rect", { class: "lbg lbg-" + l.kind, x: 2, y: y, width: n.w - 4, height: LINE_H, "data-line": k }, g);
      const t = text(g, PAD, y + 11, l.text, "line line-" + l.kind);
      if (l.full) el("title", {}, t).textContent = l.full;
    });
    g.addEventListener("click", function () { if (onPick) onPick(n.key); });
  }

  // Removes every highlight of `svg`.
  function clear(svg) {
    svg.querySelectorAll("[class*='h-']").forEach(function (e) {
      const keep = e.getAttribute("class").split(" ").filter(function (c) { return c.indexOf("h-") !== 0; });
      e.setAttribute("class", keep.join(" "));
    });
    svg.querySelector(".overlay").textContent = "";
  }

  function addClass(e, c) {
    e.setAttribute("class", e.getAttribute("class") + " " + c);
  }

  function node(svg, by, name) {
    return svg.querySelector("g.node[data-" + by + "=\"" + CSS.escape(name) + "\"]");
  }

  // Applies highlight `spec` to `svg`: {by: "key"|"block", blocks: {NAME: [classes]},
  // badges: {NAME: [text]}, lines: [[NAME, index]], edges: [[FROM, TO, class, label]]}. Edge
  // names are block names (data-from/data-to).
  PG.highlight = function (svg, spec) {
    if (!svg) return;
    clear(svg);
    const by = spec.by || "key";
    const overlay = svg.querySelector(".overlay");
    for (const name in spec.blocks || {}) {
      const g = node(svg, by, name);
      if (g) spec.blocks[name].forEach(function (c) { addClass(g, c); });
    }
    for (const [name, k] of spec.lines || []) {
      const g = node(svg, by, name);
      const r = g && g.querySelector("rect[data-line=\"" + k + "\"]");
      if (r) addClass(r, "h-line");
    }
    for (const [from, to, cls, label] of spec.edges || []) {
      const p = svg.querySelector("path.edge[data-from=\"" + CSS.escape(from) + "\"][data-to=\"" + CSS.escape(to) + "\"]");
      if (!p) continue;
      addClass(p, cls || "h-edge");
      if (label) edgeLabel(overlay, p, label);
    }
    for (const name in spec.badges || {}) {
      const g = node(svg, by, name);
      if (g) badges(overlay, g, spec.badges[name]);
    }
  };

  function badges(overlay, g, list) {
    const m = /translate\(([-\d.]+),([-\d.]+)\)/.exec(g.getAttribute("transform"));
    const w = parseFloat(g.querySelector("rect.box").getAttribute("width"));
    let x = parseFloat(m[1]) + w - 4, y = parseFloat(m[2]) - 9;
    for (const b of list) {
      const s = typeof b === "string" ? { text: b } : b;
      const width = s.text.length * 6.8 + 8;
      x -= width + 2;
      const bg = el("g", { class: "badge" + (s.cls ? " " + s.cls : ""), transform: "translate(" + x + "," + y + ")" }, overlay);
      el("rect", { width: width, height: 15, rx: 7 }, bg);
      text(bg, 4, 11, s.text);
    }
  }

  function edgeLabel(overlay, path, label) {
    const len = path.getTotalLength();
    const mid = path.getPointAtLength(len / 2);
    const lines = label.split("\n");
    const width = Math.max.apply(null, lines.map(function (l) { return l.length; })) * 6.8 + 10;
    const g = el("g", { class: "elabel", transform: "translate(" + (mid.x + 6) + "," + (mid.y - 8) + ")" }, overlay);
    el("rect", { width: width, height: lines.length * 14 + 6, rx: 3 }, g);
    lines.forEach(function (l, k) { text(g, 5, 14 + k * 14, l); });
    grow(overlay.ownerSVGElement, mid.x + 6 + width + 4, mid.y + lines.length * 14 + 4);
  }

  // Widens (or heightens) the picture so an overlay past its edge stays visible.
  function grow(svg, x, y) {
    const w = Math.max(parseFloat(svg.getAttribute("width")), x), h = Math.max(parseFloat(svg.getAttribute("height")), y);
    svg.setAttribute("width", w);
    svg.setAttribute("height", h);
    svg.setAttribute("viewBox", "0 0 " + w + " " + h);
  }
})();
