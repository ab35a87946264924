"""A browser reading a course's pages, as learners' browsers do: progress, quiz answers, sign-offs."""

import ipaddress
import json
import random

from django.test import Client

# What Chromium says it is: the page's requests come from browsers.
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"


def some_ip() -> str:
    """A client address of its own, so per-address counters never carry over between tests."""
    return str(ipaddress.IPv4Address(random.randint(0x0A000001, 0x0AFFFFFE)))


class Reader:
    """
    One browser reading a course's pages, sending progress as static/courses/learner.js does (the
    CSRF token of the cookie the page set, form-encoded batches), and signing as the page's form does.
    """

    def __init__(self, course, *, user_agent: str = BROWSER, ip: str | None = None):
        self.course = course
        self.client = Client(enforce_csrf_checks=True, HTTP_USER_AGENT=user_agent, REMOTE_ADDR=ip or some_ip())
        self.token = None

    def open(self, path: str = ""):
        response = self.client.get(f"/go/{self.course.public_id}{path}")
        if response.status_code == 200:
            self.token = self.client.cookies["csrftoken"].value
        return response

    def send(self, **batch):
        if self.token is None:
            self.open()
        return self.post_batch(json.dumps({"version": self.course.version, **batch}))

    def post_batch(self, raw: str):
        return self.client.post(
            f"/go/{self.course.public_id}/progress", {"csrfmiddlewaretoken": self.token, "batch": raw}
        )

    def answer(self, answers: list, *, attempt: str | None = None, version: int | None = None):
        """Check a quiz attempt as the page's quiz does: the service scores it, and records it for the learner."""
        if self.token is None:
            self.open()
        sent = {"version": version or self.course.version, "answers": answers, **({"id": attempt} if attempt else {})}
        return self.post_attempt(json.dumps(sent))

    def post_attempt(self, raw: str):
        return self.client.post(
            f"/go/{self.course.public_id}/quiz", {"csrfmiddlewaretoken": self.token, "attempt": raw}
        )

    def ready_to_sign(self):
        """Do everything the course asks before its agreement: see every chapter, pass the quiz."""
        chapters = list(range(1, len(self.course.content["chapters"]) + 1))
        self.send(hello=True, page=chapters[-1] + 1, seen=[0, *chapters, chapters[-1] + 1])
        if self.course.content.get("assessment"):
            self.answer(PASSING)

    def sign(self, name: str = "Ada Lovelace"):
        if self.token is None:
            self.open()
        return self.client.post(
            f"/go/{self.course.public_id}/agreement",
            {"name": name, "confirm": "yes", "csrfmiddlewaretoken": self.token},
        )

    @property
    def learner_cookie(self):
        return self.client.cookies.get("cgs_learner")


# The sample assessment: 5 questions, the first option always right, 4 right answers to pass.
FAILING = [0, 0, 1, 1, None]  # 2 of 5: 40 %
PASSING = [0, 0, 0, 0, 1]  # 4 of 5: 80 %
PERFECT = [0, 0, 0, 0, 0]
