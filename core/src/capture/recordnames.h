// The names the capture file stores for the stream's enumerations (protocol.h): mem_objects.kind,
// programs.kind, builds.op, contents.state and commands.type_name.
#pragma once

#include "protocol.h"

#include <cstdint>
#include <string>

namespace clscope::capture {

std::string memKindName(wire::MemKind k);
std::string programKindName(wire::ProgramKind k);
std::string buildOpName(wire::BuildOp op);
const char *contentStateName(wire::ContentState s);
// "ndrange-kernel", "read-buffer", ... for commands.type_name; "command-N" for others.
std::string commandTypeName(std::uint32_t type);

} // namespace clscope::capture
