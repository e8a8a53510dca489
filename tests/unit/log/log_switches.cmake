# tests/unit/log/log_switches.cmake: the switches in a real process. ROCREF_TRACE_API=1 prints the
# layers' calls (":api:hip: ... > hipMalloc"); ROCREF_LOG_LEVEL=4 prints the interposer's debug lines;
# unset, neither prints anything. Usage: cmake -DROCREF=path/to/rocref -P this
function(run_with env out_var)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=ROCREF_TRACE_API --unset=ROCREF_LOG_LEVEL ${env} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(${out_var} "${err}" PARENT_SCOPE)
endfunction()

set(sample ${ROCREF} run --quiet --sample vector-add)
run_with(ROCREF_TRACE_API=1 traced ${sample})
if(NOT traced MATCHES ":api:hip: \\[pid:[0-9]+ tid:0x[0-9a-f]+\\] [0-9]+ us > hipMalloc"
   OR NOT traced MATCHES ":api:kfd: [^\n]*> ")
  message(FATAL_ERROR "ROCREF_TRACE_API=1 printed no API trace:\n${traced}")
endif()
run_with(ROCREF_TRACE_API=0 quiet ${sample})
if(quiet MATCHES ":api:")
  message(FATAL_ERROR "ROCREF_TRACE_API=0 still traces:\n${quiet}")
endif()

run_with(ROCREF_LOG_LEVEL=3 info ${sample})
if(NOT info MATCHES ":3:hsa: \\[pid:[0-9]+ tid:0x[0-9a-f]+\\] hsa_init -> 0x0")
  message(FATAL_ERROR "ROCREF_LOG_LEVEL=3 printed no info line:\n${info}")
endif()
run_with(ROCREF_LOG_LEVEL=2 warnings ${sample})
if(warnings MATCHES ":3:")
  message(FATAL_ERROR "ROCREF_LOG_LEVEL=2 printed info lines:\n${warnings}")
endif()

# The interposer answers the tool's own open of /dev/kfd under `rocref exec`.
find_program(CAT cat REQUIRED)
set(opener ${ROCREF} exec -- ${CAT} /dev/kfd)
execute_process(COMMAND ${CMAKE_COMMAND} -E env ROCREF_LOG_LEVEL=4 ${opener} RESULT_VARIABLE rc OUTPUT_QUIET
                ERROR_VARIABLE debug)
if(NOT debug MATCHES ":4:preload: \\[pid:[0-9]+ tid:0x[0-9a-f]+\\] open /dev/kfd")
  message(FATAL_ERROR "ROCREF_LOG_LEVEL=4 printed no interposer debug line (exit ${rc}):\n${debug}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env ROCREF_LOG_LEVEL=3 ${opener} RESULT_VARIABLE rc OUTPUT_QUIET
                ERROR_VARIABLE info)
if(info MATCHES ":4:preload:")
  message(FATAL_ERROR "ROCREF_LOG_LEVEL=3 printed debug lines:\n${info}")
endif()
message(STATUS "log_switches: passed")
