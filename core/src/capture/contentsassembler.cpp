// Contents joined from their pieces (contentsassembler.h).
#include "contentsassembler.h"

#include <string_view>
#include <utility>

namespace clscope::capture {

namespace {
// A Contents payload before its bytes: launch, arg, phase, mem, state, the blob's length.
constexpr std::size_t kContentsHead = 8 + 4 + 1 + 8 + 1 + 4;
} // namespace

bool ContentsAssembler::add(wire::Decoder &in, const std::function<void(wire::Decoder &)> &record)
{
    const auto launch = in.get<std::int64_t>();
    const auto arg = in.get<std::uint32_t>();
    const auto phase = in.get<std::uint8_t>();
    const auto mem = in.get<std::uint64_t>();
    const auto total = in.get<std::uint64_t>();
    const auto offset = in.get<std::uint64_t>();
    const std::string_view data = in.blob();
    const auto key = std::make_tuple(launch, arg, phase);
    auto it = m_assemblies.find(key);
    if (offset == 0) {
        // A Contents record's blob has a u32 length: larger contents are left out (the layer sends none).
        if (!in.ok() || total > UINT32_MAX || data.size() > total)
            return false;
        Assembly a;
        a.payload.resize(kContentsHead);
        wire::Encoder e(a.payload.data(), a.payload.size());
        e.put(launch), e.put(arg), e.put(phase), e.put(mem), e.put(wire::ContentState::Captured);
        e.put(static_cast<std::uint32_t>(total));
        a.missing = total;
        it = m_assemblies.insert_or_assign(key, std::move(a)).first;
    }
    if (it == m_assemblies.end())
        return false;
    Assembly &a = it->second;
    if (!in.ok() || offset != a.payload.size() - kContentsHead || data.size() > a.missing) {
        m_assemblies.erase(it);
        return false;
    }
    a.payload.insert(a.payload.end(), data.begin(), data.end());
    a.missing -= data.size();
    if (a.missing == 0) {
        wire::Decoder whole(a.payload.data(), a.payload.size());
        record(whole);
        m_assemblies.erase(it);
    }
    return true;
}

} // namespace clscope::capture
