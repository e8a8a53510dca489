#!/usr/bin/env python3
"""tests/check/readmes/planted_drift.py: check_readmes.py must catch each kind of README drift.

Copies the tree's READMEs, code and cmake/Layers.cmake to a scratch folder, checks that the copy
passes, then plants one drift at a time (a README naming a missing file; a README omitting a
header; a 'May include' without a layer its targets get; no 'Entry points') and checks that
check_readmes.py fails on each, naming it.
Usage: planted_drift.py REPO_ROOT SCRATCH_DIR
"""
import os
import shutil
import subprocess
import sys

ROOT, SCRATCH = (os.path.abspath(a) for a in sys.argv[1:3])
CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_readmes.py")
KEEP = (".h", ".hpp", ".cpp", ".cc", ".c", ".md", ".map", ".cmake")


def copy_tree():
    shutil.rmtree(SCRATCH, ignore_errors=True)
    for base in ("src", "models", "tests", "proofs", "bench", "cmake"):
        for dirpath, _dirs, files in os.walk(os.path.join(ROOT, base)):
            for f in files:
                if f.endswith(KEEP):
                    src = os.path.join(dirpath, f)
                    dst = os.path.join(SCRATCH, os.path.relpath(src, ROOT))
                    os.makedirs(os.path.dirname(dst), exist_ok=True)
                    shutil.copy2(src, dst)


def check():
    r = subprocess.run([sys.executable, CHECK, SCRATCH], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def edit(rel, old, new):
    path = os.path.join(SCRATCH, rel)
    text = open(path, encoding="utf-8").read()
    if old not in text:
        sys.exit(f"plant: '{old}' not in {rel}")
    open(path, "w", encoding="utf-8").write(text.replace(old, new, 1))
    return path, text


PLANTS = [
    ("src/gpu/vm/README.md", "May include:", "- `tlb_walker.h`: planted, no such file.\n\nMay include:",
     "names tlb_walker.h, which does not exist"),
    ("src/kfd/README.md", "- `kfd_mutant.h`:", "- planted:", "omits kfd_mutant.h"),
    ("src/clr/README.md", "`common/`.", "the planted nothing.", "does not name common/"),
    ("src/hsa/README.md", "Entry points:", "Planted points:", "has no 'Entry points:' paragraph"),
]


def main():
    copy_tree()
    rc, out = check()
    if rc != 0:
        sys.exit(f"the unplanted copy must pass:\n{out}")
    failures = []
    for rel, old, new, expected in PLANTS:
        path, original = edit(rel, old, new)
        rc, out = check()
        open(path, "w", encoding="utf-8").write(original)
        if rc == 0 or expected not in out:
            failures.append(f"{rel}: planted drift not reported as '{expected}' (rc {rc}):\n{out}")
        else:
            print(f"{rel}: caught: {expected}")
    if failures:
        sys.exit("\n".join(failures))


if __name__ == "__main__":
    main()
