# tests/check/bench/expect_regression.cmake - runs an instruction-count check (COMMAND, a list)
# with the planted slower path on and passes only if the check reports a regression (exit status 3).
set(ENV{ROCREF_BENCH_PLANT_SLOW} 1)
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT status EQUAL 3)
  message(FATAL_ERROR "the planted slower path was not reported as a regression (exit status ${status})")
endif()
