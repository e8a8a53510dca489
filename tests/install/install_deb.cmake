# tests/install/install_deb.cmake: cpack builds rocref and rocref-dev; dpkg-deb -c and -f check
# where the files land (drop-ins only in the private folder) and the Depends fields.
# Usage: cmake -DBUILD_DIR= -DWORK_DIR= -P this
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()
function(expect text what)
  foreach(needle ${ARGN})
    string(FIND "${text}" "${needle}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${what} lacks '${needle}':\n${text}")
    endif()
  endforeach()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
run(cpack -G DEB --config ${BUILD_DIR}/CPackConfig.cmake -B ${WORK_DIR})
file(GLOB runtime_deb ${WORK_DIR}/rocref_*.deb)
file(GLOB dev_deb ${WORK_DIR}/rocref-dev_*.deb)
if(NOT runtime_deb OR NOT dev_deb)
  message(FATAL_ERROR "cpack made no rocref/rocref-dev package in ${WORK_DIR}")
endif()

# lib/<multiarch> or lib: where rocref-dev puts the CMake package.
run(dpkg-deb -c ${dev_deb})
if(NOT out MATCHES "\\./usr/(lib[^ \n]*)/cmake/rocref/rocrefConfig\\.cmake")
  message(FATAL_ERROR "rocref-dev has no CMake package:\n${out}")
endif()
set(LIBDIR ${CMAKE_MATCH_1})

run(dpkg-deb -c ${runtime_deb})
set(contents "${out}")
expect("${contents}" "rocref package" ./usr/bin/rocref ./usr/share/rocref/spec/aql-queue.md
       ./usr/${LIBDIR}/rocref/libhsakmt.so.1 ./usr/${LIBDIR}/rocref/libhsa-runtime64.so.1
       ./usr/${LIBDIR}/rocref/librocref_preload.so)
if(contents MATCHES "\\./usr/${LIBDIR}/lib(hsakmt|hsa-runtime64|amdhip64)\\.so")
  message(FATAL_ERROR "rocref package shadows the system's ROCm:\n${contents}")
endif()
if(contents MATCHES "\\.a\n|/include/")
  message(FATAL_ERROR "rocref package carries development files:\n${contents}")
endif()
run(dpkg-deb -f ${runtime_deb} Depends)
expect("${out}" "rocref Depends" libc6 libstdc++6)

run(dpkg-deb -c ${dev_deb})
expect("${out}" "rocref-dev package" ./usr/include/rocref/common/aql_ring.h ./usr/include/rocref/kfd/kfd_device.h
       ./usr/include/rocref/models/aql_queue_model.h ./usr/${LIBDIR}/cmake/rocref/rocrefConfig.cmake
       ./usr/${LIBDIR}/pkgconfig/rocref-hsa-runtime64.pc ./usr/${LIBDIR}/rocref/librocref_kfd.a)
run(dpkg-deb -f ${dev_deb} Depends)
expect("${out}" "rocref-dev Depends" "rocref (=" libhsa-runtime-dev libhsakmt-dev)
message(STATUS "install_deb: passed")
