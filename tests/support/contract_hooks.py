"""
Hooks for `schemathesis run` (tests/api/test_contract.py loads them with SCHEMATHESIS_HOOKS).

The upload's `file` part names the kinds of document the service reads (its `encoding.contentType`);
JSON Schema cannot say what makes bytes a PDF, so these strategies give schemathesis real files of
each kind to send, as a client would. Everything else is generated from the document alone.
"""

import html
import io

import docx
import pptx
import schemathesis
from fpdf import FPDF
from hypothesis import strategies as st

# Text a person could write: no control characters, not only blanks.
_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=200).filter(str.strip)


def _pdf(title: str) -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(0, 10, title)
    return bytes(pdf.output())


def _docx(title: str) -> bytes:
    document = docx.Document()
    document.add_heading(title, level=1)
    document.add_paragraph("Generated for the contract test.")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def _pptx(title: str) -> bytes:
    presentation = pptx.Presentation()
    presentation.slides.add_slide(presentation.slide_layouts[0]).shapes.title.text = title
    out = io.BytesIO()
    presentation.save(out)
    return out.getvalue()


_TITLES = ["Onboarding", "Safety rules", "Política de viagens"]
schemathesis.openapi.media_type("application/pdf", st.sampled_from([_pdf(title) for title in _TITLES[:2]]))
schemathesis.openapi.media_type(
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    st.sampled_from([_docx(title) for title in _TITLES]),
)
schemathesis.openapi.media_type(
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    st.sampled_from([_pptx(title) for title in _TITLES]),
)
schemathesis.openapi.media_type("text/plain", _TEXT.map(lambda text: ("Note: " + text).encode("utf-8")))
schemathesis.openapi.media_type("text/markdown", _TEXT.map(lambda text: f"# {text}\n\nBody.\n".encode()))
schemathesis.openapi.media_type(
    "text/html",
    _TEXT.map(lambda text: f"<!doctype html><title>{html.escape(text)}</title><p>{html.escape(text)}</p>".encode()),
)
