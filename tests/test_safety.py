"""Safe by construction (issue 12): nothing planted in a cache runs, no path given to `navlaw build`
loses a file, a build killed at any instant leaves the whole old or the whole new output, and two builds
never write one output at once. Each test is named after the finding it guards against."""

from __future__ import annotations

import os
from decimal import Decimal
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from navlaw import publish
from navlaw.cli import main

from .conftest import CORPUS, LIS_2022, ROOT
from .test_incremental import AMENDED_2027, RATE_2027, tree_bytes


class _Planted:
    """A pickle that, if ever loaded, leaves a marker file: the proof that code ran."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Path.write_text, (self.marker, "code ran"))


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    return root


def build(tmp: Path, corpus: Path, *extra: str, out: str = "build", module: str = "build-fees") -> int:
    return main(["build", "--corpus", str(corpus), "--out", str(tmp / out), "--module", str(tmp / module),
                 "--no-site", *extra])


def amend(corpus: Path) -> None:
    p = corpus / LIS_2022
    p.write_text(p.read_text(encoding="utf-8").replace(RATE_2027, AMENDED_2027), encoding="utf-8")


# ---- 1. no unpickling of anything a user can plant ------------------------------------------------

def test_a_pickle_planted_in_the_build_cache_never_runs(tmp_path, corpus, capsys):
    assert build(tmp_path, corpus) == 0
    marker = tmp_path / "pwned"
    entries = list((tmp_path / ".build-cache").glob("*/*.sealed"))
    assert len(entries) >= 10
    for e in entries:  # both a bare pickle and one behind a forged header
        e.write_bytes(pickle.dumps(_Planted(marker)) if e.parent.name != "document"
                      else b"navlaw-sealed-1\n" + b"\0" * 32 + pickle.dumps(_Planted(marker)))
    amend(corpus)
    assert build(tmp_path, corpus) == 0
    assert not marker.exists()
    assert "its seal does not match" in capsys.readouterr().err


def test_a_pickle_planted_in_the_lark_table_cache_never_runs(tmp_path):
    cache = tmp_path / "xdg"
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    probe = [sys.executable, "-m", "navlaw", "parse", str(CORPUS / LIS_2022)]
    first = subprocess.run(probe, env=env, capture_output=True, text=True, cwd=ROOT)
    assert first.returncode == 0, first.stderr
    tables = sorted((cache / "navlaw").glob("lark-*.sealed"))
    assert [t.name for t in tables][:1] and not list((cache / "navlaw").glob("*.pickle"))
    marker = tmp_path / "pwned"
    for t in tables:
        t.write_bytes(pickle.dumps(_Planted(marker)))
    again = subprocess.run(probe, env=env, capture_output=True, text=True, cwd=ROOT)
    assert again.returncode == 0 and again.stdout == first.stdout
    assert not marker.exists()


def test_a_cache_entry_swapped_for_another_valid_one_is_refused(tmp_path, corpus, capsys):
    assert build(tmp_path, corpus) == 0
    a, b = sorted((tmp_path / ".build-cache" / "document").glob("*.sealed"))[:2]
    data_a, data_b = a.read_bytes(), b.read_bytes()
    a.write_bytes(data_b)
    b.write_bytes(data_a)
    for last in (tmp_path / ".build-cache" / "last").glob("*"):
        last.unlink()  # not "up to date": the documents are looked up
    assert build(tmp_path, corpus) == 0
    assert capsys.readouterr().err.count("its seal does not match") == 2
    expected = tmp_path / "clean"
    assert main(["build", "--corpus", str(corpus), "--out", str(expected), "--module", str(tmp_path / "clean-fees"),
                 "--no-site", "--no-cache"]) == 0
    assert tree_bytes(tmp_path / "build-fees") == tree_bytes(tmp_path / "clean-fees")


@pytest.mark.parametrize("how", ["writable by others", "owned by another user"])
def test_a_cache_directory_that_is_not_the_users_alone_is_not_used(tmp_path, corpus, capsys, how):
    cache = tmp_path / ".build-cache"
    cache.mkdir()
    if how == "writable by others":
        cache.chmod(0o777)
    elif os.geteuid() == 0:
        os.chown(cache, 54321, 54321)
    else:
        pytest.skip("only root can give a directory to another user")
    assert build(tmp_path, corpus) == 0
    err = capsys.readouterr().err
    assert "no build cache:" in err and ("writable by other users" in err or "belongs to another user" in err)
    assert not list(cache.rglob("*.sealed"))


def test_up_to_date_depends_on_the_corpus_path(tmp_path, corpus, capsys):
    assert build(tmp_path, corpus) == 0
    other = tmp_path / "other-corpus"
    shutil.copytree(corpus, other)
    capsys.readouterr()
    assert build(tmp_path, other) == 0
    assert "up to date" not in capsys.readouterr().out


# ---- 3. paths checked before anything is written; one build at a time; crash-consistent swap ------

@pytest.mark.parametrize("flag,where", [("--out", "."), ("--module", "."), ("--out", "sub"), ("--module", "..")])
def test_an_output_equal_to_inside_or_containing_the_corpus_is_refused(tmp_path, corpus, capsys, flag, where):
    (corpus / "sub").mkdir()
    before = tree_bytes(corpus)
    target = (corpus / where).resolve()
    args = {"--out": str(tmp_path / "o"), "--module": str(tmp_path / "m"), flag: str(target)}
    code = main(["build", "--corpus", str(corpus), "--out", args["--out"], "--module", args["--module"], "--no-site"])
    assert code == 2
    err = capsys.readouterr().err
    assert "the corpus" in err and "would delete the law texts" in err and "Traceback" not in err
    assert tree_bytes(corpus) == before


def test_module_inside_out_works(tmp_path, corpus):
    assert build(tmp_path, corpus, out="build", module="build/navlaw_fees") == 0
    assert (tmp_path / "build" / "navlaw_fees" / "__init__.py").is_file()
    assert (tmp_path / "build" / "tariffs.json").is_file()
    assert build(tmp_path, corpus, "--no-cache", out="build", module="build/navlaw_fees") == 0
    assert (tmp_path / "build" / "navlaw_fees" / "__init__.py").is_file()


def test_out_inside_module_or_both_one_directory_is_refused(tmp_path, corpus, capsys):
    assert build(tmp_path, corpus, out="same", module="same") == 2
    assert "each output needs its own directory" in capsys.readouterr().err
    assert build(tmp_path, corpus, out="mod/build", module="mod") == 2
    assert not (tmp_path / "mod").exists() and not (tmp_path / "same").exists()


def test_an_out_that_is_a_file_is_one_line_and_the_file_is_kept(tmp_path, corpus, capsys):
    (tmp_path / "build").write_text("the user's notes", encoding="utf-8")
    assert build(tmp_path, corpus) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a file, not a directory" in err
    assert (tmp_path / "build").read_text(encoding="utf-8") == "the user's notes"


def test_a_second_build_on_the_same_output_is_refused_while_the_first_runs(tmp_path, corpus, capsys):
    assert build(tmp_path, corpus) == 0
    before = tree_bytes(tmp_path / "build")
    with publish.locked([publish.Output("--out", (tmp_path / "build").resolve())]):  # a build in progress
        amend(corpus)
        assert build(tmp_path, corpus) == 1
    assert "another build is writing" in capsys.readouterr().err
    assert tree_bytes(tmp_path / "build") == before
    assert build(tmp_path, corpus) == 0  # once the first is done


def _run_build(cwd: Path, fault: int | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != publish.FAULT_ENV}
    if fault is not None:
        env[publish.FAULT_ENV] = str(fault)
    return subprocess.run([sys.executable, "-m", "navlaw", "build", "--corpus", "corpus", "--out", "out",
                           "--module", "mod", "--no-site", "--no-cache"], cwd=cwd, env=env,
                          capture_output=True, text=True)


def test_a_build_killed_at_each_step_of_the_swap_leaves_the_whole_old_or_the_whole_new_output(tmp_path):
    ref = tmp_path / "ref"
    shutil.copytree(CORPUS, ref / "corpus")
    assert _run_build(ref).returncode == 0
    old = tree_bytes(ref / "out"), tree_bytes(ref / "mod")
    amend(ref / "corpus")
    assert _run_build(ref).returncode == 0
    new = tree_bytes(ref / "out"), tree_bytes(ref / "mod")
    assert old != new
    outputs = lambda root: [publish.Output("--out", (root / "out").resolve()),  # noqa: E731
                            publish.Output("--module", (root / "mod").resolve())]
    for step in range(6):  # journal, then (aside, in) for each of the two outputs, then the journal's removal
        work = tmp_path / f"kill-{step}"
        shutil.copytree(CORPUS, work / "corpus")
        assert _run_build(work).returncode == 0
        amend(work / "corpus")
        killed = _run_build(work, fault=step)
        assert killed.returncode == 137, (step, killed.stderr)
        journal = (work / ".out.swap.json").exists()
        with publish.locked(outputs(work)):
            finished = publish.recover(outputs(work))  # what the next build does first
        assert finished == journal
        got = tree_bytes(work / "out"), tree_bytes(work / "mod")
        assert got == (new if journal else old), step
        assert sorted(p.name for p in work.iterdir() if p.name.startswith(".")) == [".mod.lock", ".out.lock"], step
        assert _run_build(work).returncode == 0
        assert (tree_bytes(work / "out"), tree_bytes(work / "mod")) == new


def test_leftovers_of_killed_builds_are_removed_by_the_next_build(tmp_path, corpus):
    for name in (".build.new-abcd1234", ".build.old-abcd1234", ".build-fees.new-x"):
        (tmp_path / name / "site").mkdir(parents=True)
    (tmp_path / ".unrelated").mkdir()
    assert build(tmp_path, corpus) == 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == [
        ".build-cache", ".build-fees.lock", ".build.lock", ".unrelated"]


def test_outputs_follow_the_umask_not_0700(tmp_path, corpus):
    old = os.umask(0o022)
    try:
        assert build(tmp_path, corpus) == 0
    finally:
        os.umask(old)
    for root in (tmp_path / "build", tmp_path / "build-fees"):
        assert oct(root.stat().st_mode & 0o777) == oct(0o755)
        for p in root.rglob("*"):
            assert oct(p.stat().st_mode & 0o777) == oct(0o755 if p.is_dir() else 0o644), p


# ---- 2. everything from the corpus is data on the way out ------------------------------------------

HOSTILE = ('<script>alert("pwn1")</script><img src=x onerror="pwn2()"> </title><script>pwn3()</script> '
           '{: onclick="pwn4()" } *em* [l](javascript:pwn5()) `code` <!-- --8<-- "/etc/passwd"')
HOSTILE_FILE = "089-b <b onmouseover=pwn6()>\nimport os; os.system('touch pwned-module') #.txt"


def _hostile_corpus(root: Path) -> Path:
    """The corpus with hostile HTML, Markdown and Python in every field that reaches a page or the
    module: an article heading, a section heading, law text, a rule's first line, a file name, manifest texts."""
    c = root / "corpus"
    shutil.copytree(CORPUS, c)
    law = (c / "nav-law.consolidated.txt").read_text(encoding="utf-8")
    law = law.replace("Article 2 - ADMINISTRATION", f"Article 2 - ADMINISTRATION {HOSTILE}", 1)
    law = law.replace("ｧ 10. Duties of the commissioner", f"ｧ 10. Duties {HOSTILE} of the commissioner", 1)
    law = law.replace("This chapter shall be known", f"This chapter {HOSTILE} shall be known", 1)
    (c / "nav-law.consolidated.txt").write_text(law, encoding="utf-8")
    rule = (c / "21nycrr-55.2.proposed-2016.txt").read_text(encoding="utf-8")
    (c / "21nycrr-55.2.proposed-2016.txt").write_text(rule.replace("\n", f" {HOSTILE}\n", 1), encoding="utf-8")
    (c / LIS_2022).rename(c / HOSTILE_FILE)
    m = (c / "manifest.toml").read_text(encoding="utf-8")
    toml_name = HOSTILE_FILE.replace("\n", "\\n")
    m = m.replace(f'file = "{LIS_2022}"', f'file = "{toml_name}"')
    m = m.replace('source = "L.2022, ch. 427 (signed 2022-07-21)"', 'source = "L.2022 <script>pwn7()</script> {: onclick=pwn8() }"')
    (c / "manifest.toml").write_text(m, encoding="utf-8")
    return c


def _html_vocabulary(site: Path) -> tuple[set[tuple[str, str]], list[str]]:
    """Every (element, attribute) pair on the site, and every place the corpus's code got live: an
    attribute value holding it, or script/style content holding it."""
    from html.parser import HTMLParser

    pairs: set[tuple[str, str]] = set()
    live: list[str] = []

    class Reader(HTMLParser):
        stack: list[str] = []

        def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
            pairs.add((tag, ""))
            for k, v in attrs:
                pairs.add((tag, k))
                if k.startswith("on") or (v and ("javascript:" in v or "pwn" in v and k not in ("id", "href"))):
                    live.append(f"{page}: <{tag} {k}={v!r}>")
                if k == "href" and v and "pwn" in v and not v.startswith("#"):
                    live.append(f"{page}: <{tag} href={v!r}>")
            self.stack.append(tag)

        def handle_endtag(self, tag):  # type: ignore[no-untyped-def]
            if self.stack:
                self.stack.pop()

        def handle_data(self, data):  # type: ignore[no-untyped-def]
            if self.stack and self.stack[-1] in ("script", "style") and "pwn" in data:
                live.append(f"{page}: <{self.stack[-1]}> {data[:60]!r}")

    for path in sorted(site.rglob("*.html")):
        page = path.relative_to(site)
        Reader(convert_charrefs=True).feed(path.read_text(encoding="utf-8"))
    return pairs, live


@pytest.fixture(scope="module")
def hostile_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("hostile")
    corpus = _hostile_corpus(root)
    clean = tmp_path_factory.mktemp("clean")
    for base, c in ((root, corpus), (clean, CORPUS)):
        assert main(["build", "--corpus", str(c), "--out", str(base / "out"), "--module", str(base / "mod"),
                     "--no-cache"]) == 0
    return root, clean


def test_corpus_text_in_every_field_adds_no_element_or_attribute_to_the_site(hostile_build):
    hostile, clean = hostile_build
    theirs, live = _html_vocabulary(hostile / "out" / "site")
    ours, _ = _html_vocabulary(clean / "out" / "site")
    assert live == []
    assert theirs <= ours, sorted(theirs - ours)
    # and the hostile text is shown, as text, where it belongs
    article = (hostile / "out" / "site" / "law" / "article-02" / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(&quot;pwn1&quot;)&lt;/script&gt;" in article
    title = article.split("<title>", 1)[1].split("</title>", 1)[0]
    assert "&lt;/title&gt;&lt;script&gt;pwn3()" in title


def test_search_index_holds_corpus_markup_only_as_escaped_text(hostile_build):
    hostile, _ = hostile_build
    from navlaw.site.search_index import documents

    texts = [d.get("title", "") + d.get("text", "") for d in documents(hostile / "out" / "site")]
    assert any("&lt;script&gt;alert" in t for t in texts)
    assert not any("<script" in t or "<img" in t or 'onmouseover=' in t.replace("&lt;b onmouseover=", "")
                   for t in texts)


def test_a_file_name_with_a_newline_puts_no_statement_into_the_generated_module(hostile_build):
    import ast

    hostile, clean = hostile_build
    for name in ("__init__.py", "_schedules.py"):
        tree = ast.parse((hostile / "mod" / name).read_text(encoding="utf-8"))
        ref = ast.parse((clean / "mod" / name).read_text(encoding="utf-8"))
        assert [type(n).__name__ for n in tree.body] == [type(n).__name__ for n in ref.body], name
        for node in ast.walk(tree):
            assert not (isinstance(node, ast.Name) and node.id == "os"), name
            assert not (isinstance(node, ast.Attribute) and node.attr == "system"), name
    header = (hostile / "mod" / "__init__.py").read_text(encoding="utf-8").split('"""', 1)[0]
    assert ascii(HOSTILE_FILE) in header
    run = subprocess.run([sys.executable, "-c", "import mod; print(mod.quote('long-island-sound', units=350,"
                          " on=__import__('datetime').date(2026, 6, 1)).total)"], cwd=hostile, capture_output=True, text=True)
    assert run.stdout.strip() == "3811.50", run.stderr
    assert not (hostile / "pwned-module").exists()


# ---- 5. checked inputs ------------------------------------------------------------------------------

@pytest.mark.parametrize("edit,message", [
    (lambda m: f'[document]\nfile = "{LIS_2022}"\nkind = "section-text"\ncovers = ["89-b"]\n', "must be an array of tables"),
    (lambda m: m.replace('[document.anchors]\n"effective date of this paragraph" = ', 'anchors = 5\n#', 1),
     "anchors must be a table"),
    (lambda m: m.replace('received_as = "000_57f715e950e5c823.txt"', 'fragments = ["x"]', 1),
     "fragments must be an array of tables"),
    (lambda m: m.replace('source = "L.2022, ch. 427 (signed 2022-07-21)"', "source = 2022", 1),
     "source must be a string in quotes"),
])
def test_manifest_values_of_the_wrong_type_are_diagnostics_with_the_line(tmp_path, corpus, capsys, edit, message):
    m = corpus / "manifest.toml"
    m.write_text(edit(m.read_text(encoding="utf-8")), encoding="utf-8")
    assert main(["lint", "--corpus", str(corpus)]) == 1
    out = capsys.readouterr()
    assert message in out.err + out.out and "manifest.toml:" in out.err + out.out
    assert "Traceback" not in out.err


def test_a_manifest_that_is_a_directory_is_one_error(tmp_path, corpus, capsys):
    (corpus / "manifest.toml").unlink()
    (corpus / "manifest.toml").mkdir()
    assert main(["lint", "--corpus", str(corpus)]) == 1
    assert "manifest.toml is a directory, not a file" in capsys.readouterr().err


def test_a_dot_slash_path_is_the_same_file_listed_twice(tmp_path, corpus, capsys):
    m = corpus / "manifest.toml"
    text = m.read_text(encoding="utf-8")
    m.write_text(text + f'\n[[document]]\nfile = "./{LIS_2022}"\nkind = "section-text"\ncovers = ["89-b"]\n', encoding="utf-8")
    assert main(["lint", "--corpus", str(corpus)]) == 1
    assert f"the file '{LIS_2022}' is listed twice" in capsys.readouterr().err


def test_a_file_of_only_unicode_white_space_is_no_law(tmp_path, capsys):
    f = tmp_path / "blank.txt"
    f.write_text("\u00a0\u3000\u2003\n\u200b\u2028\n", encoding="utf-8")
    assert main(["parse", str(f)]) == 1
    assert "the file holds only white space" in capsys.readouterr().err


def test_full_width_digits_are_a_diagnostic_not_article_six(tmp_path, capsys):
    f = tmp_path / "law.txt"
    f.write_text("Article ６ - PILOTS\n\n§ 1. Short title.\n(１) Text.\n", encoding="utf-8")
    assert main(["parse", str(f)]) == 1
    err = capsys.readouterr().err
    assert "law.txt:1:9: error: the label '６' is written with digits that are not ASCII" in err
    assert "law.txt:4:2: error: the label '１'" in err


def test_two_documents_with_one_basename_keep_two_tree_files(tmp_path, corpus):
    (corpus / "sub").mkdir()
    shutil.copy(corpus / LIS_2022, corpus / "sub" / LIS_2022)
    m = corpus / "manifest.toml"
    m.write_text(m.read_text(encoding="utf-8") + f'\n[[document]]\nfile = "sub/{LIS_2022}"\nkind = "section-text"\n'
                 'covers = ["89-b"]\neffective = 2030-01-01\n', encoding="utf-8")
    assert build(tmp_path, corpus) == 0
    assert (tmp_path / "build" / "tree" / f"{LIS_2022}.json").is_file()
    assert (tmp_path / "build" / "tree" / "sub" / f"{LIS_2022}.json").is_file()


def test_a_negative_table_amount_is_a_lint_error_and_never_quoted(tmp_path, corpus, capsys):
    frag = corpus / "088.fragments.2022.txt"
    # table (ii), 2023: A.8982-A of 2024 amended (iii)–(vi), so file 004's (iv) is no longer law to quote from
    frag.write_text(frag.read_text(encoding="utf-8").replace("| $824 |", "| $-824 |"), encoding="utf-8")
    assert build(tmp_path, corpus) == 1
    err = capsys.readouterr().err
    assert 'a negative fee in Nav. Law § 88(4)(b)(1)(ii)(1)(A)(ii): the bracket "0 to 24.99" gives -824.00' in err
    assert not (tmp_path / "build-fees").exists()


def test_a_300_digit_rate_is_a_lint_error_not_a_traceback_in_the_chart(tmp_path, corpus, capsys):
    import re

    law = corpus / "089-a.4-7-8.txt"
    law.write_text(re.sub(r"shall pay \$[0-9.]+", "shall pay $" + "9" * 300, law.read_text(encoding="utf-8")),
                   encoding="utf-8")
    assert main(["build", "--corpus", str(corpus), "--out", str(tmp_path / "o"), "--module", str(tmp_path / "m")]) == 1
    assert "an amount of 300 digits in Nav. Law § 89-a(4)(b)(1)" in capsys.readouterr().err


@pytest.mark.parametrize("kwargs,message", [
    (dict(units=10 ** 5000), "units is too large"),
    (dict(units="3,5,0"), "units must be a number written with digits"),
    (dict(units="1e999999"), "units must be a number written with digits"),
    (dict(length_ft=Decimal("1e500000"), breadth_ft=1, depth_ft=1), "length_ft is too large"),
    (dict(units=350, stop_hours=Decimal("1e999999")), "stop_hours is too large"),
    (dict(units=350, stop_hours="1e25"), "stop_hours must be a number written with digits"),
    (dict(units="0.0000000000001"), "units has more than 12 decimal places"),
])
def test_fee_inputs_are_bounded_and_parsed_strictly(kwargs, message):
    import datetime as dt

    import navlaw_fees as nf

    with pytest.raises(nf.FeeError, match=message):
        nf.quote("hudson-upper", on=dt.date(2026, 6, 1), **kwargs)
    assert nf.quote("hudson-upper", units="1,250.5", on=dt.date(2026, 6, 1)).units == Decimal("1250.5")


def test_navlaw_fee_with_a_corpus_file_name_holding_a_space(tmp_path, corpus, capsys):
    (corpus / LIS_2022).rename(corpus / "089-b 2022.txt")
    m = corpus / "manifest.toml"
    m.write_text(m.read_text(encoding="utf-8").replace(f'file = "{LIS_2022}"', 'file = "089-b 2022.txt"'), encoding="utf-8")
    assert main(["fee", "long-island-sound", "--units", "350", "--on", "2026-06-01", "--corpus", str(corpus)]) == 0
    out = capsys.readouterr()
    assert "3,811.50" in out.out and "generated from a different corpus" in out.err


# ---- 6. serve -------------------------------------------------------------------------------------

def test_serve_answers_malformed_requests_with_400_and_lists_no_directory(tmp_path):
    import http.client
    import threading
    from functools import partial
    from http.server import ThreadingHTTPServer

    from navlaw.site.serve import _Quiet

    site = tmp_path / "site"
    (site / "law").mkdir(parents=True)
    (site / "index.html").write_text("home", encoding="utf-8")
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        def get(path: str) -> int:
            c = http.client.HTTPConnection("127.0.0.1", server.server_port, timeout=30)
            c.request("GET", path)
            return c.getresponse().status
        assert get("/%00") == 400
        assert get("/law/") == 404  # no listing of a directory without index.html
        assert get("/") == 200
        assert _Quiet.timeout == 30  # idle connections are closed
    finally:
        server.shutdown()
        server.server_close()


def test_serve_survives_any_error_in_a_rebuild():
    from navlaw.site.serve import guarded

    said: list[str] = []

    def broken() -> int:
        raise AttributeError("'list' object has no attribute 'items'")

    assert guarded(broken, said.append) == 1
    assert said == ["navlaw serve: the build failed: AttributeError: 'list' object has no attribute 'items'"]


def test_detention_hours_of_1e25_is_a_fee_error_not_invalid_operation():
    import datetime as dt

    import navlaw_fees as nf

    for value in (Decimal("1e25"), "1e25", 10 ** 30):
        with pytest.raises(nf.FeeError, match="detention_hours"):
            nf.quote("long-island-sound", units=350, on=dt.date(2026, 6, 1), detention_hours=value)
