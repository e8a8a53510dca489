#!/usr/bin/env bash
# run_on_cuda.sh HIP_INCLUDE GOOGLETEST_SRC OUT_XML [ARCH]: the HIP suite on HIP over CUDA.
#   HIP_INCLUDE     Debian's HIP 5.2.3 headers (the folder holding hip/, e.g. a copy of /usr/include)
#   GOOGLETEST_SRC  GoogleTest's sources (Debian's /usr/src/googletest/googletest)
#   OUT_XML         the GoogleTest XML report, one test per process (a crash fails that test only)
#   ARCH            nvcc's -arch (default sm_90)
# Needs nvcc (CUDA 13), g++ and python3. The headers are adapted to CUDA 13 (adapt_cuda13.py);
# files that use AMD-only API compile to nothing for NVIDIA (HIP_SUITE_AMD_API, hip_suite.h).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
suite=$(dirname "$here")
hip_include=$1 gtest=$2 out=$(realpath -m "$3") arch=${4:-sm_90}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/adapt_cuda13.py" "$hip_include/hip" "$work/include"
g++ -O1 -std=c++17 -I"$gtest/include" -I"$gtest" -c "$gtest/src/gtest-all.cc" -o "$work/gtest-all.o" &
g++ -O1 -std=c++17 -I"$gtest/include" -I"$gtest" -c "$gtest/src/gtest_main.cc" -o "$work/gtest_main.o" &
for f in "$suite"/*.cpp; do
  nvcc -x cu -std=c++17 -arch="$arch" -D__HIP_PLATFORM_NVIDIA__ -DROCREF_HIP_IMPL_NAME='"hip-cuda"' \
    -I"$work/include" -I"$gtest/include" -c "$f" -o "$work/$(basename "$f").o" &
done
wait
nvcc -arch="$arch" -o "$work/hip_cuda" "$work"/*.cpp.o "$work/gtest-all.o" "$work/gtest_main.o" -lcuda
"$work/hip_cuda" --gtest_list_tests |
  awk '/^[^ ]/ { suite = $1 } /^  / { print suite $1 }' > "$work/tests.txt"
mkdir -p "$work/x"
while read -r t; do
  rc=0
  GTEST_OUTPUT="xml:$work/x/$t.xml" timeout 60 "$work/hip_cuda" --gtest_filter="$t" > "$work/x/$t.log" 2>&1 || rc=$?
  echo "$t $rc" >> "$work/rc.txt"
done < "$work/tests.txt"
python3 "$here/merge_reports.py" "$work/rc.txt" "$work/x" > "$out"
