"""
Documents that courses are built from in tests, made here from scratch: a 40-page handbook as a PDF
with bookmarks, a policy as a Word file, and a guide as a web page. Their sentences are written from
small tables, so each is different and each section has terms of its own, as real documents do.
"""

import io

import docx
from fpdf import FPDF

SUBJECTS = [
    "Every employee",
    "Team leads",
    "The security office",
    "System owners",
    "Contractors",
    "New hires",
    "The help desk",
    "Department heads",
]
REASONS = [
    "so that nothing is left to chance",
    "because auditors sample these records",
    "which keeps the damage of a mistake small",
    "as the insurance policy requires",
    "so that the next person finds everything in order",
    "because regulators ask for proof",
    "which saves time when something goes wrong",
    "as agreed with the works council",
]
# (chapter title, its sections, what people do in it: actions that name its terms)
HANDBOOK = [
    (
        "Access control",
        [
            "Accounts",
            "Roles",
            "Passwords",
            "Multifactor sign-in",
            "Privileged access",
            "Reviews",
            "Leavers",
            "Guests",
        ],
        [
            "review access rights",
            "remove dormant accounts",
            "approve privileged roles",
            "rotate shared credentials",
            "enforce multifactor authentication",
            "record every permission change",
            "limit administrator sessions",
            "document role assignments",
            "disable guest accounts",
            "check password strength",
        ],
    ),
    (
        "Incident response",
        [
            "Detection",
            "Reporting",
            "Triage",
            "Containment",
            "Evidence",
            "Communication",
            "Recovery",
            "Lessons",
        ],
        [
            "report suspected incidents",
            "isolate infected laptops",
            "preserve forensic evidence",
            "notify the privacy office",
            "escalate critical outages",
            "keep an incident diary",
            "restore systems from backups",
            "hold a blameless retrospective",
            "contact affected customers",
            "rehearse the escalation ladder",
        ],
    ),
    (
        "Data retention",
        [
            "Records",
            "Schedules",
            "Archives",
            "Deletion",
            "Legal holds",
            "Backups",
            "Personal data",
            "Exceptions",
        ],
        [
            "classify business records",
            "apply the retention schedule",
            "archive closed contracts",
            "delete expired customer files",
            "respect every legal hold",
            "encrypt offsite backups",
            "minimise personal data",
            "log each deletion request",
            "label archived boxes",
            "justify every exception",
        ],
    ),
    (
        "Secure development",
        [
            "Design",
            "Dependencies",
            "Code review",
            "Secrets",
            "Testing",
            "Releases",
            "Vulnerabilities",
            "Logging",
        ],
        [
            "threat-model new features",
            "pin third-party dependencies",
            "require peer code reviews",
            "store secrets in the vault",
            "run static analysis",
            "sign release artefacts",
            "patch known vulnerabilities",
            "scrub sensitive logging",
            "scan container images",
            "track security debt",
        ],
    ),
    (
        "Physical security",
        [
            "Badges",
            "Visitors",
            "Clean desks",
            "Server rooms",
            "Deliveries",
            "Printers",
            "Travel",
            "Emergencies",
        ],
        [
            "wear visible badges",
            "escort every visitor",
            "lock unattended screens",
            "guard the server room",
            "inspect incoming deliveries",
            "collect printed documents",
            "secure laptops while travelling",
            "follow evacuation routes",
            "shred confidential paper",
            "report tailgating attempts",
        ],
    ),
]
FREQUENCIES = [
    "every quarter",
    "within one working day",
    "before each release",
    "at least once a year",
    "whenever a role changes",
    "after every incident",
    "each month",
    "on their first day",
]


def sentence(chapter: int, section: int, number: int) -> str:
    """A sentence of section `section` of chapter `chapter`: the same arguments, the same sentence."""
    _, _, actions = HANDBOOK[chapter % len(HANDBOOK)]
    seed = chapter * 131 + section * 17 + number * 7
    who = SUBJECTS[(section + number) % len(SUBJECTS)]
    action = actions[(section * 3 + number) % len(actions)]
    when = FREQUENCIES[(seed // 3) % len(FREQUENCIES)]
    why = REASONS[(seed // 5 + number) % len(REASONS)]
    return f"{who} must {action} {when}, {why}."


def section_text(chapter: int, section: int, paragraphs: int = 3, sentences: int = 4) -> list[str]:
    return [
        " ".join(sentence(chapter, section, paragraph * sentences + number) for number in range(sentences))
        for paragraph in range(paragraphs)
    ]


def handbook_pdf(*, chapters: int = 5, sections: int = 8) -> bytes:
    """The security handbook: one page per section, chapters and sections bookmarked (40 pages)."""
    pdf = FPDF()
    pdf.set_title("Security handbook")
    for chapter in range(chapters):
        title, section_titles, _ = HANDBOOK[chapter]
        for section in range(sections):
            pdf.add_page()
            if section == 0:
                pdf.set_font("helvetica", "B", 20)
                pdf.start_section(title, level=0)
                pdf.cell(0, 12, title, new_x="LMARGIN", new_y="NEXT")
            pdf.set_font("helvetica", "B", 14)
            pdf.start_section(section_titles[section], level=1)
            pdf.cell(0, 10, section_titles[section], new_x="LMARGIN", new_y="NEXT")
            pdf.set_font("helvetica", size=11)
            for text in section_text(chapter, section):
                pdf.multi_cell(0, 5, text, new_x="LMARGIN", new_y="NEXT")
                pdf.ln(4)
    return bytes(pdf.output())


def policy_docx() -> bytes:
    """The data retention policy as a Word file: a title, three sections of two parts, a list and a table."""
    document = docx.Document()
    document.add_paragraph("Data retention policy", style="Title")
    chapter = 2
    _, section_titles, _ = HANDBOOK[chapter]
    for number, heading in enumerate(("Keeping records", "Deleting records", "Protecting what is kept")):
        document.add_heading(heading, level=1)
        for part in range(2):
            section = number * 2 + part
            document.add_heading(section_titles[section], level=2)
            for text in section_text(chapter, section, paragraphs=2):
                document.add_paragraph(text)
            document.add_paragraph(sentence(chapter, section, 20), style="List Bullet")
            document.add_paragraph(sentence(chapter, section, 21), style="List Bullet")
    table = document.add_table(rows=3, cols=2)
    for row, cells in enumerate(
        [("Record", "Kept for"), ("Contracts", "Ten years"), ("Invoices", "Seven years")]
    ):
        for column, text in enumerate(cells):
            table.cell(row, column).text = text
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def guide_html() -> str:
    """The physical security guide as a web page, with navigation and a footer around the article."""
    chapter = 4
    _, section_titles, _ = HANDBOOK[chapter]
    sections = []
    for number, heading in enumerate(section_titles[:4]):
        paragraphs = "".join(f"<p>{text}</p>" for text in section_text(chapter, number))
        sections.append(f"<h2>{heading}</h2>{paragraphs}")
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Office security guide</title></head>"
        "<body><nav><a href='/'>Home</a> <a href='/hr'>Human resources</a></nav>"
        "<main><article><h1>Office security guide</h1>"
        + "".join(sections)
        + "</article></main><footer>Copyright Example Ltd</footer></body></html>"
    )
