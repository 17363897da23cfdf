# Finds QScintilla built for Qt 6 (Debian/Ubuntu: libqscintilla2-qt6-dev), which ships no CMake config.
# Provides the imported target QScintilla::QScintillaQt6.
find_package(Qt6 COMPONENTS Core Gui Widgets QUIET)
get_target_property(_qt6_core_inc Qt6::Core INTERFACE_INCLUDE_DIRECTORIES)
find_path(QScintillaQt6_INCLUDE_DIR Qsci/qsciscintilla.h
  HINTS ${_qt6_core_inc} ${_qt6_core_inc}/..
  PATH_SUFFIXES qt6 x86_64-linux-gnu/qt6 aarch64-linux-gnu/qt6)
find_library(QScintillaQt6_LIBRARY NAMES qscintilla2_qt6)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(QScintillaQt6 REQUIRED_VARS QScintillaQt6_LIBRARY QScintillaQt6_INCLUDE_DIR)
if(QScintillaQt6_FOUND AND NOT TARGET QScintilla::QScintillaQt6)
  add_library(QScintilla::QScintillaQt6 UNKNOWN IMPORTED)
  set_target_properties(QScintilla::QScintillaQt6 PROPERTIES
    IMPORTED_LOCATION "${QScintillaQt6_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${QScintillaQt6_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "Qt6::Widgets")
endif()
mark_as_advanced(QScintillaQt6_INCLUDE_DIR QScintillaQt6_LIBRARY)
