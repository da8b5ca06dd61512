# leapnav::runtime, the installed library: every folder's objects in one library (static or shared
# as BUILD_SHARED_LIBS says) with the parallel wrapper on std::threads instead of oneTBB, so that
# consumers need neither TBB nor Boost (Boost.Geometry is header-only and private). Only the
# public headers, the closure of leapnav/leapnav.hpp, are installed.
find_package(Threads REQUIRED)

# note: the same parallel.cpp as leapnav::core, compiled for std::threads
add_library(leapnav_parallel_threads OBJECT ${PROJECT_SOURCE_DIR}/core/src/parallel.cpp)
target_compile_definitions(leapnav_parallel_threads PRIVATE LEAPNAV_STD_THREADS)
target_link_libraries(leapnav_parallel_threads PRIVATE leapnav_core_objects leapnav_build_settings)

get_property(object_libraries GLOBAL PROPERTY LEAPNAV_OBJECT_LIBRARIES)
get_property(include_dirs GLOBAL PROPERTY LEAPNAV_INCLUDE_DIRS)
set(runtime_objects $<TARGET_OBJECTS:leapnav_parallel_threads>)
foreach(objects ${object_libraries})
  list(APPEND runtime_objects $<TARGET_OBJECTS:${objects}>)
endforeach()
add_library(leapnav_runtime ${runtime_objects})
add_library(leapnav::runtime ALIAS leapnav_runtime)
set_target_properties(leapnav_runtime PROPERTIES EXPORT_NAME runtime OUTPUT_NAME leapnav
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
foreach(dir ${include_dirs} ${PROJECT_SOURCE_DIR}/include)
  target_include_directories(leapnav_runtime PUBLIC $<BUILD_INTERFACE:${dir}>)
endforeach()
target_include_directories(leapnav_runtime INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(leapnav_runtime PUBLIC cxx_std_20)
target_link_libraries(leapnav_runtime PRIVATE Threads::Threads)
install(TARGETS leapnav_runtime EXPORT leapnavTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The public headers: leapnav/leapnav.hpp and what it includes, nothing else.
set(leapnav_public_headers
  core/include/leapnav/core/assert.hpp
  core/include/leapnav/core/config.hpp
  core/include/leapnav/core/context.hpp
  core/include/leapnav/core/file_read.hpp
  core/include/leapnav/core/geometry.hpp
  core/include/leapnav/core/grid.hpp
  core/include/leapnav/core/result.hpp
  core/include/leapnav/core/triangle_mesh.hpp
  io/include/leapnav/io/area_table.hpp
  io/include/leapnav/io/config_file.hpp
  io/include/leapnav/io/file_io.hpp
  io/include/leapnav/io/navmesh_file.hpp
  io/include/leapnav/io/obj.hpp
  jumplinks/include/leapnav/jumplinks/jump_config.hpp
  jumplinks/include/leapnav/jumplinks/jump_links.hpp
  jumplinks/include/leapnav/jumplinks/link_check.hpp
  jumplinks/include/leapnav/jumplinks/link_compact.hpp
  jumplinks/include/leapnav/jumplinks/link_filter.hpp
  jumplinks/include/leapnav/jumplinks/link_refine.hpp
  jumplinks/include/leapnav/jumplinks/sound_links.hpp
  jumplinks/include/leapnav/jumplinks/tile_links.hpp
  ledgelinks/include/leapnav/ledgelinks/ledge_links.hpp
  mesh/include/leapnav/mesh/build.hpp
  mesh/include/leapnav/mesh/navmesh.hpp
  mesh/include/leapnav/mesh/tiles.hpp
  mesh/include/leapnav/mesh/types.hpp
  planning/include/leapnav/planning/funnel.hpp
  planning/include/leapnav/planning/graph.hpp
  planning/include/leapnav/planning/ledge_planner.hpp
  planning/include/leapnav/planning/path.hpp
  planning/include/leapnav/planning/query.hpp
  planning/include/leapnav/planning/raycast.hpp
  planning/include/leapnav/planning/sample.hpp
  planning/include/leapnav/planning/spatial.hpp
  streaming/include/leapnav/streaming/tile_blocks.hpp
  streaming/include/leapnav/streaming/tile_pack.hpp
  streaming/include/leapnav/streaming/tile_world.hpp
  voxel/include/leapnav/voxel/heightfield.hpp
  voxel/include/leapnav/voxel/rasterize.hpp
  voxel/include/leapnav/voxel/voxelize.hpp
  voxel/include/leapnav/voxel/walkable.hpp
  include/leapnav/leapnav.hpp)
foreach(header ${leapnav_public_headers})
  string(REGEX REPLACE "^.*include/leapnav/" "" relative ${header})
  get_filename_component(subdir ${relative} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${header}
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/leapnav/${subdir})
endforeach()
