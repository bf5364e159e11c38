"""Browser tests: Playwright driving Debian's chromium (headless) over the built site.

The test command (make test) installs chromium with apt-get when it is missing; if it still is not
there, these tests are skipped with that reason. Screenshots go to build/screenshots/."""

from __future__ import annotations

import datetime as dt
import functools
import http.server
import random
import re
import shutil
import threading
from decimal import Decimal

import pytest

import navlaw_fees as nf
from navlaw.cli import main

from .conftest import CORPUS, ROOT

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")
SHOTS = ROOT / "build" / "screenshots"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("browser")
    assert main(["build", "--corpus", str(CORPUS), "--out", str(tmp / "build"), "--module", str(tmp / "fees")]) == 0
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # type: ignore[no-untyped-def]
            pass

    handler = functools.partial(Quiet, directory=str(tmp / "build" / "site"))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def page(server):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--headless"])
        pg = browser.new_page(viewport={"width": 1280, "height": 900})
        yield pg
        browser.close()


def test_navigation_and_cross_reference_links(page, server):
    page.goto(server + "/")
    page.click("text=Article 6.")
    assert "/law/article-06/" in page.url
    page.click("text=§ 89-a. Pilotage on the Hudson river")
    assert page.url.endswith("/law/89-a/")
    link = page.locator("a.xref", has_text="section ninety-five of this article").first
    link.click()
    assert page.url.endswith("#p-95")
    page.locator("#p-95").wait_for(state="visible")  # the URL changes before the page is drawn
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(server + "/")
    page.screenshot(path=str(SHOTS / "home.png"), full_page=False)
    page.goto(server + "/law/89-a/#p-89-a")
    page.screenshot(path=str(SHOTS / "section-89-a.png"))


def test_provision_citation_on_hover(page, server):
    page.goto(server + "/law/88/#p-88-4-b-1-ii-1-A-v")
    el = page.locator("#p-88-4-b-1-ii-1-A-v")
    el.hover()
    assert el.get_attribute("title") == "Nav. Law § 88(4)(b)(1)(ii)(1)(A)(v)"
    # a defined term inside its scope: the definition is its hover text
    page.goto(server + "/law/89-b/#p-89-b-4-b-3")
    term = page.locator("#p-89-b-4-b-3 dfn.term").first
    term.hover()
    assert term.get_attribute("title").startswith('"Overall length" is the distance')


def test_tariff_chart(page, server):
    page.goto(server + "/tariffs/#sandy-hook")
    chart = page.locator("svg.chart").first
    assert chart.is_visible() and "fee by pilotage units" in chart.locator("title").text_content()
    chart.screenshot(path=str(SHOTS / "tariff-chart.png"))


def calculator_cases(n: int = 60) -> list[tuple[str, str, str, dict[str, str]]]:
    rnd = random.Random(11)
    out = []
    while len(out) < n:
        route = rnd.choice(nf.ROUTES)
        units = str(Decimal(rnd.randint(1000, 200000)) / 100)
        on = (dt.date(2023, 1, 1) + dt.timedelta(days=rnd.randint(0, 5 * 365))).isoformat()
        opts = {}
        if route.startswith("hudson") and rnd.random() < 0.5:
            opts = rnd.choice([{"shifting": "flag"}, {"docking": "tug"}, {"stop_hours": "3"}])
        if route == "long-island-sound" and rnd.random() < 0.5:
            opts = rnd.choice([{"miles": "10"}, {"detention_hours": "4"}])
        out.append((route, units, on, opts))
    return out


def test_calculator_matches_the_fee_module(page, server):
    page.goto(server + "/calculator/")
    checked = 0
    for route, units, on, opts in calculator_cases():
        page.select_option("select[name=route]", route)
        page.fill("input[name=units]", units)
        page.fill("input[name=on]", on)
        kwargs: dict[str, object] = {}
        for name, value in opts.items():
            if value == "flag":
                page.check(f"input[name=opt-{name}]")
                kwargs[name] = True
            elif name == "docking":
                page.select_option(f"select[name=opt-{name}]", value)
                kwargs[name] = value
            else:
                page.fill(f"input[name=opt-{name}]", value)
                kwargs[name] = value
        page.click("button[type=submit]")
        want = nf.quote(route, units=units, on=dt.date.fromisoformat(on), **kwargs).total
        assert page.locator("#total").inner_text() == f"${want:,}"
        checked += 1
        if checked == 1:  # each line's citation links to its provision on its law page
            hrefs = page.eval_on_selector_all("#result a", "els => els.map(e => e.getAttribute('href'))")
            assert hrefs and all(re.fullmatch(r"\.\./law/[0-9a-z.-]+/#p-[0-9A-Za-z-]+", h) for h in hrefs), hrefs
            page.screenshot(path=str(SHOTS / "calculator.png"), full_page=True)
            page.set_viewport_size({"width": 390, "height": 844})
            page.screenshot(path=str(SHOTS / "calculator-phone.png"), full_page=True)
            page.set_viewport_size({"width": 1280, "height": 900})
    assert checked >= 50


def test_calculator_takes_several_stops_shifts_stations_and_a_board_amount(page, server):
    """Issue 19 item 8: the page offers the options the module takes, with the same cents."""
    on = dt.date(2026, 6, 1)
    page.goto(server + "/calculator/")
    page.select_option("select[name=route]", "hudson-upper")
    page.fill("input[name=units]", "300")
    page.fill("input[name=on]", on.isoformat())
    page.fill("input[name=opt-stop_hours]", "6, 9")
    page.check("input[name=opt-shifting]")
    page.fill("input[name=times-shifting]", "2")
    page.select_option("select[name=opt-launch]", ["yonkers-pilot-station", "norrie-point-pilot-station"])
    page.fill("input[name=opt-communication_fee]", "35.505")
    page.click("button[type=submit]")
    want = nf.quote("hudson-upper", units=300, on=on, stop_hours=["6", "9"], shifting=2,
                    launch=["yonkers-pilot-station", "norrie-point-pilot-station"], communication_fee="35.505").total
    assert page.locator("#total").inner_text() == f"${want:,}"
    page.select_option("select[name=route]", "sandy-hook")
    page.fill("input[name=opt-capital_expense_fund_surcharge]", "301")
    page.click("button[type=submit]")
    assert "more than the law allows" in page.locator("#result").inner_text()


def test_breadcrumbs_neighbours_and_copy_citation(page, server):
    """One page per section: the breadcrumbs lead to its article, previous/next to the sections beside it,
    and each provision's button copies its citation (the browser may refuse the clipboard to a headless
    page; the button says what it copied either way)."""
    page.goto(server + "/law/89-b/")
    page.click("nav.crumbs >> text=Article 6.")
    assert page.url.endswith("/law/article-06/")
    page.goto(server + "/law/89-b/")
    page.click("nav.steps a.prev")
    assert page.url.endswith("/law/89-a/")
    page.click("nav.steps a.next")
    assert page.url.endswith("/law/89-b/")
    button = page.locator("#p-89-b-4-b-1 button.copy-cite")
    button.click()
    page.wait_for_function("document.querySelector('#p-89-b-4-b-1 button.copy-cite').dataset.copied")
    assert button.get_attribute("data-copied") == "Nav. Law § 89-b(4)(b)(1)"
    assert button.inner_text() == "Copied: Nav. Law § 89-b(4)(b)(1)"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "section-89-b.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server + "/law/89-b/")
    page.screenshot(path=str(SHOTS / "section-89-b-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 900})


def test_the_change_report_leads_from_its_index_to_a_date_and_from_year_to_year(page, server):
    """History and changes: a date of the index opens its year's page at that date; a year's page leads
    to the years beside it and back to the index; a section it names opens that section's page."""
    page.goto(server + "/history/")
    page.click("text=2022-07-21")
    assert page.url.endswith("/changes/2022/#2022-07-21")
    page.wait_for_selector('h2[id="2022-07-21"]', state="visible")
    assert page.locator("article p").first.inner_text() == "Every year: History and changes · Earlier: 2016 · Later: 2023"
    page.get_by_role("link", name="2023", exact=True).click()  # "Later: 2023"
    assert page.url.endswith("/changes/2023/")
    page.get_by_role("link", name="2022", exact=True).click()  # "Earlier: 2022"
    assert page.url.endswith("/changes/2022/")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "changes-2022.png"))
    page.click("article h3 >> text=§ 89-a")
    assert page.url.endswith("/law/89-a/#p-89-a")
    page.goto(server + "/changes/2022/")
    page.click("text=History and changes")
    assert page.url.endswith("/history/")


def test_search_for_a_section_number_finds_that_section_first(page, server):
    """One search entry per section page: "89-b" and "§ 89-b" rank § 89-b first, "89-a" § 89-a (not
    § 45-aaaaa, whose tag and title have more words starting "a"), "88" § 88 (not § 88-a), "130-a"
    § 130-a, "55.2" the rule. ("§ 89-a" still puts § 45-aaaaa first: see search_tags.)"""
    for query, first in (("89-b", "Nav. Law § 89-b. Pilotage on Long Island Sound"), ("§ 89-b", "Nav. Law § 89-b."),
                         ("89-a", "Nav. Law § 89-a. Pilotage on the Hudson river"), ("88", "Nav. Law § 88. Pilotage"),
                         ("88-a", "Nav. Law § 88-a. Unlicensed piloting"), ("130-a", "Nav. Law § 130-a."),
                         ("55.2", "21 NYCRR § 55.2. Supplementary fees")):
        page.goto(server + "/")
        page.keyboard.press("/")
        page.fill("input.md-search__input", query)
        page.wait_for_selector(".md-search-result__item", timeout=600_000)  # the index loads in a worker
        # the results of this query, not of the index still loading: the count line names them
        page.wait_for_function("/\\d+ matching document/.test(document.querySelector('.md-search-result__meta')"
                               ".textContent)", timeout=600_000)
        titles = page.locator(".md-search-result__item h1, .md-search-result__item h2").all_inner_texts()
        assert titles[0].startswith(first), (query, titles[:3])


def test_no_page_type_scrolls_sideways_on_a_phone(page, server):
    """390 px wide: the home page, the law index, an article, sections with rate tables and formulas,
    the rule, a history, the change report (its index and two years with redlines), the tariffs, calculator,
    penalties and diagnostics fit; wide tables scroll
    within themselves."""
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        for path in ("/", "/law/", "/law/article-06/", "/law/89-b/", "/law/88/", "/law/89-a/", "/law/21-nycrr-55.2/",
                     "/history/89-b/", "/tariffs/", "/calculator/", "/penalties/", "/diagnostics/", "/history/",
                     "/changes/2022/", "/changes/2006/", "/diagnostics/089-a-4-7-8-txt/",
                     "/penalties/article-06/"):
            page.goto(server + path)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
        page.goto(server + "/law/88/")
        page.screenshot(path=str(SHOTS / "section-88-phone.png"))
        page.goto(server + "/tariffs/")
        page.screenshot(path=str(SHOTS / "tariffs-phone.png"))
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def test_view_as_of_finds_the_version_in_force_on_any_date(page, server):
    """Issue 17, item 3: on a history page the date field opens the version in force on that day; on a
    law page it leads to that version on the history page."""
    page.goto(server + "/history/89-b/")
    field = page.locator("form.as-of input[name=on]")
    field.fill("2023-05-01")
    field.dispatch_event("change")
    assert page.locator("form.as-of output").inner_text() == "In force on 2023-05-01: the version as of 2022-07-21."
    assert page.url.endswith("#v2022-07-21")
    field.fill("2010-03-01")  # in the gap between the consolidation (known until 2006) and L.2022
    field.dispatch_event("change")
    assert page.url.endswith("#v2006-01-01")
    assert "no text of 89-b in this corpus is known to be in force on 2006-01-01" in page.locator(
        "#v2006-01-01 + .version").inner_text()
    field.fill("1999-01-01")
    field.dispatch_event("change")
    assert page.locator("form.as-of output").inner_text() == "The corpus has no text of this section before 2002-07-01."
    page.goto(server + "/law/89-b/")
    field = page.locator("form.as-of input[name=on]")
    field.fill("2004-01-01")
    page.click("form.as-of button[type=submit]")
    page.wait_for_url("**/history/89-b/#v2002-07-01")
    page.screenshot(path=str(SHOTS / "history-89-b.png"))


def test_a_redline_between_any_two_versions(page, server):
    """§ 88 has three versions with text (2002-07-01, 2006-01-01 with its gaps, 2023-01-01): any two picked
    show their redline and only theirs."""
    page.goto(server + "/history/88/")
    page.select_option("form.compare select[name=from]", "2002-07-01")
    page.select_option("form.compare select[name=to]", "2023-01-01")
    shown = page.locator("section.pair:visible")
    assert shown.count() == 1 and shown.get_attribute("id") == "cmp-2002-07-01-2023-01-01"
    assert "$((P.U. - 1650) x 4.21) + 8225" not in shown.inner_text()  # the 2022 tables are there, as inserted
    assert shown.locator("ins").count() > 0 and shown.locator("del").count() > 0
    page.select_option("form.compare select[name=to]", "2006-01-01")
    assert page.locator("section.pair:visible").get_attribute("id") == "cmp-2002-07-01-2006-01-01"
    assert page.locator("section.pair:visible p.gap").count() > 0  # the gap is said, not redlined
    page.select_option("form.compare select[name=from]", "2006-01-01")
    assert page.locator("section.pair:visible").count() == 0 and page.locator("form.compare p.same").is_visible()
    page.select_option("form.compare select[name=from]", "2002-07-01")
    page.select_option("form.compare select[name=to]", "2023-01-01")
    page.locator("section.pair:visible ins").first.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "history-88-redline.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        page.locator("section.pair:visible ins").first.scroll_into_view_if_needed()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(SHOTS / "history-88-redline-phone.png"))
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def _contrast(fg: str, bg: str) -> float:
    """WCAG contrast ratio of two "rgb(r, g, b)" colours."""
    def lum(c: str) -> float:
        vals = [int(float(x)) / 255 for x in c[c.index("(") + 1:c.index(")")].split(",")[:3]]
        lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in vals]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    a, b = sorted((lum(fg), lum(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_chart_series_stands_out_in_light_and_dark_mode(page, server, scheme):
    """Issue 17, item 5: each series of each chart has at least 3:1 contrast against the page."""
    page.emulate_media(color_scheme=scheme)
    page.goto(server + "/tariffs/")
    bg = page.evaluate("getComputedStyle(document.querySelector('.md-main')).backgroundColor")
    if "rgba(0, 0, 0, 0)" in bg:
        bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    strokes = page.evaluate("[...document.querySelectorAll('svg.chart .series')].map(e => getComputedStyle(e).stroke)")
    assert len(strokes) >= 10
    worst = min(_contrast(s, bg) for s in strokes)
    assert worst >= 3, (scheme, bg, sorted(set(strokes)))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server + "/tariffs/")
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('svg.chart text')).fontSize)"
                         " * document.querySelector('svg.chart').getBoundingClientRect().width / 480")
    assert size >= 11, size  # chart text is readable on a phone (it was 7 px)
    page.screenshot(path=str(SHOTS / f"tariffs-phone-{scheme}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(server + "/tariffs/")
    page.screenshot(path=str(SHOTS / f"tariffs-{scheme}.png"), full_page=False)
    page.emulate_media(color_scheme="light")


def test_the_404_page_works_under_a_sub_path(tmp_path, page):
    """Served at /navlaw/: a missing page gets the 404 page, whose styles and scripts all load."""
    assert main(["build", "--out", str(tmp_path / "b"), "--module", str(tmp_path / "m"), "--no-cache",
                 "--site-url", "http://127.0.0.1/navlaw/"]) == 0
    site = tmp_path / "b" / "site"

    class SubPath(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # type: ignore[no-untyped-def]
            pass

        def send_head(self):  # type: ignore[no-untyped-def]
            path = self.path.split("?")[0]
            if not path.startswith("/navlaw/"):
                self.send_error(404)
                return None
            self.path = path[len("/navlaw"):]
            target = site / self.path.lstrip("/")
            if not (target.is_file() or (target / "index.html").is_file()):
                body = (site / "404.html").read_bytes()
                self.send_response(404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                import io
                return io.BytesIO(body)
            return super().send_head()

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(SubPath, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    failed: list[str] = []
    try:
        pg = page.context.browser.new_page(viewport={"width": 1280, "height": 900})
        pg.on("response", lambda r: failed.append(r.url) if r.status >= 400 and "/no/such/" not in r.url else None)
        pg.goto(f"http://127.0.0.1:{httpd.server_address[1]}/navlaw/no/such/page/")
        assert "404" in pg.locator("article").inner_text()
        assert pg.evaluate("getComputedStyle(document.querySelector('.md-header')).position") == "sticky"
        pg.screenshot(path=str(SHOTS / "404-sub-path.png"))
        pg.close()
    finally:
        httpd.shutdown()
    assert failed == []


def test_calculator_says_what_is_wrong_with_the_input_in_words(page, server):
    page.goto(server + "/calculator/")
    page.select_option("select[name=route]", "sandy-hook")
    page.fill("input[name=units]", "")
    page.fill("input[name=on]", "2026-06-01")
    page.click("button[type=submit]")
    assert page.locator("#error").inner_text() == ("Enter the vessel's pilotage units, a number above 0, or its overall "
                                                   "length, extreme breadth and depth in feet.")
    page.fill("input[name=units]", "-5")
    page.click("button[type=submit]")
    assert page.locator("#error").inner_text() == ("Enter the vessel's pilotage units, a number above 0 (for example "
                                                   "350 or 412.5): \"-5\" is not one.")
    page.fill("input[name=units]", "")
    page.fill("input[name=length]", "600")
    page.fill("input[name=breadth]", "90")
    page.click("button[type=submit]")
    assert page.locator("#error").inner_text() == "Enter the vessel's depth in feet, or its pilotage units."
    page.fill("input[name=units]", "1,350")  # grouped thousands are a number
    page.click("button[type=submit]")
    want = nf.quote("sandy-hook", units="1350", on=dt.date(2026, 6, 1)).total
    assert page.locator("#total").inner_text() == f"${want:,}"


def test_the_calculator_shows_its_working(page, server):
    """Issue 33: "Show working" gives each line's arithmetic with the numbers put in and the rounding, and fits
    a phone."""
    page.goto(server + "/calculator/")
    page.select_option("select[name=route]", "sandy-hook")
    page.fill("input[name=units]", "216.18")
    page.fill("input[name=on]", "2026-06-01")
    page.click("button[type=submit]")
    page.click("#working summary")
    text = page.locator("#working").inner_text()
    assert 'bracket "100 to 499.99" for 216.18 PU; 13.19 × 216.18 = 2851.4142 → $2,851.41' in text
    assert "2851.41 × 7.5 / 100 = 213.85575 → $213.86" in text
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
