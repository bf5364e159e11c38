"""The second adversarial round (issue 25): nothing lost, nothing hangs, no traceback. Each test is named
after the finding it guards against and fails on the code as it was before the fix."""

from __future__ import annotations

import os
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from navlaw.cli import main

from .conftest import CORPUS, LIS_2022


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    return root


def build(tmp: Path, corpus: Path, *extra: str, out: str = "build", module: str = "build-fees") -> int:
    return main(["build", "--corpus", str(corpus), "--out", str(tmp / out), "--module", str(tmp / module),
                 "--no-site", *extra])


def listing(root: Path) -> dict[str, bytes | str]:
    """Every entry below ``root``: a file's bytes, a link's target, a directory's "/"."""
    out: dict[str, bytes | str] = {}
    for dirpath, dirs, files in os.walk(root):
        for n in dirs + files:
            p = Path(dirpath) / n
            rel = p.relative_to(root).as_posix()
            out[rel] = (f"-> {os.readlink(p)}" if p.is_symlink() else "/" if p.is_dir() else p.read_bytes())
    return out


# ---- 1. refuse before writing ----------------------------------------------------------------------

def a_project(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "main.py").write_text("print('mine')\n", encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    return root


def test_module_dir_navlaw_did_not_write_is_refused_not_deleted(tmp_path, corpus, capsys):
    """`--module DIR` over a project (main.py, pkg/, .git/) deleted it and wrote the module, exit 0."""
    project = a_project(tmp_path / "project")
    before = listing(project)
    assert build(tmp_path, corpus, module="project") == 2
    err = capsys.readouterr().err
    assert "--module" in err and "holds what navlaw did not write (.git/, main.py, pkg/)" in err
    assert "nothing was changed" in err and "Traceback" not in err
    assert listing(project) == before
    assert not (tmp_path / "build").exists()  # nothing written anywhere, OUT included


def test_out_dir_navlaw_did_not_write_is_refused_not_replaced(tmp_path, corpus, capsys):
    """`--out DIR` over a directory that is not a build (its own site/, no marker) is refused, exit 2."""
    project = a_project(tmp_path / "project")
    (project / "site").mkdir()
    (project / "site" / "index.html").write_text("<p>mine</p>", encoding="utf-8")
    before = listing(project)
    assert build(tmp_path, corpus, out="project") == 2
    assert "--out" in capsys.readouterr().err
    assert listing(project) == before


def test_module_dir_navlaw_wrote_with_a_stranger_file_is_refused(tmp_path, corpus, capsys):
    """A module navlaw wrote (its marker names its files) into which someone put a file: the file would
    be lost with the module, so the build is refused rather than deleting it."""
    assert build(tmp_path, corpus) == 0
    (tmp_path / "build-fees" / "notes.txt").write_text("mine", encoding="utf-8")
    assert build(tmp_path, corpus, "--no-cache") == 2
    assert "notes.txt" in capsys.readouterr().err
    assert (tmp_path / "build-fees" / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_an_editable_install_of_the_module_keeps_its_metadata_through_a_build(tmp_path, corpus, capsys):
    """`make build` runs `pip install -e ./navlaw_fees`, which writes navlaw_fees.egg-info/ into the module,
    then `navlaw build`: the build replaced nothing ("holds what navlaw did not write"), exit 2. The
    install's metadata lives with the module: kept (carried over), with or without the marker, while a
    stranger file is still refused."""
    assert build(tmp_path, corpus) == 0
    info = tmp_path / "build-fees" / "navlaw_fees.egg-info"
    info.mkdir()
    (info / "PKG-INFO").write_text("Name: navlaw-fees\n", encoding="utf-8")
    assert build(tmp_path, corpus, "--no-cache") == 0, capsys.readouterr().err
    assert (info / "PKG-INFO").read_text(encoding="utf-8") == "Name: navlaw-fees\n"
    (tmp_path / "build-fees" / ".navlaw-wrote.json").unlink()  # an older navlaw's module, installed
    assert build(tmp_path, corpus, "--no-cache") == 0, capsys.readouterr().err
    assert (info / "PKG-INFO").is_file()


def test_outputs_an_older_navlaw_wrote_are_still_replaced(tmp_path, corpus):
    """Outputs without the marker, as an older navlaw left them (the committed navlaw_fees/), are
    recognised by their shape and replaced as before."""
    assert build(tmp_path, corpus) == 0
    for d in ("build", "build-fees"):
        (tmp_path / d / ".navlaw-wrote.json").unlink()
    (tmp_path / "build-fees" / "__pycache__").mkdir()
    assert build(tmp_path, corpus, "--no-cache") == 0
    assert (tmp_path / "build-fees" / ".navlaw-wrote.json").is_file()


def test_symlink_at_top_of_out_is_carried_over_and_listed(tmp_path, corpus, capsys):
    """A link at the top of OUT was deleted by the next build without being listed."""
    assert build(tmp_path, corpus) == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine", encoding="utf-8")
    os.symlink(elsewhere, tmp_path / "build" / "shots")
    os.symlink("no/such/target", tmp_path / "build" / "dangling")
    capsys.readouterr()
    assert build(tmp_path, corpus, "--no-cache") == 0
    said = capsys.readouterr().out
    assert "dangling (a link to no/such/target)" in said and f"shots (a link to {elsewhere})" in said
    assert os.readlink(tmp_path / "build" / "shots") == str(elsewhere)
    assert os.readlink(tmp_path / "build" / "dangling") == "no/such/target"
    assert (elsewhere / "keep.txt").read_text(encoding="utf-8") == "mine"  # never followed


# ---- 2. digest what you read -----------------------------------------------------------------------

def test_file_saved_between_digest_and_read_is_not_recorded_up_to_date(tmp_path, corpus, capsys, monkeypatch):
    """The corpus digest was taken before the files were read: a save in between recorded the digest of
    one text over the outputs of another, and after the text was put back the next build said "up to
    date" over outputs of the other text. Made deterministic by saving inside the read."""
    from navlaw.frontend import corpus as fc

    assert build(tmp_path, corpus) == 0
    target = corpus / LIS_2022
    original = target.read_bytes()
    edited = original.replace(b"Long Island Sound", b"Long Island Sound (edited)", 1)
    assert edited != original
    real_load = fc.load

    def save_then_read(path, display=None, **kw):  # the editor saves just before the front end reads
        if Path(path).name == LIS_2022:
            target.write_bytes(edited)
        return real_load(path, display, **kw)

    target.write_bytes(original + b"\n")  # a change, so the next build does not stop at "up to date"
    monkeypatch.setattr(fc, "load", save_then_read)
    capsys.readouterr()
    assert build(tmp_path, corpus) == 0
    err = capsys.readouterr().err
    assert f"{LIS_2022} changed while the build read the corpus" in err and "not recorded as up to date" in err
    monkeypatch.setattr(fc, "load", real_load)
    target.write_bytes(original + b"\n")  # back to the text the check digested
    assert build(tmp_path, corpus) == 0
    assert "up to date" not in capsys.readouterr().out  # the outputs are of the edited text: rebuilt
    tree = (tmp_path / "build" / "tree" / f"{LIS_2022}.json").read_text(encoding="utf-8")
    assert "(edited)" not in tree


def test_file_saved_after_read_during_build_is_said_and_not_recorded(tmp_path, corpus, capsys, monkeypatch):
    """A save after the front end read the file, while the build runs: said, and not recorded."""
    from navlaw.frontend import corpus as fc

    target = corpus / LIS_2022
    real_load = fc.load

    def read_then_save(path, display=None, **kw):
        got = real_load(path, display, **kw)
        if Path(path).name == LIS_2022:
            target.write_bytes(target.read_bytes() + b"\n")
        return got

    monkeypatch.setattr(fc, "load", read_then_save)
    assert build(tmp_path, corpus) == 0
    assert "changed while the build read the corpus" in capsys.readouterr().err
    monkeypatch.setattr(fc, "load", real_load)
    assert build(tmp_path, corpus) == 0
    assert "up to date" not in capsys.readouterr().out


# ---- 3. only regular files -------------------------------------------------------------------------

def test_parse_fifo_is_refused_without_waiting(tmp_path, capsys):
    """`navlaw parse FIFO` waited forever for a writer."""
    fifo = tmp_path / "law.txt"
    os.mkfifo(fifo)
    assert main(["parse", str(fifo)]) == 1
    err = capsys.readouterr().err
    assert "this is a FIFO (named pipe), not a file" in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if "error:" in line]) == 1


def test_parse_dev_zero_is_refused_not_memory_error(capsys):
    """`navlaw parse /dev/zero` read until MemoryError."""
    assert main(["parse", "/dev/zero"]) == 1
    assert "this is a character device, not a file" in capsys.readouterr().err


def test_file_over_the_size_limit_is_refused_with_the_limit(tmp_path, capsys, monkeypatch):
    from navlaw.frontend import load

    big = tmp_path / "big.txt"
    big.write_bytes(b"1. Text.\n" * 2000)
    monkeypatch.setattr(load, "MAX_BYTES", 1 << 14)
    assert main(["parse", str(big)]) == 1
    assert "the file is larger than 16,384 bytes, the most navlaw reads from one file" in capsys.readouterr().err


def test_manifest_that_is_a_fifo_is_refused(corpus, tmp_path, capsys):
    (corpus / "manifest.toml").unlink()
    os.mkfifo(corpus / "manifest.toml")
    assert build(tmp_path, corpus) == 1
    assert "manifest.toml: error: this is a FIFO (named pipe), not a file" in capsys.readouterr().err


def test_corpus_document_that_is_a_fifo_is_refused(corpus, tmp_path, capsys):
    (corpus / LIS_2022).unlink()
    os.mkfifo(corpus / LIS_2022)
    assert build(tmp_path, corpus) == 1
    err = capsys.readouterr().err
    assert f"error: '{LIS_2022}' named here is not a regular file (a directory, a FIFO or a device)" in err


# ---- 4. dates and ranges ---------------------------------------------------------------------------

def set_manifest(corpus: Path, old: str, new: str) -> None:
    m = corpus / "manifest.toml"
    text = m.read_text(encoding="utf-8")
    assert old in text
    m.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("old,new", [("effective = 2022-07-21", "effective = 0001-01-01"),
                                     ("known_from = 2002-07-01", "known_from = 0001-01-01")])
def test_manifest_date_0001_01_01_is_a_manifest_error_not_overflow(corpus, tmp_path, capsys, old, new):
    """`effective = 0001-01-01` or `known_from = 0001-01-01` raised OverflowError in build.py."""
    set_manifest(corpus, old, new)
    assert build(tmp_path, corpus, "--no-cache") == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "OverflowError" not in err
    assert f"manifest.toml:" in err and f"{new} has no day before it" in err


@pytest.mark.parametrize("old,new", [("effective = 2022-07-21", "effective = 0001-01-02"),
                                     ("effective = 2027-01-01", "effective = 9999-12-31"),
                                     ("became_law = 2022-07-21", "became_law = 9999-12-31"),
                                     ("date = 2022-07-21", "date = 9999-12-31")])
def test_manifest_dates_at_the_ends_of_the_calendar_build(corpus, tmp_path, capsys, old, new):
    """Every other date up to 9999-12-31 works: no date arithmetic overflows (changes.md compares each
    date with the day before; "N months after" an anchor past 9999 is unresolved, not an error)."""
    set_manifest(corpus, old, new)
    assert build(tmp_path, corpus, "--no-cache") == 0, capsys.readouterr().err
    assert "Traceback" not in capsys.readouterr().err


def test_inverted_known_range_is_a_manifest_error(corpus, tmp_path, capsys):
    """`known_from` after `known_until` was accepted."""
    set_manifest(corpus, "known_until = 2006-01-01", "known_until = 2001-01-01")
    assert build(tmp_path, corpus, "--no-cache") == 1
    err = capsys.readouterr().err
    line = (corpus / "manifest.toml").read_text(encoding="utf-8").splitlines().index("known_until = 2001-01-01") + 1
    assert f"manifest.toml:{line}:1: error: known_from = 2002-07-01 is not before known_until = 2001-01-01" in err


# ---- 5. serve --------------------------------------------------------------------------------------

def test_serve_with_missing_corpus_exits_1_instead_of_serving(tmp_path, capsys):
    """`navlaw serve --corpus MISSING` said the error, then served forever."""
    import threading

    from navlaw.cli import cmd_serve, make_parser

    args = make_parser().parse_args(["serve", "--corpus", str(tmp_path / "missing"), "--out", str(tmp_path / "b"),
                                     "--module", str(tmp_path / "m"), "--addr", "127.0.0.1:0"])
    stop = threading.Event()
    stop.set()  # the old code would have served until stopped: stopped at once, it returned 0
    assert cmd_serve(args, stop) == 1
    err = capsys.readouterr().err
    assert "no such corpus directory" in err and "Traceback" not in err


def test_serve_binds_before_building_so_a_taken_port_costs_no_build(tmp_path):
    """`serve` built before it bound, so a taken port was found only after a full build."""
    import socket

    from navlaw.site.serve import serve

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    built, said = [], []
    try:
        code = serve(lambda: built.append(1) or 0, CORPUS, tmp_path / "site", taken.getsockname(), say=said.append)
    finally:
        taken.close()
    assert code == 1 and built == [] and "cannot listen on" in said[0]


def test_serve_client_disconnect_is_quiet_not_a_traceback(tmp_path, capsys):
    """A request the browser abandoned printed a full BrokenPipeError traceback (97 for 100), and during a
    build it was shown on the open pages as what the build said."""
    import io
    import sys

    from navlaw.site import serve as sv

    server = sv._Server(("127.0.0.1", 0), sv._Quiet)
    try:
        real = sys.__stderr__
        sys.__stderr__ = captured = io.StringIO()  # the terminal itself
        try:
            for gone in (BrokenPipeError(32, "Broken pipe"), ConnectionResetError(104, "Connection reset by peer")):
                try:
                    raise gone
                except OSError:
                    server.handle_error(None, ("127.0.0.1", 50000))
            try:
                raise ValueError("odd")
            except ValueError:
                server.handle_error(None, ("127.0.0.1", 50000))
        finally:
            sys.__stderr__ = real
    finally:
        server.server_close()
    err = capsys.readouterr().err
    assert err == "" and "Traceback" not in captured.getvalue()  # nothing in what a build would capture
    assert captured.getvalue().splitlines() == ["navlaw serve: a request from 127.0.0.1 failed: ValueError: odd"]


def test_serve_abandoned_requests_print_no_traceback(tmp_path, capsys):
    """Real clients that reset the connection in the middle of a response."""
    import socket
    import struct
    import threading

    from navlaw.site import serve as sv

    site = tmp_path / "site"
    site.mkdir()
    (site / "big.bin").write_bytes(b"x" * (8 << 20))
    url: list[str] = []
    stop, ready = threading.Event(), threading.Event()
    t = threading.Thread(target=sv.serve, args=(lambda: 0, CORPUS, site, ("127.0.0.1", 0), 0.05),
                         kwargs={"say": lambda m: None, "stop": stop, "ready": lambda u: (url.append(u), ready.set())})
    t.start()
    try:
        assert ready.wait(600)
        port = int(url[0].rstrip("/").rsplit(":", 1)[1])
        for _ in range(20):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
            s.recv(100)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()  # a reset: the server's next write fails
    finally:
        stop.set()
        t.join(60)
    err = capsys.readouterr().err
    assert "Traceback" not in err and "BrokenPipe" not in err and "ConnectionReset" not in err


# ---- 6. numbers, fee options, tariffs on a date ----------------------------------------------------

@pytest.mark.parametrize("given", [Decimal("1E-13"), "0.0000000000001", Decimal("1.0000000000000"),
                                   "1.0000000000000", 1e-13, Decimal("300.0000000000000")])
def test_decimal_1e_13_is_refused_like_its_plain_string(given):
    """`quote(units=Decimal("1E-13"))` was accepted (the fast path skipped the places check) while
    "0.0000000000001" was refused: one number grammar, whatever the Python type."""
    from datetime import date

    import navlaw_fees as nf

    with pytest.raises(nf.FeeError, match="units has more than 12 decimal places"):
        nf.quote("sandy-hook", units=given, on=date(2026, 6, 1))


def test_count_options_take_every_type_of_number():
    """A count option (shifting) took only an int: Decimal("2") and "2" were refused while 2 worked."""
    from datetime import date
    from decimal import Decimal

    import navlaw_fees as nf

    totals = {nf.quote("hudson-upper", units=Decimal(300), on=date(2026, 6, 1), shifting=v).total
              for v in (2, "2", Decimal("2"), Decimal("2.0"), 2.0)}
    assert len(totals) == 1
    for bad in ("2.5", Decimal("2.5"), -1, "101", "two"):
        with pytest.raises(nf.FeeError, match="shifting must be True, False or a whole number"):
            nf.quote("hudson-upper", units=Decimal(300), on=date(2026, 6, 1), shifting=bad)


def test_unknown_fee_option_exits_2_listing_the_route_s_options(capsys):
    """An unknown fee option on the command line exited 1 (the module's error), not 2 (usage)."""
    assert main(["fee", "long-island-sound", "--units", "300", "--warp", "9"]) == 2
    err = capsys.readouterr().err
    assert ("unknown option '--warp' for long-island-sound; the options of long-island-sound: --miles, "
            "--detention-hours, --carried-off-days") in err


@pytest.mark.parametrize("argv,message", [
    (["--launch", "mars"], "invalid choice: 'mars'"),
    (["--miles", "3", "--miles", "4"], "--miles given 2 times; long-island-sound takes it once"),
    (["--second-pilot", "perhaps"], "expected yes or no"),
])
def test_fee_option_values_are_checked_by_the_route_s_parser(capsys, argv, message):
    route = "long-island-sound" if "--miles" in argv else "hudson-upper"
    assert main(["fee", route, "--units", "300", *argv]) == 2
    assert message in capsys.readouterr().err


def test_fee_route_help_lists_the_route_s_options(capsys):
    """`navlaw fee ROUTE --help` printed the generic help, without the route's options."""
    import navlaw_fees as nf

    assert main(["fee", "hudson-upper", "--help"]) == 0
    out = capsys.readouterr().out
    assert "options of hudson-upper:" in out and "--units N" in out
    for name, text in nf.options("hudson-upper").items():
        assert "--" + name.replace("_", "-") in out
        assert text.split()[0] in out


def test_fee_route_options_from_the_command_line_quote_as_from_python(capsys):
    import json
    from datetime import date
    from decimal import Decimal

    import navlaw_fees as nf

    assert main(["fee", "hudson-upper", "--units", "300", "--on", "2026-06-01", "--json", "--stop-hours", "6",
                 "--stop-hours", "8", "--shifting", "2", "--second-pilot", "--launch", "yonkers-pilot-station",
                 "--docking=tug"]) == 0
    got = json.loads(capsys.readouterr().out)
    q = nf.quote("hudson-upper", units=Decimal(300), on=date(2026, 6, 1), stop_hours=["6", "8"], shifting=2,
                 second_pilot=True, launch="yonkers-pilot-station", docking="tug")
    assert got["total"] == str(q.total)


def test_tariffs_on_a_date_with_nothing_in_force_says_so(capsys):
    """`navlaw tariffs --on 0001-01-01` printed nothing and exited 0."""
    assert main(["tariffs", "--on", "0001-01-01"]) == 1
    err = capsys.readouterr().err
    assert "navlaw tariffs: no tariff is in force on 0001-01-01: the earliest takes effect on " in err


# ---- 7. linear checks ------------------------------------------------------------------------------

def manifest_of_size(root: Path, kind: str, n: int) -> None:
    """A corpus of one section of ``n`` paragraphs whose manifest entry has ``n`` covers ids its text
    lacks, ``n`` fragments, or ``n`` anchors whose confidence is not one navlaw knows (each an error
    that names its line)."""
    root.mkdir()
    text = "§ 1. Fees.\n" + "".join(f"Paragraph {k} of the section.\n\n" for k in range(1, n + 1))  # line 2k
    (root / "law.txt").write_text(text, encoding="utf-8")
    head = '[[document]]\nfile = "law.txt"\nkind = "section-text"\nstatus = "in-force"\nsection = "1"\n'
    if kind == "covers":
        head += "covers = [" + ", ".join(f'"1/x{k}"' for k in range(n)) + "]\n"
    else:
        head += 'covers = ["1"]\n'
    if kind == "fragments":
        head += "".join(f'[[document.fragments]]\ncovers = "1/{k}"\nlines = [{2 * k}, {2 * k}]\n'
                        for k in range(1, n + 1))
    if kind == "anchors":
        head += "[document.anchors]\n" + "".join(f'"the date of event {k}" = {{ date = 2020-01-01, confidence = '
                                                 f'"perhaps" }}\n' for k in range(n))  # each an error
    (root / "manifest.toml").write_text(head, encoding="utf-8")


@pytest.mark.parametrize("kind", ["covers", "fragments", "anchors"])
def test_manifest_covers_check_is_linear_not_quadratic(tmp_path, kind):
    """The manifest's covers check was quadratic (64k ids: 26 s); fragments and anchors found their lines
    by searching the document's lines once each. Work at 4n over work at n, as a same-run ratio of CPU
    time (no seconds): linear is about 4, quadratic 16."""
    import time

    from navlaw.diagnostics import NavlawError
    from navlaw.frontend.corpus import compile_corpus

    def work(n: int) -> float:
        root = tmp_path / f"{kind}-{n}"
        manifest_of_size(root, kind, n)
        t = time.process_time()
        try:
            found = list(compile_corpus(root).diagnostics)
        except NavlawError as exc:  # the anchors' errors are the manifest's: raised together
            found = list(exc.diagnostics)
        took = time.process_time() - t
        errors = [d for d in found if d.severity.name == "ERROR"]
        assert len(errors) == (0 if kind == "fragments" else n), errors[:3]
        if kind == "anchors":  # each at its own line
            assert [d.line for d in errors] == list(range(8, 8 + n))
        return took

    work(200)  # warm: grammars and caches
    small, large = work(1500), work(6000)
    assert large / small < 8, (small, large)


def test_cache_stage_directory_symlink_is_refused_not_followed_and_pruned(tmp_path, corpus, capsys):
    """A cache stage directory that was a link was followed: entries written into its target, and the
    target's files ending in .sealed pruned."""
    assert build(tmp_path, corpus) == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "precious.sealed").write_bytes(b"mine")
    (elsewhere / "notes.txt").write_text("mine", encoding="utf-8")
    before = listing(elsewhere)
    stage = tmp_path / ".build-cache" / "document"
    shutil.rmtree(stage)
    os.symlink(elsewhere, stage)
    (corpus / LIS_2022).write_bytes((corpus / LIS_2022).read_bytes() + b"\n")  # not up to date: a build runs
    capsys.readouterr()
    assert build(tmp_path, corpus) == 0
    err = capsys.readouterr().err
    assert f"cache directory {stage} is a link, not the cache's own: not used" in err
    assert listing(elsewhere) == before and stage.is_symlink()


def test_site_spare_directory_symlink_is_not_followed(tmp_path, corpus, capsys):
    """The site build's spare directory in the cache, a link: not moved into the site and mirrored."""
    assert main(["build", "--corpus", str(corpus), "--out", str(tmp_path / "build"), "--module",
                 str(tmp_path / "fees")]) == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "index.html").write_text("mine", encoding="utf-8")
    spare = tmp_path / ".build-cache" / "site-spare"
    shutil.rmtree(spare, ignore_errors=True)
    os.symlink(elsewhere, spare)
    (corpus / LIS_2022).write_bytes((corpus / LIS_2022).read_bytes() + b"\n")
    assert main(["build", "--corpus", str(corpus), "--out", str(tmp_path / "build"), "--module",
                 str(tmp_path / "fees")]) == 0
    assert (elsewhere / "index.html").read_text(encoding="utf-8") == "mine" and len(list(elsewhere.iterdir())) == 1
    assert (tmp_path / "build" / "site" / "index.html").is_file()


def test_serve_rebuilds_after_a_save_during_its_first_build(tmp_path):
    """serve took its first look at the corpus after the first build: a file saved while that build ran
    was never rebuilt (the race of item 2, met by serve)."""
    import threading

    from navlaw.site.serve import serve

    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    builds: list[int] = []
    stop, second = threading.Event(), threading.Event()

    def build() -> int:
        builds.append(1)
        if len(builds) == 1:  # the editor saves while the first build runs
            (corpus / LIS_2022).write_bytes((corpus / LIS_2022).read_bytes() + b"\n")
        else:
            second.set()
        return 0

    t = threading.Thread(target=serve, args=(build, corpus, tmp_path / "site", ("127.0.0.1", 0), 0.05),
                         kwargs={"say": lambda m: None, "stop": stop})
    t.start()
    try:
        assert second.wait(600), "the save during the first build was never rebuilt"
    finally:
        stop.set()
        t.join(60)
    assert len(builds) >= 2
