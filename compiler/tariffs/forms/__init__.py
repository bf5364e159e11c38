"""The tariff forms: one module per form of words the law prices in, each read wherever it occurs.

A form module has ``read(ctx, route, node)``: the tariffs one provision states in that form (and, for
the unit clamps, ``("minimum"|"maximum", Amount)`` facts about the route). ``PRICED`` are read in the
sections a route of the manifest's [[route]] table lists, in this order; ``UNPRICED`` elsewhere;
``LATE`` forms' tariffs are listed after the rest of the document's. Rate tables are read per
document (table.py). A new form is a new module here and a line in a list below.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from navlaw.tariffs.forms import (calculated_fee, penalties, per_unit, percent_of_base, prose_fees, rates_in_words,
                                    second_pilot, surcharge, time_fees)

Form = Callable[..., Iterator[Any]]

PRICED: tuple[Form, ...] = (percent_of_base.read, calculated_fee.read, per_unit.read, second_pilot.read,
                            surcharge.read, rates_in_words.read, time_fees.read, penalties.read)
UNPRICED: tuple[Form, ...] = (prose_fees.read, penalties.read)
LATE: tuple[Form, ...] = (rates_in_words.read,)  # after the rest: the clamps they take may follow them
