"""
What the browser tests of exported packages share: a loopback content server for unpacked packages,
and the learner's hands on the course player, which the SCORM and cmi5 packages both show.
"""

import functools
import http.server
import io
import threading
import zipfile

from courses.content import CourseContent

# A 1x1 transparent icon (ICO holding a 32-bit BMP).
FAVICON = bytes.fromhex(
    "000001000100010100000100200030000000160000002800000001000000020000000100200000000000"
    "0800000000000000000000000000000000000000000000000000000000000000"
)


class Site:
    """A loopback HTTP server over a temporary directory: the LMS's pages and unpacked packages."""

    def __init__(self, root):
        self.root = root
        # A browser asks every site it shows a page of for /favicon.ico, whatever the page links:
        # served here, that request never turns up as a page problem.
        (root / "favicon.ico").write_bytes(FAVICON)
        handler = functools.partial(_QuietHandler, directory=str(root))
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def unpack(self, name: str, zip_bytes: bytes) -> str:
        with zipfile.ZipFile(io.BytesIO(zip_bytes)) as archive:
            archive.extractall(self.root / name)
        return f"{name}/index.html"

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class PlayerControls:
    """The learner's hands on the player in `self.player`, a Playwright frame locator."""

    player = None

    def page_kind(self) -> str:
        return self.player.locator(".sco-page:not([hidden])").get_attribute("data-kind")

    def progress(self) -> str:
        return self.player.locator("#sco-progress").inner_text()

    def next_until(self, kind: str) -> None:
        for _ in range(30):
            if self.page_kind() == kind:
                return
            self.player.locator("#sco-next").click()
        raise AssertionError(f"never reached the {kind} page")

    def answer(self, answers: list[int]) -> None:
        for number, option in enumerate(answers):
            self.player.locator(f'input[name="q{number}"][value="{option}"]').check()
        self.player.locator("#sco-submit").click()

    def confirm_agreement(self) -> None:
        self.player.locator("#sco-agree").check()
        self.player.locator("#sco-confirm").click()

    def focused(self) -> str:
        """What has the keyboard focus: its id, a radio button as `name=value` (q1=0), or its tag."""
        return self.player.locator("body").evaluate(
            """body => {
              const element = body.ownerDocument.activeElement;
              if (element.id) { return element.id; }
              return element.type === "radio" ? `${element.name}=${element.value}` : element.localName;
            }"""
        )

    def contents_to(self, kind: str, nth: int = 0) -> None:
        """Open the `nth` page of this kind from the Contents list, as far as the list lets the learner."""
        self.player.locator("#sco-toc summary").click()
        numbers = self.player.locator(".sco-page").evaluate_all(
            "pages => pages.map((page, n) => [page.getAttribute('data-kind'), n])"
        )
        number = [n for page_kind, n in numbers if page_kind == kind][nth]
        self.player.locator(f'#sco-toc a[data-page="{number}"]').click()

    def remaining(self, where: str) -> list[str]:
        """What the player lists as left to do, on the `agreement` or the `finish` page."""
        return self.player.locator(f"#sco-{where}-remaining li:not([hidden])").all_inner_texts()

    def finish_page(self) -> tuple[str, str, list[str]]:
        """The finish page's heading, its sentence, and what it lists as left to do."""
        finish = self.player.locator('.sco-page[data-kind="finish"]')
        return (
            finish.locator("h1").inner_text(),
            finish.locator("p").first.inner_text(),
            self.remaining("finish") if self.player.locator("#sco-finish-remaining").is_visible() else [],
        )


def correct_answers(content: CourseContent) -> list[int]:
    return [question.correct_index for question in content.assessment.questions]


def answers_with_right(content: CourseContent, right: int) -> list[int]:
    return [
        question.correct_index if number < right else (question.correct_index + 1) % len(question.options)
        for number, question in enumerate(content.assessment.questions)
    ]
