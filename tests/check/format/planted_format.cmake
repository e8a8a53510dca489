# tests/check/format/planted_format.cmake: a scratch repository with the project's .clang-format
# and one file whose old lines are not formatted. On a branch off main: a formatted change must
# pass scripts/check-format; a planted unformatted line must fail it.
# Usage: cmake -DSOURCE_DIR= -DWORK_DIR= -DGIT= -P this
function(git)
  execute_process(COMMAND ${GIT} -c user.name=check -c user.email=check@localhost ${ARGN}
                  WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "git ${ARGN}: ${err}")
  endif()
endfunction()
function(check_format expect)
  execute_process(COMMAND ${SOURCE_DIR}/scripts/check-format main WORKING_DIRECTORY ${WORK_DIR}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(expect STREQUAL "pass" AND NOT rc EQUAL 0)
    message(FATAL_ERROR "a formatted change was refused (${rc}):\n${out}\n${err}")
  elseif(expect STREQUAL "fail" AND NOT rc EQUAL 1)
    message(FATAL_ERROR "an unformatted change was accepted (${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "check-format: ${expect}")
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
file(COPY ${SOURCE_DIR}/.clang-format DESTINATION ${WORK_DIR})
# Old code, not formatted: must never be reported while nobody touches it.
file(WRITE ${WORK_DIR}/old.cpp "int  old_function( int a ){return a+1;}\n\nint kept() { return 0; }\n")
git(init -q -b main)
git(add -A)
git(commit -q -m base)
git(checkout -q -b work)

file(APPEND ${WORK_DIR}/old.cpp "\nint added(int a) { return a * 2; }\n")
check_format(pass)
file(APPEND ${WORK_DIR}/old.cpp "int  planted( int a ){return a*3;}\n")
check_format(fail)
