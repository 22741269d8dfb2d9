# Parquet (raydb load parquet, COPY ... 'x.parquet', raydb export --parquet) through the
# Arrow and Parquet C++ libraries: Arrow's own CMake packages when installed (Apache's
# libarrow-dev/libparquet-dev), else the libraries the pyarrow wheel ships (PyPI, which
# the Python package needs anyway). An optional feature: RAYDB_PARQUET AUTO builds it
# when either is found, ON requires it, OFF leaves it out (the commands then say so).
# Sets RAYDB_HAVE_PARQUET and the target raydb_parquet_deps.
set(RAYDB_PARQUET AUTO CACHE STRING "Build Parquet support (AUTO, ON, OFF)")
set_property(CACHE RAYDB_PARQUET PROPERTY STRINGS AUTO ON OFF)
set(RAYDB_HAVE_PARQUET 0)
set(RAYDB_PARQUET_SOURCE "")
add_library(raydb_parquet_deps INTERFACE)
# The Python module reads and writes Parquet through pyarrow itself; linked to the
# wheel's libarrow it would also need pyarrow's directory at import time, so pip builds
# leave the feature out unless asked for it.
if(RAYDB_PYTHON AND RAYDB_PARQUET STREQUAL "AUTO")
  message(STATUS "raydb Parquet: left out of the Python module build (RAYDB_PARQUET=ON to add it)")
elseif(RAYDB_LIBFUZZER AND RAYDB_PARQUET STREQUAL "AUTO")
  # No fuzz target reads Parquet, and the wheel's libraries are not instrumented.
  message(STATUS "raydb Parquet: left out of the libFuzzer build (RAYDB_PARQUET=ON to add it)")
elseif(NOT RAYDB_PARQUET STREQUAL "OFF")
  find_package(Arrow CONFIG QUIET)
  find_package(Parquet CONFIG QUIET)
  if(Arrow_FOUND AND Parquet_FOUND)
    target_link_libraries(raydb_parquet_deps INTERFACE Parquet::parquet_shared Arrow::arrow_shared)
    set(RAYDB_HAVE_PARQUET 1)
    set(RAYDB_PARQUET_SOURCE "Arrow ${Arrow_VERSION} (system)")
  else()
    find_package(Python3 COMPONENTS Interpreter QUIET)
    if(Python3_Interpreter_FOUND)
      execute_process(
        COMMAND ${Python3_EXECUTABLE} -c
                "import pyarrow; print(pyarrow.get_include()); print(pyarrow.get_library_dirs()[0]); print(pyarrow.__version__)"
        OUTPUT_VARIABLE pyarrow_out RESULT_VARIABLE pyarrow_rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
      if(pyarrow_rc EQUAL 0)
        string(REPLACE "\n" ";" pyarrow_out "${pyarrow_out}")
        list(GET pyarrow_out 0 PYARROW_INCLUDE_DIR)
        list(GET pyarrow_out 1 PYARROW_LIBRARY_DIR)
        list(GET pyarrow_out 2 PYARROW_VERSION)
        # The wheel ships libarrow.so.NNNN without the unversioned link name
        # (pyarrow.create_library_symlinks() would add it inside site-packages): link
        # the versioned files by path, which records their sonames.
        file(GLOB arrow_candidates ${PYARROW_LIBRARY_DIR}/libarrow.so.*)
        file(GLOB parquet_candidates ${PYARROW_LIBRARY_DIR}/libparquet.so.*)
        list(FILTER arrow_candidates INCLUDE REGEX "/libarrow\\.so\\.[0-9]+$")
        list(FILTER parquet_candidates INCLUDE REGEX "/libparquet\\.so\\.[0-9]+$")
        if(arrow_candidates AND parquet_candidates AND EXISTS ${PYARROW_INCLUDE_DIR}/parquet/arrow/reader.h)
          list(GET arrow_candidates 0 PYARROW_ARROW_LIBRARY)
          list(GET parquet_candidates 0 PYARROW_PARQUET_LIBRARY)
          target_include_directories(raydb_parquet_deps SYSTEM INTERFACE ${PYARROW_INCLUDE_DIR})
          target_link_libraries(raydb_parquet_deps INTERFACE ${PYARROW_PARQUET_LIBRARY} ${PYARROW_ARROW_LIBRARY})
          set(RAYDB_HAVE_PARQUET 1)
          set(RAYDB_PARQUET_SOURCE "pyarrow ${PYARROW_VERSION} (${PYARROW_LIBRARY_DIR})")
        endif()
      endif()
    endif()
  endif()
  if(NOT RAYDB_HAVE_PARQUET AND RAYDB_PARQUET STREQUAL "ON")
    message(FATAL_ERROR "RAYDB_PARQUET=ON but neither Arrow/Parquet C++ nor pyarrow was found")
  endif()
endif()
message(STATUS "raydb Parquet: ${RAYDB_HAVE_PARQUET} ${RAYDB_PARQUET_SOURCE}")
