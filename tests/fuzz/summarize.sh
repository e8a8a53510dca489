#!/usr/bin/env bash
# tests/fuzz/summarize.sh OUT HARNESS...: one line per harness of a long run (scripts/fuzz SECONDS,
# libFuzzer fork mode): executions, cov and ft from the last status line of OUT/<name>/fuzz.log,
# and the crash/timeout/oom counts and saved findings.
set -euo pipefail
out=$1
shift
total=0
printf '%-8s %14s %7s %8s %18s %s\n' harness executions cov ft crash/timeout/oom findings
for h in "$@"; do
  line=$(grep -E '^#[0-9]+: cov: ' "$out/$h/fuzz.log" 2>/dev/null | tail -n 1 || true)
  execs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$line")
  cov=$(grep -oE 'cov: [0-9]+' <<<"$line" | grep -oE '[0-9]+' || true)
  ft=$(grep -oE 'ft: [0-9]+' <<<"$line" | grep -oE '[0-9]+' || true)
  bad=$(grep -oE 'oom/timeout/crash: [0-9]+/[0-9]+/[0-9]+' <<<"$line" | awk -F'[ /]' '{print $6"/"$5"/"$4}' || true)
  findings=$(find "$out/$h/findings" -type f 2>/dev/null | wc -l)
  total=$((total + ${execs:-0}))
  printf '%-8s %14s %7s %8s %18s %s\n' "$h" "${execs:-0}" "${cov:-0}" "${ft:-0}" "${bad:-?}" "$findings"
done
echo "total executions: $total"
