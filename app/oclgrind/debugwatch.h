// A watched element (docs/debug-protocol.md: "watch"): one element of a global buffer argument of the kernel
// that begins, whose first writer the debugger stops.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class Type;
} // namespace llvm

namespace oclgrind {
class Context;
class KernelInvocation;
} // namespace oclgrind

namespace clscope::debugplugin {

struct Watch
{
    std::size_t address = 0; // in Oclgrind's global memory
    std::size_t bytes = 0;
    const llvm::Type *element = nullptr;
    std::string what; // "out[5]"

    bool overlaps(std::size_t at, std::size_t size) const
    {
        return at < address + bytes && at + size > address;
    }
};

// {"cmd": "watch", "arg": NAME or INDEX, "index": ELEMENT} for the kernel that begins; nothing, with why,
// when it names no element of a global buffer argument.
std::optional<Watch> watchOf(const oclgrind::Context *context, const oclgrind::KernelInvocation *invocation,
                             const nlohmann::json &request, std::string &why);
// The value a store writes into the element, as the variables show it ("" when it is not a number).
std::string storedValue(const Watch &watch, const std::uint8_t *data, std::size_t size);

} // namespace clscope::debugplugin
