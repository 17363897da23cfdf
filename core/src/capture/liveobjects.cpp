// The recorder's live objects (liveobjects.h).
#include "liveobjects.h"

#include <string>

namespace clscope::capture {

std::int64_t LiveObjects::find(wire::ObjectType type, std::uint64_t handle) const
{
    if (!handle)
        return 0;
    auto it = m_live.find({int(type), handle});
    return it == m_live.end() ? 0 : it->second.id;
}

void LiveObjects::add(wire::ObjectType type, std::uint64_t handle, std::int64_t id)
{
    m_live[{int(type), handle}] = {id, 1};
}

void LiveObjects::retain(wire::ObjectType type, std::uint64_t handle)
{
    auto it = m_live.find({int(type), handle});
    if (it != m_live.end())
        ++it->second.refs;
}

std::int64_t LiveObjects::release(Db &db, wire::ObjectType type, std::uint64_t handle, std::uint64_t ts)
{
    auto it = m_live.find({int(type), handle});
    if (it == m_live.end() || --it->second.refs > 0)
        return 0;
    const char *table = nullptr;
    switch (type) {
    case wire::ObjectType::Context:
        table = "contexts";
        break;
    case wire::ObjectType::Queue:
        table = "queues";
        break;
    case wire::ObjectType::Mem:
        table = "mem_objects";
        break;
    case wire::ObjectType::Program:
        table = "programs";
        break;
    case wire::ObjectType::Kernel:
        table = "kernels";
        break;
    case wire::ObjectType::Sampler:
        table = "samplers";
        break;
    case wire::ObjectType::Event:
        break;
    }
    if (table) {
        Stmt s(db, (std::string("UPDATE ") + table + " SET released_ns = ? WHERE id = ?").c_str());
        s.bind(1, ts).bind(2, it->second.id).run();
    }
    const std::int64_t id = it->second.id;
    m_live.erase(it);
    return id;
}

} // namespace clscope::capture
