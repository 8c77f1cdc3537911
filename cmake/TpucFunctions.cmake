# CMake functions for tpuc's components (docs/development.md, "CMake").
# Every library, dialect and unit test of the tree is declared with one of
# these; they give all of ours the same warnings and MLIR linkage.

set(TPUC_WARNINGS -Wall -Wextra)

# Our warnings on a target that no function below declares (executables).
function(tpuc_plain_target_options target)
  target_compile_options(${target} PRIVATE ${TPUC_WARNINGS})
endfunction()

# tpuc_add_library(NAME [MLIR] SOURCES a.cpp ... [DEPENDS gen ...] [LIBS lib ...])
# One component's library. Without MLIR it is a plain static library
# (the runtime side: Abseil + Protobuf only); with MLIR it is an
# add_mlir_library that links the one MLIR/LLVM dylib (TPUC_MLIR_LIBS) and
# waits for the tablegen targets in DEPENDS. LIBS are linked PUBLIC.
function(tpuc_add_library name)
  cmake_parse_arguments(ARG "MLIR" "" "SOURCES;DEPENDS;LIBS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tpuc_add_library(${name}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(ARG_MLIR)
    add_mlir_library(${name} ${ARG_SOURCES} DEPENDS ${ARG_DEPENDS})
    target_link_libraries(${name} PUBLIC ${ARG_LIBS} ${TPUC_MLIR_LIBS})
  else()
    add_library(${name} ${ARG_SOURCES})
    target_link_libraries(${name} PUBLIC ${ARG_LIBS})
    if(ARG_DEPENDS)
      add_dependencies(${name} ${ARG_DEPENDS})
    endif()
  endif()
  tpuc_plain_target_options(${name})
endfunction()

# tpuc_add_dialect(Prefix name SOURCES a.cpp ... [LIBS lib ...])
# An ODS dialect in the current folder: <Prefix>Ops.td (including
# <Prefix>Dialect.td) -> <Prefix>{Ops,Dialect,Enums,Attrs}.{h,cpp}.inc
# (target TPUC<Prefix>IncGen), the library TPUC<Prefix>Dialect, and its
# reference page <Prefix>Dialect.md copied to build/docs by `tpuc-doc`.
function(tpuc_add_dialect prefix name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  set(LLVM_TARGET_DEFINITIONS ${prefix}Ops.td)
  mlir_tablegen(${prefix}Ops.h.inc -gen-op-decls)
  mlir_tablegen(${prefix}Ops.cpp.inc -gen-op-defs)
  mlir_tablegen(${prefix}Dialect.h.inc -gen-dialect-decls -dialect=${name})
  mlir_tablegen(${prefix}Dialect.cpp.inc -gen-dialect-defs -dialect=${name})
  mlir_tablegen(${prefix}Enums.h.inc -gen-enum-decls)
  mlir_tablegen(${prefix}Enums.cpp.inc -gen-enum-defs)
  mlir_tablegen(${prefix}Attrs.h.inc -gen-attrdef-decls -attrdefs-dialect=${name})
  mlir_tablegen(${prefix}Attrs.cpp.inc -gen-attrdef-defs -attrdefs-dialect=${name})
  add_public_tablegen_target(TPUC${prefix}IncGen)

  # The dialect reference generated from ODS: `cmake --build build --target tpuc-doc`.
  mlir_tablegen(${prefix}Dialect.md -gen-dialect-doc -dialect=${name})
  add_custom_target(tpuc-doc-${name}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/docs
    COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_CURRENT_BINARY_DIR}/${prefix}Dialect.md
            ${PROJECT_BINARY_DIR}/docs/${prefix}Dialect.md
    DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/${prefix}Dialect.md)
  add_dependencies(tpuc-doc tpuc-doc-${name})

  add_mlir_dialect_library(TPUC${prefix}Dialect ${ARG_SOURCES}
    DEPENDS TPUC${prefix}IncGen)
  target_link_libraries(TPUC${prefix}Dialect PUBLIC ${ARG_LIBS} ${TPUC_MLIR_LIBS})
  tpuc_plain_target_options(TPUC${prefix}Dialect)
endfunction()

# tpuc_add_unittest(NAME SOURCES a.cpp b.cpp LIBS lib1 lib2)
# A GoogleTest binary in build/test/unit; each TEST becomes one ctest entry,
# and `check-tpuc` builds it.
function(tpuc_add_unittest name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  tpuc_plain_target_options(${name})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/test/unit)
  gtest_discover_tests(${name} DISCOVERY_MODE PRE_TEST TEST_PREFIX "${name}.")
  set_property(GLOBAL APPEND PROPERTY TPUC_TEST_TARGETS ${name})
endfunction()
