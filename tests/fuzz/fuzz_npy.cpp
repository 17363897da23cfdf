// Fuzzes the .npy reader: any file given to file= or opened in the GUI must end in an array or NpyError,
// nothing else. An array that parses must write back (encodeNpy) to a file that parses to the same array,
// and convert (fromNpy) to the buffers its shape can fill.
#include "clscope/npy.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void check(bool ok)
{
    if (!ok)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace clscope;
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    NpyArray array;
    try {
        array = parseNpy(bytes);
    } catch (const NpyError &) {
        return 0;
    }
    const std::size_t values = array.valueCount();
    const std::size_t component = scalarSize(array.dtype);
    check(array.dtype != ScalarKind::Bytes);
    check(array.data.size() == values * component);
    check(parseNpy(encodeNpy(array)) == array);

    // As scalars, as raw elements of one value, and as vectors where the shape divides.
    check(fromNpy(array, ElementType{array.dtype, 1, 0}, values) == array.data);
    check(fromNpy(array, ElementType::bytes(component), values) == array.data);
    for (const int width : {2, 3, 4, 8, 16}) {
        if (values % std::size_t(width) != 0)
            continue;
        const ElementType type{array.dtype, width, 0};
        check(fromNpy(array, type, values / std::size_t(width)).size() ==
              values / std::size_t(width) * type.size());
    }
    return 0;
}
