# RockMLIRCAPI: one shared library holding MLIR's C API, built from Debian's
# static libMLIRCAPI*.a archives (Debian ships no libMLIR-C.so). Never link
# the MLIRCAPI* targets by name: they drag in the static MLIR libraries.
file(GLOB ROCK_CAPI_ARCHIVES ${LLVM_LIBRARY_DIR}/libMLIRCAPI*.a)
file(WRITE ${CMAKE_BINARY_DIR}/rock_empty.c "")
add_library(RockMLIRCAPI SHARED ${CMAKE_BINARY_DIR}/rock_empty.c)
target_link_libraries(RockMLIRCAPI PRIVATE -Wl,--whole-archive
  ${ROCK_CAPI_ARCHIVES} -Wl,--no-whole-archive MLIR LLVM -Wl,--no-undefined)
set_target_properties(RockMLIRCAPI PROPERTIES LINKER_LANGUAGE CXX)

# Links `target` against the C API library and MLIR/LLVM shared libraries.
function(rock_link_mlir target)
  target_link_libraries(${target} PRIVATE RockMLIRCAPI MLIR LLVM)
endfunction()

# A C API test executable `name` from `src`, linked with the plugin.
function(rock_add_capi_test name src)
  add_executable(${name} ${src})
  target_compile_options(${name} PRIVATE ${ROCK_C_FLAGS})
  target_link_libraries(${name} PRIVATE RockPlugin RockRuntime)
  rock_link_mlir(${name})
endfunction()
