# cmake/Dependencies.cmake: every external package, from Debian (scripts/setup installs them).
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)
find_package(hsakmt CONFIG QUIET)  # only for the real libhsakmt in conformance runs

# Real ROCm 5.2.3 headers: hsa/hsa.h and friends, hsakmt.h, linux/kfd_ioctl.h.
find_path(ROCREF_HSA_INCLUDE_DIR hsa/hsa.h REQUIRED)
find_path(ROCREF_HSAKMT_INCLUDE_DIR hsakmt.h REQUIRED)
# amdgpu's DRM uapi (libdrm/amdgpu_drm.h) for the render node's ioctls, and libdrm_amdgpu itself
# for the tests that run Debian's libdrm on the model.
pkg_check_modules(ROCREF_LIBDRM_AMDGPU REQUIRED IMPORTED_TARGET libdrm_amdgpu libdrm)

if(ROCREF_BUILD_TESTS)
  find_package(GTest REQUIRED)
  find_package(rapidcheck CONFIG REQUIRED)
endif()
if(ROCREF_BUILD_PROOFS)
  pkg_check_modules(Z3 REQUIRED IMPORTED_TARGET z3>=4.8)
endif()
if(ROCREF_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()

# Kept libraries instead of hand-written code: option parsing and JSON (header-only).
find_package(CLI11 CONFIG REQUIRED)
find_package(nlohmann_json 3 CONFIG REQUIRED)
