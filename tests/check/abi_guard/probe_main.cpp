// tests/check/abi_guard/probe_main.cpp: one object of the mixed-link check. It includes the AQL
// ring, whose inline bodies differ with ROCREF_ENABLE_MUTANTS, and calls nothing of the
// switchboard: only the guard can tell the two configurations apart at link time.
#include "common/aql_ring.h"

int probe_other();

int main() { return probe_other(); }
