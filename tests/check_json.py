#!/usr/bin/env python3
"""Check a JSON document against a JSON Schema, for make check.

Usage: check_json.py SCHEMA FILE

The subset of JSON Schema that doc/report.schema.json uses: type (one or a
list), const, enum, required, properties, additionalProperties (true, false
or a schema), items, minimum. The file must be valid UTF-8 and valid JSON.
Prints each violation with its path and exits 1 when there is one."""
import json
import sys

TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def check(schema, value, path, errors):
    if schema is True:
        return
    if schema is False:
        errors.append(f"{path}: not allowed")
        return
    kinds = schema.get("type")
    if kinds is not None:
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if not any(TYPES[k](value) for k in kinds):
            errors.append(f"{path}: {value!r} is not of type {kinds}")
            return
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} is not one of {schema['enum']}")
    if "minimum" in schema and TYPES["number"](value) and value < schema["minimum"]:
        errors.append(f"{path}: {value!r} is below {schema['minimum']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                errors.append(f"{path}: lacks {key!r}")
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, sub in value.items():
            check(props.get(key, extra), sub, f"{path}.{key}", errors)
    if isinstance(value, list) and "items" in schema:
        for i, sub in enumerate(value):
            check(schema["items"], sub, f"{path}[{i}]", errors)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    schema = json.load(open(sys.argv[1], encoding="utf-8"))
    with open(sys.argv[2], "rb") as f:
        raw = f.read()
    try:
        document = json.loads(raw.decode("utf-8", errors="strict"))
    except (UnicodeDecodeError, ValueError) as e:
        sys.exit(f"{sys.argv[2]}: not UTF-8 JSON: {e}")
    errors = []
    check(schema, document, "$", errors)
    for e in errors:
        print(f"{sys.argv[2]}: {e}")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
