#!/usr/bin/env python3
"""merge_reports.py RC_FILE DIR: one GoogleTest XML report from per-test runs.

RC_FILE has a line "Suite.Name STATUS" per test; DIR/Suite.Name.xml is that test's own report.
A test whose process ended before reporting (a crash, a hang) becomes a failure that says so.
"""
import os
import sys
import xml.etree.ElementTree as ET


def main() -> int:
    rc_file, folder = sys.argv[1], sys.argv[2]
    suites = {}
    for line in open(rc_file):
        test, status = line.split()
        suite, name = test.split(".", 1)
        case = None
        report = os.path.join(folder, test + ".xml")
        if os.path.exists(report):
            case = next((c for c in ET.parse(report).iter("testcase") if c.get("name") == name), None)
        if case is None:
            case = ET.Element("testcase", name=name, classname=suite, status="run", result="completed", time="0")
            failure = ET.SubElement(case, "failure",
                                    message=f"the test process ended with status {status} (a crash or a hang) before reporting")
            failure.text = f"exit status {status}"
        suites.setdefault(suite, []).append(case)
    root = ET.Element("testsuites", name="AllTests")
    for suite, cases in suites.items():
        element = ET.SubElement(root, "testsuite", name=suite, tests=str(len(cases)))
        element.extend(cases)
    print(ET.tostring(root, encoding="unicode"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
