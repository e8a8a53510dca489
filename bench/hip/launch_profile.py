#!/usr/bin/env python3
"""Instructions per HIP launch, layer by layer, counted by callgrind.

Runs bench_hip_launch's Hip_LaunchProfile (a fixed number of launch ->
hipStreamSynchronize rounds) under valgrind --tool=callgrind, reads the
profile's inclusive costs and prints what each layer executes per launch:

  host_launch   the application thread's launch (HIP + command layer + AQL submit)
  hip           of which HIP: argument packing, stream, device and function lookup
  command       of which the command layer (VirtualGpu::launch: kernarg, signal, packet, doorbell)
  to_doorbell   of which the part before the doorbell (what the GPU model waits for)
  after_doorbell of which the part after it: the completed commands' signals back to the pool
  host_sync     hipStreamSynchronize without the signal wait's own loop
  gpu_step      the GPU model thread per dispatch (PacketProcessor::step: fetch, checks,
                the grid, completion)
  gpu_dispatch  of which the grid (KernelExecutor::run)
  idle_poll     one scheduler poll of a queue (AqlHwQueue::runnable), per call
  round         one engine-scheduler round without its packet work (locks, engine list,
                both schedulers' slices, the queue poll), per round

Wall-clock time under load varies; these counts do not (except idle polls'
number, which is why idle_poll is per poll, not per launch).

  launch_profile.py BENCH [--json FILE] [--check BASELINE]

--check: every figure named in BASELINE ("name instructions" lines, '#'
comments) must be within 10%; exit 3 when one grew, 2 when the profile could
not be taken.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

TOLERANCE = 0.10

# name -> regex of the function whose inclusive cost it is (callgrind's demangled names).
FUNCTIONS = {
    "launch_once": r"profile_launch_once\(",
    "sync_once": r"profile_sync_once\(",
    "clr_launch": r"^rocref::clr::VirtualGpu::launch\(",
    "after_doorbell": r"^rocref::clr::VirtualGpu::after_doorbell_locked\(\)",
    "signal_wait": r"^rocref::sig::Signal::wait\(",
    "step": r"^rocref::gpu::PacketProcessor::step\(\)$",
    "grid": r"^rocref::gpu::KernelExecutor::run\(",
    "poll": r"^rocref::kfd::AqlHwQueue::runnable\(\)",
    "round": r"^rocref::gpu::EngineScheduler::round\(\)",
}


def parse_callgrind(path):
    """Self cost and inclusive cost of calls, per function name; call counts per callee."""
    names = {"fn": {}, "cfn": {}}
    self_cost = defaultdict(int)
    call_cost = defaultdict(int)
    calls = defaultdict(int)
    current = None
    pending_callee = None
    pending_calls = 0
    fn_ids = {}

    def resolve(value):
        m = re.match(r"\((\d+)\)(?: (.*))?$", value)
        if not m:
            return value
        if m.group(2) is not None:
            fn_ids[m.group(1)] = m.group(2)
        return fn_ids.get(m.group(1), value)

    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("fn="):
                current = resolve(line[3:])
                continue
            if line.startswith("cfn="):
                pending_callee = resolve(line[4:])
                continue
            if line.startswith("calls="):
                pending_calls = int(line[6:].split()[0])
                continue
            if not line or not (line[0].isdigit() or line[0] in "+-*"):
                continue
            fields = line.split()
            if len(fields) < 2 or current is None:
                continue
            cost = int(fields[-1])
            if pending_calls:
                call_cost[current] += cost
                calls[pending_callee] += pending_calls
                pending_calls = 0
            else:
                self_cost[current] += cost
    inclusive = defaultdict(int)
    for name in set(self_cost) | set(call_cost):
        inclusive[name] = self_cost[name] + call_cost[name]
    return inclusive, calls


def pick(inclusive, calls, pattern):
    """Inclusive cost and call count summed over the functions matching pattern."""
    rx = re.compile(pattern)
    cost = count = 0
    for name, value in inclusive.items():
        if rx.search(name):
            cost += value
            count += calls.get(name, 0)
    return cost, count


def figures(profile):
    inclusive, calls = parse_callgrind(profile)
    got = {key: pick(inclusive, calls, rx) for key, rx in FUNCTIONS.items()}
    launches = got["launch_once"][1]
    dispatches = got["grid"][1]
    if launches == 0 or dispatches == 0:
        raise RuntimeError("the profile has no counted launch or dispatch (were the functions renamed?)")
    out = {"launches": launches, "dispatches": dispatches}
    out["host_launch"] = got["launch_once"][0] / launches
    out["command"] = got["clr_launch"][0] / launches
    out["hip"] = out["host_launch"] - out["command"]
    out["after_doorbell"] = got["after_doorbell"][0] / launches
    out["to_doorbell"] = out["host_launch"] - out["after_doorbell"]
    out["host_sync"] = (got["sync_once"][0] - got["signal_wait"][0]) / launches
    out["gpu_step"] = got["step"][0] / dispatches
    out["gpu_dispatch"] = got["grid"][0] / dispatches
    polls = got["poll"][1]
    out["idle_poll"] = got["poll"][0] / polls if polls else 0.0
    rounds = got["round"][1]
    # The scheduler's own cost per round (locks, engine list, slices, queue polls), dispatches
    # excluded: an idle round is the doorbell's polling period.
    out["round"] = (got["round"][0] - got["step"][0]) / rounds if rounds else 0.0
    return out


def take_profile(bench, workdir):
    out = os.path.join(workdir, "launch.callgrind")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, bench,
           "--benchmark_filter=^Hip_LaunchProfile/"]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0 or not os.path.exists(out):
        raise RuntimeError("callgrind run failed (%d): %s" % (done.returncode, done.stderr[-2000:]))
    return out


def read_baseline(path):
    entries = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if len(line) == 2:
                try:
                    entries[line[0]] = float(line[1])
                except ValueError:
                    pass
    return entries


LABELS = [
    ("host_launch", "host: launch (HIP + command layer + submit)"),
    ("hip", "  of which HIP"),
    ("command", "  of which the command layer"),
    ("to_doorbell", "  of which up to the doorbell"),
    ("after_doorbell", "  of which after it (giving back what completed)"),
    ("host_sync", "host: hipStreamSynchronize without the wait loop"),
    ("gpu_step", "GPU model: packet processor per dispatch"),
    ("gpu_dispatch", "  of which the grid"),
    ("idle_poll", "GPU model: one scheduler poll of a queue"),
    ("round", "GPU model: one scheduler round, dispatches excluded"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bench", help="path of bench_hip_launch")
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--check", help="baseline file: fail (exit 3) when a figure grew > 10%%")
    parser.add_argument("--profile", help="read this callgrind file instead of running the bench")
    args = parser.parse_args()
    try:
        if args.profile:
            result = figures(args.profile)
        else:
            with tempfile.TemporaryDirectory(prefix="rocref-launch-profile-") as tmp:
                result = figures(take_profile(args.bench, tmp))
    except (RuntimeError, OSError) as e:
        print("launch_profile: %s" % e, file=sys.stderr)
        return 2
    print("instructions per launch (%d launches, %d dispatches):" % (result["launches"], result["dispatches"]))
    for key, label in LABELS:
        print("  %-52s %9.1f" % (label, result[key]))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=2)
    if not args.check:
        return 0
    baseline = read_baseline(args.check)
    if not baseline:
        print("launch_profile: %s has no entries" % args.check, file=sys.stderr)
        return 2
    regressed = 0
    for key, base in baseline.items():
        if key not in result:
            print("launch_profile: %s names an unknown figure %s" % (args.check, key), file=sys.stderr)
            return 2
        value = result[key]
        verdict = "ok"
        if not value <= base * (1 + TOLERANCE):
            verdict = "REGRESSED"
            regressed += 1
        elif value < base * (1 - TOLERANCE):
            verdict = "improved: lower the baseline"
        print("%-12s %9.1f (baseline %.1f, limit %.1f): %s" % (key, value, base, base * (1 + TOLERANCE), verdict))
    return 3 if regressed else 0


if __name__ == "__main__":
    sys.exit(main())
