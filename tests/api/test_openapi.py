import json
import re
from importlib import import_module

import pytest
from django.conf import settings
from openapi_spec_validator import validate

from api.openapi import ERROR_CODES, error_codes_in
from core import errors
from courses.generation import errors as generation_errors
from sources import services as source_services
from sources.extraction import document as extraction

CREATE = ("/api/v1/courses", "post")
POLL = ("/api/v1/courses/jobs/{job_id}", "get")
EXPORT = ("/api/v1/courses/{course_id}/export", "post")
QUALITY = ("/api/v1/courses/{course_id}/quality", "get")
CREATE_SOURCE = ("/api/v1/sources", "post")
LIST_SOURCES = ("/api/v1/sources", "get")
GET_SOURCE = ("/api/v1/sources/{source_id}", "get")
DELETE_SOURCE = ("/api/v1/sources/{source_id}", "delete")
DOWNLOAD = ("/downloads/{export_id}", "get")

# Interface section 7, by the endpoints that can return each code.
CONTRACT_CODES = {
    CREATE: {
        "VALIDATION_ERROR", "INVALID_API_KEY", "PAID_PLAN_REQUIRED", "USAGE_LIMIT_EXCEEDED_PLAN",
        "RATE_LIMIT_EXCEEDED", "INTERNAL_ERROR",
    },
    POLL: {"INVALID_API_KEY", "PAID_PLAN_REQUIRED", "NOT_FOUND", "RATE_LIMIT_EXCEEDED", "INTERNAL_ERROR"},
    EXPORT: {
        "VALIDATION_ERROR", "INVALID_API_KEY", "PAID_PLAN_REQUIRED", "NOT_FOUND", "RATE_LIMIT_EXCEEDED",
        "INTERNAL_ERROR",
    },
    QUALITY: {"INVALID_API_KEY", "PAID_PLAN_REQUIRED", "NOT_FOUND", "RATE_LIMIT_EXCEEDED", "INTERNAL_ERROR"},
}


@pytest.fixture(scope="module")
def document():
    from django.test import Client

    response = Client().get("/api/v1/openapi.json")
    assert response.status_code == 200
    return json.loads(response.content)


def test_document_is_valid_openapi(document):
    validate(document)  # raises, naming the first error


READ = ("/api/v1/courses/{course_id}", "get")
VERSIONS = ("/api/v1/courses/{course_id}/versions", "get")
VERSION = ("/api/v1/courses/{course_id}/versions/{number}", "get")
REPLACE = ("/api/v1/courses/{course_id}/content", "put")
PATCH = ("/api/v1/courses/{course_id}/content", "patch")
REGENERATE = ("/api/v1/courses/{course_id}/regenerate", "post")
DELETE_COURSE = ("/api/v1/courses/{course_id}", "delete")
REVOKE_EXPORT = ("/api/v1/courses/{course_id}/exports/{export_id}", "delete")
UPDATE = ("/api/v1/courses/{course_id}", "patch")
ADD_LEARNER = ("/api/v1/courses/{course_id}/learners", "post")
ERASE_LEARNER = ("/api/v1/courses/{course_id}/learners/{learner_id}", "delete")
RESULTS = ("/api/v1/courses/{course_id}/results", "get")
LIST_COURSES = ("/api/v1/courses", "get")
LIST_JOBS = ("/api/v1/courses/jobs", "get")


def test_document_is_openapi_3_1_with_every_operation(document):
    assert document["openapi"].startswith("3.1")
    assert {(path, method) for path, ops in document["paths"].items() for method in ops} == {
        CREATE, POLL, EXPORT, READ, VERSIONS, VERSION, REPLACE, PATCH, REGENERATE, QUALITY,
        CREATE_SOURCE, LIST_SOURCES, GET_SOURCE, DELETE_SOURCE, DOWNLOAD, DELETE_COURSE, REVOKE_EXPORT,
        UPDATE, ADD_LEARNER, ERASE_LEARNER, RESULTS, LIST_COURSES, LIST_JOBS,
    }


def test_every_request_body_is_closed_to_fields_it_does_not_know(document):
    schemas = document["components"]["schemas"]
    bodies = [
        (path, method, media_type, body["schema"])
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        for media_type, body in operation.get("requestBody", {}).get("content", {}).items()
    ]

    assert len(bodies) == 10
    for path, method, media_type, schema in bodies:
        if "$ref" in schema:  # the one open body is a merge patch of the course document
            assert schemas[schema["$ref"].rsplit("/", 1)[1]]["additionalProperties"] is False, (path, method)
        else:
            assert (path, method, media_type) == (PATCH[0], PATCH[1], "application/merge-patch+json")


def test_a_400_lists_every_problem_with_its_path_and_allowed_values(document):
    body = document["components"]["schemas"]["ErrorBody"]
    problem = document["components"]["schemas"]["ErrorProblem"]

    assert body["required"] == ["code", "message"]
    assert body["properties"]["errors"]["items"] == {"$ref": "#/components/schemas/ErrorProblem"}
    assert set(problem["properties"]) == {"field", "message", "allowed"}
    assert set(problem["required"]) == {"field", "message"}


def test_the_lists_of_courses_and_jobs_page_and_filter_as_documented(document):
    def parameters(operation):
        return {parameter["name"]: parameter["schema"] for parameter in document["paths"][operation[0]][operation[1]]["parameters"]}

    courses, jobs = parameters(LIST_COURSES), parameters(LIST_JOBS)
    assert set(courses) == {"languageId", "createdAfter", "cursor", "limit", "X-Request-ID"}
    assert set(jobs) == {"status", "cursor", "limit", "X-Request-ID"}
    assert courses["limit"] == jobs["limit"] == {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}
    assert courses["createdAfter"]["format"] == "date-time"
    assert jobs["status"]["enum"] == ["pending", "running", "completed", "failed"]
    item = document["components"]["schemas"]["CourseListItem"]
    assert {"id", "name", "shareUrl", "createdAt", "version", "updatedAt"} <= set(item["required"])


def test_deleting_answers_204_and_names_its_own_codes(document):
    for path, method in (DELETE_COURSE, REVOKE_EXPORT):
        assert set(document["paths"][path][method]["responses"]) >= {"204", "401", "404", "429"}
    assert "COURSE_BUSY" in error_codes_in(document, *DELETE_COURSE)
    assert "exportId" in document["components"]["schemas"]["ExportOutput"]["required"]


def test_edits_and_reads_state_their_own_codes_and_the_etag(document):
    for operation in (REPLACE, PATCH):
        assert {"PRECONDITION_REQUIRED", "VERSION_CONFLICT", "COURSE_BUSY", "VERSION_LIMIT_REACHED"} <= error_codes_in(
            document, *operation
        )
        assert "ETag" in document["paths"][operation[0]][operation[1]]["responses"]["200"]["headers"]
    assert {"COURSE_BUSY", "USAGE_LIMIT_EXCEEDED_PLAN"} <= error_codes_in(document, *REGENERATE)
    read = document["paths"][READ[0]]["get"]
    assert set(read["responses"]) >= {"200", "304", "404"} and "ETag" in read["responses"]["304"]["headers"]
    content = document["components"]["schemas"]["CourseContent"]
    assert {"introduction", "chapters", "assessment"} <= set(content["properties"])
    assert document["components"]["schemas"]["CourseContentQuestion"]["properties"]["correctIndex"]


def test_the_upload_body_is_described_as_the_server_reads_it(document):
    body = document["paths"]["/api/v1/sources"]["post"]["requestBody"]
    schemas = document["components"]["schemas"]

    assert set(body["content"]) == {"multipart/form-data", "application/json"}
    multipart = body["content"]["multipart/form-data"]
    upload = schemas[multipart["schema"]["$ref"].rsplit("/", 1)[1]]
    assert upload["required"] == ["file"]
    assert upload["properties"]["file"]["format"] == "binary"
    assert set(upload["properties"]) == {"file", "name", "callbackUrl"}
    assert multipart["encoding"]["file"]["contentType"] == (
        "application/pdf, application/vnd.openxmlformats-officedocument.wordprocessingml.document, "
        "application/vnd.openxmlformats-officedocument.presentationml.presentation, text/html, text/markdown, "
        "text/plain"
    )
    by_url = schemas[body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]]
    assert by_url["required"] == ["url"]
    assert by_url["properties"]["url"]["pattern"] == by_url["properties"]["callbackUrl"]["pattern"]


def test_the_source_codes_are_documented(document):
    assert {"UNSUPPORTED_MEDIA_TYPE", "VALIDATION_ERROR", "STORAGE_LIMIT_EXCEEDED", "PAYLOAD_TOO_LARGE",
            "INVALID_API_KEY", "PAID_PLAN_REQUIRED", "RATE_LIMIT_EXCEEDED"} <= error_codes_in(document, *CREATE_SOURCE)
    assert "NOT_FOUND" in error_codes_in(document, *GET_SOURCE)
    assert "NOT_FOUND" in error_codes_in(document, *DELETE_SOURCE)


def test_the_document_is_the_same_every_time_it_is_served(document, client):
    again = json.loads(client.get("/api/v1/openapi.json").content)

    assert again == document


def test_servers_name_no_instance_so_generated_clients_take_the_address_as_a_setting(document, settings):
    assert document["servers"] == [{"url": "/", "description": "The service that serves this document."}]
    assert settings.PUBLIC_BASE_URL not in json.dumps(document["servers"])


def test_operation_ids_and_schema_names_that_clients_use_are_kept(document):
    operation_ids = {
        operation["operationId"]
        for operations in [*document["paths"].values(), *document["webhooks"].values()]
        for operation in operations.values()
    }
    schemas = set(document["components"]["schemas"])

    assert {
        "createCourse", "pollJob", "exportCourse", "downloadExport",
        "notifyCourseCreated", "notifyCourseFailed", "notifyCourseExported",
    } <= operation_ids
    assert {
        "CreateJobInputRequest", "JobAccepted", "JobOutput", "JobErrorOutput", "CourseOutput",
        "ExportCourseInputRequest", "ExportOutput", "ErrorBody", "CourseCreatedEvent", "CourseFailedEvent",
        "CourseExportedEvent", "FailedJobError", "AddOnsEnum", "CourseFormatEnum", "LanguageIdEnum",
        "ExportFormatEnum", "JobStatusEnum", "ErrorCodeEnum", "JobErrorCodeEnum", "JobAcceptedStatusEnum",
    } <= schemas


def test_every_tag_in_use_is_declared(document):
    used = {
        tag
        for operations in [*document["paths"].values(), *document["webhooks"].values()]
        for operation in operations.values()
        for tag in operation["tags"]
    }

    assert used == {tag["name"] for tag in document["tags"]}


def test_webhooks_need_no_key_and_have_operation_ids(document):
    for name, hook in document["webhooks"].items():
        assert hook["post"]["security"] == [], name
        assert hook["post"]["operationId"].startswith("notify"), name


@pytest.mark.parametrize("operation", CONTRACT_CODES)
def test_every_error_code_of_the_contract_is_documented(document, operation):
    assert CONTRACT_CODES[operation] <= error_codes_in(document, *operation)


def test_our_own_codes_are_documented_too(document):
    ours = {"IDEMPOTENCY_KEY_REUSED", "PAYLOAD_TOO_LARGE", "NOT_ACCEPTABLE", "SERVICE_UNAVAILABLE"}
    assert ours <= error_codes_in(document, *CREATE)
    assert ours <= error_codes_in(document, *EXPORT)


def every_error_class(root: type) -> list[type]:
    return [root, *(sub for cls in root.__subclasses__() for sub in every_error_class(cls))]


def test_the_error_code_enum_is_every_code_the_server_can_answer(document):
    import_module(settings.ROOT_URLCONF)  # every view, so that every error class is defined
    server_codes = {cls.code for cls in every_error_class(errors.AppError)}
    server_codes |= {code for _status, code, _message in errors._DRF_CODES.values()}

    enum = document["components"]["schemas"]["ErrorCodeEnum"]
    assert set(enum["enum"]) == server_codes
    assert document["components"]["schemas"]["ErrorBody"]["properties"]["code"]["allOf"] == [
        {"$ref": "#/components/schemas/ErrorCodeEnum"}
    ]
    # Each value says when it happens.
    for code in enum["enum"]:
        assert re.search(rf"^\* `{code}` - \d{{3}}\b.+", enum["description"], re.MULTILINE), code


def test_every_code_an_operation_lists_is_in_the_enum(document):
    enum = set(document["components"]["schemas"]["ErrorCodeEnum"]["enum"])
    for path, operations in document["paths"].items():
        if path.startswith("/api/"):
            for method in operations:
                assert error_codes_in(document, path, method) <= enum, (path, method)


def test_every_error_answer_shows_an_example_of_each_of_its_codes_and_no_other(document):
    # The interactive docs made up the examples from the enum's first value: every error answer, a
    # 401 or a 404 too, showed VALIDATION_ERROR.
    status_of = {code: int(re.match(r"\d{3}", meaning)[0]) for code, meaning in ERROR_CODES}
    checked = 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                listed = [line.split("`")[1] for line in answer["description"].splitlines() if line.startswith("- `")]
                if int(status) < 400 or not listed:
                    continue
                examples = answer["content"]["application/json"]["examples"].values()

                shown = [example["value"]["code"] for example in examples]

                assert shown == listed, (path, method, status)
                assert {status_of[code] for code in shown} == {int(status)}, (path, method, status)
                assert all(example["value"]["message"] for example in examples)
                checked += 1
    assert checked > 100


def test_the_examples_of_errors_are_worded_as_the_server_words_them(document):
    import_module(settings.ROOT_URLCONF)
    classes_by_code = {}
    for cls in every_error_class(errors.AppError):
        classes_by_code.setdefault(cls.code, set()).add(cls)
    # The codes whose one class always says the same.
    fixed = {
        code: cls.message
        for code, (cls,) in ((code, tuple(classes)) for code, classes in classes_by_code.items() if len(classes) == 1)
        if "__init__" not in vars(cls)
    }
    examples = {
        example["value"]["code"]: example["value"]["message"]
        for operations in document["paths"].values()
        for operation in operations.values()
        for answer in operation["responses"].values()
        for example in answer.get("content", {}).get("application/json", {}).get("examples", {}).values()
        if "code" in example.get("value", {})
    }

    assert {"INVALID_API_KEY", "PAID_PLAN_REQUIRED", "COURSE_BUSY", "IDEMPOTENCY_KEY_REUSED"} <= set(fixed) & set(examples)
    assert {code: examples[code] for code in fixed if code in examples} == {
        code: message for code, message in fixed.items() if code in examples
    }


def test_the_job_error_code_enum_is_every_failure_code_of_generation(document):
    enum = document["components"]["schemas"]["JobErrorCodeEnum"]
    schemas = document["components"]["schemas"]

    assert set(enum["enum"]) == {cls.code for cls in every_error_class(generation_errors.GenerationError)}
    assert {"GENERATION_FAILED", "GENERATION_TIMEOUT", "PROVIDER_UNAVAILABLE"} == set(enum["enum"])
    for code in enum["enum"]:
        assert re.search(rf"^\* `{code}` - \w.+", enum["description"], re.MULTILINE), code
    job_error_code = {"$ref": "#/components/schemas/JobErrorCodeEnum"}
    assert schemas["JobErrorOutput"]["properties"]["code"] == job_error_code
    assert schemas["FailedJobError"]["properties"]["code"]["allOf"] == [job_error_code]


def test_the_source_error_code_enum_is_every_code_a_source_fails_with(document):
    enum = document["components"]["schemas"]["SourceErrorCodeEnum"]
    schemas = document["components"]["schemas"]

    assert set(enum["enum"]) == {
        extraction.TOO_LARGE, extraction.ENCRYPTED, extraction.UNREADABLE, extraction.NO_TEXT,
        extraction.UNSUPPORTED, source_services.FETCH_FAILED, source_services.STORAGE_LIMIT,
        source_services.STORE_UNAVAILABLE,
    }
    for code in enum["enum"]:
        assert re.search(rf"^\* `{code}` - \w.+", enum["description"], re.MULTILINE), code
    source_error_code = {"$ref": "#/components/schemas/SourceErrorCodeEnum"}
    assert schemas["SourceErrorOutput"]["properties"]["code"] == source_error_code


def test_codes_clients_switch_on_are_enums(document):
    schemas = document["components"]["schemas"]

    assert schemas["JobAccepted"]["properties"]["status"]["allOf"] == [
        {"$ref": "#/components/schemas/JobAcceptedStatusEnum"}
    ]
    assert schemas["JobAcceptedStatusEnum"]["enum"] == ["pending"]
    assert schemas["JobOutput"]["properties"]["status"] == {"$ref": "#/components/schemas/JobStatusEnum"}
    assert schemas["LanguageIdEnum"]["enum"] == ["en-US", "pt-BR", "es-ES", "fr-FR", "de-DE"]
    assert schemas["CourseOutput"]["properties"]["languageId"] == {
        "$ref": "#/components/schemas/LanguageIdEnum"
    }


def test_the_download_link_is_described_without_a_key_or_rate_limit(document):
    download = document["paths"]["/downloads/{export_id}"]["get"]
    export_output = document["components"]["schemas"]["ExportOutput"]["properties"]

    assert download["security"] == []
    assert set(download["responses"]) == {"200", "404", "410"}
    # The zip, first as what it is, then as bytes for generators that read no other binary type.
    assert list(download["responses"]["200"]["content"].items()) == [
        ("application/zip", {"schema": {"type": "string", "format": "binary"}}),
        ("application/octet-stream", {"schema": {"type": "string", "format": "binary"}}),
    ]
    assert not any(name.startswith("RateLimit") for name in download["responses"]["200"]["headers"])
    assert "`downloadExport`" in export_output["downloadUrl"]["description"]
    assert "no API key" in export_output["downloadUrl"]["description"]


def test_every_answer_is_described(document):
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                assert answer["description"].strip(), (path, method, status)


def test_idempotency_key_states_its_scope_lifetime_and_replay(document):
    create = document["paths"]["/api/v1/courses"]["post"]
    [key] = [p for p in create["parameters"] if p["name"] == "Idempotency-Key"]

    assert key["schema"] == {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~][ -~]*$"}
    for words in ["**Scope**: one API key", "**Kept** for 24 hours", "returns the first answer again",
                  "`202` with the same `jobId`", "409 IDEMPOTENCY_KEY_REUSED", "**Errors are not kept**"]:
        assert words in key["description"]


def test_headers_bearer_scheme_and_error_body_are_described(document):
    create = document["paths"]["/api/v1/courses"]["post"]
    poll = document["paths"]["/api/v1/courses/jobs/{job_id}"]["get"]

    assert document["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "`Authorization: Bearer <API key>`; keys look like `cgs_` + 40 characters.",
    }
    assert create["security"] == [{"bearerAuth": []}]
    assert {"Idempotency-Key", "X-Request-ID"} <= {p["name"] for p in create["parameters"]}
    for answer in [*create["responses"].values(), *poll["responses"].values()]:
        assert {"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "X-Request-ID"} <= set(answer["headers"])
    def rate_limit_header(status: str) -> str:
        return create["responses"][status]["headers"]["RateLimit-Limit"]["description"]

    assert "Absent when the database" in rate_limit_header("503")
    assert "Absent" not in rate_limit_header("413")
    assert "Location" in create["responses"]["202"]["headers"]
    assert "Retry-After" in create["responses"]["429"]["headers"]
    assert "Retry-After" in poll["responses"]["200"]["headers"]
    assert document["components"]["schemas"]["ErrorBody"]["required"] == ["code", "message"]


def test_every_webhook_with_its_signature_headers(document):
    webhooks = document["webhooks"]

    assert set(webhooks) == {
        "course.created", "course.failed", "course.updated", "course.deleted", "course.exported", "source.ready",
        "source.failed", "learner.started", "learner.failed", "learner.passed", "learner.completed",
        "learner.signed",
    }
    for hook in webhooks.values():
        headers = {p["name"] for p in hook["post"]["parameters"] if p["in"] == "header"}
        assert headers == {"webhook-id", "webhook-timestamp", "webhook-signature"}
    created = document["components"]["schemas"]["CourseCreatedEvent"]["properties"]
    assert created["course"] == {"$ref": "#/components/schemas/CourseOutput"}
    source_event = document["components"]["schemas"]["SourceEvent"]["properties"]
    assert source_event["source"] == {"$ref": "#/components/schemas/SourceOutput"}


def test_learner_operations_state_their_answers_as_the_server_gives_them(document):
    schemas = document["components"]["schemas"]
    results = document["paths"][RESULTS[0]]["get"]
    add = document["paths"][ADD_LEARNER[0]]["post"]
    update = document["paths"][UPDATE[0]]["patch"]

    assert set(results["responses"]["200"]["content"]) == {"application/json", "text/csv"}
    assert results["responses"]["200"]["content"]["text/csv"]["schema"]["type"] == "string"
    assert all(set(answer["content"]) == {"application/json"}
               for status, answer in results["responses"].items() if status != "200")
    assert "Link" in results["responses"]["200"]["headers"]
    assert {p["name"] for p in results["parameters"]} >= {"completed", "passed", "since", "cursor", "limit"}
    assert set(add["responses"]) >= {"200", "201", "400", "404"}
    assert add["responses"]["201"]["links"]["EraseLearner"]["operationId"] == "eraseLearner"
    row = schemas["ResultOutput"]["properties"]
    assert list(row)[:12] == [
        "learnerId", "externalId", "name", "startedAt", "lastSeenAt", "progressPercent", "completedAt", "bestScore",
        "passed", "signedAt", "signedName", "version",
    ]
    settings_body = schemas[update["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]]
    assert settings_body["additionalProperties"] is False
    assert settings_body["properties"]["learnerCallbackUrl"]["type"] == ["string", "null"]
    assert (schemas["CreateJobInputRequest"]["properties"]["learnerCallbackUrl"]["pattern"]
            == schemas["CreateJobInputRequest"]["properties"]["callbackUrl"]["pattern"])
    assert "ETag" not in update["responses"]["200"]["headers"]  # settings are not a version
    for event in ("learner.started", "learner.failed", "learner.passed", "learner.completed", "learner.signed"):
        payload = document["webhooks"][event]["post"]["requestBody"]["content"]["application/json"]["schema"]
        properties = schemas[payload["$ref"].rsplit("/", 1)[1]]["properties"]
        assert {"event", "courseId", "learnerId", "externalId"} <= set(properties)


def test_export_formats_are_the_three_scorm_versions_and_cmi5_with_scorm12_the_default(document):
    schemas = document["components"]["schemas"]
    export_input = schemas["ExportCourseInputRequest"]["properties"]["format"]

    assert schemas["ExportFormatEnum"]["enum"] == ["scorm12", "scorm2004", "scorm2004_4", "cmi5"]
    assert export_input == {"allOf": [{"$ref": "#/components/schemas/ExportFormatEnum"}], "default": "scorm12"}
    assert schemas["CourseExportedEvent"]["properties"]["format"]["enum"] == schemas["ExportFormatEnum"]["enum"]


def test_the_create_states_the_defaults_the_contract_gives(document):
    # interface.md 4.1: format "onepage", languageId "en-US", addOns "default empty array".
    fields = document["components"]["schemas"]["CreateJobInputRequest"]["properties"]

    assert (fields["format"]["default"], fields["languageId"]["default"]) == ("onepage", "en-US")
    assert fields["addOns"]["default"] == fields["outline"]["default"] == []
    assert "default" not in fields["sources"]


def test_interactive_docs_are_served_without_a_cdn(client):
    page = client.get("/docs/")

    html = page.content.decode()
    assert page.status_code == 200
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in html
    assert "https://" not in html.replace("https://www.youtube-nocookie.com", "")


@pytest.mark.browser
def test_interactive_docs_render_in_a_browser_without_errors(live_server, page):
    violations = []
    page.on("console", lambda msg: "Content Security Policy" in msg.text and violations.append(msg.text))

    page.goto(f"{live_server.url}/docs/")
    page.wait_for_selector("text=Submit a course for generation", timeout=15000)
    for summary in ["Read a course: its latest version's whole document", "Generate one part of a course again",
                    "Change part of a course's document: a new version",
                    "Upload a document, or give the URL of one"]:
        page.wait_for_selector(f"text={summary}", timeout=15000)

    assert violations == []
    assert page.problems == []


def test_a_course_built_from_sources_and_its_citations_are_described(document):
    schemas = document["components"]["schemas"]
    create = document["paths"][CREATE[0]][CREATE[1]]

    sources = schemas["CreateJobInputRequest"]["properties"]["sources"]
    assert (sources["minItems"], sources["maxItems"], sources["items"]["pattern"]) == (
        1, 10, "^src_[A-Za-z0-9]{22}$",
    )
    assert "a source in `sources` is unknown" in create["responses"]["400"]["description"]
    examples = create["requestBody"]["content"]["application/json"]["examples"].values()
    assert any(example["value"].get("sources") for example in examples)
    content = schemas["CourseContent"]["properties"]
    assert content["schemaVersion"]["allOf"] == [{"$ref": "#/components/schemas/CourseSchemaVersionEnum"}]
    assert schemas["CourseSchemaVersionEnum"]["enum"] == [3]
    assert content["sources"]["items"] == {"$ref": "#/components/schemas/CourseContentSourceRef"}
    assert set(schemas["CourseContentSourceRef"]["properties"]) == {
        "id", "name", "title", "mediaType", "url", "deleted",
    }
    citation = {"$ref": "#/components/schemas/CourseContentCitation"}
    for part in ("Lesson", "Exercise", "Article", "Wrapup", "Question"):
        assert schemas[f"CourseContent{part}"]["properties"]["citations"]["items"] == citation, part
    quote = schemas["CourseContentCitation"]["properties"]["quote"]
    assert quote["maxLength"] == 300
    assert set(schemas["CourseContentCitation"]["required"]) == {"sourceId", "passageId", "quote"}


def test_every_key_the_api_takes_or_sends_is_camel_case(document):
    # The course document's included (courses.content): its keys were snake_case before version 3.
    names = set()

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("properties"), dict):
                names.update(node["properties"])
            if isinstance(node.get("required"), list):  # a parameter's is true or false
                names.update(node["required"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(document["components"]["schemas"])
    walk(document.get("webhooks", {}))

    assert {"correctIndex", "passageId", "schemaVersion", "languageId"} <= names
    assert [name for name in sorted(names) if not re.fullmatch(r"[a-z][A-Za-z0-9]*", name)] == []


def test_no_schema_is_described_by_how_the_service_builds_it(document):
    # A serializer's docstring becomes its schema's description, and a base class's is inherited.
    for name, schema in document["components"]["schemas"].items():
        assert "DRF" not in schema.get("description", ""), name


def test_the_example_of_a_400_lists_its_problem(document):
    answer = document["paths"]["/api/v1/courses"]["post"]["responses"]["400"]["content"]["application/json"]

    assert answer["examples"]["ValidationError"]["value"] == {
        "message": "subject: This field is required.",
        "code": "VALIDATION_ERROR",
        "errors": [{"field": "subject", "message": "This field is required."}],
    }
