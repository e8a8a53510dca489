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
