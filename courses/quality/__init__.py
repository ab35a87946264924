"""
Course quality: the item-writing checker, learning objectives with their Bloom levels, and the
readability of lessons, reported as a pure, deterministic function of a course document and, for a
course built from documents, the sections of their body (`report_for`), so any version of a course
gets the same report every time.

- `rules`: every rule (code, severity, version) and the checks of questions and quizzes;
- `bloom`: our verb tables per language;
- `readability`: reading ease per language, offline;
- `words`, `grammar`: the language-specific word lists and grammatical cues the rules use;
- `coverage`: which of its sources' sections a course built from documents draws on;
- `report`: the whole report of one course document.
"""

from courses.quality.report import QualityReport, report_for, report_for_document
from courses.quality.rules import RULES, RULES_VERSION, SEVERITIES, Finding

__all__ = [
    "RULES",
    "RULES_VERSION",
    "SEVERITIES",
    "Finding",
    "QualityReport",
    "report_for",
    "report_for_document",
]
