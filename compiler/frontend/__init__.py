"""The front end: bytes -> decoded, normalized text -> classified lines -> section trees; the manifest.

The façade is ``corpus.py`` (compile_file, compile_text, compile_corpus); the stages, in order:
load.py (decode), normalize.py, parse.py (grammar/statute.lark) with labels.py, tree.py; manifest.py
reads corpus/manifest.toml; acts.py reads amending acts.
The tree's nodes, the table of codes and numbers in words are navlaw.model's.
"""
