#!/usr/bin/python3
# The SSA playground in a real browser: starts `mem2reg serve --port 0`, drives Debian's
# Chromium through chromedriver (Debian's python3-selenium), and checks what a student sees:
# the phi block of max in the CFG picture, placement / renaming / phi-elimination steps, the
# frontier of fib's loop header, the flavour counts, errors at their line, the picture limit.
# Screenshots go to target/playground/*.png (--readme-shot PATH also saves the README's).
#
# Usage: /usr/bin/python3 scripts/playground_browser_test.py [--binary target/release/mem2reg]
#        [--readme-shot docs/playground.png]
# Needs /usr/bin/chromium, /usr/bin/chromedriver and python3-selenium (scripts/install-deps.sh
# installs them). A missing tool is a failure when CI is set; otherwise the script says so and
# exits 1 as well (it never reports success without running). Last line: "N passed, M failed".
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTS = os.path.join(ROOT, "target", "playground")


def missing_tools():
    missing = [p for p in ("/usr/bin/chromium", "/usr/bin/chromedriver") if not os.path.exists(p)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("python3-selenium (module selenium)")
    return missing


class Page:
    """The browser and the served page, with waits that follow the page's request counter."""

    def __init__(self, url, tmp):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        opts = webdriver.ChromeOptions()
        opts.binary_location = "/usr/bin/chromium"
        for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage", "--window-size=1680,1250", "--user-data-dir=" + tmp):
            opts.add_argument(flag)
        self.d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
        self.d.set_page_load_timeout(30)
        self.url = url

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def wait(self, cond, what, timeout=20):
        end = time.time() + timeout
        while time.time() < end:
            try:
                if cond():
                    return
            except Exception:  # an element between renders
                pass
            time.sleep(0.1)
        raise AssertionError("timed out waiting for " + what)

    def settled(self, seq_before):
        self.wait(lambda: self.js("return PG.app.seq") > seq_before and "busy" not in self.el("status").get_attribute("class"),
                  "the model to load")

    def el(self, id_):
        from selenium.webdriver.common.by import By
        return self.d.find_element(By.ID, id_)

    def css(self, sel):
        from selenium.webdriver.common.by import By
        return self.d.find_elements(By.CSS_SELECTOR, sel)

    def select(self, id_, value):
        from selenium.webdriver.support.ui import Select
        seq = self.js("return PG.app.seq")
        Select(self.el(id_)).select_by_value(value)
        self.settled(seq)

    def example(self, id_):
        # Through a change event even when the example is already selected (a reload).
        seq = self.js("return PG.app.seq")
        self.js("var e = document.getElementById('example'); e.value = arguments[0]; e.dispatchEvent(new Event('change'));", id_)
        self.settled(seq)
        status = self.el("status").text
        assert status.startswith("ok"), "example %s: status %r, error %r" % (id_, status, self.el("error").text)

    def click(self, sel):
        self.css(sel)[0].click()

    def node(self, key):
        nodes = self.css("#cfg-svg g.node[data-key='%s']" % key)
        assert nodes, "no node %s in the CFG picture" % key
        return nodes[0]

    def classes(self, key):
        return self.node(key).get_attribute("class").split()

    def step_to(self, pred, what, limit=400):
        for _ in range(limit):
            if pred():
                return
            self.el("next").click()
        raise AssertionError("no step where " + what)

    def shot(self, name):
        os.makedirs(SHOTS, exist_ok=True)
        path = os.path.join(SHOTS, name + ".png")
        self.d.save_screenshot(path)
        return path


def test_max_phi_block(p):
    p.example("max")
    assert p.node("%if.end") is not None
    p.click("#cfg-tabs button[data-stage='1']")
    phis = [t.text for t in p.css("#cfg-svg g.node[data-key='%if.end'] text.line-phi")]
    assert any(t.startswith("%result.0 = phi") for t in phis), phis
    others = p.css("#cfg-svg g.node[data-key='%if.then'] text.line-phi")
    assert not others, "only %if.end holds a phi"
    p.shot("max-ssa")


def test_max_placement_steps(p):
    p.example("max")
    p.click("#phase-placement")
    p.select_var = None
    from selenium.webdriver.support.ui import Select
    names = [o.text for o in Select(p.el("var")).options]
    k = next(i for i, n in enumerate(names) if n.startswith("%result"))
    Select(p.el("var")).select_by_index(k)
    assert "is written in %entry, %if.then" in p.el("step-text").text, p.el("step-text").text
    p.step_to(lambda: "Place a φ for %result at %if.end" in p.el("step-text").text, "the phi is placed")
    assert "h-phi" in p.classes("%if.end"), p.classes("%if.end")
    assert any("φ %result" in b.text for b in p.css("#cfg-svg g.badge")), "badge on %if.end"
    p.shot("max-placement")
    p.el("last").click()
    assert p.el("step-text").text.startswith("Done: φs for %result at %if.end"), p.el("step-text").text


def test_max_renaming_steps(p):
    p.example("max")
    p.click("#phase-renaming")
    assert p.el("step-text").text.startswith("Visit %entry"), p.el("step-text").text
    p.step_to(lambda: "The φ %result.0 at %if.end" in p.el("step-text").text, "the phi is pushed")
    assert "h-current" in p.classes("%if.end")
    assert "%result.0" in p.el("step-detail").text
    p.step_to(lambda: "%4 reads %result" in p.el("step-text").text, "the load reads the phi")
    assert "becomes %result.0" in p.el("step-text").text
    assert p.css("#cfg-svg rect.h-line"), "the load's line is highlighted"
    p.shot("max-renaming")
    p.el("last").click()
    assert p.el("step-text").text.startswith("Done"), p.el("step-text").text


def test_swap_phi_elimination(p):
    p.example("swap")
    p.click("#phase-phielim")
    assert p.css("#cfg-tabs button.on")[0].get_attribute("data-stage") == "1", "SSA picture shown"
    p.step_to(lambda: "swap problem" in p.el("step-text").text, "a temporary for the cycle")
    assert p.css("#cfg-svg g.elabel"), "the edge shows its moves"
    assert p.css("#cfg-svg path.edge.h-edge"), "the edge is highlighted"
    assert "tmp0" in p.el("step-detail").text
    p.shot("swap-phielim")
    p.el("last").click()
    assert "1 temporaries" in p.el("step-text").text, p.el("step-text").text


def test_lost_copy_split(p):
    p.example("lost-copy")
    p.click("#phase-phielim")
    p.step_to(lambda: "critical edge" in p.el("step-text").text, "the split of the back edge")
    assert p.css("#cfg-svg path.edge.h-split"), "the split edge is marked"
    p.click("#cfg-tabs button[data-stage='2']")
    assert len(p.css("#cfg-svg g.node")) == 4, "the split block is drawn"
    assert p.css("#cfg-svg text.line-copy"), "copies are highlighted"
    p.shot("lost-copy-out")


def test_fib_loop_header_frontier(p):
    p.example("fib")
    p.click("#cfg-tabs button[data-stage='0']")
    p.node("%while.cond").click()
    row = p.css("#frontier tr[data-key='%while.cond']")[0]
    assert "h-sel" in row.get_attribute("class")
    df = row.find_element("css selector", "td.df").text
    assert df == "{%while.cond, %return}", df
    assert "h-df" in p.classes("%return"), p.classes("%return")
    assert "h-sel" in p.classes("%while.cond")
    dom = p.css("#domtree-svg g.node[data-key='%while.cond'] text")
    assert any("DF = {%while.cond, %return}" in t.text for t in dom), [t.text for t in dom]
    p.shot("fib-frontier")


def test_flavours_and_counts(p):
    p.example("fib")
    p.select("flavour", "minimal")
    rows = {r.get_attribute("data-flavour"): r for r in p.css("#counts tbody tr")}
    assert "on" in rows["minimal"].get_attribute("class")
    phis = [r.find_elements("css selector", "td")[1].text for r in p.css("#counts tbody tr")]
    assert phis == ["9", "7", "4"], phis
    ssa = p.css("#cfg-tabs button[data-stage='1']")[0]
    ssa.click()
    assert len(p.css("#cfg-svg text.line-phi")) == 9
    p.select("flavour", "pruned")
    p.click("#cfg-tabs button[data-stage='1']")
    assert len(p.css("#cfg-svg text.line-phi")) == 4
    p.shot("fib-counts")


def test_text_and_diff(p):
    p.example("max")
    p.click("#text-tabs button[data-text='1']")
    assert "%result.0 = phi" in p.el("ir").text
    p.click("#text-tabs button[data-text='diff0']")
    added = [s.text for s in p.css("#ir span.d-add")]
    assert any("%result.0 = phi" in a for a in added), added[:5]


def test_error_at_line_and_column(p):
    p.example("max")
    seq = p.js("return PG.app.seq")
    p.js("var t = document.getElementById('source'); t.value = 'define i32 @f() {\\nentry:\\n  ret i32 %nope\\n}\\n'; t.dispatchEvent(new Event('input'));")
    p.settled(seq)
    err = p.el("error")
    assert err.is_displayed()
    assert "line 3" in err.text and "input.ll:3:" in err.text, err.text
    assert p.css("#gutter .bad")[0].text == "3"
    p.shot("error")


def test_while_language_and_irreducible(p):
    p.example("loops")
    assert p.css("#cfg-svg g.node[data-key='b0']")
    p.click("#phase-placement")
    assert "is written in" in p.el("step-text").text
    p.example("irreducible")
    row = p.css("#frontier tr[data-key='%a'] td.df")[0].text
    assert "%b" in row, row
    p.example("lab")
    p.click("#cfg-tabs button[data-stage='1']")
    assert p.css("#cfg-svg g.node[data-key='%6'][data-block='%3'] text.line-phi"), "the lab's join holds the phi"


def test_big_function_gets_a_message(p):
    src = ["define i32 @big(i1 %c) {", "entry:", "  %x = alloca i32", "  br label %b0"]
    for i in range(60):
        src += ["b%d:" % i, "  store i32 %d, ptr %%x" % i, "  br i1 %%c, label %%b%d, label %%e" % (i + 1)]
    src += ["b60:", "  br label %e", "e:", "  %r = load i32, ptr %x", "  ret i32 %r", "}"]
    seq = p.js("return PG.app.seq")
    p.js("var t = document.getElementById('source'); t.value = arguments[0]; t.dispatchEvent(new Event('input'));", "\n".join(src))
    p.settled(seq)
    msg = p.el("cfg").text
    assert "pictures are drawn for up to 50" in msg, msg
    assert len(p.css("#frontier tbody tr")) == 63


def test_huge_paste_and_binary(p):
    seq = p.js("return PG.app.seq")
    p.js("var t = document.getElementById('source'); t.value = 'x'.repeat(10 * 1024 * 1024); t.dispatchEvent(new Event('input'));")
    p.settled(seq)
    assert "too large" in p.el("error").text, p.el("error").text
    seq = p.js("return PG.app.seq")
    p.js("var t = document.getElementById('source'); t.value = 'define i32 @f() {\\n\\u0000\\u0001\\u00ff garbage\\n}'; t.dispatchEvent(new Event('input'));")
    p.settled(seq)
    assert "line 2" in p.el("error").text, p.el("error").text
    p.example("max")
    assert not p.el("error").is_displayed()


TESTS = [test_max_phi_block, test_max_placement_steps, test_max_renaming_steps, test_swap_phi_elimination,
         test_lost_copy_split, test_fib_loop_header_frontier, test_flavours_and_counts, test_text_and_diff,
         test_error_at_line_and_column, test_while_language_and_irreducible, test_big_function_gets_a_message,
         test_huge_paste_and_binary]


def start_server(binary):
    proc = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        raise SystemExit("playground: the server did not start: %r %s" % (line, proc.stderr.read()))
    return proc, line.split("http://")[1].split()[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "mem2reg"))
    ap.add_argument("--readme-shot", help="also save the README's screenshot here")
    args = ap.parse_args()
    missing = missing_tools()
    if missing:
        print("playground: missing %s (scripts/install-deps.sh installs them)%s" % (", ".join(missing), "; CI is set: failing" if os.environ.get("CI") else ""))
        print("0 passed, 1 failed")
        return 1
    proc, addr = start_server(args.binary)
    tmp = tempfile.mkdtemp(prefix="pg-chrome-")
    passed = failed = 0
    page = None
    try:
        page = Page("http://" + addr, tmp)
        page.d.get(page.url)
        page.wait(lambda: page.js("return window.PG && PG.app && PG.app.seq") >= 1 and page.el("status").text.startswith("ok"), "the first model")
        for t in TESTS:
            t0 = time.time()
            try:
                t(page)
                passed += 1
                print("ok    %-40s %.1fs" % (t.__name__, time.time() - t0))
            except Exception:
                failed += 1
                print("FAIL  %s" % t.__name__)
                traceback.print_exc()
                page.shot("failed-" + t.__name__)
        if args.readme_shot:
            page.d.set_window_size(1500, 1000)
            page.example("max")
            page.click("#phase-placement")
            from selenium.webdriver.support.ui import Select
            Select(page.el("var")).select_by_index(2)
            page.step_to(lambda: "Place a φ" in page.el("step-text").text, "a placed phi")
            page.d.save_screenshot(args.readme_shot)
        if proc.poll() is not None:
            failed += 1
            print("FAIL  the server died")
    finally:
        if page:
            page.d.quit()
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)
    print("screenshots in %s" % SHOTS)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
