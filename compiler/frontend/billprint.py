"""The bill print's reading lives in compiler/frontend/formats/bill.py (one module per input format);
these names are kept for the modules that read an act's print."""

from navlaw.frontend.formats.bill import PrintLine, clean, furniture

__all__ = ["PrintLine", "clean", "furniture"]
