# cmake --install: the raydb program, libraydb.so (every layer linked into one shared
# library), the public headers (include/raydb/, plus the two common/ headers raydb.h
# includes, under include/raydb/internal/), a CMake package (find_package(raydb):
# target raydb::raydb) and a pkg-config file (raydb.pc). The shared library records its
# own dependencies (Embree, OpenMP, the CUDA runtime is static, Arrow when Parquet is
# built) as NEEDED entries with an install RPATH, so a program links only raydb and fmt
# (error.h formats messages with it).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

file(WRITE ${CMAKE_BINARY_DIR}/generated/raydb_shared.cpp
     "// libraydb.so: the layers' archives, linked in whole where the public API lives.\n")
add_library(raydb_shared SHARED ${CMAKE_BINARY_DIR}/generated/raydb_shared.cpp)
# api (Database, admin) linked whole, so every function the public headers declare is in
# the library; the layers below come in as api needs them (types.cpp, value.cpp and
# error.cpp, which define the rest of the headers, with them).
target_link_libraries(raydb_shared PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,raydb_api>")
target_link_libraries(raydb_shared PUBLIC fmt::fmt)
target_include_directories(raydb_shared INTERFACE $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
                           $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/src>
                           $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
                           $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/raydb/internal>)
set_target_properties(raydb_shared PROPERTIES OUTPUT_NAME raydb EXPORT_NAME raydb VERSION ${PROJECT_VERSION}
                      SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}
                      INSTALL_RPATH_USE_LINK_PATH TRUE)
set_target_properties(raydb PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)

install(TARGETS raydb RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(TARGETS raydb_shared EXPORT raydbTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT devel)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/raydb DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT devel
        FILES_MATCHING PATTERN "*.h")
install(FILES ${CMAKE_SOURCE_DIR}/src/common/error.h ${CMAKE_SOURCE_DIR}/src/common/settings.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/raydb/internal/common COMPONENT devel)
install(EXPORT raydbTargets NAMESPACE raydb:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/raydb COMPONENT devel)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/raydbConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/generated/raydbConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/raydb)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/generated/raydbConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/generated/raydbConfig.cmake ${CMAKE_BINARY_DIR}/generated/raydbConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/raydb COMPONENT devel)
# prefix relative to the .pc file, so the package works wherever --prefix puts it.
file(RELATIVE_PATH RAYDB_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
configure_file(${CMAKE_SOURCE_DIR}/cmake/raydb.pc.in ${CMAKE_BINARY_DIR}/generated/raydb.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/generated/raydb.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT devel)
