// Libraries that ship with CLScope and are loaded into other processes: the capture layer
// (libclscope-layer.so, loaded by the OpenCL loader) and the Oclgrind plugin (libclscope-oclgrind.so, loaded
// by Oclgrind). Where they are: beside the executables in a build tree, PREFIX/LIBDIR/clscope beside
// PREFIX/bin when installed, else the folder the package installs them to.
#pragma once

#include <optional>
#include <string>

namespace clscope {

// fileName's path, looked for beside executableDir ("" for none), in executableDir/../LIBDIR/clscope and in
// packageLibraryDir(); nothing when it is in none of them.
std::optional<std::string> findPackageLibrary(const std::string &fileName, const std::string &executableDir);

// The install folder of those libraries: CMAKE_INSTALL_FULL_LIBDIR/clscope.
std::string packageLibraryDir();

} // namespace clscope
