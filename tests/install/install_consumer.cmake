# tests/install/install_consumer.cmake: cmake --install into a prefix, move the prefix (the
# tree must be relocatable), then from the moved prefix: build and run a find_package(rocref)
# consumer, check the pkg-config files and that `rocref exec` finds the installed interposer.
# Usage: cmake -DBUILD_DIR= -DWORK_DIR= -DCONSUMER= -DGENERATOR= -DCXX= -P this
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(staged ${WORK_DIR}/staged)
set(prefix ${WORK_DIR}/moved)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${staged})
file(RENAME ${staged} ${prefix})
# lib/<multiarch> or lib: where the package's CMake files went.
file(GLOB_RECURSE config RELATIVE ${prefix} ${prefix}/lib*/rocrefConfig.cmake)
string(REGEX REPLACE "/cmake/rocref/rocrefConfig\\.cmake$" "" LIBDIR "${config}")
if(NOT LIBDIR MATCHES "^lib")
  message(FATAL_ERROR "no lib*/cmake/rocref/rocrefConfig.cmake installed (${config})")
endif()

# The drop-ins live in the private folder only, never where the loader looks by default.
foreach(lib libhsakmt.so.1 libhsa-runtime64.so.1 librocref_preload.so)
  if(NOT EXISTS ${prefix}/${LIBDIR}/rocref/${lib})
    message(FATAL_ERROR "missing ${LIBDIR}/rocref/${lib}")
  endif()
  if(EXISTS ${prefix}/${LIBDIR}/${lib} OR EXISTS ${prefix}/lib/${lib})
    message(FATAL_ERROR "${lib} installed where it shadows the system's ROCm")
  endif()
endforeach()
foreach(f bin/rocref share/rocref/spec/aql-queue.md include/rocref/common/aql_ring.h include/rocref/kfd/kfd_device.h
          include/rocref/models/aql_queue_model.h ${LIBDIR}/cmake/rocref/rocrefConfigVersion.cmake)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "missing ${f}")
  endif()
endforeach()

# The consumer, configured against the moved prefix.
run(${CMAKE_COMMAND} -S ${CONSUMER} -B ${WORK_DIR}/consumer -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX}
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run(${WORK_DIR}/consumer/consumer)
if(NOT out MATCHES "consumer: kfd 1\\.[0-9]+, gpus [1-9]")
  message(FATAL_ERROR "consumer printed: ${out}")
endif()
# The consumer's libhsa-runtime64.so.1 is the installed drop-in (its RPATH), not Debian's.
run(ldd ${WORK_DIR}/consumer/consumer)
string(FIND "${out}" "libhsa-runtime64.so.1 => ${prefix}/${LIBDIR}/rocref/" at)
if(at EQUAL -1)
  message(FATAL_ERROR "consumer does not load the installed drop-in:\n${out}")
endif()

# pkg-config resolves into the moved prefix.
set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
run(pkg-config --libs rocref-hsa-runtime64)
string(REGEX MATCH "-L([^ \n]+)" libflag "${out}")
if(NOT libflag OR NOT EXISTS ${CMAKE_MATCH_1}/libhsa-runtime64.so.1)
  message(FATAL_ERROR "pkg-config rocref-hsa-runtime64 names no installed library: ${out}")
endif()
run(pkg-config --cflags --libs rocref-kfd-model rocref-aql rocref-models rocref-hsakmt)

# `rocref exec` finds the interposer and the drop-ins relative to its own location.
run(${prefix}/bin/rocref exec --drop-ins --print)
string(FIND "${out}" "LD_PRELOAD=${prefix}/${LIBDIR}/rocref/librocref_preload.so" at)
string(FIND "${out}" "LD_LIBRARY_PATH=${prefix}/${LIBDIR}/rocref" at_path)
if(at EQUAL -1 OR at_path EQUAL -1)
  message(FATAL_ERROR "rocref exec --print: ${out}")
endif()
message(STATUS "install_consumer: passed")
