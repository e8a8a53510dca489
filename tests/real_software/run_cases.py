#!/usr/bin/env python3
"""Run a GoogleTest program one test case per process under `rocref exec` and write the column.

Each case runs alone (a crash or hang hides nothing else) with a timeout. Outcomes: pass, fail
(the case reported a failure), crash (the process died or exited non-zero without a gtest
verdict), hang (the timeout), skip (GTEST_SKIP). Writes a GoogleTest-style XML report (the form
tests/conformance/matrix/recorded/ keeps) and a Markdown summary with the first error line of
every non-pass.
"""
import argparse, fnmatch, html, json, os, re, subprocess, sys, time

def list_cases(prog):
    out = subprocess.run([prog, "--gtest_list_tests"], capture_output=True, text=True, check=True).stdout
    cases, suite = [], None
    for line in out.splitlines():
        if not line.strip():
            continue
        if not line.startswith(" "):
            suite = line.split("#")[0].strip()
        else:
            cases.append(suite + line.split("#")[0].strip())
    return cases

def first_error(text):
    for pat in (r"queue error\s+packet \d+: (.*)", r"(ISA-ERR-\d: .*)", r"(HSA_STATUS_ERROR\w*.*)",
                r"^(.*[Ff]ailure.*)$", r"^(Expected.*)$", r"^(Value of: .*)$"):
        m = re.search(pat, text, re.M)
        if m:
            return m.group(1).strip()[:300]
    lines = [l for l in text.splitlines() if l.strip() and not l.startswith("[")]
    return lines[-1][:300] if lines else ""

def run_case(cmd, case, timeout, env):
    t0 = time.time()
    try:
        p = subprocess.run(cmd + ["--gtest_filter=" + case], capture_output=True, text=True,
                           errors="replace", timeout=timeout, env=env)
        out = p.stdout + p.stderr
        rc = p.returncode
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return "hang", "no verdict after %d s" % timeout, time.time() - t0
    dt = time.time() - t0
    if "[  SKIPPED ]" in out:
        m = re.search(r"Skipped\n?(.*)", out)
        return "skip", (m.group(1).strip() if m else "skipped"), dt
    if rc == 0 and "[       OK ]" in out:
        return "pass", "", dt
    if "[  FAILED  ]" in out and rc == 1:
        return "fail", first_error(out), dt
    return "crash", ("exit %d: " % rc) + first_error(out), dt

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prog", required=True)
    ap.add_argument("--suite", required=True)
    ap.add_argument("--column", required=True)
    ap.add_argument("--rocref", required=True)
    ap.add_argument("--filter", action="append", default=[], help="fnmatch pattern; any matches")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--out", required=True, help="folder for NAME.xml and NAME.md")
    ap.add_argument("--seed", default=None)
    ap.add_argument("--known", default=os.path.join(os.path.dirname(__file__), "known_failures.tsv"))
    a = ap.parse_args()
    known = []
    if os.path.exists(a.known):
        for line in open(a.known):
            if line.strip() and not line.startswith("#"):
                glob, reason = line.rstrip("\n").split("\t", 1)
                known.append((glob, reason))
    cases = list_cases(a.prog)
    if a.filter:
        cases = [c for c in cases if any(fnmatch.fnmatch(c, f) for f in a.filter)]
    cmd = [a.rocref, "exec"] + (["--drop-ins"] if a.column == "drop-ins" else []) + ["--", a.prog]
    env = dict(os.environ)
    if a.seed is not None:
        env["ROCREF_GPU_SEED"] = a.seed
    name = "%s-%s" % (a.suite, a.column) + ("-seed%s" % a.seed if a.seed is not None else "")
    results, t_start = [], time.time()
    for i, c in enumerate(cases, 1):
        outcome, err, dt = run_case(cmd, c, a.timeout, env)
        why = next((r for g, r in known if fnmatch.fnmatch(c, g)), None)
        if why and outcome != "pass":
            err = "known (%s): %s" % (why, err)
        results.append((c, outcome, err, dt))
        print("[%d/%d] %s %s (%.1f s)%s" % (i, len(cases), outcome, c, dt, (": " + err) if err else ""),
              flush=True)
    wall = time.time() - t_start
    counts = {k: sum(1 for r in results if r[1] == k) for k in ("pass", "fail", "crash", "hang", "skip")}
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, name + ".xml"), "w") as f:
        f.write('<testsuites name="%s" tests="%d">\n' % (html.escape(name), len(results)))
        by_suite = {}
        for r in results:
            by_suite.setdefault(r[0].split(".")[0], []).append(r)
        for s, rs in by_suite.items():
            f.write('<testsuite name="%s" tests="%d">\n' % (html.escape(s), len(rs)))
            for c, o, e, dt in rs:
                f.write('  <testcase name="%s" classname="%s" status="run" result="%s" time="%.3f">' %
                        (html.escape(c.split(".", 1)[1]), html.escape(s),
                         "skipped" if o == "skip" else "completed", dt))
                if o in ("fail", "crash", "hang"):
                    f.write('<failure message="%s: %s" type="%s"/>' % (o, html.escape(e, quote=True), o))
                elif o == "skip":
                    f.write('<skipped message="%s"/>' % html.escape(e, quote=True))
                f.write("</testcase>\n")
            f.write("</testsuite>\n")
        f.write("</testsuites>\n")
    with open(os.path.join(a.out, name + ".md"), "w") as f:
        f.write("# %s\n\n" % name)
        f.write("%d cases, one process each under `rocref exec%s`, %d s timeout; wall %.0f s.\n\n" %
                (len(results), " --drop-ins" if a.column == "drop-ins" else "", a.timeout, wall))
        f.write("| pass | fail | crash | hang | skip |\n|---|---|---|---|---|\n")
        f.write("| %(pass)d | %(fail)d | %(crash)d | %(hang)d | %(skip)d |\n\n" % counts)
        bad = [r for r in results if r[1] != "pass"]
        if bad:
            f.write("| case | outcome | first error line |\n|---|---|---|\n")
            for c, o, e, dt in bad:
                f.write("| %s | %s | %s |\n" % (c, o, e.replace("|", "\\|")))
    print("%s: %d passed, %d failed, %d crashed, %d hung, %d skipped (%.0f s)" %
          (name, counts["pass"], counts["fail"], counts["crash"], counts["hang"], counts["skip"], wall))
    unexplained = [r for r in results if r[1] in ("fail", "crash", "hang") and not r[2].startswith("known (")]
    print("%d unexplained" % len(unexplained))
    return 0 if not unexplained else 1

if __name__ == "__main__":
    sys.exit(main())
