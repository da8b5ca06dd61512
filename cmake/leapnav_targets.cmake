# leapnav_add_library(<name> [DEPS <targets>...] [PRIVATE_DEPS <targets>...])
# One library target per source folder: sources from <folder>/src/*.cpp, public headers from
# <folder>/include/leapnav/<name>/. Creates leapnav_<name> with the alias leapnav::<name> and
# installs it into the leapnav export set.
function(leapnav_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPS;PRIVATE_DEPS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cpp)
  add_library(leapnav_${name} STATIC ${sources})
  add_library(leapnav::${name} ALIAS leapnav_${name})
  set_target_properties(leapnav_${name} PROPERTIES EXPORT_NAME ${name} OUTPUT_NAME leapnav_${name})
  target_include_directories(leapnav_${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(leapnav_${name} PUBLIC cxx_std_20)
  target_link_libraries(leapnav_${name} PUBLIC ${ARG_DEPS}
    PRIVATE ${ARG_PRIVATE_DEPS} $<BUILD_INTERFACE:leapnav_build_settings>)
  install(TARGETS leapnav_${name} EXPORT leapnavTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endfunction()
