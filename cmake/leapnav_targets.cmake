# leapnav_add_library(<name> [DEPS <names>...] [PRIVATE_DEPS <targets>...] [EXCLUDE <files>...])
# One library target per source folder: sources from <folder>/src/*.cpp (minus EXCLUDE), headers
# from <folder>/include/leapnav/<name>/. The sources compile once, into the object library
# leapnav_<name>_objects; leapnav_<name> (alias leapnav::<name>, static or shared as
# BUILD_SHARED_LIBS says) is made of them, and so is the installed leapnav::runtime (see
# cmake/leapnav_runtime.cmake). DEPS name other folders (voxel, mesh, ...).
# note: the per-folder targets serve this project's tests, benchmark and command; they are not
# installed, so consumers see one target and only the public headers.
function(leapnav_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPS;PRIVATE_DEPS;EXCLUDE" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cpp)
  foreach(excluded ${ARG_EXCLUDE})
    list(REMOVE_ITEM sources ${CMAKE_CURRENT_SOURCE_DIR}/src/${excluded})
  endforeach()
  add_library(leapnav_${name}_objects OBJECT ${sources})
  target_include_directories(leapnav_${name}_objects PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>)
  target_compile_features(leapnav_${name}_objects PUBLIC cxx_std_20)
  set(object_deps "")
  set(library_deps "")
  foreach(dep ${ARG_DEPS})
    list(APPEND object_deps leapnav_${dep}_objects)
    list(APPEND library_deps leapnav::${dep})
  endforeach()
  target_link_libraries(leapnav_${name}_objects PUBLIC ${object_deps}
    PRIVATE ${ARG_PRIVATE_DEPS} leapnav_build_settings)
  set_property(GLOBAL APPEND PROPERTY LEAPNAV_OBJECT_LIBRARIES leapnav_${name}_objects)
  set_property(GLOBAL APPEND PROPERTY LEAPNAV_INCLUDE_DIRS ${CMAKE_CURRENT_SOURCE_DIR}/include)

  add_library(leapnav_${name} $<TARGET_OBJECTS:leapnav_${name}_objects>)
  add_library(leapnav::${name} ALIAS leapnav_${name})
  set_target_properties(leapnav_${name} PROPERTIES OUTPUT_NAME leapnav_${name})
  target_include_directories(leapnav_${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>)
  target_compile_features(leapnav_${name} PUBLIC cxx_std_20)
  target_link_libraries(leapnav_${name} PUBLIC ${library_deps} PRIVATE ${ARG_PRIVATE_DEPS})
endfunction()
