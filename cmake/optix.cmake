# The OptiX tracer (src/rt/optix): built when the OptiX headers and nvcc are found,
# otherwise a stub whose make_optix_tracer() says why; either way the build succeeds.
#   -DOptiX_INSTALL_DIR=<dir with include/optix.h>   (SDK or github NVIDIA/optix-dev)
#   -DRAYDB_FETCH_OPTIX=ON                           fetch optix-dev v9.0.0 (needs internet)
# Device programs are compiled by nvcc to OptiX-IR (and PTX, the fallback the driver
# may need) at build time and embedded as byte arrays; the driver's libnvoptix.so.1 is
# loaded at run time by optixInit, so the binary runs without a GPU.
set(OptiX_INSTALL_DIR "" CACHE PATH "Directory holding include/optix.h (OptiX SDK or NVIDIA/optix-dev)")
option(RAYDB_FETCH_OPTIX "Fetch the OptiX headers (github NVIDIA/optix-dev, v9.0.0) when OptiX_INSTALL_DIR is unset" OFF)

# rt/optix sources build here, not in raydb_rt (raydb_layer ... EXCLUDE optix).
set(_optix_dir "${OptiX_INSTALL_DIR}")
if(NOT _optix_dir AND RAYDB_FETCH_OPTIX)
  include(FetchContent)
  FetchContent_Declare(raydb_optix_dev GIT_REPOSITORY https://github.com/NVIDIA/optix-dev.git GIT_TAG v9.0.0
                       GIT_SHALLOW TRUE)
  FetchContent_GetProperties(raydb_optix_dev)
  if(NOT raydb_optix_dev_POPULATED)
    FetchContent_Populate(raydb_optix_dev)
  endif()
  set(_optix_dir "${raydb_optix_dev_SOURCE_DIR}")
endif()

set(RAYDB_HAVE_OPTIX 0)
set(_optix_missing "")
if(NOT _optix_dir OR NOT EXISTS "${_optix_dir}/include/optix.h")
  set(_optix_missing "no OptiX headers: configure with -DOptiX_INSTALL_DIR=<dir with include/optix.h>")
elseif(DEFINED RAYDB_CUDA AND RAYDB_CUDA STREQUAL "OFF")
  set(_optix_missing "RAYDB_CUDA=OFF")
else()
  if(NOT CUDAToolkit_FOUND)
    find_package(CUDAToolkit QUIET)
  endif()
  # The tracer's buffers, streams and error checks come from gpu/, built with the CUDA backend.
  if(NOT CUDAToolkit_FOUND OR NOT CUDAToolkit_NVCC_EXECUTABLE OR NOT RAYDB_HAVE_CUDA)
    set(_optix_missing "no CUDA toolkit (nvcc)")
  else()
    set(RAYDB_HAVE_OPTIX 1)
  endif()
endif()

if(RAYDB_HAVE_OPTIX)
  set(_gen ${CMAKE_BINARY_DIR}/generated/rt_optix)
  file(MAKE_DIRECTORY ${_gen})
  set(_dev_src ${CMAKE_SOURCE_DIR}/src/rt/optix/device_programs.cu)
  file(GLOB _dev_deps CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/rt/mapping/*.h ${CMAKE_SOURCE_DIR}/src/rt/optix/*.h)
  # compute_75: Turing and later (every GPU with RT cores, and the H200).
  set(_nvcc_flags -arch=compute_75 -std=c++17 -rdc=true -lineinfo -I${CMAKE_SOURCE_DIR}/src
                  -I${_optix_dir}/include -ccbin ${CMAKE_CXX_COMPILER})
  execute_process(COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} --help OUTPUT_VARIABLE _nvcc_help ERROR_QUIET)
  set(_ir "")
  if(_nvcc_help MATCHES "optix-ir")
    set(_ir ${_gen}/device_programs.optixir)
    add_custom_command(OUTPUT ${_ir}
      COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} -optix-ir ${_nvcc_flags} -o ${_ir} ${_dev_src}
      DEPENDS ${_dev_src} ${_dev_deps} COMMENT "nvcc -optix-ir: OptiX device programs")
  endif()
  set(_ptx ${_gen}/device_programs.ptx)
  add_custom_command(OUTPUT ${_ptx}
    COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} -ptx ${_nvcc_flags} -o ${_ptx} ${_dev_src}
    DEPENDS ${_dev_src} ${_dev_deps} COMMENT "nvcc -ptx: OptiX device programs")
  foreach(_kind ir ptx)
    if(_kind STREQUAL "ir")
      set(_in "${_ir}")
    else()
      set(_in "${_ptx}")
    endif()
    add_custom_command(OUTPUT ${_gen}/embed_${_kind}.cpp
      COMMAND ${CMAKE_COMMAND} -DINPUT=${_in} -DOUT=${_gen}/embed_${_kind}.cpp -DNAME=raydb_optix_${_kind}
              -P ${CMAKE_SOURCE_DIR}/cmake/embed_binary.cmake
      DEPENDS ${_in} ${CMAKE_SOURCE_DIR}/cmake/embed_binary.cmake)
  endforeach()
  file(GLOB _optix_srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/rt/optix/*.cpp)
  list(FILTER _optix_srcs EXCLUDE REGEX "optix_stub.cpp$")
  add_library(raydb_rt_optix STATIC ${_optix_srcs} ${_gen}/embed_ir.cpp ${_gen}/embed_ptx.cpp)
  target_include_directories(raydb_rt_optix SYSTEM PRIVATE ${_optix_dir}/include)
  target_link_libraries(raydb_rt_optix PRIVATE raydb_gpu CUDA::cudart_static ${CMAKE_DL_LIBS})
  message(STATUS "raydb OptiX tracer: yes (${_optix_dir}; OptiX-IR: ${_ir})")
else()
  add_library(raydb_rt_optix STATIC ${CMAKE_SOURCE_DIR}/src/rt/optix/optix_stub.cpp)
  target_compile_definitions(raydb_rt_optix PRIVATE RAYDB_OPTIX_MISSING="${_optix_missing}")
  message(STATUS "raydb OptiX tracer: no (${_optix_missing})")
endif()
target_include_directories(raydb_rt_optix PUBLIC ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/include
                           ${CMAKE_BINARY_DIR}/generated)
target_link_libraries(raydb_rt_optix PUBLIC raydb_common)
target_link_libraries(raydb_rt PUBLIC raydb_rt_optix)
