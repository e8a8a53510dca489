# cmake/Install.cmake: install rules, the exported CMake package (find_package(rocref)),
# pkg-config files and the CPack DEB packages, all by target name so that folders
# keep their CMakeLists bodies. Included once, after every folder has been added.
#
# Layout (prefix-relative, so a moved prefix keeps working):
#   bin/rocref                                  the tool (component runtime)
#   lib/<multiarch>/rocref/lib*.so*             drop-in libraries, private so they never shadow
#                                               Debian's ROCm in the loader's default path (runtime)
#   share/rocref/spec/                          the specification (runtime)
#   include/rocref/{common,gpu,kfd,models}/     headers of the public C++ pieces (dev)
#   lib/<multiarch>/rocref/librocref_*.a        their static libraries (dev)
#   lib/<multiarch>/cmake/rocref/               rocrefConfig.cmake, version file, targets (dev)
#   lib/<multiarch>/pkgconfig/rocref-*.pc       pkg-config files (dev)
include(CMakePackageConfigHelpers)

set(ROCREF_VERSION 0.1.0)
if(CMAKE_LIBRARY_ARCHITECTURE)
  set(ROCREF_INSTALL_LIBDIR lib/${CMAKE_LIBRARY_ARCHITECTURE})
else()
  set(ROCREF_INSTALL_LIBDIR lib)
endif()
set(ROCREF_INSTALL_PRIVATE_LIBDIR ${ROCREF_INSTALL_LIBDIR}/rocref)
set(ROCREF_INSTALL_INCLUDEDIR include/rocref)
set(ROCREF_INSTALL_CMAKEDIR ${ROCREF_INSTALL_LIBDIR}/cmake/rocref)

# `rocref exec` and `rocref run` look for their libraries relative to their own bin/ (cli/drop_ins.cpp).
if(TARGET rocref)
  set_source_files_properties(${CMAKE_SOURCE_DIR}/src/cli/drop_ins.cpp TARGET_DIRECTORY rocref
    PROPERTIES COMPILE_DEFINITIONS "ROCREF_INSTALL_PRIVATE_LIBDIR=\"${ROCREF_INSTALL_PRIVATE_LIBDIR}\"")
  install(TARGETS rocref RUNTIME DESTINATION bin COMPONENT runtime)
endif()

# --- Drop-in libraries: the real sonames, in the private folder. ---
# HIP's library is a drop-in once src/hip builds a shared libamdhip64; found by its output name.
set(ROCREF_DROP_INS rocref_hsakmt_shared rocref_hsa_shared rocref_preload)
if(EXISTS ${CMAKE_SOURCE_DIR}/src/hip/CMakeLists.txt)
  get_property(hip_targets DIRECTORY ${CMAKE_SOURCE_DIR}/src/hip PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t ${hip_targets})
    get_target_property(kind ${t} TYPE)
    get_target_property(name ${t} OUTPUT_NAME)
    if(kind STREQUAL "SHARED_LIBRARY" AND name STREQUAL "amdhip64")
      list(APPEND ROCREF_DROP_INS ${t})
    endif()
  endforeach()
endif()
foreach(t ${ROCREF_DROP_INS})
  if(TARGET ${t})
    install(TARGETS ${t} LIBRARY DESTINATION ${ROCREF_INSTALL_PRIVATE_LIBDIR} COMPONENT runtime NAMELINK_SKIP)
  endif()
endforeach()
install(DIRECTORY ${CMAKE_SOURCE_DIR}/spec/ DESTINATION share/rocref/spec COMPONENT runtime
        FILES_MATCHING PATTERN "*.md")

# --- Exported package: the public pieces and every rocref library they link. ---
# Public name -> target. The closure below adds what they link (gpu, sdma, gpuvm, ... as
# rocref::<name without rocref_>), so a new library under src/gpu is exported without edits here.
set(ROCREF_EXPORTS aql=rocref_common models=rocref_models kfd_model=rocref_kfd
    hsakmt=rocref_hsakmt_shared hsa-runtime=rocref_hsa_shared)

# rocref_export_closure(OUT target...): the targets and the project's libraries they link,
# dependencies after their users (the link order pkg-config needs).
function(rocref_export_closure out)
  set(order "")
  set(stack ${ARGN})
  set(seen "")
  # Depth-first: a target enters `order` once everything it links has.
  function(rocref_visit t)
    if(t IN_LIST seen)
      return()
    endif()
    list(APPEND seen ${t})
    set(seen ${seen} PARENT_SCOPE)
    get_target_property(deps ${t} INTERFACE_LINK_LIBRARIES)
    if(NOT deps)
      set(deps "")
    endif()
    foreach(d ${deps})
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" d "${d}")
      # Any target of this project (not only rocref_*): a folder's helper library must be exported too.
      if(TARGET ${d})
        get_target_property(imported ${d} IMPORTED)
        get_target_property(aliased ${d} ALIASED_TARGET)
        if(NOT imported AND NOT aliased)
          rocref_visit(${d})
          set(seen ${seen} PARENT_SCOPE)
          set(order ${order} PARENT_SCOPE)
        endif()
      endif()
    endforeach()
    list(APPEND order ${t})
    set(order ${order} PARENT_SCOPE)
  endfunction()
  foreach(t ${stack})
    if(TARGET ${t})
      rocref_visit(${t})
    endif()
  endforeach()
  list(REVERSE order)
  set(${out} ${order} PARENT_SCOPE)
endfunction()

# Source- and build-tree include folders are for this build only; consumers get include/rocref.
function(rocref_relocate_includes t prop)
  get_target_property(dirs ${t} ${prop})
  if(NOT dirs)
    return()
  endif()
  set(fixed "")
  foreach(d ${dirs})
    set(in_tree FALSE)
    if(NOT d MATCHES "^\\$<")
      cmake_path(IS_PREFIX CMAKE_SOURCE_DIR "${d}" NORMALIZE in_source)
      cmake_path(IS_PREFIX CMAKE_BINARY_DIR "${d}" NORMALIZE in_build)
      if(in_source OR in_build)
        set(in_tree TRUE)
      endif()
    endif()
    if(NOT in_tree)
      list(APPEND fixed "${d}")
    else()
      list(APPEND fixed "$<BUILD_INTERFACE:${d}>")
    endif()
  endforeach()
  list(APPEND fixed "$<INSTALL_INTERFACE:${ROCREF_INSTALL_INCLUDEDIR}>")
  list(REMOVE_DUPLICATES fixed)
  set_target_properties(${t} PROPERTIES ${prop} "${fixed}")
endfunction()

set(public_targets "")
foreach(pair ${ROCREF_EXPORTS})
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 1 t)
  if(TARGET ${t})
    list(APPEND public_targets ${t})
  endif()
endforeach()
rocref_export_closure(ROCREF_EXPORTED_TARGETS ${public_targets})

foreach(t ${ROCREF_EXPORTED_TARGETS})
  string(REGEX REPLACE "^rocref_" "" name ${t})
  foreach(pair ${ROCREF_EXPORTS})
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 1 target)
    if(target STREQUAL t)
      list(GET pair 0 name)
    endif()
  endforeach()
  set_target_properties(${t} PROPERTIES EXPORT_NAME ${name})
  rocref_relocate_includes(${t} INTERFACE_INCLUDE_DIRECTORIES)
  rocref_relocate_includes(${t} INTERFACE_SYSTEM_INCLUDE_DIRECTORIES)
  get_target_property(kind ${t} TYPE)
  if(kind STREQUAL "SHARED_LIBRARY")
    # The drop-ins export only the C ABI of the real headers (hsa/hsa.h, hsakmt.h).
    target_include_directories(${t} INTERFACE ${ROCREF_HSA_INCLUDE_DIR} ${ROCREF_HSAKMT_INCLUDE_DIR})
    install(TARGETS ${t} EXPORT rocrefTargets
            LIBRARY DESTINATION ${ROCREF_INSTALL_PRIVATE_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev)
  else()
    install(TARGETS ${t} EXPORT rocrefTargets ARCHIVE DESTINATION ${ROCREF_INSTALL_PRIVATE_LIBDIR} COMPONENT dev)
  endif()
endforeach()

# Headers of the public pieces; new subfolders (src/gpu/isa, ...) are picked up by the pattern.
foreach(dir src/common src/gpu src/kfd models)
  if(EXISTS ${CMAKE_SOURCE_DIR}/${dir})
    install(DIRECTORY ${CMAKE_SOURCE_DIR}/${dir} DESTINATION ${ROCREF_INSTALL_INCLUDEDIR} COMPONENT dev
            FILES_MATCHING PATTERN "*.h")
  endif()
endforeach()
# linux/kfd_ioctl.h needs <drm/drm.h>; where the build generated its stand-in, consumers get it too.
if(EXISTS ${CMAKE_BINARY_DIR}/compat/drm-include/drm/drm.h)
  install(FILES ${CMAKE_BINARY_DIR}/compat/drm-include/drm/drm.h
          DESTINATION ${ROCREF_INSTALL_INCLUDEDIR}/drm COMPONENT dev)
endif()

install(EXPORT rocrefTargets NAMESPACE rocref:: DESTINATION ${ROCREF_INSTALL_CMAKEDIR} COMPONENT dev)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/rocrefConfig.cmake.in
  ${CMAKE_BINARY_DIR}/install/rocrefConfig.cmake INSTALL_DESTINATION ${ROCREF_INSTALL_CMAKEDIR}
  PATH_VARS ROCREF_INSTALL_INCLUDEDIR ROCREF_INSTALL_PRIVATE_LIBDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/install/rocrefConfigVersion.cmake
  VERSION ${ROCREF_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/install/rocrefConfig.cmake ${CMAKE_BINARY_DIR}/install/rocrefConfigVersion.cmake
        DESTINATION ${ROCREF_INSTALL_CMAKEDIR} COMPONENT dev)

# --- pkg-config: one file per public piece; paths relative to the .pc file's folder. ---
function(rocref_write_pc file description targets extra_libs)
  set(libs "")
  foreach(t ${targets})
    get_target_property(kind ${t} TYPE)
    get_target_property(base ${t} OUTPUT_NAME)
    if(NOT base)
      set(base ${t})
    endif()
    if(kind STREQUAL "SHARED_LIBRARY")
      string(APPEND libs " -Wl,-rpath,\${rocreflibdir} -L\${rocreflibdir} -l${base}")
    else()
      string(APPEND libs " \${rocreflibdir}/lib${base}.a")
    endif()
  endforeach()
  set(ROCREF_PC_NAME ${file})
  set(ROCREF_PC_DESCRIPTION "${description}")
  set(ROCREF_PC_LIBS "${libs} ${extra_libs}")
  configure_file(${CMAKE_SOURCE_DIR}/cmake/rocref.pc.in ${CMAKE_BINARY_DIR}/install/${file}.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/install/${file}.pc DESTINATION ${ROCREF_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)
endfunction()
string(REGEX REPLACE "[^/]+" ".." ROCREF_PC_UP "${ROCREF_INSTALL_LIBDIR}/pkgconfig")
set(ROCREF_PC_CFLAGS "-I\${includedir} -I${ROCREF_HSA_INCLUDE_DIR}")
if(TARGET rocref_hsakmt_shared)
  rocref_write_pc(rocref-hsakmt "libhsakmt.so.1 over the KFD model (drop-in)" rocref_hsakmt_shared "")
endif()
if(TARGET rocref_hsa_shared)
  rocref_write_pc(rocref-hsa-runtime64 "libhsa-runtime64.so.1 over the model (drop-in)" rocref_hsa_shared "")
endif()
rocref_export_closure(aql_libs rocref_common)
rocref_write_pc(rocref-aql "the AQL submission core" "${aql_libs}" "-pthread")
rocref_write_pc(rocref-models "the protocol models" rocref_models "")
if(TARGET rocref_kfd)
  rocref_export_closure(kfd_libs rocref_kfd)
  rocref_write_pc(rocref-kfd-model "the KFD driver and GPU model" "${kfd_libs}" "-pthread")
endif()

# --- CPack: rocref (tool, drop-ins, spec) and rocref-dev (headers, archives, CMake package). ---
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME rocref)
set(CPACK_PACKAGE_VERSION ${ROCREF_VERSION})
set(CPACK_PACKAGE_CONTACT "rocref maintainers <rocref@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "executable reference implementation of the ROCm kernel-submission stack")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME rocref)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME rocref-dev)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# Depends of the tool and drop-ins come from dpkg-shlibdeps (libc6, libstdc++6, libz3-4, ...);
# the ROCm user space it runs under `rocref exec` is recommended, not required.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "libhsa-runtime64-1, libhsakmt1, rocminfo")
# The headers include the real ROCm 5.2.3 headers and linux/kfd_ioctl.h.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "rocref (= ${ROCREF_VERSION}), libhsa-runtime-dev, libhsakmt-dev, linux-libc-dev")
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)  # fast; the archives hold debug info
set(CPACK_STRIP_FILES ON)
include(CPack)
