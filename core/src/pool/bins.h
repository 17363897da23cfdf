// Private to the pool: pyopencl's bin arithmetic without argument checks (the hot path calls it after
// the pool validated its leading bits once), and the table of per-bin records.
#pragma once

#include "clscope/pool.h"

#include <bit>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

namespace clscope::detail {

// Unchecked forms for the hot path; leading bits were validated when the pool was made.
inline BinNumber binOf(std::uint64_t size, unsigned b)
{
    const unsigned l = size == 0 ? 0u : static_cast<unsigned>(std::bit_width(size)) - 1u;
    const std::uint64_t shifted = l >= b ? size >> (l - b) : size << (b - l);
    const std::uint64_t mask = (std::uint64_t{1} << b) - 1;
    return static_cast<BinNumber>((std::uint64_t{l} << b) | (shifted & mask));
}

inline std::uint64_t sizeOf(BinNumber bin, unsigned b)
{
    const std::uint64_t e = bin >> b;
    const std::uint64_t head = (std::uint64_t{1} << b) | (bin & ((std::uint64_t{1} << b) - 1));
    if (e < b)
        return head >> (b - e);
    // head has b+1 bits and e <= 63, so the shift never drops a bit: 2^64-1 maps back to 2^64-1.
    const std::uint64_t k = e - b;
    return (head << k) | ((std::uint64_t{1} << k) - 1);
}

inline constexpr std::uint32_t kNoSlot = std::numeric_limits<std::uint32_t>::max();

struct BinState
{
    std::uint32_t heldHead = kNoSlot; // last freed first: a stack
    std::uint32_t held = 0;
    std::uint32_t active = 0;
};

// Bin records: a flat array for few leading bits (the common B = 4 has 1024 bins), a hash map above,
// where 64 << B bins would not fit. A bin gains its record on a miss; a hit only looks it up.
class BinTable
{
public:
    explicit BinTable(unsigned leadingBits)
    {
        if (leadingBits <= kFlatLeadingBits)
            m_flat.resize(std::size_t{64} << leadingBits);
    }

    BinState *find(BinNumber bin)
    {
        if (!m_flat.empty())
            return &m_flat[bin];
        auto it = m_map.find(bin);
        return it == m_map.end() ? nullptr : &it->second;
    }
    BinState &get(BinNumber bin) { return m_flat.empty() ? m_map[bin] : m_flat[bin]; }
    void dropIfUnused(BinNumber bin)
    {
        if (m_flat.empty()) {
            auto it = m_map.find(bin);
            if (it != m_map.end() && it->second.held == 0 && it->second.active == 0)
                m_map.erase(it);
        }
    }
    // Only on the out-of-memory path, so a scan is fine.
    bool highestHeld(BinNumber &out) const
    {
        bool found = false;
        forEach([&](BinNumber bin, const BinState &s) {
            if (s.held > 0 && (!found || bin > out)) {
                out = bin;
                found = true;
            }
        });
        return found;
    }
    template<typename F> void forEach(F &&f) const
    {
        for (std::size_t i = 0; i < m_flat.size(); ++i)
            f(static_cast<BinNumber>(i), m_flat[i]);
        for (const auto &[bin, s] : m_map)
            f(bin, s);
    }

private:
    static constexpr unsigned kFlatLeadingBits = 6; // 4096 bins, 48 KiB
    std::vector<BinState> m_flat;
    std::unordered_map<BinNumber, BinState> m_map;
};

} // namespace clscope::detail
