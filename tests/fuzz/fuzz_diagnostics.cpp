// Fuzzes the build-log diagnostic parser: any bytes a driver might print must parse without a crash,
// and every diagnostic it returns must be well formed.
#include "clscope/build.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view log(reinterpret_cast<const char *>(data), size);
    const auto diagnostics = clscope::parseDiagnostics(log, "kernel.cl", {"helper.h"});
    for (const auto &d : diagnostics) {
        if (d.line < 0 || d.column < 0)
            std::abort();
    }
    return 0;
}
