#!/usr/bin/env python3
"""tests/check/readmes/check_readmes.py: the folder READMEs of src/ and models/ cannot drift.

Each README must
  - state what the folder may include ("May include:") and name there every layer that
    cmake/Layers.cmake gives the folder's targets;
  - state its main entry points ("Entry points:");
  - name only files that exist: every file of its list (a table's first column, or the
    `name` tokens that lead a list item up to its colon; `x.h/.cpp`, `x.*` and `api_*.cpp`
    forms allowed);
  - name every header of the folder (the ones other folders include first of all).
Usage: check_readmes.py REPO_ROOT   (exit 1 with one line per problem)
"""
import fnmatch
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
SCANNED = ("src", "models", "tests", "proofs", "bench")
CODE = (".h", ".hpp", ".cpp", ".cc", ".c")
FILE_TOKEN = re.compile(r"^[\w.*/+-]+\.(?:\w+|\*)$|^[\w.*/+-]+/\.\w+$")
LEAD = re.compile(r"((?:`[^`]+`(?:\s*,\s*|\s+and\s+)?)+):")
BUILT = re.compile(r"\.so(\.\d+)*$")  # libraries the build makes, not files of the folder
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def readmes():
    for base in ("src", "models"):
        for dirpath, _dirs, files in os.walk(os.path.join(ROOT, base)):
            if "README.md" in files:
                yield dirpath


def expand(token):
    """`kfd_device.h/.cpp` -> kfd_device.h, kfd_device.cpp; anything else as it is."""
    m = re.match(r"^(.*)\.(\w+)((?:/\.\w+)+)$", token)
    if m:
        stem = m.group(1)
        return [f"{stem}.{m.group(2)}"] + [stem + ext for ext in m.group(3).split("/") if ext]
    return [token]


def listed_files(text):
    """Tokens of the README's file list: table first cells and list-item leads."""
    tokens = []
    table = None  # the first header cell of the table being read
    for line in text.splitlines():
        if not line.startswith("|"):
            table = None
        else:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if table is None:
                table = cells[0].lower() if cells else ""
                continue
            if table not in ("file", "files") or set(cells[0]) <= set("- :"):
                continue
            for part in re.split(r",\s*", cells[0]):
                part = part.strip().strip("`")
                if FILE_TOKEN.match(part):
                    tokens.extend(expand(part))
            continue
        for lead in LEAD.findall(line):
            for part in re.findall(r"`([^`]+)`", lead):
                if FILE_TOKEN.match(part) and not part.startswith("/") and not BUILT.search(part):
                    tokens.extend(expand(part))
    return tokens


def resolves(folder, token):
    for base in (folder, os.path.join(ROOT, "src"), ROOT):
        pattern = os.path.join(base, token)
        if os.path.exists(pattern):
            return True
        d, name = os.path.split(pattern)
        if any(ch in name for ch in "*?[") and os.path.isdir(d):
            if fnmatch.filter(os.listdir(d), name):
                return True
    return False


def covers(tokens, name):
    return any(fnmatch.fnmatch(name, os.path.basename(t)) for t in tokens if "/" not in t) or any(
        t.endswith("/" + name) for t in tokens)


def outside_includes():
    """folder (absolute) -> {header name: an including file outside that folder}."""
    found = {}
    for base in SCANNED:
        for dirpath, _dirs, files in os.walk(os.path.join(ROOT, base)):
            for f in files:
                if not f.endswith(CODE):
                    continue
                path = os.path.join(dirpath, f)
                try:
                    text = open(path, encoding="utf-8", errors="replace").read()
                except OSError:
                    continue
                for inc in INCLUDE.findall(text):
                    for root in (os.path.join(ROOT, "src"), ROOT):
                        target = os.path.normpath(os.path.join(root, inc))
                        if os.path.isfile(target):
                            folder = os.path.dirname(target)
                            if folder != dirpath:
                                found.setdefault(folder, {}).setdefault(os.path.basename(target),
                                                                        os.path.relpath(path, ROOT))
                            break
    return found


def layer_rules():
    text = open(os.path.join(ROOT, "cmake", "Layers.cmake"), encoding="utf-8").read()
    return {m.group(1): m.group(2).split() for m in re.finditer(r"^set\(ROCREF_LAYER_(\w+)\s+([^)]*)\)", text, re.M)}


def paragraph(text, start):
    """The paragraph that begins with `start` (up to the next blank line)."""
    m = re.search(r"^" + re.escape(start) + r".*?(?=\n\s*\n|\Z)", text, re.M | re.S)
    return m.group(0) if m else None


def main():
    problems = []
    includes = outside_includes()
    rules = layer_rules()
    for folder in sorted(readmes()):
        rel = os.path.relpath(folder, ROOT)
        text = open(os.path.join(folder, "README.md"), encoding="utf-8").read()
        tokens = listed_files(text)
        for t in tokens:
            if not resolves(folder, t):
                problems.append(f"{rel}/README.md names {t}, which does not exist")
        users = includes.get(folder, {})
        headers = {f for f in os.listdir(folder) if f.endswith((".h", ".hpp"))} | {
            h for h in users if h.endswith((".h", ".hpp"))}
        for header in sorted(headers):
            if not covers(tokens, header):
                user = f" (included by {users[header]})" if header in users else ""
                problems.append(f"{rel}/README.md omits {header}{user}")
        may = paragraph(text, "May include:")
        if rel != "src":  # src/README.md describes the layers, not a folder of code
            if may is None:
                problems.append(f"{rel}/README.md has no 'May include:' paragraph")
            if paragraph(text, "Entry points:") is None:
                problems.append(f"{rel}/README.md has no 'Entry points:' paragraph")
        layer = rel.split(os.sep)[1] if rel.startswith("src" + os.sep) and rel.count(os.sep) == 1 else (
            "models" if rel == "models" else None)
        if may is not None and layer in rules:
            for seen in rules[layer]:
                if seen != layer and not re.search(r"(?<![\w/])(?:src/)?" + seen + r"(?:/|`)", may):
                    problems.append(f"{rel}/README.md: 'May include' does not name {seen}/, which "
                                    f"cmake/Layers.cmake gives the layer")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
