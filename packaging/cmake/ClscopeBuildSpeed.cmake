# Build time on CI's two cores (docs/sanitizers.md, "Where CI's time goes"). Measured on the dev build:
# three quarters of the compile time went into parsing the same third-party headers again in every file
# (QtWidgets, QScintilla, QCustomPlot's 7,000-line header, QtTest, nlohmann/json), and a fifth into
# linking ~90 test executables with GNU ld. So: precompiled headers, one per kind of target, and lld.
include(CheckLinkerFlag)

option(CLSCOPE_PCH "Precompile the Qt, QScintilla, QCustomPlot and standard headers" ON)

check_linker_flag(CXX "-fuse-ld=lld" CLSCOPE_HAVE_LLD)
if(CLSCOPE_HAVE_LLD)
  add_link_options(-fuse-ld=lld)
endif()

# Unity builds (CMAKE_UNITY_BUILD, set by the dev and tsan presets): at -O0 under the sanitizers two
# thirds of a compile was generating code for template instances that every file of a target makes again
# (CLI11, nlohmann/json, std, Qt). Measured: clscope-cli's cmd_build.cpp and cmd_sweep.cpp took 31.5 s as
# two files and 20.6 s as one. A file-local name (anonymous namespace) must therefore be unique within its
# target.
if(CMAKE_UNITY_BUILD)
  # Each .cpp of a batch is an included file there, so GCC's header check -Wsubobject-linkage fires on a
  # class or lambda that holds a file-local type, which it does not in a .cpp of its own.
  add_compile_options($<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-Wno-subobject-linkage>) # a GCC-only option
endif()

# The headers of each kind of target. A test reuses the precompiled header of its kind (REUSE_FROM), so
# one compile serves ~40 test executables; a test's own -D values are fine as long as these headers do
# not read them, which none of ours do.
set(CLSCOPE_PCH_STD <algorithm> <array> <chrono> <cstdint> <cstring> <filesystem> <functional> <map>
  <memory> <optional> <set> <string> <string_view> <unordered_map> <utility> <vector>)
set(CLSCOPE_PCH_CORE ${CLSCOPE_PCH_STD} <CL/cl.h> <nlohmann/json.hpp>)
# clscope-cli: each command's file includes CLI11's header-only library (its parse took 15-25 s a file).
set(CLSCOPE_PCH_CLI ${CLSCOPE_PCH_CORE} <CLI/CLI.hpp>)
set(CLSCOPE_PCH_QT ${CLSCOPE_PCH_STD} <CL/cl.h> <QtCore/QtCore> <QtGui/QtGui>)
# QCustomPlot through our wrapper: its header uses foreach, which QT_NO_FOREACH refuses.
set(CLSCOPE_PCH_WIDGETS ${CLSCOPE_PCH_QT} <QtWidgets/QtWidgets> <Qsci/qsciscintilla.h>
  "${PROJECT_SOURCE_DIR}/ui/widgets/qcustomplotinclude.h")
# QtTest includes its Gui and Widgets parts when QT_GUI_LIB and QT_WIDGETS_LIB are defined, so tests come
# in three kinds by the Qt modules they link.
set(CLSCOPE_PCH_TEST_CORE ${CLSCOPE_PCH_STD} <CL/cl.h> <QtCore/QtCore> <QtTest/QtTest>)
set(CLSCOPE_PCH_TEST_GUI ${CLSCOPE_PCH_QT} <QtTest/QtTest>)
set(CLSCOPE_PCH_TEST_WIDGETS ${CLSCOPE_PCH_WIDGETS} <QtTest/QtTest>)

# clscope_pch(TARGET KIND): KIND is CORE, QT, WIDGETS or TEST_*, the set of headers TARGET gets precompiled.
function(clscope_pch target kind)
  if(CLSCOPE_PCH)
    target_precompile_headers(${target} PRIVATE ${CLSCOPE_PCH_${kind}})
  endif()
endfunction()

# clscope_pch_reuse(TARGET FROM): TARGET compiles with FROM's precompiled header (same flags, same Qt
# modules).
function(clscope_pch_reuse target from)
  if(CLSCOPE_PCH)
    target_precompile_headers(${target} REUSE_FROM ${from})
  endif()
endfunction()
