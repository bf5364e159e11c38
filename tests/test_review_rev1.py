"""Findings of the review of #25, #28 and #29 as merged: an amending act checked and built as legal staff would."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from compiler.cli import main

from .conftest import CORPUS, ROOT

OUTSIDE = ROOT.parent / "shared" / "outside"
ACT = OUTSIDE / "nylg.2023-A3380.md"  # one instruction for the Navigation Law, applies to the corpus


def test_act_check_with_a_fifo_and_a_link_loop_in_the_corpus_reviews_the_act(tmp_path, capsys):
    """A FIFO and a link back up the tree in the corpus folder (neither listed: a build never reads them) made
    `act check` crash with a shutil.Error traceback while copying the corpus; now they are left out of the copy."""
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    os.mkfifo(corpus / "stray.fifo")
    (corpus / "loop").symlink_to(corpus)
    code = main(["act", "check", str(ACT), "--became-law", "2024-06-01", "--corpus", str(corpus)])
    out = capsys.readouterr().out
    assert code == 0
    assert "1 instruction(s) read: 1 applies, 0 reported, 0 refused — the act can be added to the corpus" in out


def test_act_check_of_a_directory_or_fifo_says_what_it_is(tmp_path, capsys):
    """`act check DIR` or `act check FIFO` said 'no such file' of a path that exists."""
    fifo = tmp_path / "act.fifo"
    os.mkfifo(fifo)
    assert main(["act", "check", str(tmp_path), "--corpus", str(CORPUS)]) == 1
    assert f"navlaw act check: {tmp_path}: a directory; give the act's file as printed" in capsys.readouterr().err
    assert main(["act", "check", str(fifo), "--corpus", str(CORPUS)]) == 1
    assert f"{fifo}: not a regular file" in capsys.readouterr().err
