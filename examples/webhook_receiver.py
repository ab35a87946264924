"""
A webhook receiver: checks the Standard Webhooks signature, handles each event once, and answers
2xx to event types it does not know (new ones may be added).

    WEBHOOK_SECRET=whsec_... WEBHOOK_TOKEN=<long random string> PORT=8080 python webhook_receiver.py

It listens on 127.0.0.1 behind your HTTPS proxy; the callbackUrl is https://<host>/hooks/<token>.
"""

import http.server
import os
import threading

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

WEBHOOK = Webhook(os.environ["WEBHOOK_SECRET"])  # manage.py webhook_secret <account email>
HOOK_PATH = f"/hooks/{os.environ['WEBHOOK_TOKEN']}"
MAX_BODY_BYTES = 1024 * 1024

# Keys of the events handled so far. In production keep them in your database (a unique
# constraint), so duplicates are recognised across restarts and processes.
handled: set[tuple] = set()
handled_lock = threading.Lock()


def dedup_key(event: dict) -> tuple | None:
    """What makes an event the same event again; None for an event type unknown here."""
    if event["event"] in ("course.created", "course.failed"):
        return ("job", event["jobId"])
    if event["event"] == "course.exported":
        return ("export", event["courseId"], event["exportedAt"])
    return None


def handle(event: dict) -> None:
    """Your code: store the course, tell the user, import the package into the LMS, ..."""
    if event["event"] == "course.created":
        course = event["course"]
        print(f"job {event['jobId']}: course {course['id']} at {course['shareUrl']}")
    elif event["event"] == "course.failed":
        # The code is best-effort in webhooks: present for known failure modes only.
        print(f"job {event['jobId']}: failed, {event['error'].get('code', 'no code')}")
    else:
        print(f"course {event['courseId']}: {event['format']} package at {event['downloadUrl']}")


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        if self.path != HOOK_PATH:
            return self.answer(404)
        try:
            length = int(self.headers.get("Content-Length", "0"))
            if not 0 <= length <= MAX_BODY_BYTES:
                return self.answer(413)
            # The raw bytes, before any JSON parsing. Also refuses a timestamp more than 5 minutes
            # from now, so a captured request cannot be replayed later.
            event = WEBHOOK.verify(self.rfile.read(length), dict(self.headers))
        except (ValueError, WebhookVerificationError):
            return self.answer(400)
        key = dedup_key(event)
        if key is not None:
            with handled_lock:  # one at a time: a duplicate arriving meanwhile finds the first done
                if key not in handled:
                    handle(event)  # if it raises, no 2xx goes back and the event is delivered again
                    handled.add(key)
        self.answer(204)

    def answer(self, status: int) -> None:
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()


if __name__ == "__main__":
    port = int(os.environ.get("PORT", "8080"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Receiver)
    print(f"Listening on http://127.0.0.1:{server.server_address[1]}{HOOK_PATH}", flush=True)
    server.serve_forever()
