# cmake/Sanitizers.cmake: ROCREF_SANITIZER=address (ASan+UBSan), thread (TSan) or fuzzer
# (libFuzzer coverage + ASan + UBSan, clang) for every target.
if(ROCREF_SANITIZER STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
elseif(ROCREF_SANITIZER STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(ROCREF_SANITIZER STREQUAL "fuzzer")
  # libFuzzer build (clang only, tests/fuzz): every library gets the fuzzer's coverage
  # instrumentation, ASan and UBSan; the fuzz targets link libFuzzer's main. The enum check is
  # off: ROCm passes AMD's own values through hsa.h enum types (hsa_agent_info_t and friends).
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize=enum
                      -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
elseif(NOT ROCREF_SANITIZER STREQUAL "")
  message(FATAL_ERROR "ROCREF_SANITIZER must be '', 'address', 'thread' or 'fuzzer', not '${ROCREF_SANITIZER}'")
endif()
