// Where CLScope's own libraries are (packagefiles.h). CLSCOPE_PACKAGE_LIB_DIR and
// CLSCOPE_PACKAGE_LIB_RELATIVE_DIR come from core/CMakeLists.txt (GNUInstallDirs).
#include "clscope/packagefiles.h"

#include <filesystem>
#include <system_error>

namespace clscope {
namespace fs = std::filesystem;

std::optional<std::string> findPackageLibrary(const std::string &fileName, const std::string &executableDir)
{
    std::error_code ec;
    if (!executableDir.empty()) {
        const fs::path self(executableDir);
        for (const fs::path &here :
             {self / fileName, self / ".." / CLSCOPE_PACKAGE_LIB_RELATIVE_DIR / fileName}) {
            if (fs::is_regular_file(here, ec))
                return fs::weakly_canonical(here, ec).string();
        }
    }
    const fs::path installed = fs::path(CLSCOPE_PACKAGE_LIB_DIR) / fileName;
    if (fs::is_regular_file(installed, ec))
        return installed.string();
    return std::nullopt;
}

std::string packageLibraryDir()
{
    return CLSCOPE_PACKAGE_LIB_DIR;
}

} // namespace clscope
