"""Validate the bot's request bodies against Discord's official OpenAPI description.

The spec is found through ``DISCORD_OPENAPI_SPEC`` or ``../shared/discord-api-spec/openapi.json``
beside the project root. It is loaded and prepared once per process; a validator is compiled once
per (method, path template). The spec is never copied into this repository.

Adjustments, each because the spec is stricter than what Discord really accepts:

- snowflakes (``SnowflakeType``) also accept non-negative integers: discord.py sends ids such as
  ``allowed_mentions.users`` as numbers;
- 64-bit integers (any ``integer`` schema that is not ``int32``, e.g. permission bit sets) also
  accept a string of digits: discord.py sends ``default_member_permissions`` as a string.
"""

from __future__ import annotations

import functools
import json
import os
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_ENV = "DISCORD_OPENAPI_SPEC"
PROJECT_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SPEC = PROJECT_ROOT / ".." / "shared" / "discord-api-spec" / "openapi.json"
SPEC_URI = "urn:discord-openapi"
_DIGITS = "^-?[0-9]+$"


@dataclass(frozen=True)
class Violation:
    """One reason Discord would reject a request: the field and what is wrong with it."""

    method: str
    path: str
    field: str
    message: str
    source: str = "openapi"  # "openapi" (the spec) or "limit" (an extra check in limits.py)
    code: str = "BASE_TYPE_INVALID"

    def __str__(self) -> str:
        return (
            f"{self.method} {self.path}: {self.field or '(body)'}: {self.message} [{self.source}]"
        )


def spec_location() -> Path:
    env = os.environ.get(SPEC_ENV)
    return Path(env) if env else DEFAULT_SPEC.resolve()


def _accepts_string(node: Any) -> bool:
    if not isinstance(node, dict):
        return False
    types = node.get("type")
    return types == "string" or (isinstance(types, list) and "string" in types)


def _relax(node: Any, *, ints_as_strings: bool = True) -> Any:
    """Return a copy of a spec node with the adjustments described in the module docstring.

    An integer that is one branch of a union with a string branch (``nonce``) is left alone, or
    a string would match both branches of a ``oneOf``.
    """
    if isinstance(node, list):
        return [_relax(item, ints_as_strings=ints_as_strings) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("oneOf", "anyOf") and isinstance(value, list):
            has_string = any(_accepts_string(branch) for branch in value)
            out[key] = [_relax(branch, ints_as_strings=not has_string) for branch in value]
        else:
            out[key] = _relax(value)
    types = out.get("type")
    type_list = types if isinstance(types, list) else [types]
    if ints_as_strings and "integer" in type_list and out.get("format") != "int32":
        out["type"] = [*type_list, "string"]
        out["pattern"] = _DIGITS
    return out


def _prepare(spec: dict[str, Any]) -> dict[str, Any]:
    prepared: dict[str, Any] = _relax(spec)
    schemas = prepared["components"]["schemas"]
    snowflake = schemas["SnowflakeType"]
    schemas["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
    return prepared


def split_path(path: str) -> list[str]:
    return [part for part in path.split("?", 1)[0].split("/") if part]


class PathMatcher:
    """Match a concrete request path against templated paths; literal segments win."""

    def __init__(self, templates: Iterable[str]) -> None:
        self._by_length: dict[int, list[tuple[str, list[str]]]] = defaultdict(list)
        for template in templates:
            parts = split_path(template)
            self._by_length[len(parts)].append((template, parts))

    def match(self, path: str) -> str | None:
        parts = split_path(path)
        best: tuple[int, str] | None = None
        for template, pattern in self._by_length.get(len(parts), []):
            score = 0
            for want, got in zip(pattern, parts, strict=True):
                if want.startswith("{") and want.endswith("}"):
                    continue
                if want != got:
                    break
                score += 1
            else:
                if best is None or score > best[0]:
                    best = (score, template)
        return None if best is None else best[1]


def _pointer(*parts: str) -> str:
    return "/".join(part.replace("~", "~0").replace("/", "~1") for part in parts)


def _field(error: ValidationError) -> str:
    return ".".join(str(part) for part in error.absolute_path)


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _describe(error: ValidationError) -> tuple[str, str]:
    """A readable message and a Discord-like error code for one schema error."""
    kind, value, instance = error.validator, error.validator_value, error.instance
    if kind == "maxLength":
        return f"must be {value} or fewer in length (got {len(instance)})", "BASE_TYPE_MAX_LENGTH"
    if kind == "minLength":
        return f"must be {value} or more in length (got {len(instance)})", "BASE_TYPE_MIN_LENGTH"
    if kind == "maxItems":
        return f"must have {value} or fewer items (got {len(instance)})", "BASE_TYPE_MAX_LENGTH"
    if kind == "minItems":
        return f"must have {value} or more items (got {len(instance)})", "BASE_TYPE_MIN_LENGTH"
    if kind == "required":
        return error.message, "BASE_TYPE_REQUIRED"
    if kind in ("enum", "const"):
        return f"{_short(instance)} is not one of {_short(value)}", "BASE_TYPE_CHOICES"
    if kind in ("maximum", "minimum"):
        return f"{_short(instance)} is out of range ({kind} {value})", "NUMBER_TYPE_OUT_OF_RANGE"
    if kind == "pattern":
        return f"{_short(instance)} does not match {value}", "STRING_TYPE_REGEX"
    if kind == "type":
        return f"{_short(instance)} is not of type {value}", "BASE_TYPE_BAD_TYPE"
    return error.message if len(error.message) < 200 else error.message[:197] + "...", kind.upper()


def _branch_fits(errors: list[ValidationError]) -> bool:
    """False when a union branch is plainly the wrong variant (its ``type`` tag or JSON type)."""
    for error in errors:
        path = list(error.relative_path)
        if path == ["type"] and error.validator in ("enum", "const"):
            return False
        if not path and error.validator == "type":
            return False
    return True


def leaf_errors(error: ValidationError) -> Iterator[ValidationError]:
    """Descend through anyOf/oneOf into the branch that was meant, to name the real field."""
    if not error.context:
        yield error
        return
    branches: dict[Any, list[ValidationError]] = defaultdict(list)
    for sub in error.context:
        branches[sub.relative_schema_path[0]].append(sub)
    fitting = [errors for errors in branches.values() if _branch_fits(errors)]
    if not fitting:
        yield best_match([error]) or error
        return
    chosen = min(fitting, key=len)
    for sub in chosen:
        yield from leaf_errors(sub)


class SpecValidator:
    """Validators for request bodies, built from one loaded spec."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = _prepare(spec)
        resource = Resource.from_contents(self.spec, default_specification=DRAFT202012)
        self._registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
        self.matcher = PathMatcher(self.spec["paths"])
        self._cache: dict[tuple[str, str], Draft202012Validator | None] = {}

    def _validator(self, method: str, template: str) -> Draft202012Validator | None:
        key = (method, template)
        if key not in self._cache:
            operation = self.spec["paths"][template].get(method.lower(), {})
            content = operation.get("requestBody", {}).get("content", {})
            validator = None
            if "application/json" in content:
                pointer = _pointer(
                    "paths", template, method.lower(), "requestBody", "content", "application/json"
                )
                schema = {"$ref": f"{SPEC_URI}#/{pointer}/schema"}
                validator = Draft202012Validator(schema, registry=self._registry)
            self._cache[key] = validator
        return self._cache[key]

    def validate(self, method: str, path: str, body: Any) -> list[Violation]:
        """Check ``body`` sent to ``method path`` (a concrete path, after the API prefix)."""
        template = self.matcher.match(path)
        if template is None:
            return []
        validator = self._validator(method, template)
        if validator is None:
            return []
        violations = []
        for error in validator.iter_errors(body):
            for leaf in leaf_errors(error):
                message, code = _describe(leaf)
                violations.append(Violation(method, template, _field(leaf), message, code=code))
        return violations


@functools.cache
def load_spec_validator() -> SpecValidator | None:
    """The process-wide validator, or None when the spec file is absent."""
    location = spec_location()
    if not location.is_file():
        return None
    with location.open(encoding="utf-8") as handle:
        return SpecValidator(json.load(handle))
