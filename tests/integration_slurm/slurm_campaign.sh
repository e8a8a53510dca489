#!/usr/bin/env bash
# tests/integration_slurm/slurm_campaign.sh ROCREF SRC BUILD: `rocref campaign submit` through a real
# single-node Slurm started here (spec/campaign.md CAMP-RUN-2, CAMP-MRG-1..3).
#
# Starts munged and Slurm (Debian's munge and slurm-wlm) as root from a temporary folder, with no
# systemd and no cgroups, submits a verify campaign (five quick rows) and an adversarial-GPU seed
# campaign (three seeds of blit-mutants) as job arrays, merges them and compares the merged
# verdicts with the local runner's and with `rocref verify --jobs 2`; then plants faults in
# copies of the results (an item's result dropped, a verify row's --json dropped, a result under
# another item's name, two folders holding the same items, a failed item) and demands that each
# is caught. Exit 77 (ctest skips) only where the daemons cannot start; every daemon it started
# is stopped on the way out, whatever happened (trap).
#
# What running Slurm by hand inside one machine needed (slurm-wlm 22.05, munge 0.5.15):
# - munged takes every path on its command line (--socket, --key-file, --pid-file, --log-file,
#   --seed-file); a key from `mungekey --create --keyfile=F`; -F keeps it in the foreground so
#   its pid is ours. Slurm finds that socket through AuthInfo=socket=PATH.
# - SlurmUser=root and SlurmdUser=root (the daemons run as root, no slurm account needed);
#   ProctrackType=proctrack/linuxproc and TaskPlugin=task/none: no cgroup filesystem is needed;
#   accounting_storage/none and jobacct_gather/none: no slurmdbd.
# - Own ports (SlurmctldPort/SlurmdPort), so a real Slurm on the same machine is not disturbed,
#   and every state, spool, pid and log path under the temporary folder.
# - The node line is `slurmd -C`'s (this machine's CPUs and memory), under `hostname -s`.
# - slurmctld and slurmd with -D (foreground) in the background, -f the temporary conf; the
#   node shows `idle` in sinfo a second or two later. `slurmctld: error: ... pmix` and "Could
#   not open ... state file" on a first start are harmless.
# - Jobs run as root in the submitting folder; their output goes to --output files.
# - Batch steps run under slurmstepd, which outlives slurmd: every process started here
#   inherits SLURM_CONF=<this folder>/slurm.conf, and the cleanup ends exactly those.
set -uo pipefail
rocref=$1
src=$2
build=$3

skip() {
  echo "SKIP: $*"
  exit 77
}
die() {
  echo "FAIL: $*"
  for f in "$T"/log/*.log; do [[ -f $f ]] && { echo "== $f"; tail -n 20 "$f"; }; done
  exit 1
}

for p in munged mungekey slurmctld slurmd sinfo sbatch squeue scancel; do
  command -v "$p" >/dev/null || skip "$p is not installed (scripts/setup installs munge, slurm-wlm and slurm-client)"
done
((EUID == 0)) || skip "the single-node Slurm runs its daemons as root (SlurmUser=root); not root here"
[[ -x $build/tests/unit/hsa/hsa_adversarial_blit_test ]] || { echo "FAIL: blit-mutants suite not built"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/rocref-slurm-XXXXXX")
chmod 755 "$T"
mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/log"
chmod 700 "$T/munge"
export SLURM_CONF=$T/slurm.conf
pids=()

cleanup() {
  local status=$?
  squeue -h -o %i 2>/dev/null | xargs -r scancel 2>/dev/null
  for ((i = ${#pids[@]} - 1; i >= 0; --i)); do kill "${pids[i]}" 2>/dev/null; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  # Anything else started from here (slurmstepd, a job) carries our SLURM_CONF.
  for e in /proc/[0-9]*/environ; do
    local pid=${e#/proc/}
    pid=${pid%/environ}
    ((pid == $$)) && continue
    if { tr '\0' '\n' <"$e"; } 2>/dev/null | grep -qxF "SLURM_CONF=$T/slurm.conf"; then kill -9 "$pid" 2>/dev/null; fi
  done
  if ((status == 0 || status == 77)); then rm -rf "$T"; else echo "kept $T for inspection"; fi
  exit $status
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Two free ports next to each other.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
base=$((20000 + ($$ * 7) % 20000))
while ! port_free $base || ! port_free $((base + 1)); do base=$((base + 2)); done

mungekey --create --keyfile="$T/munge/munge.key" --bits=1024 >/dev/null 2>&1 || skip "mungekey cannot create a key"
munged -F -f --socket="$T/munge/socket" --key-file="$T/munge/munge.key" --pid-file="$T/munge/munged.pid" \
  --log-file="$T/log/munged.log" --seed-file="$T/munge/seed" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 50); do [[ -S $T/munge/socket ]] && break; sleep 0.1; done
[[ -S $T/munge/socket ]] || skip "munged did not start: $(tail -n 3 "$T/log/munged.log" 2>/dev/null)"

host=$(hostname -s)
node=$(slurmd -C 2>/dev/null | head -1 | sed -E "s/^NodeName=[^ ]+/NodeName=$host/")
[[ $node == NodeName=* ]] || node="NodeName=$host CPUs=$(nproc)"
cat >"$SLURM_CONF" <<EOF
ClusterName=rocreftest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/socket
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SchedulerType=sched/backfill
InactiveLimit=0
KillWait=5
MinJobAge=300
$node State=UNKNOWN
PartitionName=campaign Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -D -f "$SLURM_CONF" >"$T/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$T/log/slurmd.out" 2>&1 &
pids+=($!)
idle=0
for _ in $(seq 150); do
  for pid in "${pids[@]}"; do
    kill -0 "$pid" 2>/dev/null || skip "a Slurm daemon exited at start: $(tail -n 5 "$T"/log/*.out "$T"/log/slurm*.log 2>/dev/null)"
  done
  [[ $(sinfo -h -o %t 2>/dev/null) == idle ]] && { idle=1; break; }
  sleep 0.2
done
((idle)) || die "the node never became idle in sinfo: $(sinfo 2>&1)"
echo "slurm up: $(sinfo -h -o '%P %t %N %c CPUs')"

cd "$T"
# The campaigns: five quick verify rows; three seeds of one adversarial-GPU suite.
"$rocref" campaign make verify --name verify-quick --root "$src" -o verify.json -- --quick --property "weak-memory wake-up" ||
  die "make verify"
"$rocref" campaign make gpu-seeds --name blit-seeds --root "$src" --build "$build" --suite blit-mutants --first 1 \
  --seeds 3 -o seeds.json || die "make gpu-seeds"

# Both arrays at once, then wait until the queue is empty.
"$rocref" campaign submit verify.json --results slurm-verify --partition campaign --time 0:05:00 \
  --sbatch-arg=--cpus-per-task=1 || die "submit verify"
"$rocref" campaign submit seeds.json --results slurm-seeds --partition campaign --time 0:05:00 || die "submit seeds"
for _ in $(seq 600); do
  [[ -z $(squeue -h -o %i 2>/dev/null) ]] && break
  sleep 0.1
done
[[ -z $(squeue -h -o %i) ]] || die "jobs still queued after 60 s: $(squeue)"

# The items really ran as array tasks: one Slurm output file per task.
(($(ls slurm-verify/slurm-*_*.out | wc -l) == 5)) || die "not 5 verify array tasks: $(ls slurm-verify)"
(($(ls slurm-seeds/slurm-*_*.out | wc -l) == 3)) || die "not 3 seed array tasks: $(ls slurm-seeds)"
grep -q "_job_complete: JobId=[0-9]*_4" log/slurmctld.log || die "slurmctld ran no array task 4"

# Merged Slurm results against the local runner and against `rocref verify --jobs 2`.
strip() { sed -E 's/ +[0-9]+\.[0-9]s$//; s/, [0-9.]+ s wall$//' "$1"; }
"$rocref" campaign merge verify.json --results slurm-verify --junit slurm-verify.xml >merged-verify.txt ||
  die "merge of the Slurm verify results: $(cat merged-verify.txt)"
"$rocref" campaign run verify.json --results local-verify -j 2 >local-verify.txt 2>/dev/null || die "local verify run"
"$rocref" verify --quick --property "weak-memory wake-up" --jobs 2 >direct-verify.txt 2>/dev/null || die "rocref verify"
diff <(strip merged-verify.txt) <(strip local-verify.txt) || die "Slurm and local verify tables differ"
diff <(strip merged-verify.txt) <(strip direct-verify.txt) || die "Slurm and rocref verify --jobs 2 tables differ"
grep -q "18 rows from 5 checks, 0 failing" merged-verify.txt || die "unexpected verify table: $(tail -3 merged-verify.txt)"
grep -q 'tests="18" failures="0"' slurm-verify.xml || die "unexpected verify JUnit"

verdicts() { awk '$1 ~ /^[0-9]+$/ {print $1, $2, $3, $4}' "$1"; }
"$rocref" campaign merge seeds.json --results slurm-seeds --junit slurm-seeds.xml >merged-seeds.txt ||
  die "merge of the Slurm seed results: $(cat merged-seeds.txt)"
"$rocref" campaign run seeds.json --results local-seeds -j 2 >local-seeds.txt 2>/dev/null || die "local seed run"
diff <(verdicts merged-seeds.txt) <(verdicts local-seeds.txt) || die "Slurm and local seed verdicts differ"
(($(verdicts merged-seeds.txt | grep -c ' PASS 0$') == 3)) || die "not 3 passing seeds: $(cat merged-seeds.txt)"
grep -q 'tests="3" failures="0"' slurm-seeds.xml || die "unexpected seed JUnit"

# Planted faults, each on a copy of the Slurm results; every one must be caught.
expect_status() {  # WANT WHAT COMMAND...
  local want=$1 what=$2
  shift 2
  "$@" >fault.txt 2>&1
  local got=$?
  ((got == want)) || die "planted fault not caught ($what): exit $got, want $want: $(tail -5 fault.txt)"
  echo "caught: $what (exit $got)"
}
cp -r slurm-seeds f1 && rm f1/item-1.json
expect_status 1 "a seed item's result dropped" "$rocref" campaign merge seeds.json --results f1
grep -q "MISSING" fault.txt || die "the dropped item is not shown MISSING"
cp -r slurm-verify f2 && rm f2/item-3.json
expect_status 1 "a verify item's result dropped" "$rocref" campaign merge verify.json --results f2
cp -r slurm-verify f3 && rm f3/artifact-2.json
expect_status 1 "a verify row's --json dropped" "$rocref" campaign merge verify.json --results f3
cp -r slurm-seeds f4 && sed -i 's/"id": "blit-mutants-seed-2"/"id": "blit-mutants-seed-1"/' f4/item-1.json
expect_status 2 "a result under another item's id" "$rocref" campaign merge seeds.json --results f4
expect_status 2 "two folders with the same items" "$rocref" campaign merge seeds.json --results slurm-seeds --results local-seeds
cp -r slurm-seeds f5 && sed -i 's/"passed": true/"passed": false/' f5/item-2.json
expect_status 1 "a failed item" "$rocref" campaign merge seeds.json --results f5
echo "slurm campaign: verify and seed campaigns ran as job arrays; merged verdicts equal the local ones"
