"""Reports for people: the change report (what changes on which date, with fees in words)."""
