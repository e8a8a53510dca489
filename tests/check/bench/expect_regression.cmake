# tests/check/bench/expect_regression.cmake - runs the callgrind check with the planted slower
# path on and passes only if the check reports a regression (exit status 3).
set(ENV{ROCREF_BENCH_PLANT_SLOW} 1)
execute_process(COMMAND ${COMMAND} --check-instructions ${BASELINE} RESULT_VARIABLE status OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
message("${out}${err}")
if(NOT status EQUAL 3)
  message(FATAL_ERROR "the planted slower path was not reported as a regression (exit status ${status})")
endif()
