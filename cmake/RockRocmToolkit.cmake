# A ROCm-layout toolkit directory for AMD code objects, under the build tree:
#   ${ROCK_ROCM_TOOLKIT}/amdgcn        -> the ROCm device libraries (Debian's
#                                         rocm-device-libs: .../amdgcn/bitcode)
#   ${ROCK_ROCM_TOOLKIT}/llvm/bin/ld.lld -> lld (Debian's lld-22)
# MLIR's gpu-module-to-binary{format=bin toolkit=DIR} links ockl/ocml from
# DIR/amdgcn/bitcode and runs DIR/llvm/bin/ld.lld. Without either, the
# directory holds what was found and the AMD lit tests are skipped.
set(ROCK_ROCM_TOOLKIT ${PROJECT_BINARY_DIR}/rocm-toolkit)
find_path(ROCK_AMDGCN_BITCODE_DIR ocml.bc
          PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/amdgcn/bitcode
                /usr/lib/x86_64-linux-gnu/amdgcn/bitcode /usr/lib/amdgcn/bitcode
          NO_DEFAULT_PATH)
find_program(ROCK_LD_LLD ld.lld PATHS ${LLVM_TOOLS_BINARY_DIR}
             /usr/lib/llvm-22/bin NO_DEFAULT_PATH)
file(MAKE_DIRECTORY ${ROCK_ROCM_TOOLKIT}/llvm/bin)
if(ROCK_AMDGCN_BITCODE_DIR)
  get_filename_component(amdgcn ${ROCK_AMDGCN_BITCODE_DIR} DIRECTORY)
  file(CREATE_LINK ${amdgcn} ${ROCK_ROCM_TOOLKIT}/amdgcn SYMBOLIC)
else()
  message(STATUS "rock: no ROCm device libraries (rocm-device-libs); AMD code objects disabled")
endif()
if(ROCK_LD_LLD)
  file(CREATE_LINK ${ROCK_LD_LLD} ${ROCK_ROCM_TOOLKIT}/llvm/bin/ld.lld SYMBOLIC)
else()
  message(STATUS "rock: no ld.lld (lld-22); AMD code objects disabled")
endif()
