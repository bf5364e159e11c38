"""`navlaw tariffs` as text: each schedule with its route, citation, dates, status, brackets and notes."""

from __future__ import annotations

from decimal import Decimal

from navlaw.model.tariffs import Amount, AnyTariff, BracketSchedule, amounts


def _when(t: AnyTariff) -> str:
    e = t.effective
    if e.start_basis == "with":
        return "with its text"
    start = e.start.isoformat() if e.start else "unresolved"
    end = e.end.isoformat() if e.end else ("unresolved" if e.end_basis == "unresolved" else "")
    return f"{start} – {end}" if end else f"from {start}"


def tariff_text(t: AnyTariff) -> list[str]:
    out = [f"{t.route or '-':18} {t.citation:42} {_when(t):26} {t.status:10} {t.title}"]
    if isinstance(t, BracketSchedule):
        for b in t.brackets:
            out.append(f"    {b.written:48} {b.formula_written}")
        if t.min_units or t.max_units:
            out.append(f"    units clamped to [{t.min_units.value if t.min_units else 0}, "
                       f"{t.max_units.value if t.max_units else '∞'}]")
    else:
        vals = ", ".join(f"{a.value}" for a in amounts(t) if a.source.text)
        if vals:
            out.append(f"    amounts: {vals}")
    if t.effective.start_basis == "unresolved":
        out.append(f"    date: {t.effective.start_phrase}")
    if t.effective.start_from is not None:  # a start known only between bounds: both sides of it are said
        out.append(f"    date: in force from a day {t.effective.start_words()}, certainly from {t.effective.start} "
                   f"({t.effective.uncertain})")
    if t.effective.end_from is not None:
        out.append(f"    date: may have ended from {t.effective.end_from}; certainly ended on {t.effective.end}")
    if t.effective.act:
        out.append(f"    text: as amended by {t.effective.act}")
    for n in t.notes:
        out.append(f"    note: {n}")
    return out


def stated(t: AnyTariff, amount: Amount | None) -> Decimal:
    """The value of an amount the tariff's kind always states (a percentage's percent, a fee's rate or
    amount): every tariff form reads one, so a tariff without it is a fault of that form, said here."""
    if amount is None:
        raise ValueError(f"{t.citation}: the {t.kind} tariff {t.id} states no amount (read from {t.file}): "
                         "a fault of the tariff form that read it")
    return amount.value
