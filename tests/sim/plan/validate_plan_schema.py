#!/usr/bin/env python3
"""Validates every plan in scenarios/plans/ and tests/sim/plan/data/ against docs/plan.schema.json.

Usage: validate_plan_schema.py <source dir>. Registered as the ctest
`plan.schema_accepts_every_plan`; fails when no plan was found.
"""
import json
import pathlib
import sys

import jsonschema
import yaml


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    schema = json.loads((root / "docs" / "plan.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures, checked = 0, 0
    paths = sorted((root / "scenarios").rglob("*.plan.yaml")) + sorted((root / "tests" / "sim" / "plan" / "data").glob("*.plan.yaml"))
    for path in paths:
        doc = yaml.safe_load(path.read_text())
        checked += 1
        for error in sorted(validator.iter_errors(doc), key=lambda e: list(e.path)):
            where = ".".join(str(p) for p in error.path) or "(document)"
            print(f"{path.relative_to(root)}: {where}: {error.message}")
            failures += 1
    print(f"{checked} plans checked, {failures} schema errors")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
