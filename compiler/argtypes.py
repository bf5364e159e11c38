"""The command line's argument types (each turns what was typed into a value or an argparse error that
says what was expected), and the arguments of the commands whose code lives outside cli.py (act check,
export, the fee command's common options): defined here, light, so that building the parser loads no
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
        from navlaw.export.command import export_akn  # where it runs
        return export_akn(args.corpus, args.out, args.on)

    sp.set_defaults(func=run)
    return sp
