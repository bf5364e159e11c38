"""The model: the types every stage shares, below all of them — tree nodes (nodes.py), the table of codes
and how citations are made (codes.py), numbers, money and dates in words (numbers.py), fee formulas
(formula.py), tariffs (tariffs.py), a node's content less its place in the file (content.py), normalised text with its offset map back to the raw file (text.py),
and how the model's two small grammars become parsers (parsers.py).

The model imports nothing else of navlaw (tests/test_architecture.py checks it): a stage imports its
shared types from here, never from another stage.
"""
