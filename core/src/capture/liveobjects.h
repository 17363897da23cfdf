// The recorder's live objects: the driver's handles of one process to their rows. Handles may be reused
// once an object is gone, so every object gets its own row id; a handle leaves the map when its reference
// count (as the stream's Retain and Release records tell it) reaches zero.
#pragma once

#include "protocol.h"
#include "sqlite.h"

#include <cstdint>
#include <map>
#include <utility>

namespace clscope::capture {

class LiveObjects
{
public:
    // The row of a live handle; 0 for a null or unknown handle.
    std::int64_t find(wire::ObjectType type, std::uint64_t handle) const;
    void add(wire::ObjectType type, std::uint64_t handle, std::int64_t id);
    void retain(wire::ObjectType type, std::uint64_t handle);
    // Drops a reference; at the last one the row gets its released_ns (in `db`) and the handle is
    // forgotten. Returns the released row, or 0 while references remain (or for an unknown handle).
    std::int64_t release(Db &db, wire::ObjectType type, std::uint64_t handle, std::uint64_t ts);
    void clear() { m_live.clear(); }

private:
    struct LiveObject
    {
        std::int64_t id = 0;
        std::int64_t refs = 1;
    };
    std::map<std::pair<int, std::uint64_t>, LiveObject> m_live; // (ObjectType, handle) -> row
};

} // namespace clscope::capture
