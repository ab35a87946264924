"""
The two generated clients behind one interface, so that every client test is written once and runs
in both languages: run the quickstart flow, call one operation by its operationId, parse a text with
a schema of the document. Nothing here knows an operation or a schema by name: they come from the
document, so a new endpoint or event needs nothing here.

A body is JSON, except that a value `{"fileName": ..., "text": ...}` stands for a file: the body is
then sent as multipart/form-data.
"""

import enum as enum_module
import importlib
import json
import pkgutil
import re
import subprocess
import typing
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "course_generation_api_client"


@dataclass
class Answer:
    status: int
    parsed: object  # the answer parsed into the schema's model, as JSON again (None: not parsed)
    model: str | None  # the model's class name (Python); None in TypeScript, where models are types
    headers: dict


def snake(name: str) -> str:
    """`pollJob` → `poll_job`, `Idempotency-Key` → `idempotency_key`: names in the Python client."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).replace("-", "_").lower()


class PythonClient:
    language = "python"

    def __init__(self):
        self.package = importlib.import_module(PACKAGE)
        self.models = importlib.import_module(f"{PACKAGE}.models")
        self.flow = importlib.import_module("tests.support.clients.python_flow")

    def run_flow(self, *, base_url: str, api_key: str) -> dict:
        return self.flow.run_flow(base_url=base_url, api_key=api_key)

    def operation(self, operation_id: str):
        api = importlib.import_module(f"{PACKAGE}.api")
        for tag in pkgutil.iter_modules(api.__path__):
            for module in pkgutil.iter_modules([str(Path(api.__path__[0]) / tag.name)]):
                if module.name == snake(operation_id):
                    return importlib.import_module(f"{PACKAGE}.api.{tag.name}.{module.name}")
        raise LookupError(f"no operation {operation_id} in the generated client")

    def call(
        self, operation_id, *, base_url, api_key, path=None, query=None, body=None, headers=None, schema=None
    ) -> Answer:
        module = self.operation(operation_id)
        if api_key is None:
            client = self.package.Client(base_url=base_url, raise_on_unexpected_status=True)
        else:
            client = self.package.AuthenticatedClient(
                base_url=base_url, token=api_key, raise_on_unexpected_status=True
            )
        documented = typing.get_type_hints(module.sync_detailed)
        kwargs = {
            snake(name): as_documented(documented.get(snake(name)), value)
            for name, value in {**(path or {}), **(query or {})}.items()
        }
        extra = {}
        for name, value in (headers or {}).items():
            if snake(name) in documented:
                kwargs[snake(name)] = value
            else:
                extra[name] = value
        if extra:
            client = client.with_headers(extra)
        if body is not None:
            kwargs["body"] = body_model(documented["body"], body)
        answer = module.sync_detailed(client=client, **kwargs)
        parsed = answer.parsed
        if schema is not None:
            assert type(parsed).__name__ == schema, (type(parsed).__name__, schema)
            assert parsed.additional_properties == {}, parsed.additional_properties
        return Answer(
            status=answer.status_code,
            parsed=parsed.to_dict() if hasattr(parsed, "to_dict") else parsed,
            model=type(parsed).__name__,
            headers=dict(answer.headers),
        )

    def parse(self, schema: str, text: str) -> dict:
        model = getattr(self.models, schema).from_dict(json.loads(text))
        assert model.additional_properties == {}, model.additional_properties
        return model.to_dict()


def as_documented(hint, value):
    """A parameter's value as the operation takes it: a member of its enum where it has one."""
    for option in (hint, *typing.get_args(hint)):
        if isinstance(option, type) and issubclass(option, enum_module.Enum):
            return option(value)
    return value


def files_in(body: dict) -> dict:
    return {name: value for name, value in body.items() if isinstance(value, dict) and "fileName" in value}


def body_model(hint, body: dict):
    """The body as the operation's model: `Model`, `Model | Unset` when the body may be left out, or
    one of several (`Upload | Url | Unset`): the multipart one for a body with a file."""
    files = files_in(body)
    options = [option for option in (hint, *typing.get_args(hint)) if hasattr(option, "from_dict")]
    model = next(option for option in options if hasattr(option, "to_multipart") == bool(files))
    parsed = model.from_dict(body | {name: file["text"].encode() for name, file in files.items()})
    for name, file in files.items():
        getattr(parsed, snake(name)).file_name = file["fileName"]
    return parsed


class TypeScriptClient:
    """tests/support/clients/typescript/driver.ts, compiled, in a Node.js process of its own."""

    language = "typescript"

    def __init__(self, script: Path):
        self.process = subprocess.Popen(
            ["node", str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def _send(self, command: dict) -> dict:
        self.process.stdin.write(json.dumps(command) + "\n")
        line = self.process.stdout.readline()
        assert line, f"the TypeScript driver stopped (exit code {self.process.poll()})"
        answer = json.loads(line)
        assert answer.pop("ok"), answer["error"]
        return answer

    def run_flow(self, *, base_url: str, api_key: str) -> dict:
        return self._send({"cmd": "flow", "baseUrl": base_url, "apiKey": api_key})["state"]

    def call(
        self, operation_id, *, base_url, api_key, path=None, query=None, body=None, headers=None, schema=None
    ) -> Answer:
        answer = self._send(
            {
                "cmd": "call",
                "baseUrl": base_url,
                "apiKey": api_key,
                "operation": operation_id,
                "path": path,
                "query": query,
                "body": body,
                "headers": headers,
                "schema": schema,
            }
        )
        return Answer(status=answer["status"], parsed=answer["parsed"], model=None, headers=answer["headers"])

    def parse(self, schema: str, text: str) -> dict:
        return self._send({"cmd": "parse", "schema": schema, "json": text})["parsed"]

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)
