#!/usr/bin/env python3
"""Validates every scenario in scenarios/ against docs/scenario.schema.json.

A file is a scenario when its (single) document says `kind: Scenario`; files of Kubernetes
objects (the walkthrough clusters) are skipped. Usage: validate_schema.py <source dir>.
Registered as the ctest `scenario.schema_accepts_every_scenario`.
"""
import json
import pathlib
import sys

import jsonschema
import yaml


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    schema = json.loads((root / "docs" / "scenario.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures, checked = 0, 0
    for path in sorted((root / "scenarios").rglob("*.yaml")):
        docs = [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
        if len(docs) != 1 or not isinstance(docs[0], dict) or docs[0].get("kind") != "Scenario":
            continue
        checked += 1
        for error in sorted(validator.iter_errors(docs[0]), key=lambda e: list(e.path)):
            where = ".".join(str(p) for p in error.path) or "(document)"
            print(f"{path.relative_to(root)}: {where}: {error.message}")
            failures += 1
    print(f"{checked} scenarios checked, {failures} schema errors")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
