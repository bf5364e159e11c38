"""navlaw: a compiler from New York statute text to a reference site and a fee-calculator module."""

__version__ = "0.1.0"
