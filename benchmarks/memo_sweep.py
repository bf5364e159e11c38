"""Adversarial sweep of the incremental memos (issue 32): chained, seeded random edits of a copy of the corpus;
after each, an incremental build (in this process, as `navlaw serve` builds, or in a fresh process with the
cache) must write byte for byte what a `--no-cache` build of the same corpus writes (OUT, the site when
asked, the fee module), or fail with the same exit code and the same diagnostics.

    python benchmarks/memo_sweep.py ROUNDS [--seed N] [--site] [--fresh] [--keep DIR]

Edits (EDITS): same-length digit and word swaps (amounts, dates, number words), a space moved within a line
(columns only), a blank line inserted or removed above many sections, a heading changed, two sections
swapped, a section renumbered, a cross-reference changed, a defined term changed, a line that makes a
section unreadable (the next round most often goes back to the last readable corpus: the diagnostics must
go), manifest dates, statuses, strings, reading keys (list numbering, a lost label, covers) and the order of
its documents, a small file renamed (and back), other --on/--site-url options, raw changes that normalising
undoes (a mojibake section sign, a no-break space, a dotted leader's length, CRLF, tabs), and a return to
any earlier state of the corpus (A -> B -> A). A traceback in both builds is reported and the sweep goes on.

Prints each round's edit and, for a difference, the files that differ (and stops, keeping the corpus of the
round under DIR so that the edit can be replayed). Exit 1 when a difference was found.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TEXTS = ["nav-law.consolidated.txt", "088.fragments.2022.txt", "089-a.4-7-8.txt", "089-b.2022.txt",
         "21nycrr-55.2.proposed-2016.txt", "A8982A-2024.md"]
SWAPS = [("five", "nine"), ("four", "five"), ("one", "six"), ("ten", "six"), ("two", "six"), ("2027", "2028"),
         ("2022", "2023"), ("hundred", "hundred"), ("seven", "eight"), ("first", "fifth"), ("shall", "shall"),
         ("January", "February"), ("cents", "cents"), ("thirty", "twenty"), ("vessel", "vessel")]
CRASH = 99  # a traceback (not a memo's fault when a clean build has it too: reported, the sweep goes on)
Edit = Callable[[dict[str, str], random.Random], str]


def _line(text: str, rng: random.Random) -> tuple[int, int]:
    at = rng.randrange(len(text))
    a = text.rfind("\n", 0, at) + 1
    b = text.find("\n", at)
    return a, b if b >= 0 else len(text)


def _pick(files: dict[str, str], rng: random.Random, heavy: bool = False) -> str:
    texts = sorted(n for n in files if n != "manifest.toml")
    return "nav-law.consolidated.txt" if heavy and rng.random() < 0.5 else rng.choice(texts)


def digit(files: dict[str, str], rng: random.Random) -> str:
    name = _pick(files, rng)
    text = files[name]
    at = [m.start() for m in re.finditer(r"\d", text)]
    k = rng.choice(at)
    files[name] = text[:k] + str((int(text[k]) + rng.randrange(1, 10)) % 10) + text[k + 1:]
    return f"{name}: digit at {k}"


def word(files: dict[str, str], rng: random.Random) -> str:
    name = _pick(files, rng)
    text = files[name]
    old, new = rng.choice(SWAPS)
    if rng.random() < 0.5:
        old, new = new, old
    hits = [m.start() for m in re.finditer(rf"\b{old}\b", text)]
    if not hits:
        return digit(files, rng)
    k = rng.choice(hits)
    if old == new:  # a same-length change of another word of the line
        new = old[::-1] if old[::-1] != old else old.upper()
    files[name] = text[:k] + new + text[k + len(old):]
    return f"{name}: {old!r} -> {new!r} at {k}"


def columns(files: dict[str, str], rng: random.Random) -> str:
    """Only columns change: a space moves from one place of a line to an earlier one."""
    name = _pick(files, rng)
    text = files[name]
    a, b = _line(text, rng)
    spaces = [m.start() for m in re.finditer(" ", text[a:b])]
    if len(spaces) < 2:
        return word(files, rng)
    i, j = sorted(rng.sample(spaces, 2))
    line = text[a:b]
    line = line[:j] + line[j + 1:]
    line = line[:i] + " " + line[i:]
    files[name] = text[:a] + line + text[b:]
    return f"{name}: a space of line at {a} moved"


def lines(files: dict[str, str], rng: random.Random) -> str:
    """A blank line inserted or removed above many sections."""
    name = _pick(files, rng, heavy=True)
    text = files[name]
    nl = "\\n" if name.startswith("089-b") else "\n"
    blanks = [m.start() for m in re.finditer(re.escape(nl + nl), text)][:20]
    if blanks and rng.random() < 0.5:
        k = rng.choice(blanks)
        files[name] = text[:k] + text[k + len(nl):]
        return f"{name}: blank line removed at {k}"
    k = text.find(nl, rng.randrange(max(1, len(text) // 5))) + len(nl)
    files[name] = text[:k] + nl + text[k:]
    return f"{name}: blank line inserted at {k}"


def heading(files: dict[str, str], rng: random.Random) -> str:
    name = "nav-law.consolidated.txt"
    text = files[name]
    heads = [m for m in re.finditer(r"^ｧ [0-9a-z-]+\. (\w+)", text, re.M)]
    m = rng.choice(heads)
    files[name] = text[:m.start(1)] + m.group(1)[::-1].capitalize() + text[m.end(1):]
    return f"{name}: heading {m.group(0)!r} reversed"


def _sections(text: str) -> list[tuple[int, int]]:
    starts = [m.start() for m in re.finditer(r"^ｧ ", text, re.M)]
    return [(s, e) for s, e in zip(starts, starts[1:] + [len(text)])
            if "Article" not in text[s:e] and "ARTICLE" not in text[s:e]]


def move(files: dict[str, str], rng: random.Random) -> str:
    """Two neighbouring sections (of one article) change places."""
    name = "nav-law.consolidated.txt"
    text = files[name]
    secs = _sections(text)
    pairs = [(x, y) for x, y in zip(secs, secs[1:]) if x[1] == y[0]]
    (a, _), (b, c) = rng.choice(pairs)
    files[name] = text[:a] + text[b:c] + text[a:b] + text[c:]
    return f"{name}: sections at {a} and {b} swapped"


def renumber(files: dict[str, str], rng: random.Random) -> str:
    name = "nav-law.consolidated.txt"
    text = files[name]
    heads = list(re.finditer(r"^ｧ ([0-9]+)([a-z-]*)\.", text, re.M))
    m = rng.choice(heads)
    new = m.group(1) + (m.group(2) + "-z" if not m.group(2) else m.group(2) + "z")
    files[name] = text[:m.start(1)] + new + text[m.end(2):]
    return f"{name}: § {m.group(1)}{m.group(2)} renumbered § {new}"


def reference(files: dict[str, str], rng: random.Random) -> str:
    name = "nav-law.consolidated.txt"
    text = files[name]
    refs = list(re.finditer(r"\bsection ([0-9]+)\b", text))
    m = rng.choice(refs)
    new = str(rng.choice([12, 14, 2, 31, 88, 46, 72]))
    files[name] = text[:m.start(1)] + new + text[m.end(1):]
    return f"{name}: 'section {m.group(1)}' -> 'section {new}' at {m.start()}"


def term(files: dict[str, str], rng: random.Random) -> str:
    name = "nav-law.consolidated.txt"
    text = files[name]
    terms = list(re.finditer(r'"([a-z][a-z ]{2,30})"', text))
    m = rng.choice(terms)
    t = m.group(1)
    new = t[:-1] + ("x" if t[-1] != "x" else "y")
    files[name] = text[:m.start(1)] + new + text[m.end(1):]
    return f"{name}: defined term {t!r} -> {new!r}"


def unreadable(files: dict[str, str], rng: random.Random) -> str:
    """A line that makes a section unreadable (the next edits may make it readable again)."""
    name = _pick(files, rng)
    text = files[name]
    nl = "\\n" if name.startswith("089-b") else "\n"
    k = text.find(nl, rng.randrange(len(text) // 2)) + len(nl)
    files[name] = text[:k] + rng.choice(["(b)(b) 3.", "ｧ ", "  (zz) ", "1. 1. (", "$1..00 per foot"]) + nl + text[k:]
    return f"{name}: unreadable line inserted at {k}"


def manifest(files: dict[str, str], rng: random.Random) -> str:
    text = files["manifest.toml"]
    dates = list(re.finditer(r"\b(20[0-9]{2})-([0-9]{2})-([0-9]{2})\b", text))
    if rng.random() < 0.3:
        stats = list(re.finditer(r'status = "(in-force|superseded|proposed|enacted|pending)"', text))
        if stats:
            m = rng.choice(stats)
            new = rng.choice(["in-force", "superseded", "proposed"])
            files["manifest.toml"] = text[:m.start(1)] + new + text[m.end(1):]
            return f"manifest: status {m.group(1)} -> {new} at {m.start()}"
    m = rng.choice(dates)
    new = f"{int(m.group(1)) + rng.choice([-1, 1])}-{m.group(2)}-{m.group(3)}"
    files["manifest.toml"] = text[:m.start()] + new + text[m.end():]
    return f"manifest: date {m.group(0)} -> {new} at {m.start()}"


def rename(files: dict[str, str], rng: random.Random) -> str:
    """A small file renamed (and the manifest with it), or renamed back."""
    old = rng.choice([n for n in files if n not in ("manifest.toml", "nav-law.consolidated.txt")])
    stem, dot, ext = old.rpartition(".")
    new = stem[:-len(".renamed")] + dot + ext if stem.endswith(".renamed") else stem + ".renamed" + dot + ext
    files[new] = files.pop(old)
    files["manifest.toml"] = files["manifest.toml"].replace(f'file = "{old}"', f'file = "{new}"')
    return f"{old} renamed {new}"


def manifest_text(files: dict[str, str], rng: random.Random) -> str:
    """A same-length change of a word of the manifest's strings (a route's title, an option's help, a source,
    a fragment's text, the law's name, a selector)."""
    text = files["manifest.toml"]
    strings = [m for m in re.finditer(r'^(\w+) = (?:\[)?"([^"]+)"', text, re.M)
               if m.group(1) not in ("file", "received_as", "id", "kind", "status", "confidence", "family", "name")
               or (m.group(1) == "name" and " " in m.group(2))]
    m = rng.choice(strings)
    words = list(re.finditer(r"[A-Za-z]{3,}", m.group(2)))
    if not words:
        return manifest(files, rng)
    w = rng.choice(words)
    at = m.start(2) + w.start()
    new = w.group(0)[::-1] if w.group(0)[::-1] != w.group(0) else w.group(0).upper()
    files["manifest.toml"] = text[:at] + new + text[at + len(new):]
    return f"manifest: {m.group(1)} {w.group(0)!r} -> {new!r} at {at}"


def manifest_keys(files: dict[str, str], rng: random.Random) -> str:
    """A manifest key that changes how a text is read: its list numbering, a lost label, a covered part."""
    text = files["manifest.toml"]
    choices = [(m.start(1), m.group(1), {"real": "artifact", "artifact": "real"}[m.group(1)])
               for m in re.finditer(r'list_numbering = "(real|artifact)"', text)]
    choices += [(m.start(), m.group(0), "# " + m.group(0)) for m in re.finditer(r'^"88/4/b/ii" = .*$', text, re.M)]
    choices += [(m.start(), m.group(0), m.group(0)[2:]) for m in re.finditer(r'^# "88/4/b/ii" = .*$', text, re.M)]
    choices += [(m.start(1), m.group(1), m.group(1) + ', "89-a/9"') for m in re.finditer(r'covers = \[("89-a/4")', text)]
    at, old, new = rng.choice(choices)
    files["manifest.toml"] = text[:at] + new + text[at + len(old):]
    return f"manifest: {old!r} -> {new!r}"


def raw(files: dict[str, str], rng: random.Random) -> str:
    """A change of the raw text that normalising undoes (frontend/normalize.py): a mojibake section sign for a
    true one or back, a no-break space, a longer or shorter dotted leader, CRLF line ends, a run of tabs."""
    name = _pick(files, rng)
    text = files[name]
    kind = rng.choice(["sign", "nbsp", "leader", "crlf", "tabs"])
    if kind == "sign" and ("ｧ" in text or "§" in text):
        signs = [m.start() for m in re.finditer("[ｧ§]", text)]
        k = rng.choice(signs)
        files[name] = text[:k] + ("§" if text[k] == "ｧ" else "ｧ") + text[k + 1:]
    elif kind == "leader" and "....." in text:
        m = rng.choice(list(re.finditer(r"\.{5,}", text)))
        n = max(5, len(m.group(0)) + rng.choice([-3, -1, 1, 7]))
        files[name] = text[:m.start()] + "." * n + text[m.end():]
    elif kind == "crlf":
        files[name] = text.replace("\r\n", "\n") if "\r\n" in text else text.replace("\n", "\r\n")
    elif kind == "tabs" and "\t" in text:
        k = rng.choice([m.start() for m in re.finditer("\t", text)])
        files[name] = text[:k] + "\t\t" + text[k + 1:]
    else:
        kind = "nbsp"
        a, b = _line(text, rng)
        spaces = [a + m.start() for m in re.finditer(" ", text[a:b])]
        if not spaces:
            return word(files, rng)
        k = rng.choice(spaces)
        files[name] = text[:k] + "\u00a0" + text[k + 1:]
    return f"{name}: raw {kind}"


def reorder(files: dict[str, str], rng: random.Random) -> str:
    """Two neighbouring [[document]] entries of the manifest change places (the order the texts came in)."""
    text = files["manifest.toml"]
    starts = [m.start() + 1 for m in re.finditer(r"\n\[\[document\]\]\n", text)]
    k = rng.randrange(len(starts) - 2)
    a, b, c = starts[k], starts[k + 1], starts[k + 2]
    files["manifest.toml"] = text[:a] + text[b:c] + text[a:b] + text[c:]
    return f"manifest: documents {k} and {k + 1} swapped"


OPTIONS: list[str] = []  # the build's options (both builds'): the site's date and address change too


def options(files: dict[str, str], rng: random.Random) -> str:
    """Another --on date or --site-url for the next builds (the corpus unchanged)."""
    OPTIONS.clear()
    on = rng.choice([None, "2006-01-01", "2022-07-21", "2026-12-31", "2027-01-01", "2028-06-30"])
    url = rng.choice([None, "https://a.example/", "https://b.example/navlaw/"])
    OPTIONS.extend((["--on", on] if on else []) + (["--site-url", url] if url else []))
    return f"options {OPTIONS}"


def revert(files: dict[str, str], rng: random.Random, history: list[dict[str, str]] | None = None) -> str:
    """Back to an earlier state of the corpus (A -> B -> A): the memo of A's era may be reused."""
    assert history is not None
    k = rng.randrange(len(history))
    files.clear()
    files.update(history[k])
    return f"reverted to the corpus after round {k}"


EDITS: list[Edit] = [digit, word, word, columns, lines, heading, move, renumber, reference, term, unreadable,
                     manifest, manifest_text, manifest_keys, rename,
                     options, raw, raw, reorder]


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _norm(text: str, work: Path) -> str:
    return re.sub(r"\d+\.\d+ s\b", "T s", text.replace(str(work), "WORK"))


def _build_args(work: Path, name: str, site: bool, *extra: str) -> list[str]:
    return ["build", "--corpus", str(work / "corpus"), "--out", str(work / name), "--module",
            str(work / f"{name}-fees"), *([] if site else ["--no-site"]), *OPTIONS, *extra]


def _in_process(args: list[str]) -> tuple[int, str]:
    from navlaw.cli import main
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = main(args)
    except Exception as e:  # a crash: the same as a clean build's?
        return CRASH, f"{type(e).__name__}: {e}"
    return rc, err.getvalue()


def _fresh(args: list[str]) -> tuple[int, str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))  # this process's navlaw
    done = subprocess.run([sys.executable, "-m", "navlaw", *args], capture_output=True, text=True, env=env)
    if "Traceback (most recent call last)" in done.stderr:
        return CRASH, done.stderr.strip().splitlines()[-1]
    return done.returncode, done.stderr


def differences(work: Path, site: bool) -> list[str]:
    """What differs between the incremental build and a clean build of the same corpus."""
    found: list[str] = []
    for name in ("build", "build-fees"):
        a, b = _tree(work / name), _tree(work / name.replace("build", "clean"))
        skip = {"CHANGES", "README.md"} if name.endswith("fees") else set()
        found += [f"{name}/{k}" for k in sorted(set(a) | set(b)) if k not in skip and a.get(k) != b.get(k)]
    return found


def sweep(rounds: int, seed: int, site: bool, fresh: bool, keep: Path | None) -> int:
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="memo-sweep-"))
    shutil.copytree(ROOT / "corpus", work / "corpus")
    names = TEXTS + ["manifest.toml"]
    files = {n: (work / "corpus" / n).read_bytes().decode("utf-8") for n in names}
    history = [dict(files)]
    incremental = _fresh if fresh else _in_process
    rc, err = incremental(_build_args(work, "build", site))
    assert rc == 0, err
    good, failed = [dict(files)], False
    for r in range(1, rounds + 1):
        if failed and rng.random() < 0.8:  # readable again: the diagnostics must go
            files.clear()
            files.update(good[-1])
            what = "back to the last readable corpus"
        else:
            edit = rng.choice(EDITS + [revert])
            what = edit(files, rng, history) if edit is revert else edit(files, rng)  # type: ignore[call-arg]
        history.append(dict(files))
        for path in (work / "corpus").iterdir():
            if path.name not in files:
                path.unlink()
        for n, text in files.items():
            path = work / "corpus" / n
            if not path.exists() or path.read_bytes().decode("utf-8") != text:
                path.write_bytes(text.encode("utf-8"))
        rc, err = incremental(_build_args(work, "build", site))
        shutil.rmtree(work / "clean", ignore_errors=True)
        shutil.rmtree(work / "clean-fees", ignore_errors=True)
        crc, cerr = _fresh(_build_args(work, "clean", site, "--no-cache"))
        diff = [f"exit {rc} != clean exit {crc}"] if rc != crc else []
        if _norm(err, work).replace("/build", "/OUT") != _norm(cerr, work).replace("/clean", "/OUT"):
            diff.append("stderr differs:\n--- incremental\n" + err[-1500:] + "\n--- clean\n" + cerr[-1500:])
        if rc == 0 and crc == 0:
            diff += differences(work, site)
        if rc == crc == CRASH:
            print(f"  CRASH in both builds: {err}")
        failed = rc != 0
        if not failed:
            good.append(dict(files))
        print(f"round {r}: {what}: exit {rc}{'' if not diff else ' DIFFERS'}", flush=True)
        if diff:
            print("\n".join(diff[:40]))
            if keep:
                shutil.rmtree(keep, ignore_errors=True)
                shutil.copytree(work, keep)
                print(f"kept in {keep}")
            return 1
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("rounds", type=int)
    p.add_argument("--seed", type=int, default=32)
    p.add_argument("--site", action="store_true")
    p.add_argument("--fresh", action="store_true", help="incremental builds in a fresh process each")
    p.add_argument("--keep", type=Path)
    a = p.parse_args()
    sys.exit(sweep(a.rounds, a.seed, a.site, a.fresh, a.keep))
