"""Reading the API's error answers."""


def refusal(response) -> dict:
    """
    An error answer's `message` and `code`. A 400 must also list every problem in `errors`, each with
    its field's path (null for the request as a whole) and message, and nothing else but the allowed
    values; the first is what `message` says.
    """
    body = dict(response.json())  # a copy: the test client keeps the parsed body for later calls
    if response.status_code == 400:
        problems = body.pop("errors")
        assert problems, body
        for problem in problems:
            assert {"field", "message"} <= set(problem) <= {"field", "message", "allowed"}, problem
        first = problems[0]
        assert first["message"] in body["message"], (body, first)
    else:
        assert "errors" not in body, body
    return body


def error_of(response) -> tuple[int, str, str]:
    """An error answer as (status, code, message), its body checked as `refusal` does."""
    body = refusal(response)
    assert set(body) == {"message", "code"}, body
    return response.status_code, body["code"], body["message"]
