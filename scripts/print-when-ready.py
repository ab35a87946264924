"""
`make run`'s last word (Procfile.dev): wait until the web server answers its readiness check, then
print what `manage.py seed_demo` wrote (the demo key, the docs and admin addresses), so that they
come after the start-up lines rather than scrolling away before them.

    python scripts/print-when-ready.py http://127.0.0.1:8000/readyz build/demo.txt
"""

import sys
import time
import urllib.request


def main() -> None:
    ready_url, demo_file = sys.argv[1:]
    while not _answers(ready_url):
        time.sleep(0.5)
    with open(demo_file) as demo:
        text = demo.read()
    print(f"\nThe service is ready. Kept in {demo_file}:\n\n{text}", flush=True)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status == 200
    except OSError:
        return False  # not listening yet, or not ready (a 503 is an HTTPError, an OSError too)


if __name__ == "__main__":
    main()
