"""The command line's argument types (each turns what was typed into a value or an argparse error that
says what was expected), and the arguments of the commands whose code lives outside cli.py (act check,
export, the fee command's common options, build and serve): defined here, light, so that building the parser loads no
stage; each command's code is imported when it runs."""

from __future__ import annotations

import argparse
import datetime as dt
from typing import Any, Callable


def site_url(text: str) -> str:
    """An absolute http(s) URL, ending in "/" (the site's root)."""
    from urllib.parse import urlparse
    if not text:
        return ""  # not given: the sitemap lists no addresses
    u = urlparse(text)
    if u.scheme not in ("http", "https") or not u.netloc or any(c in text for c in "\"'<> \t\n"):
        raise argparse.ArgumentTypeError(f"{text!r}: expected the site's address, e.g. https://example.org/navlaw/")
    return text if text.endswith("/") else text + "/"


def date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def fee_common(sp: argparse.ArgumentParser) -> None:
    """The options of `navlaw fee` that every route takes."""
    sp.add_argument("--units", metavar="N", help="pilotage units")
    sp.add_argument("--length", metavar="FT", help="overall length in feet")
    sp.add_argument("--breadth", metavar="FT", help="extreme breadth in feet")
    sp.add_argument("--depth", metavar="FT", help="depth to the uppermost continuous deck in feet")
    sp.add_argument("--no-measurements", action="store_true",
                    help="the vessel's measurements were not provided: the maximum pilotage charge, where the law says so")
    sp.add_argument("--on", type=date, metavar="DATE", help="date of the service (default: today)")
    sp.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    sp.add_argument("--json", action="store_true", help="the same as --format json")
    sp.add_argument("--trace", action="store_true",
                    help="show the working: each line's steps, the numbers put in, the rounding, and the words of "
                         "the law each number was read from (file:line:column), with the provision and its version")


def act_parser(sub: Any, corpus_arg: Callable[[argparse.ArgumentParser], None], compile_law: Callable[..., Any]) -> None:
    """`navlaw act check FILE... [--became-law DATE] [--corpus DIR]` (compiler/cli.py's subcommands)."""
    sp = sub.add_parser("act", help="amending acts: `navlaw act check FILE` reviews one before it is added",
                        description="Amending acts of the legislature, as printed.")
    act_sub = sp.add_subparsers(dest="act_command", required=True, metavar="ACTION")
    sp = act_sub.add_parser("check", help="review an act against the corpus before the manifest is touched",
                            description="Put each FILE (an act as printed) into a copy of the corpus with the date "
                                        "it became law and say, per instruction: the law, target and action as read, "
                                        "its effective date, whether its old text is the law in force the day before, "
                                        "the redline and the change in words; the fee changes; what is reported "
                                        "(another law's) and refused (why). Several FILEs: each on its own, then a "
                                        "table. Exit 0 only if every instruction applies or is reported.")
    sp.add_argument("files", nargs="+", metavar="FILE")
    sp.add_argument("--became-law", type=date, metavar="DATE",
                    help="the date it became law (YYYY-MM-DD): effective dates count from it (default: today, said)")
    corpus_arg(sp)
    def run(args: argparse.Namespace) -> int:
        from navlaw.report.actcheck import run as check  # where it runs: the parser loads no pipeline
        return int(check(args, compile_law))

    sp.set_defaults(func=run)


def export_parser(sub: Any) -> argparse.ArgumentParser:
    """The `navlaw export` command's arguments (the command line adds --corpus)."""
    sp: argparse.ArgumentParser = sub.add_parser(
        "export", help="the law as Akoma Ntoso 3.0 XML",
        description="Write the corpus's sections as Akoma Ntoso 3.0 (OASIS LegalDocML) XML, valid against the OASIS "
                    "schema: one <act> per section and date its text changes (DIR/SECTION/DATE.xml), or with --on, "
                    "each section as in force on DATE. DIR is replaced whole; `navlaw build` writes the same files "
                    "to OUT/akn/.")
    sp.add_argument("kind", choices=("akn",), metavar="akn", help="the format (akn: Akoma Ntoso 3.0)")
    sp.add_argument("--on", type=date, metavar="DATE", help="only the text in force on DATE (YYYY-MM-DD)")
    sp.add_argument("--out", default="akn", metavar="DIR", help="where to write (default: akn/)")
    def run(args: argparse.Namespace) -> int:
        from navlaw.build import read_law
        from navlaw.export.command import export_akn  # where it runs
        return export_akn(args.corpus, args.out, args.on, read_law)

    sp.set_defaults(func=run)
    return sp


def corpus_arg(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--corpus", default="corpus", metavar="DIR", help="corpus directory (default: corpus/)")


def outputs_arg(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--out", default="build", metavar="DIR", help="output directory (default: build/)")
    sp.add_argument("--module", default="navlaw_fees", metavar="DIR",
                    help="where to write the generated fee module (default: navlaw_fees/, the committed copy)")


def format_arg(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")


def seconds(text: str) -> float:
    value = float(text)
    if not 0 < value < 3600:
        raise argparse.ArgumentTypeError(f"{text}: expected a number of seconds between 0 and 3600")
    return value


def build_parser(sub: Any) -> argparse.ArgumentParser:
    """`navlaw build`'s arguments (compiler/cli.py sets the command)."""
    from navlaw.stages import STAGES

    sp = sub.add_parser("build", help="compile the corpus and write the outputs",
                        formatter_class=argparse.RawDescriptionHelpFormatter,
                        description="""Compile every document of the corpus (--corpus, default corpus/) and write:

  OUT/tree/FILE.json     each document's section tree (FILE: its path in the corpus)
  OUT/tariffs.json       every rate schedule and fee, typed, dated and cited
  OUT/diagnostics.json   every finding of `navlaw lint`
  OUT/changes.md         what changes on each date the law changes
  OUT/akn/SECTION/DATE.xml  each section as Akoma Ntoso 3.0, per date its text changes
  OUT/site-docs/         the site's Markdown pages
  OUT/site/              the reference site (MkDocs Material; not with --no-site) and its data
                         (api/, akn/): open OUT/site/index.html, or run `navlaw serve`
  MODULE/                the fee module navlaw_fees (__init__.py, _schedules.py,
                         _runtime.py, py.typed, pyproject.toml: `pip install MODULE`
                         installs it on its own)
  .OUT-cache/            beside OUT: the build cache (not with --no-cache)

OUT defaults to build/, MODULE to navlaw_fees/ (the committed copy). Nothing is written when the
corpus has errors; otherwise everything is written beside its target and swapped in together, under
a lock (.OUT.lock), so a failed or killed build leaves the previous outputs whole. Files at the top of
OUT that navlaw does not write (a note, screenshots/) are carried over. An output that is, holds or is
inside the corpus is refused (exit 2).""")
    corpus_arg(sp)
    outputs_arg(sp)
    sp.add_argument("--no-site", action="store_true", help="skip the MkDocs site (trees, tariffs and module only)")
    sp.add_argument("--site-url", default="", metavar="URL", type=site_url,
                    help="the address the site will be served at (https://…/): fills the sitemap and canonical links")
    sp.add_argument("--on", type=date, metavar="DATE",
                    help="the site's date (YYYY-MM-DD; default today): law pages show the law in force on DATE, "
                         "older and later texts are on the history pages")
    sp.add_argument("--dump", choices=STAGES, metavar="STAGE",
                    help=f"run the pipeline up to STAGE and print its result as JSON, writing nothing "
                         f"({', '.join(STAGES)})")
    sp.add_argument("--no-cache", action="store_true",
                    help="compile and render everything afresh (the cache, .OUT-cache/ beside --out, is neither "
                         "read nor written)")
    made: argparse.ArgumentParser = sp
    return made


def serve_parser(sub: Any) -> argparse.ArgumentParser:
    """`navlaw serve`'s arguments (compiler/cli.py sets the command)."""
    sp = sub.add_parser("serve", help="build, serve the site, rebuild it when the corpus changes",
                        description="Run `navlaw build` (with its cache), serve OUT/site over HTTP, and rebuild "
                                    "whenever a file of the corpus changes; a failed rebuild leaves the last "
                                    "good site served.")
    corpus_arg(sp)
    outputs_arg(sp)
    sp.add_argument("--addr", default="127.0.0.1:8000", metavar="HOST:PORT")
    sp.add_argument("--interval", type=seconds, default=1.0, metavar="S",
                    help="how often to look for changes in the corpus, in seconds (default: 1)")
    made: argparse.ArgumentParser = sp
    return made
