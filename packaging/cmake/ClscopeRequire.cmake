# clscope_require(<Package> "<debian packages>" [find_package args...])
# Finds a dependency and, when it is missing, stops configure naming the Debian packages to install.
macro(clscope_require pkg debs)
  find_package(${pkg} ${ARGN} QUIET)
  if(NOT ${pkg}_FOUND)
    message(FATAL_ERROR
      "CLScope needs ${pkg}, which was not found.\n"
      "On Debian or Ubuntu install it with:  sudo apt-get install ${debs}\n"
      "(packaging/install-deps.sh installs every package CLScope needs.)")
  endif()
endmacro()
