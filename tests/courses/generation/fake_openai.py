"""
An OpenAI-compatible chat completions server on loopback for tests.

It answers POST /v1/chat/completions with JSON that fits the request's JSON schema, written in
the language the request's system prompt names, so any request the generator makes gets a
plausible answer. Tests script failures per step (the schema name: course_plan, course_chapter,
course_wrapup, …), hold requests at a barrier to prove they are in flight together, and read what
was asked.
"""

import collections
import itertools
import json
import re
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PHRASES = {
    "en-US": "This lesson explains the topic with an example, and you practice each step on your own.",
    "pt-BR": "Esta lição explica o tema com um exemplo, e você pratica cada passo com calma.",
    "es-ES": "Esta lección explica el tema con un ejemplo y tú practicas cada paso con calma.",
    "fr-FR": "Cette leçon explique le sujet avec un exemple et vous pratiquez chaque étape avec soin.",
    "de-DE": "Diese Lektion erklärt das Thema mit einem Beispiel, und Sie üben jeden Schritt in Ruhe.",
}

ADD_ON_STEPS = ("course_wrapup", "course_assessment", "course_agreement")


def group_of(step: str) -> str:
    return "add_ons" if step in ADD_ON_STEPS else step


class FakeOpenAI:
    def __init__(self):
        self.requests: list[dict] = []
        self.authorizations: list[str | None] = []
        # step → behaviours for its next requests, used up in order; then "ok". A behaviour is a name
        # (below) or a function that takes the answer's JSON document and returns the one to send.
        self.script: dict[str, list] = collections.defaultdict(list)
        # group (a step, or "add_ons") → barrier its requests wait at while counted in flight.
        self.barriers: dict[str, threading.Barrier] = {}
        self.max_in_flight: collections.Counter = collections.Counter()
        self.release = threading.Event()  # ends "stall" behaviours
        self._in_flight: collections.Counter = collections.Counter()
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._server.handle_error = lambda request, address: None  # clients that gave up
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> "FakeOpenAI":
        self._thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        for barrier in self.barriers.values():
            barrier.abort()
        self._server.shutdown()
        self._server.server_close()

    def steps(self) -> list[str]:
        """The step of every request received, in order of arrival."""
        with self._lock:
            return [body["response_format"]["json_schema"]["name"] for body in self.requests]

    # --- answering ----------------------------------------------------------------------------

    def answer(self, body: dict, *, authorization: str | None = None) -> tuple[int, dict, bytes]:
        step = body["response_format"]["json_schema"]["name"]
        group = group_of(step)
        with self._lock:
            self.requests.append(body)
            self.authorizations.append(authorization)
            behaviour = self.script[step].pop(0) if self.script[step] else "ok"
            self._in_flight[group] += 1
            self.max_in_flight[group] = max(self.max_in_flight[group], self._in_flight[group])
        try:
            barrier = self.barriers.get(group)
            if barrier is not None:
                try:
                    barrier.wait()
                except threading.BrokenBarrierError:
                    pass  # the test's in-flight assertion reports it
            return self._respond(behaviour, body)
        finally:
            with self._lock:
                self._in_flight[group] -= 1

    def _respond(self, behaviour: str, body: dict) -> tuple[int, dict, bytes]:
        fast_retry = {"retry-after-ms": "1"}
        if behaviour == "error500":
            return (
                500,
                fast_retry,
                json.dumps({"error": {"message": "overloaded", "type": "server_error"}}).encode(),
            )
        if behaviour == "error429":
            return (
                429,
                fast_retry,
                json.dumps({"error": {"message": "slow down", "type": "rate_limit"}}).encode(),
            )
        if behaviour == "error401":
            return (
                401,
                {},
                json.dumps({"error": {"message": "bad key", "type": "invalid_request_error"}}).encode(),
            )
        if behaviour == "stall":
            self.release.wait(timeout=20)
            return 500, {}, b"{}"
        if behaviour == "refuse_lengths" and "minLength" in json.dumps(body["response_format"]):
            # What a server that takes only part of JSON Schema in strict mode answers.
            message = "Invalid schema for response_format: 'minLength' is not permitted."
            return 400, {}, json.dumps({"error": {"message": message, "type": "invalid_request_error"}}).encode()
        language = re.search(r"locale ([a-z]{2}-[A-Z]{2})", body["messages"][0]["content"]).group(1)
        document = self.document_for(body, language)
        if callable(behaviour):  # the test changes the answer: breaks a rule, say
            document = behaviour(document)
        finish_reason = "stop"
        if behaviour == "cannot_teach":
            document["can_teach"] = False
        text = json.dumps(document, ensure_ascii=False)
        if behaviour == "garbage":
            text = "Sure! Here is your course: chapter one, chapter two."
        elif behaviour == "wrong_shape":
            text = json.dumps({"answer": "a course"})
        elif behaviour == "truncated":
            text, finish_reason = text[: len(text) // 2], "length"
        elif behaviour == "fenced":
            text = f"```json\n{text}\n```"
        elif behaviour == "reasoning":
            text = f"<think>\nThe learner needs a plan.\n</think>\n\n{text}"
        completion = {
            "id": f"chatcmpl-{next(self._numbers)}",
            "object": "chat.completion",
            "created": 1767225600,
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": finish_reason,
                }
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
        }
        return 200, {}, json.dumps(completion).encode()

    def document_for(self, body: dict, language: str) -> dict:
        """The answer to a request, before any scripted behaviour changes it."""
        return self.fill(body["response_format"]["json_schema"]["schema"], PHRASES[language])

    def fill(self, schema: dict, phrase: str):
        """A value that fits the (strict, inlined) JSON schema."""
        kind = schema.get("type")
        if kind == "object":
            return {name: self.fill(sub, phrase) for name, sub in schema["properties"].items()}
        if kind == "array":
            count = min(max(schema.get("minItems", 1), 4), schema.get("maxItems", 4))
            return [self.fill(schema["items"], phrase) for _ in range(count)]
        if kind == "boolean":
            return True
        if kind == "integer":
            return schema.get("minimum", 0)
        return f"{phrase} {next(self._numbers)}"


def _handler_for(fake: FakeOpenAI):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            if self.path != "/v1/chat/completions":
                self._send(404, {}, b'{"error": {"message": "not found"}}')
                return
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            self._send(*fake.answer(body, authorization=self.headers.get("Authorization")))

        def _send(self, status: int, headers: dict, payload: bytes):
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args):
            pass

    return Handler


def closed_port_url() -> str:
    """A loopback URL where nothing listens (connection refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
