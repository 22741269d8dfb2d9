# src/access/gpu and src/access/rt_scan/gpu: the GPU-resident indexes (CUB sorts,
# lookup kernels, the RT index built on the device) and the GPU RT scan index, or
# stubs whose factories say raydb was built without CUDA.
# Device code is C++17 (like exec/cuda); the index classes are C++20 host code that
# calls it through access/gpu/gpu_ops.h.
if(RAYDB_HAVE_CUDA)
  file(GLOB _access_gpu CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/access/gpu/*.cu ${CMAKE_SOURCE_DIR}/src/access/gpu/*.cpp
       ${CMAKE_SOURCE_DIR}/src/access/rt_scan/gpu/*.cu ${CMAKE_SOURCE_DIR}/src/access/rt_scan/gpu/*.cpp)
  list(FILTER _access_gpu EXCLUDE REGEX "(gpu_indexes_stub|gpu_scan_stub).cpp$")
  add_library(raydb_access_gpu STATIC ${_access_gpu})
  target_link_libraries(raydb_access_gpu PRIVATE raydb_gpu CUDA::cudart_static)
  target_compile_options(raydb_access_gpu PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -lineinfo>)
  set_target_properties(raydb_access_gpu PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON)
else()
  add_library(raydb_access_gpu STATIC ${CMAKE_SOURCE_DIR}/src/access/gpu/gpu_indexes_stub.cpp
                                      ${CMAKE_SOURCE_DIR}/src/access/rt_scan/gpu/gpu_scan_stub.cpp)
endif()
target_include_directories(raydb_access_gpu PUBLIC ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/include
                           ${CMAKE_BINARY_DIR}/generated)
# The GPU indexes derive from access/ classes, and access/ users reach them through
# gpu_indexes.h: a cycle of static libraries, which CMake links by repeating them.
target_link_libraries(raydb_access_gpu PUBLIC raydb_access)
target_link_libraries(raydb_access PUBLIC raydb_access_gpu)
