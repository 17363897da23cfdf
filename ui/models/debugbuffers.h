// The global buffers at a kernel debugger stop (the plugin's "buffers" reply, docs/debug-protocol.md) as
// the typed bytes the results viewer shows. The plugin sends each element as text (integers in decimal,
// floats as the shortest text that reads back the same value), at most its first 1024 elements, and how
// many the buffer holds: the bytes are made from that text, and only the elements sent are there.
#pragma once

#include "clscope/debug.h"
#include "clscope/kernelargs.h"

#include <cstdint>
#include <optional>
#include <string>

namespace clscope::ui {

struct DebugBuffer
{
    std::optional<BufferData> data; // the elements sent, from element 0; none when they cannot be typed
    std::uint64_t elements = 0;     // how many the buffer holds from where the argument points
    std::string problem;            // why data is missing: "struct Particle elements are not numbers"
    // Fewer elements sent than the buffer holds.
    bool partial() const { return data && data->count < elements; }
};

// A buffer of the "buffers" reply: scalar and vector elements (an OpenCL C type, const or not) become
// BufferData named as the argument; anything else (structs, pointers, a value the plugin could not read)
// says why not.
DebugBuffer debugBuffer(const DebugValue &buffer);

} // namespace clscope::ui
