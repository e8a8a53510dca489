# cmake/Testing.cmake: rocref_add_test(NAME SOURCES... LIBS... LABELS...) builds one
# GoogleTest binary and registers it with CTest under the given labels
# (unit, property, conformance, proof, check). Sanitizer runs select labels.
function(rocref_add_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LIBS;LABELS;ARGS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_include_directories(${name} PRIVATE ${ROCREF_INCLUDE_DIRS})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest_main GTest::gmock Threads::Threads)
  add_test(NAME ${name} COMMAND ${name} ${ARG_ARGS})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT}
                       ENVIRONMENT "RC_PARAMS=seed=20261122 max_success=100 noshrink=0")
endfunction()

# rocref_add_adversarial_runs(NAME [COMMAND...]): the test `NAME` again on the adversarial GPU
# model (src/gpu/adversary.h), once per seed of ROCREF_ADVERSARIAL_SEEDS, as NAME_adversarial_SEED
# with label `adversarial`. COMMAND defaults to the executable target NAME. More seeds:
# scripts/fuzz-gpu.
set(ROCREF_ADVERSARIAL_SEEDS 1 2 3 CACHE STRING "seeds of the adversarial GPU runs registered with ctest")
function(rocref_add_adversarial_runs name)
  set(command ${ARGN})
  if(NOT command)
    set(command ${name})
  endif()
  foreach(seed ${ROCREF_ADVERSARIAL_SEEDS})
    add_test(NAME ${name}_adversarial_${seed} COMMAND ${command})
    set_tests_properties(${name}_adversarial_${seed} PROPERTIES LABELS adversarial TIMEOUT 120
                         ENVIRONMENT "ROCREF_GPU_SEED=${seed};RC_PARAMS=seed=20261122 max_success=100 noshrink=0")
  endforeach()
endfunction()
