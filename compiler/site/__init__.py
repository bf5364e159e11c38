"""The reference site: pages (Jinja2 -> Markdown), the MkDocs build, and `navlaw serve`."""
