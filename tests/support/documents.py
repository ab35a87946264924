"""
Documents the tests read, built here from scratch: PDFs with fpdf2 (with and without bookmarks),
Word files with python-docx, slide decks with python-pptx, HTML and Markdown, and hostile files.
"""

import io
import struct
import zipfile
import zlib

import docx
import pptx
from fpdf import FPDF
from PIL import Image
from pptx.util import Inches

LOREM = (
    "Every employee completes the training before handling customer data. Managers review access rights "
    "each quarter and remove what is no longer needed. Incidents are reported to the privacy office within "
    "one day, with what happened, when, and who was affected."
)


def paragraph(words: int, seed: int = 0) -> str:
    vocabulary = LOREM.replace(".", "").replace(",", "").split()
    picked = [vocabulary[(seed * 7 + index * 13) % len(vocabulary)] for index in range(words)]
    return " ".join(picked).capitalize() + "."


def pdf_with_bookmarks(chapters: int = 3, pages_per_chapter: int = 2, paragraphs: int = 3) -> bytes:
    """Chapters (level 1) of sections (level 2), each section on its own page, with bookmarks."""
    pdf = FPDF()
    pdf.set_title("Data protection handbook")
    for chapter in range(1, chapters + 1):
        for section in range(1, pages_per_chapter + 1):
            pdf.add_page()
            if section == 1:
                pdf.set_font("helvetica", "B", 20)
                pdf.start_section(f"Chapter {chapter}: Principles part {chapter}", level=0)
                pdf.cell(0, 12, f"Chapter {chapter}: Principles part {chapter}", new_x="LMARGIN", new_y="NEXT")
            pdf.set_font("helvetica", "B", 14)
            pdf.start_section(f"Rule {chapter}.{section} in practice", level=1)
            pdf.cell(0, 10, f"Rule {chapter}.{section} in practice", new_x="LMARGIN", new_y="NEXT")
            pdf.set_font("helvetica", size=11)
            for index in range(paragraphs):
                pdf.multi_cell(0, 5, paragraph(70, seed=chapter * 10 + section + index), new_x="LMARGIN", new_y="NEXT")
                pdf.ln(4)
    return bytes(pdf.output())


class _PdfWithRunningLines(FPDF):
    """Every page has a running header and a page number in its footer, in small type."""

    def header(self):
        self.set_font("helvetica", size=8)
        self.cell(0, 6, "Acme Logistics - internal use only", new_x="LMARGIN", new_y="NEXT")

    def footer(self):
        self.set_y(-15)
        self.set_font("helvetica", size=8)
        self.cell(0, 6, f"Page {self.page_no()}")


def pdf_without_bookmarks() -> bytes:
    """
    Headings told only by their size: a 22 pt title, 16 pt sections and 13 pt subsections; and a
    running header and page numbers on every page.
    """
    pdf = _PdfWithRunningLines()
    pdf.add_page()
    pdf.set_font("helvetica", "B", 22)
    pdf.cell(0, 12, "Warehouse safety guide", new_x="LMARGIN", new_y="NEXT")
    for section in ("Forklifts", "Loading docks"):
        pdf.set_font("helvetica", "B", 16)
        pdf.cell(0, 10, section, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("helvetica", size=11)
        pdf.multi_cell(0, 5, paragraph(60, seed=len(section)), new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
        pdf.set_font("helvetica", "B", 13)
        pdf.cell(0, 8, f"{section} checklist", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("helvetica", size=11)
        pdf.multi_cell(0, 5, "- Check the brakes before every shift.", new_x="LMARGIN", new_y="NEXT")
        pdf.multi_cell(0, 5, "- Wear a high-visibility vest at all times.", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
        pdf.add_page()
    pdf.set_font("helvetica", size=11)
    pdf.multi_cell(0, 5, "Questions go to the site safety officer, who keeps this guide up to date.", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


class _PdfWithTitleOnTop(FPDF):
    """From its second page on, the document's title runs at the top of every page, in small type."""

    running_title = ""

    def header(self):
        if self.page_no() > 1:
            self.set_font("helvetica", size=8)
            self.cell(0, 6, self.running_title, new_x="LMARGIN", new_y="NEXT")


def pdf_with_a_title_page(*, title: str | None, bookmarks: bool, metadata_title: str = "") -> bytes:
    """
    A manual as typesetting tools make them: no title in its metadata (or a placeholder), a first
    page with the title at 24 pt over its author at 14 pt (`title=None`: the first page opens on
    its first numbered section instead), the title running at the top of the later pages, and
    numbered sections at 16 pt, bookmarked or not.
    """
    pdf = _PdfWithTitleOnTop()
    pdf.running_title = title or "Ladder safety"
    if metadata_title:
        pdf.set_title(metadata_title)
    if title is not None:
        pdf.add_page()
        pdf.set_font("helvetica", "B", 24)
        pdf.cell(0, 14, title, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("helvetica", size=14)
        pdf.cell(0, 10, "Site safety office", new_x="LMARGIN", new_y="NEXT")
    for number, section in enumerate(("Introduction", "Choosing a ladder", "Climbing"), start=1):
        pdf.add_page()
        pdf.set_font("helvetica", "B", 16)
        if bookmarks:
            pdf.start_section(f"{number} {section}", level=0)
        pdf.cell(0, 10, f"{number} {section}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("helvetica", size=11)
        pdf.multi_cell(0, 5, paragraph(80, seed=number), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def pdf_with_bookmarks_printed_otherwise() -> bytes:
    """
    Bookmarks titled otherwise than their headings are printed, as typesetting tools make them:
    without the section's number, in another case, over two lines with a hyphen; and one bookmark
    whose title is printed nowhere.
    """
    pdf = FPDF()

    def heading(bookmark: str | None, printed: list[str], size: int, level: int):
        pdf.set_font("helvetica", "B", size)
        if bookmark:
            pdf.start_section(bookmark, level=level)
        for line in printed:
            pdf.cell(0, size * 0.6, line, new_x="LMARGIN", new_y="NEXT")

    def body(seed: int):
        pdf.set_font("helvetica", size=11)
        pdf.multi_cell(0, 5, paragraph(60, seed=seed), new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)

    pdf.add_page()
    heading("Ladders", ["1 Ladders"], 18, 0)
    body(1)
    heading("choosing a ladder", ["1.1 Choosing a Ladder"], 14, 1)
    body(2)
    pdf.add_page()
    heading("Inspecting before climbing", ["1.2 Inspect-", "ing before climbing"], 14, 1)
    body(3)
    pdf.add_page()
    body(4)
    heading("Scaffolds", ["2. Scaffolds"], 18, 0)
    heading("Unprinted notes", [], 14, 1)
    body(5)
    return bytes(pdf.output())


def pdf_of_pages(pages: int, words_per_page: int = 300) -> bytes:
    pdf = FPDF()
    pdf.set_font("helvetica", size=11)
    for number in range(1, pages + 1):
        pdf.add_page()
        pdf.set_font("helvetica", "B", 16)
        pdf.start_section(f"Topic {number}", level=0)
        pdf.cell(0, 10, f"Topic {number}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("helvetica", size=11)
        for index in range(words_per_page // 75):
            pdf.multi_cell(0, 5, paragraph(75, seed=number + index), new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
    return bytes(pdf.output())


def encrypted_pdf() -> bytes:
    pdf = FPDF()
    pdf.set_encryption(owner_password="owner-secret", user_password="reader-secret")
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(0, 10, "Confidential salaries")
    return bytes(pdf.output())


def pdf_with_owner_password_only() -> bytes:
    """Restricted (no copying, no printing) but openable by anyone: no password is needed to read it."""
    pdf = FPDF()
    pdf.set_encryption(owner_password="owner-secret", user_password="")
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(0, 10, "Open to every reader")
    return bytes(pdf.output())


def scanned_pdf(pages: int = 2) -> bytes:
    """Pages that are pictures of text, with no text layer: what a scanner makes."""
    picture = io.BytesIO()
    Image.new("L", (400, 500), color=235).save(picture, format="PNG")
    pdf = FPDF()
    for _ in range(pages):
        pdf.add_page()
        pdf.image(io.BytesIO(picture.getvalue()), x=10, y=10, w=180)
    return bytes(pdf.output())


def pdf_inflating_to(gibibytes: float) -> bytes:
    """
    A valid one-page PDF whose content stream is a few megabytes compressed and `gibibytes` once
    inflated (spaces, then one line of text): a decompression bomb. Built from one compressed block
    repeated, so it takes no time to make.
    """
    chunk = b" " * (1024 * 1024)
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    tail_data = b"BT /F1 12 Tf 72 712 Td (Hello) Tj ET"
    tail = compressor.compress(tail_data) + compressor.flush()
    count = int(gibibytes * 1024)
    checksum = 1
    for _ in range(count):
        checksum = zlib.adler32(chunk, checksum)
    checksum = zlib.adler32(tail_data, checksum)
    stream = b"\x78\x9c" + block * count + tail + struct.pack(">I", checksum)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    return _pdf_file(objects)


def _pdf_file(objects: list[bytes]) -> bytes:
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def word_document() -> bytes:
    document = docx.Document()
    document.add_paragraph("Remote work policy", style="Title")
    document.add_heading("Who may work remotely", level=1)
    document.add_paragraph("Employees whose role allows it may work from home up to three days a week.")
    document.add_paragraph("Agree the days with your manager", style="List Bullet")
    document.add_paragraph("Keep your calendar up to date", style="List Bullet")
    document.add_heading("Equipment", level=2)
    table = document.add_table(rows=3, cols=2)
    for row, cells in enumerate([("Item", "Provided"), ("Laptop", "Yes"), ("Second screen", "On request")]):
        for column, text in enumerate(cells):
            table.cell(row, column).text = text
    document.add_page_break()
    document.add_heading("Security at home", level=1)
    document.add_paragraph("Lock your screen whenever you leave your desk, even at home.")
    return _saved(document)


def slide_deck() -> bytes:
    presentation = pptx.Presentation()
    slide = presentation.slides.add_slide(presentation.slide_layouts[1])
    slide.shapes.title.text = "Welcome to the team"
    body = slide.placeholders[1].text_frame
    body.text = "Meet your buddy on day one"
    body.add_paragraph().text = "Collect your badge at reception"
    slide.notes_slide.notes_text_frame.text = "Smile, and introduce the buddy programme in two minutes."
    slide = presentation.slides.add_slide(presentation.slide_layouts[5])
    slide.shapes.title.text = "Benefits at a glance"
    table = slide.shapes.add_table(2, 2, Inches(1), Inches(2), Inches(5), Inches(1)).table
    cells = [(0, 0), (0, 1), (1, 0), (1, 1)]
    for (row, column), text in zip(cells, ["Benefit", "Amount", "Holidays", "25 days"], strict=True):
        table.cell(row, column).text = text
    slide.shapes.add_textbox(Inches(1), Inches(4), Inches(5), Inches(1)).text_frame.text = "Ask HR for the details."
    slide = presentation.slides.add_slide(presentation.slide_layouts[6])  # blank: no title
    slide.shapes.add_textbox(Inches(1), Inches(1), Inches(5), Inches(1)).text_frame.text = "Thank you for joining."
    return _saved(presentation)


def _saved(document) -> bytes:
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def with_extra_part(package: bytes, name: str, data_size: int) -> bytes:
    """The Office package with one more part of `data_size` zero bytes: it compresses about 1000 to 1."""
    out = io.BytesIO(package)
    with zipfile.ZipFile(out, "a", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        info = zipfile.ZipInfo(name)
        info.compress_type = zipfile.ZIP_DEFLATED
        with archive.open(info, "w", force_zip64=True) as part:
            chunk = bytes(1024 * 1024)
            for _ in range(data_size // len(chunk)):
                part.write(chunk)
    return out.getvalue()


def with_replaced_part(package: bytes, name: str, data: bytes) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(package))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for info in source.infolist():
            archive.writestr(info.filename, data if info.filename == name else source.read(info.filename))
    return out.getvalue()


def word_document_with_entities(
    *, laughs: bool = True, comment_before: int = 0, encoding: str = "utf-8", main_part: str = "word/document.xml"
) -> bytes:
    """
    A Word file whose XML declares an external entity naming a local file and, with `laughs`, a
    billion-laughs entity (which libxml2 refuses by itself); after a comment of `comment_before`
    characters, in another `encoding`, or in a main part of another name (`main_part`, declared in
    [Content_Types].xml).
    """
    package = word_document()
    xml = zipfile.ZipFile(io.BytesIO(package)).read("word/document.xml").decode("utf-8")
    declaration_end = xml.index("?>") + 2
    entities = ['<!ENTITY secret SYSTEM "file:///etc/passwd">']
    if laughs:
        entities += ['<!ENTITY lol0 "lol">'] + [
            f'<!ENTITY lol{level} "{("&lol" + str(level - 1) + ";") * 10}">' for level in range(1, 10)
        ]
    dtd = "<!DOCTYPE w:document [" + "".join(entities) + "]>"
    comment = f"<!--{'x' * comment_before}-->" if comment_before else ""
    xml = xml[:declaration_end] + comment + dtd + xml[declaration_end:]
    references = "&lol9; &secret;" if laughs else "&secret;"
    xml = xml.replace("Employees whose role", f"{references} Employees whose role", 1)
    xml = xml.replace("encoding='UTF-8'", f"encoding='{encoding.upper()}'", 1)
    hostile = with_replaced_part(package, "word/document.xml", xml.encode(encoding))
    return with_renamed_part(hostile, "word/document.xml", main_part)


def with_picture(package: bytes, name: str, data: bytes, content_type: str) -> bytes:
    """The package with one more part, declared in [Content_Types].xml as a picture of that type."""
    source = zipfile.ZipFile(io.BytesIO(package))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for info in source.infolist():
            data_of_part = source.read(info.filename)
            if info.filename == "[Content_Types].xml":
                declaration = f'<Override PartName="/{name}" ContentType="{content_type}"/></Types>'
                data_of_part = data_of_part.replace(b"</Types>", declaration.encode())
            archive.writestr(info.filename, data_of_part)
        archive.writestr(name, data)
    return out.getvalue()


def with_renamed_part(package: bytes, name: str, new_name: str) -> bytes:
    """The package with a part renamed, its relationships part too, and the names that point at it."""
    if new_name == name:
        return package
    folder, _, file_name = name.rpartition("/")
    rels, new_rels = f"{folder}/_rels/{file_name}.rels", f"{folder}/_rels/{new_name.rpartition('/')[2]}.rels"
    source = zipfile.ZipFile(io.BytesIO(package))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename in ("[Content_Types].xml", "_rels/.rels"):
                data = data.replace(name.encode(), new_name.encode())
            archive.writestr({name: new_name, rels: new_rels}.get(info.filename, info.filename), data)
    return out.getvalue()


WEB_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Expense policy | Acme intranet</title></head><body>
<header><nav><ul><li><a href="/">Home</a></li><li><a href="/hr">Human resources</a></li>
<li><a href="/it">IT help desk</a></li></ul></nav></header>
<div class="cookie-banner" id="cookie-consent"><p>We use cookies to improve your experience on this site.
Accept all cookies?</p><button>Accept</button></div>
<main><article>
<h1>Expense policy</h1>
<p>This policy explains how employees claim travel and meal expenses. It applies to every employee and
contractor of Acme who travels on company business, in every country.</p>
<h2>Travel</h2>
<p>Book flights through the travel desk at least fourteen days before departure. Economy class is the
rule for flights shorter than six hours; longer flights may be booked in premium economy.</p>
<ul><li>Keep every receipt for seven years.</li><li>Submit claims within thirty days of the trip.</li></ul>
<h3>Hotels</h3>
<p>Hotels must be booked through the approved agency, within the nightly limit of the city concerned.</p>
<table><tr><th>City</th><th>Nightly limit</th></tr><tr><td>London</td><td>200 GBP</td></tr>
<tr><td>Paris</td><td>180 EUR</td></tr></table>
<h2>Meals</h2>
<p>Meals are reimbursed up to the daily allowance. Alcohol is never reimbursed, whatever the occasion.</p>
</article></main>
<footer><p>Copyright 2026 Acme Corporation. All rights reserved.</p><p>Privacy notice | Terms of use</p></footer>
</body></html>
"""

MARKDOWN = """# Onboarding checklist

Everything a new engineer needs in the first week.

## Day one

- Collect your laptop
- Set up two-factor authentication

## Day two

Read the architecture overview and pair with your buddy on a small change.

| Tool | Purpose |
| --- | --- |
| Git | Version control |
"""

FRENCH_TEXT = (
    "La politique de sécurité s'applique à tous les employés de l'entreprise. Les mots de passe doivent "
    "être changés tous les trois mois et ne sont jamais partagés avec les collègues. En cas d'incident, "
    "les employés préviennent le responsable de la sécurité dans la journée, avec une description de ce "
    "qui s'est passé et des personnes concernées."
)


def with_many_parts(package: bytes, count: int) -> bytes:
    """The Office package with `count` more parts, empty and stored: 100 bytes or so each."""
    out = io.BytesIO(package)
    with zipfile.ZipFile(out, "a") as archive:
        for number in range(count):
            archive.writestr(f"word/filler/part{number}.xml", b"")
    return out.getvalue()


def declaring_one_part(package: bytes, *, behind_a_zip64_record: bool = False) -> bytes:
    """
    The package with its end record declaring one part, however many its directory lists; or, with
    a zip64 end record before it that readers believe instead, one part in a directory of 46 bytes.
    """
    at = package.rindex(b"PK\x05\x06")
    _, _, _, _, entries, directory_bytes, directory_at, _ = struct.unpack_from("<4s4H2LH", package, at)
    if not behind_a_zip64_record:
        return package[:at] + package[at : at + 8] + struct.pack("<HH", 1, 1) + package[at + 12 :]
    lying = package[at : at + 8] + struct.pack("<HHL", 1, 1, 46) + package[at + 16 :]
    zip64 = struct.pack(
        "<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, entries, entries, directory_bytes, directory_at
    )
    locator = struct.pack("<4sLQL", b"PK\x06\x07", 0, at, 1)
    return package[:at] + zip64 + locator + lying
