"""How spreadsheets read a CSV: in its cells, or in pieces of them where they split a cell at a separator."""

import csv
import io

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def formulas(document: str) -> list[str]:
    """
    Every cell a spreadsheet would run as a formula, the CSV read with `,`, `;` (Excel in German,
    French, Spanish or Portuguese) or a tab as the separator: Python's reader, like some spreadsheets,
    splits a quoted cell at the separator once it has read past a quote.
    """
    found = []
    for separator in (",", ";", "\t"):
        for row in csv.reader(io.StringIO(document, newline=""), delimiter=separator):
            found += [cell for cell in row if cell.lstrip(" ").startswith(FORMULA_STARTS)]
    return found
