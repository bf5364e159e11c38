"""Issue 30, in a real browser (Playwright driving Debian's chromium): one source of money (the site's
amounts are navlaw_fees' quotes), search that reads citations, an honest UI (copy, print, phones) and
axe-core's accessibility rules on every page type, light and dark. Screenshots go to build/screenshots/."""

from __future__ import annotations

import datetime as dt
import re
import sys
from decimal import Decimal
from pathlib import Path

import pytest

import navlaw_fees as nf

from .conftest import ROOT
from .test_browser import CHROMIUM, SHOTS, page, server  # noqa: F401  (the built site and its browser page)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")


def _money(v: Decimal) -> str:
    return f"${v:,}"


def test_every_example_and_chart_amount_is_the_fee_modules_quote(page, server):  # noqa: F811
    """Item 3: each example under a schedule, each amount of the charts' text, is ``nf.quote`` to the
    cent, across routes and dates; the Sandy Hook fee for 300 PU from 2026-01-01 includes the 7.5%."""
    page.goto(server + "/tariffs/")
    examples = page.eval_on_selector_all("div.example", "els => els.map(e => [e.dataset.route, e.dataset.units, "
                                         "e.dataset.on, e.querySelector('.total').textContent])")
    assert len(examples) >= 8 and len({(r, on) for r, _, on, _ in examples}) >= 8
    for route, units, on, total in examples:
        assert total == _money(nf.quote(route, units=units, on=dt.date.fromisoformat(on)).total), (route, on)
    assert ["sandy-hook", "300", "2026-01-01", "$4,253.78"] in examples
    # the charts' text alternatives: "from 2026-01-01: $4,253.78"
    compared = 0
    for route in nf.ROUTES:
        alt = page.locator(f"#r{'d'}-{route}").text_content()
        for day, amount in re.findall(r"from (\d{4}-\d{2}-\d{2}): \$([\d,.]+)", alt):
            assert Decimal(amount.replace(",", "")) == nf.quote(route, units=300, on=dt.date.fromisoformat(day)).total
            compared += 1
    assert compared >= 8
    # a chart's axis holds what it draws: every point at or below the top tick
    for svg in page.locator("svg.chart").all():
        box = svg.evaluate("s => { const ys = [...s.querySelectorAll('.series')].flatMap(e => e.tagName === 'line' ? "
                           "[+e.getAttribute('y1')] : e.getAttribute('points') ? e.getAttribute('points').split(' ')"
                           ".map(p => +p.split(',')[1]) : []); const top = Math.min(...[...s.querySelectorAll('line.grid')]"
                           ".map(g => +g.getAttribute('y1'))); return [Math.min(...ys), top]; }")
        assert box[0] >= box[1] - 0.5, box
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        page.goto(server + "/tariffs/")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "tariffs-390.png"))
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def test_the_calculator_quotes_today_offers_every_option_and_shows_its_working(page, server):  # noqa: F811
    page.goto(server + "/calculator/")
    assert page.input_value("input[name=on]") == dt.date.today().isoformat()
    for route in nf.ROUTES:
        page.select_option("select[name=route]", route)
        offered = set(page.eval_on_selector_all("#options [name^=opt-]", "els => els.map(e => e.name.slice(4))"))
        assert offered == set(nf.options(route)), route
    page.select_option("select[name=route]", "sandy-hook")
    page.fill("input[name=on]", "2026-01-01")
    page.fill("input[name=units]", "300")
    page.click("button[type=submit]")
    q = nf.quote("sandy-hook", units=300, on=dt.date(2026, 1, 1))
    rows = page.locator("#result table.quote tr").all_inner_texts()
    assert page.locator("#total").inner_text() == "$4,253.78"
    for line in q.lines:  # the module's words, with the working: units, bracket, rate
        assert any(line.description in r for r in rows), (line.description, rows)
    page.check("input[name=unmeasured]")
    page.fill("input[name=on]", "2026-06-01")
    page.click("button[type=submit]")
    try:
        want = _money(nf.quote("sandy-hook", measurements_provided=False, on=dt.date(2026, 6, 1)).total)
        assert page.locator("#total").inner_text() == want
    except nf.FeeError as e:
        assert page.locator("#error").inner_text().startswith("measurements not provided"), str(e)
    page.uncheck("input[name=unmeasured]")
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        page.click("button[type=submit]")
        page.screenshot(path=str(SHOTS / "calculator-390.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


@pytest.mark.parametrize("query, url, anchor", [
    ("§ 88(4)", "/law/88/", "p-88-4"),
    ("88(4)(b)", "/law/88/", "p-88-4-b"),
    ("89-b(4)(b)(1)", "/law/89-b/", "p-89-b-4-b-1"),
    ("21 NYCRR 55.2(c)", "/law/21-nycrr-55.2/", "p-21nycrr-55-2-c"),
    ("§ 89-a", "/law/89-a/", "p-89-a"),
    ("55.2(c)", "/law/21-nycrr-55.2/", "p-21nycrr-55-2-c"),
])
def test_search_reads_citations_and_opens_the_provision_highlighted(page, server, query, url, anchor):  # noqa: F811
    """Item 5: a citation typed into search is offered first ("Go to …") and Enter opens that provision
    at its anchor, which is highlighted."""
    page.goto(server + "/")
    page.keyboard.press("/")
    page.fill("input.md-search__input", query)
    jump = page.locator(".cite-jump a")
    jump.wait_for(state="visible")
    assert jump.inner_text().startswith("Go to ")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{url}#{anchor}")
    target = page.locator(f"#{anchor}")
    outline = target.evaluate("e => getComputedStyle(e).outlineStyle")
    assert outline == "solid", outline
    if anchor == "p-88-4":
        page.screenshot(path=str(SHOTS / "search-88-4.png"))


def test_copy_citation_says_when_the_clipboard_refuses(page, server):  # noqa: F811
    ctx = page.context
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page.goto(server + "/law/89-b/")
    button = page.locator("#p-89-b-4-b-1 button.copy-cite")
    button.click()
    page.wait_for_function("document.querySelector('#p-89-b-4-b-1 button.copy-cite').dataset.copied")
    assert button.inner_text() == "Copied: Nav. Law § 89-b(4)(b)(1)"
    page.goto(server + "/law/89-b/")
    page.evaluate("() => { navigator.clipboard.writeText = () => Promise.reject(new Error('denied')); }")
    button = page.locator("#p-89-b-4-b-1 button.copy-cite")
    button.click()
    page.wait_for_function("document.querySelector('#p-89-b-4-b-1 button.copy-cite').dataset.failed")
    assert button.inner_text().startswith("Could not copy")
    assert "Nav. Law § 89-b(4)(b)(1)" in page.input_value("#p-89-b-4-b-1 input.cite-text")
    ctx.clear_permissions()


def test_print_shows_the_law_and_its_sources_without_controls(page, server):  # noqa: F811
    page.goto(server + "/law/88/")
    page.emulate_media(media="print")
    try:
        page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
        assert not page.locator("button.copy-cite").first.is_visible()
        assert not page.locator("form.as-of").first.is_visible()
        assert page.locator("details.sources li").first.is_visible()
        meta = page.locator(".print-meta").inner_text()
        assert page.url.split("#")[0] in meta and re.search(r"\d{4}-\d{2}-\d{2}", meta)
        assert page.locator("p.in-force").first.is_visible()  # the site's date
    finally:
        page.emulate_media(media="screen")


def test_no_internal_id_where_a_person_reads_and_amounts_hold_together_on_a_phone(page, server):  # noqa: F811
    for path in ("/law/74/", "/law/74-2/", "/law/88/", "/law/article-04/", "/penalties/article-12/"):
        r = page.goto(server + path)
        if r is None or r.status != 200:
            continue
        text = page.locator("article").inner_text()
        assert not re.search(r"§ ?[0-9][0-9a-z-]*\*\d", text), path
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        for path in ("/penalties/article-12/", "/tariffs/", "/law/192/"):
            page.goto(server + path)
            broken = page.evaluate("""() => [...document.querySelectorAll('article td, article p, article li')].filter(e => {
                const m = e.textContent.match(/\\$[0-9][0-9,]*(\\.[0-9]{2})?/g); if (!m) return false;
                const r = document.createRange(); const t = [...e.childNodes].find(n => n.nodeType === 3 && /\\$[0-9]/.test(n.textContent));
                if (!t) return false; const i = t.textContent.search(/\\$[0-9]/); const j = i + t.textContent.slice(i).match(/\\$[0-9][0-9,]*(\\.[0-9]{2})?/)[0].length;
                r.setStart(t, i); r.setEnd(t, j); return r.getClientRects().length > 1; }).map(e => e.textContent.slice(0, 80))""")
            assert not broken, (path, broken[:3])
        page.goto(server + "/law/88/")
        page.screenshot(path=str(SHOTS / "section-88-390.png"))
        page.goto(server + "/law/21-nycrr-55.2/")
        page.screenshot(path=str(SHOTS / "section-55.2-390.png"))
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def _axe() -> Path | None:
    for base in (ROOT / ".venv", Path(sys.prefix)):
        p = base / "axe" / "node_modules" / "axe-core" / "axe.min.js"
        if p.is_file():
            return p
    return None


PAGE_TYPES = ("/", "/law/", "/law/article-04/", "/law/88/", "/law/21-nycrr-55.2/", "/law/outside/", "/history/88/",
              "/history/", "/changes/2022/", "/tariffs/", "/calculator/", "/penalties/", "/penalties/article-12/",
              "/diagnostics/", "/diagnostics/089-a-4-7-8-txt/")


@pytest.mark.skipif(_axe() is None, reason="axe-core is not installed (make test installs it with npm into .venv/axe)")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_or_critical_violation_on_any_page_type(page, server, scheme):  # noqa: F811
    """Item 7: axe-core's WCAG rules on every page type, in light and dark mode."""
    source = _axe().read_text(encoding="utf-8")  # type: ignore[union-attr]
    page.emulate_media(color_scheme=scheme)
    found = []
    try:
        for path in PAGE_TYPES:
            page.goto(server + path)
            page.add_script_tag(content=source)
            result = page.evaluate("async () => { const r = await axe.run(document, {resultTypes: ['violations']});"
                                   " return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')"
                                   ".map(v => [v.id, v.impact, v.nodes.length, v.nodes[0].target.join(' '), "
                                   "(v.nodes[0].failureSummary || '').slice(0, 200)]); }")
            found += [(path, *v) for v in result]
    finally:
        page.emulate_media(color_scheme="light")
    assert not found, "\n".join(map(str, found))


def test_a_rule_in_bracket_notation_shows_its_clean_text_with_the_markup_one_click_away(page, server):  # noqa: F811
    """Item 2: 21 NYCRR § 55.2 in force without its deleted matter (a copy holds only the law); the
    markup (deleted matter struck through) one click away."""
    page.goto(server + "/law/21-nycrr-55.2/")
    deleted = page.locator("section.law-section del")
    assert deleted.count() > 0 and not deleted.first.is_visible()
    text = page.locator("section.law-section").inner_text()
    assert "$75 for a stop of six hours" not in text
    page.click("button.show-markup")
    assert deleted.first.is_visible()
    assert page.get_attribute("button.show-markup", "aria-pressed") == "true"
