"""Reads a JUnit XML file as junitparser does and prints what it read as JSON, for
tests/consumers.rs: per suite its counts and per case its name, class name and the
kind and message of its result."""
import json
import sys

from junitparser import JUnitXml

xml = JUnitXml.fromfile(sys.argv[1])
suites = []
for suite in xml:
    cases = []
    for case in suite:
        cases.append({
            "name": case.name,
            "classname": case.classname,
            "results": [{"kind": type(r).__name__.lower(), "message": r.message, "text": r.text} for r in case.result],
        })
    suites.append({"name": suite.name, "tests": suite.tests, "failures": suite.failures, "errors": suite.errors,
                   "skipped": suite.skipped, "cases": cases})
print(json.dumps({"tests": xml.tests, "failures": xml.failures, "errors": xml.errors, "suites": suites}))
