#!/usr/bin/env bash
# tests/fuzz/longrun.sh BIN_DIR SECONDS OUT [HARNESS...]: the long run of already built harnesses
# (scripts/fuzz SECONDS builds them and calls this; a machine without clang runs it on copied
# binaries). Every harness runs at once in libFuzzer's fork mode with FUZZ_WORKERS workers
# (default nproc/number of harnesses, at least 1): a finding is saved to OUT/<name>/findings/ and
# the run goes on; new inputs go to OUT/<name>/corpus/, the log to OUT/<name>/fuzz.log. Seeds are
# read from tests/fuzz/corpus/<name> next to this script. Ends with summarize.sh's table.
set -euo pipefail
bin=$(cd "$1" && pwd)
seconds=$2
out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(kfd aql sdma pm4 thunk hsa hip preload)
workers=${FUZZ_WORKERS:-$(( $(nproc) / ${#harnesses[@]} ))}
[ "$workers" -ge 1 ] || workers=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for h in "${harnesses[@]}"; do
  mkdir -p "$out/$h/corpus" "$out/$h/findings"
  "$bin/fuzz_$h" -fork="$workers" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$seconds" \
    -max_len=4096 -timeout=20 -rss_limit_mb=3072 -artifact_prefix="$out/$h/findings/" \
    "$out/$h/corpus" "$here/corpus/$h" >"$out/$h/fuzz.log" 2>&1 &
done
wait
"$here/summarize.sh" "$out" "${harnesses[@]}"
