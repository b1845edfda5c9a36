// app.js: the page's state and wiring. Loads the examples, sends the editor's program and the
// options to POST /api/model (debounced while typing), and renders every view from the answer;
// keeps the stepper (phase, variable, step) and the selected block, and re-highlights the
// pictures from them. Invariants: one request in flight at a time (a newer edit supersedes an
// older answer); every view is re-rendered from the latest model only; the selected block is a
// key (the input's block name), so it survives switching stages.
"use strict";
(function () {
  const $ = function (id) { return document.getElementById(id); };
  const S = { examples: [], model: null, phase: "placement", varIndex: 0, step: 0, cfgStage: 0, text: "0", selected: null, seq: 0 };
  let svgCfg = null, svgDom = null, timer = null;

  function options() {
    const lang = $("lang").value;
    const o = { lang: lang, source: $("source").value, flavour: $("flavour").value, lowering: $("lowering").value };
    if ($("function").value) o.function = $("function").value;
    const num = function (id) { const v = $(id).value.trim(); return v === "" ? null : Math.max(0, Math.floor(Number(v))); };
    if (lang === "llvm") {
      o.entry_only = $("entry-only").checked;
      if (num("phi-copy-limit") !== null) o.phi_copy_limit = num("phi-copy-limit");
    } else {
      o.fold = $("fold").checked;
      if (num("max-promoted") !== null) o.max_promoted = num("max-promoted");
    }
    return o;
  }

  function status(text, busy) {
    $("status").textContent = text;
    $("status").className = busy ? "busy" : "";
  }

  async function run() {
    const seq = ++S.seq;
    status("running…", true);
    let answer, ok = false;
    try {
      const r = await fetch("/api/model", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(options()) });
      ok = r.ok;
      answer = await r.json();
    } catch (e) {
      answer = { error: { message: "the server did not answer (" + e + ")", rendered: String(e) } };
    }
    if (seq !== S.seq) return;
    if (!ok) {
      S.model = null;
      PG.renderError($("error"), answer.error, gotoPos);
      markGutter(answer.error && answer.error.line);
      clearViews();
      status("error", false);
      return;
    }
    PG.renderError($("error"), null);
    markGutter(null);
    S.model = answer;
    render();
    status("ok: " + answer.size[0] + " blocks, " + answer.size[2] + " variables", false);
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(run, 600);
  }

  function clearViews() {
    for (const id of ["cfg", "domtree", "ir", "step-detail", "notes"]) $(id).textContent = "";
    $("frontier").querySelector("tbody").textContent = "";
    $("counts").querySelector("tbody").textContent = "";
    $("step-text").textContent = "";
    $("step-count").textContent = "";
    svgCfg = svgDom = null;
  }

  function render() {
    const m = S.model;
    const fsel = $("function");
    const cur = fsel.value;
    fsel.textContent = "";
    for (const f of m.functions) fsel.appendChild(PG.h("option", { value: f, text: "@" + f }));
    fsel.value = m.functions.includes(cur) ? cur : m.function;
    PG.renderCounts($("counts").querySelector("tbody"), m.counts, m.flavour);
    PG.renderNotes($("notes"), m.notes);
    PG.renderFrontier($("frontier").querySelector("tbody"), m.blocks, pick);
    svgDom = PG.drawPicture($("domtree"), m.domtree, "domtree-svg", pick);
    fillVars();
    if (S.selected && !(m.blocks || []).some(function (b) { return b.name === S.selected; })) S.selected = null;
    setPhase(S.phase, true);
    showText(S.text);
  }

  function drawCfg(k) {
    S.cfgStage = k;
    document.querySelectorAll("#cfg-tabs button").forEach(function (b) { b.classList.toggle("on", b.dataset.stage === String(k)); });
    svgCfg = S.model ? PG.drawPicture($("cfg"), S.model.cfg[k], "cfg-svg", pick) : null;
  }

  function showText(t) {
    S.text = t;
    document.querySelectorAll("#text-tabs button").forEach(function (b) { b.classList.toggle("on", b.dataset.text === t); });
    if (!S.model) return;
    if (t.startsWith("diff")) PG.renderDiff($("ir"), S.model.diffs[Number(t.slice(4))]);
    else PG.renderText($("ir"), S.model.stages[Number(t)], pick);
    highlight();
  }

  function fillVars() {
    const sel = $("var");
    sel.textContent = "";
    (S.model.placement ? S.model.placement.vars : []).forEach(function (v, k) {
      sel.appendChild(PG.h("option", { value: String(k), text: v.var + " (" + v.phis.length + " φ)" }));
    });
    if (S.varIndex >= sel.options.length) S.varIndex = 0;
    sel.value = String(S.varIndex);
  }

  // The current phase's steps and the stage its pictures show.
  function steps() {
    const m = S.model;
    if (!m) return [];
    if (S.phase === "placement") { const v = m.placement.vars[S.varIndex]; return v ? v.steps : []; }
    if (S.phase === "renaming") return m.renaming.steps;
    return m.phielim.steps;
  }

  function setPhase(p, keepStep) {
    S.phase = p;
    document.querySelectorAll("#phases button").forEach(function (b) { b.classList.toggle("on", b.dataset.phase === p); });
    $("var-label").hidden = p !== "placement";
    if (!keepStep) S.step = 0;
    drawCfg(p === "phielim" ? 1 : 0);
    setStep(S.step);
  }

  function setStep(i) {
    const st = steps();
    S.step = Math.max(0, Math.min(i, st.length - 1));
    $("slider").max = String(Math.max(0, st.length - 1));
    $("slider").value = String(S.step);
    const s = st[S.step];
    const m = S.model;
    const truncated = m && m[S.phase] && m[S.phase].truncated;
    $("step-count").textContent = st.length ? "step " + (S.step + 1) + " / " + st.length + (truncated ? " (more left out)" : "") : "no steps";
    $("step-text").textContent = s ? s.text : (m && S.phase === "placement" && !m.placement.vars.length ? "This function has no variables to promote." : "");
    $("step-detail").textContent = "";
    if (s) {
      if (S.phase === "placement") PG.placement.detail($("step-detail"), m.placement.vars[S.varIndex], s);
      else if (S.phase === "renaming") PG.renaming.detail($("step-detail"), m.renaming, s);
      else PG.phielim.detail($("step-detail"), m.phielim, s);
    }
    highlight();
  }

  // Step highlight on the CFG (when it shows the phase's stage), plus the selected block and
  // its frontier everywhere.
  function highlight() {
    const m = S.model;
    if (!m) return;
    const s = steps()[S.step];
    let spec = { by: "key", blocks: {}, badges: {}, edges: [], lines: [] };
    const phaseStage = S.phase === "phielim" ? 1 : 0;
    if (s && S.cfgStage === phaseStage) {
      if (S.phase === "placement") spec = PG.placement.spec(m.placement.vars[S.varIndex], s);
      else if (S.phase === "renaming") spec = PG.renaming.spec(m.renaming, s);
      else spec = PG.phielim.spec(m.phielim, s);
    }
    const df = selectedDf();
    const sel = { by: "key", blocks: {} };
    if (S.selected) {
      sel.blocks[S.selected] = ["h-sel"];
      for (const d of df) if (d !== S.selected) (sel.blocks[d] = sel.blocks[d] || []).push("h-df");
    }
    PG.highlight(svgCfg, merge(spec, sel, svgCfg));
    const domSpec = { by: "key", blocks: JSON.parse(JSON.stringify(sel.blocks)) };
    if (s && S.phase === "renaming") {
      for (const p of s.path) (domSpec.blocks[p] = domSpec.blocks[p] || []).push("h-path");
      (domSpec.blocks[s.block] = domSpec.blocks[s.block] || []).push("h-current");
    }
    PG.highlight(svgDom, domSpec);
    PG.selectIn(document.getElementById("ir"), S.selected, df);
    PG.selectIn(document.getElementById("frontier"), S.selected, df);
  }

  // Adds selection classes (by key) to a step spec that may address blocks by name.
  function merge(spec, sel, svg) {
    for (const key in sel.blocks) {
      let name = key;
      if (spec.by === "block" && svg) {
        const g = svg.querySelector("g.node[data-key=\"" + CSS.escape(key) + "\"]");
        name = g ? g.getAttribute("data-block") : key;
      }
      spec.blocks[name] = (spec.blocks[name] || []).concat(sel.blocks[key]);
    }
    return spec;
  }

  function selectedDf() {
    const b = S.model && (S.model.blocks || []).find(function (x) { return x.name === S.selected; });
    return b ? b.df : [];
  }

  function pick(key) {
    S.selected = S.selected === key ? null : key;
    highlight();
  }

  function gotoPos(line, col) {
    const ta = $("source");
    const lines = ta.value.split("\n");
    let at = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
    at += Math.max(0, col - 1);
    ta.focus();
    ta.setSelectionRange(at, at + 1);
    ta.scrollTop = Math.max(0, (line - 5) * 16);
  }

  function markGutter(bad) {
    const n = $("source").value.split("\n").length;
    const g = $("gutter");
    g.textContent = "";
    for (let i = 1; i <= Math.min(n, 20000); i++) {
      g.appendChild(PG.h("div", { cls: i === bad ? "bad" : "", text: String(i) }));
    }
  }

  function loadExample(id) {
    const e = S.examples.find(function (x) { return x.id === id; }) || S.examples[0];
    if (!e) return;
    $("example").value = e.id;
    $("lang").value = e.lang;
    $("source").value = e.source;
    $("example-note").textContent = e.note;
    $("function").textContent = "";
    S.selected = null;
    S.varIndex = 0;
    S.step = 0;
    langChanged();
    markGutter(null);
    run();
  }

  function langChanged() {
    const llvm = $("lang").value === "llvm";
    document.querySelectorAll(".llvm-only").forEach(function (e) { e.hidden = !llvm; });
    document.querySelectorAll(".while-only").forEach(function (e) { e.hidden = llvm; });
  }

  async function init() {
    try {
      S.examples = await (await fetch("/api/examples")).json();
    } catch (e) {
      status("could not load the examples: " + e, false);
    }
    for (const e of S.examples) $("example").appendChild(PG.h("option", { value: e.id, text: e.title }));
    $("example").addEventListener("change", function () { loadExample($("example").value); });
    $("source").addEventListener("input", function () { markGutter(null); schedule(); });
    $("source").addEventListener("scroll", function () { $("gutter").scrollTop = $("source").scrollTop; });
    for (const id of ["flavour", "lowering", "entry-only", "fold", "function", "phi-copy-limit", "max-promoted"]) $(id).addEventListener("change", run);
    document.addEventListener("keydown", function (e) {
      if (/^(TEXTAREA|INPUT|SELECT)$/.test(e.target.tagName)) return;
      const to = { ArrowRight: S.step + 1, ArrowLeft: S.step - 1, Home: 0, End: steps().length - 1 }[e.key];
      if (to !== undefined) { setStep(to); e.preventDefault(); }
    });
    $("lang").addEventListener("change", function () { langChanged(); run(); });
    $("run").addEventListener("click", run);
    document.querySelectorAll("#cfg-tabs button").forEach(function (b) { b.addEventListener("click", function () { drawCfg(Number(b.dataset.stage)); highlight(); }); });
    document.querySelectorAll("#text-tabs button").forEach(function (b) { b.addEventListener("click", function () { showText(b.dataset.text); }); });
    document.querySelectorAll("#phases button").forEach(function (b) { b.addEventListener("click", function () { setPhase(b.dataset.phase, false); }); });
    $("var").addEventListener("change", function () { S.varIndex = Number($("var").value); setStep(0); });
    $("slider").addEventListener("input", function () { setStep(Number($("slider").value)); });
    $("prev").addEventListener("click", function () { setStep(S.step - 1); });
    $("next").addEventListener("click", function () { setStep(S.step + 1); });
    $("first").addEventListener("click", function () { setStep(0); });
    $("last").addEventListener("click", function () { setStep(steps().length - 1); });
    const wanted = new URLSearchParams(location.search).get("example");
    loadExample(wanted || (S.examples[0] && S.examples[0].id));
  }

  window.PG.app = S;
  init();
})();
