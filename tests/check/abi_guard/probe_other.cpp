// tests/check/abi_guard/probe_other.cpp: the second object of the mixed-link check.
#include "common/aql_producer.h"

int probe_other() { return 0; }
