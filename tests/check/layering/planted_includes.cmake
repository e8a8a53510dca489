# tests/check/layering/planted_includes.cmake: for each layer, take the compile command of one of
# its sources from compile_commands.json, then preprocess a probe with the same include flags:
# once with headers the layer's README allows (must pass, so the probe itself is sound) and
# once per planted include of a layer it must not see (must fail: no such file).
# Usage: cmake -DCOMPILE_COMMANDS= -DWORK_DIR= -P this

# layer | target whose object is used | source of that target | allowed headers | planted headers
set(cases
  "common|rocref_common|src/common/signal.cpp|common/signal.h,common/aql_ring.h|gpu/memory_access.h,models/aql_queue_model.h"
  "gpu|rocref_gpu|src/gpu/packet_processor.cpp|gpu/packet_processor.h,common/aql_ring.h|hsa/runtime.h,kfd/kfd_device.h"
  "gpu/vm|rocref_gpuvm|src/gpu/vm/gpu_vm.cpp|gpu/vm/gpu_vm.h,gpu/memory_access.h|kfd/kfd_device.h,thunk/transport.h"
  "kfd|rocref_kfd|src/kfd/kfd_device.cpp|kfd/kfd_device.h,gpu/packet_processor.h,common/log.h|thunk/transport.h,hsa/runtime.h"
  "thunk|rocref_thunk|src/thunk/api_queue.cpp|thunk/transport.h,common/log.h|hsa/runtime.h,clr/device.h"
  "hsa|rocref_hsa_objects|src/hsa/runtime.cpp|hsa/runtime.h,thunk/hsakmt_ext.h,common/signal.h|kfd/kfd_device.h,gpu/packet_processor.h,clr/device.h"
  "clr|rocref_clr_objects|src/clr/device.cpp|clr/device.h,common/signal.h,hsa/hsa.h|hsa/runtime.h,thunk/transport.h,kfd/kfd_device.h,hip/hip_state.h"
  "hip|rocref_hip_objects|src/hip/hip_launch.cpp|hip/hip_state.h,clr/device.h,hsa/hsa.h|hsa/runtime.h,kfd/kfd_device.h"
  "preload|rocref_preload|src/preload/hooks_io.cpp|preload/ioctl_fds.h,kfd/kfd_device.h,common/log.h|hsa/runtime.h,thunk/transport.h,clr/device.h"
  "models|rocref_models|models/explore.cpp|models/aql_queue_model.h|common/aql_ring.h,src/common/aql_ring.h"
)

file(READ ${COMPILE_COMMANDS} db)
string(JSON count LENGTH "${db}")
math(EXPR last "${count} - 1")
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# command_of(OUT target source): the compile command of `source` in `target`.
function(command_of out target source)
  foreach(i RANGE ${last})
    string(JSON file GET "${db}" ${i} file)
    if(file MATCHES "/${source}$")
      string(JSON command GET "${db}" ${i} command)
      if(NOT command MATCHES "CMakeFiles/${target}\\.dir/")
        continue()
      endif()
      string(JSON dir GET "${db}" ${i} directory)
      set(${out} "${command}" PARENT_SCOPE)
      set(${out}_dir "${dir}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "no compile command of ${source} in ${target}")
endfunction()

# preprocess(OK_OUT ERR_OUT name flags... -- headers...): preprocess a probe including `headers`.
function(preprocess ok_out err_out name)
  cmake_parse_arguments(P "" "" "FLAGS;HEADERS;DIR" ${ARGN})
  set(probe ${WORK_DIR}/${name}.cpp)
  set(text "// planted by tests/check/layering\n")
  foreach(h ${P_HEADERS})
    string(APPEND text "#include \"${h}\"\n")
  endforeach()
  file(WRITE ${probe} "${text}")
  execute_process(COMMAND ${P_FLAGS} -E -x c++ ${probe} -o ${WORK_DIR}/${name}.i
                  WORKING_DIRECTORY ${P_DIR} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc EQUAL 0)
    set(${ok_out} TRUE PARENT_SCOPE)
  else()
    set(${ok_out} FALSE PARENT_SCOPE)
  endif()
  set(${err_out} "${err}" PARENT_SCOPE)
endfunction()

set(failures "")
foreach(case ${cases})
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 layer)
  list(GET fields 1 target)
  list(GET fields 2 source)
  list(GET fields 3 allowed)
  list(GET fields 4 planted)
  string(REPLACE "," ";" allowed "${allowed}")
  string(REPLACE "," ";" planted "${planted}")
  command_of(cmd ${target} ${source})
  separate_arguments(args UNIX_COMMAND "${cmd}")
  # The compiler, then only what decides where headers are found and how they preprocess.
  list(GET args 0 compiler)
  if(compiler MATCHES "ccache$")
    list(REMOVE_AT args 0)
    list(GET args 0 compiler)
  endif()
  set(flags ${compiler})
  list(LENGTH args n)
  set(i 1)
  while(i LESS n)
    list(GET args ${i} a)
    if(a MATCHES "^-(I|D|std=|isystem|iquote)")
      list(APPEND flags ${a})
      if(a STREQUAL "-isystem" OR a STREQUAL "-iquote" OR a STREQUAL "-I" OR a STREQUAL "-D")
        math(EXPR i "${i} + 1")
        list(GET args ${i} a)
        list(APPEND flags ${a})
      endif()
    endif()
    math(EXPR i "${i} + 1")
  endwhile()
  string(REPLACE "/" "_" tag "${layer}")

  preprocess(ok err ${tag}_allowed FLAGS ${flags} HEADERS ${allowed} DIR ${cmd_dir})
  if(NOT ok)
    list(APPEND failures "${layer}: allowed headers not found with ${target}'s flags:\n${err}")
  endif()
  foreach(h ${planted})
    string(MAKE_C_IDENTIFIER "${h}" hid)
    preprocess(ok err ${tag}_planted_${hid} FLAGS ${flags} HEADERS ${h} DIR ${cmd_dir})
    if(ok)
      list(APPEND failures "${layer}: planted #include \"${h}\" was accepted (${target})")
    elseif(NOT err MATCHES "(No such file or directory|file not found)")
      list(APPEND failures "${layer}: planted #include \"${h}\" failed, but not as a missing file:\n${err}")
    else()
      message(STATUS "${layer}: #include \"${h}\" refused")
    endif()
  endforeach()
endforeach()

if(failures)
  string(JOIN "\n" text ${failures})
  message(FATAL_ERROR "${text}")
endif()
