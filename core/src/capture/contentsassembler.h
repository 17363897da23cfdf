// Contents that come in pieces (the stream's ContentsPart records, protocol.h): each (launch, arg, phase)
// has a Contents payload being filled and the bytes still to come; once the last piece has come, the whole
// payload is recorded as one Contents record.
#pragma once

#include "protocol.h"

#include <cstdint>
#include <functional>
#include <map>
#include <tuple>
#include <vector>

namespace clscope::capture {

class ContentsAssembler
{
public:
    // Adds one piece; hands the whole Contents payload to `record` once the last has come. Returns false
    // for a piece that does not continue what came before (it and its contents are then left out).
    bool add(wire::Decoder &in, const std::function<void(wire::Decoder &)> &record);

private:
    struct Assembly
    {
        std::vector<unsigned char> payload;
        std::uint64_t missing = 0;
    };
    std::map<std::tuple<std::int64_t, std::uint32_t, std::uint8_t>, Assembly> m_assemblies;
};

} // namespace clscope::capture
