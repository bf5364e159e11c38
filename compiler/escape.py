"""The one escaping rule for text from the corpus on its way into the site's Markdown and HTML.

Every string that comes from the corpus — headings, law text, table cells, file names, manifest
fields, notes, definitions — goes through ``text()`` before it reaches a page, whatever the context:

1. ``& < > " '`` become character references, so no element or attribute can be opened, in element
   content or in a quoted attribute value (HTML);
2. the characters that carry meaning in Markdown or its extensions wherever they stand —
   `` \\ ` * _ { } [ ] # | ! ~ ^ `` — become numeric character references, so a heading cannot end
   in an ``attr_list`` (``{: onclick=… }``) or an id, emphasis, code, links or images cannot be made,
   and ATX closing hashes cannot eat text (Markdown);
3. line breaks and other white space runs become one space, so a heading stays one line and no line
   of corpus text can start a Markdown block (a heading, a list, a fence, ``--8<--`` snippets).

A browser shows exactly the original characters; Markdown passes character references through
untouched, in raw HTML blocks and inline alike. ``script_json`` makes data safe inside ``<script>``.
"""

from __future__ import annotations

import json
import re

_MARKDOWN = {c: f"&#{ord(c)};" for c in "\\`*_{}[]#|!~^"}
_TABLE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;", **_MARKDOWN})
_SPACE = re.compile(r"\s+")


def text(value: object) -> str:
    """``value`` as text that shows as itself in HTML and in Markdown, and does nothing else."""
    return _SPACE.sub(" ", str(value)).translate(_TABLE)


def block(value: object) -> str:
    """Like ``text`` but keeping line breaks (for ``<pre>``): each line escaped, newlines kept."""
    return "\n".join(_SPACE.sub(" ", line).translate(_TABLE) for line in str(value).split("\n"))


def script_json(value: object) -> str:
    """JSON that cannot end the ``<script>`` element it is written into (nor open a comment)."""
    return (json.dumps(value, sort_keys=True, ensure_ascii=False)
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
