// Fuzzes the memory pool trace parser: malformed traces must end in PoolTraceError, nothing else.
#include "clscope/pool.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    try {
        const auto ops = clscope::parsePoolTrace(text);
        (void)ops;
    } catch (const clscope::PoolTraceError &) {
    }
    return 0;
}
