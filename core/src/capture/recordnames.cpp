// The capture file's names for the stream's enumerations (recordnames.h).
#include "recordnames.h"

#include "clscope/programsource.h"

#include <CL/cl.h>

namespace clscope::capture {

std::string memKindName(wire::MemKind k)
{
    switch (k) {
    case wire::MemKind::Buffer:
        return "buffer";
    case wire::MemKind::SubBuffer:
        return "sub-buffer";
    case wire::MemKind::Image:
        return "image";
    case wire::MemKind::Svm:
        return "svm";
    case wire::MemKind::Pipe:
        return "pipe";
    case wire::MemKind::Interop:
        return "interop";
    }
    return "unknown";
}

std::string programKindName(wire::ProgramKind k)
{
    switch (k) {
    // The words a program's kind has everywhere (programsource.h); "linked" is the capture's own.
    case wire::ProgramKind::Source:
        return std::string(clscope::programKindName(ProgramKind::Source));
    case wire::ProgramKind::Binary:
        return std::string(clscope::programKindName(ProgramKind::Binary));
    case wire::ProgramKind::IL:
        return std::string(clscope::programKindName(ProgramKind::Il));
    case wire::ProgramKind::BuiltIn:
        return std::string(clscope::programKindName(ProgramKind::BuiltIns));
    case wire::ProgramKind::Linked:
        return "linked";
    }
    return "unknown";
}

std::string buildOpName(wire::BuildOp op)
{
    switch (op) {
    case wire::BuildOp::Build:
        return "build";
    case wire::BuildOp::Compile:
        return "compile";
    case wire::BuildOp::Link:
        return "link";
    }
    return "unknown";
}

const char *contentStateName(wire::ContentState s)
{
    switch (s) {
    case wire::ContentState::Captured:
        return "captured";
    case wire::ContentState::OverBudget:
        return "over-budget";
    case wire::ContentState::NotABuffer:
        return "not-a-buffer";
    case wire::ContentState::ReadFailed:
        return "read-failed";
    }
    return "unknown";
}

std::string commandTypeName(std::uint32_t type)
{
    switch (type) {
    case CL_COMMAND_NDRANGE_KERNEL:
        return "ndrange-kernel";
    case CL_COMMAND_TASK:
        return "task";
    case CL_COMMAND_NATIVE_KERNEL:
        return "native-kernel";
    case CL_COMMAND_READ_BUFFER:
        return "read-buffer";
    case CL_COMMAND_WRITE_BUFFER:
        return "write-buffer";
    case CL_COMMAND_COPY_BUFFER:
        return "copy-buffer";
    case CL_COMMAND_READ_IMAGE:
        return "read-image";
    case CL_COMMAND_WRITE_IMAGE:
        return "write-image";
    case CL_COMMAND_COPY_IMAGE:
        return "copy-image";
    case CL_COMMAND_COPY_IMAGE_TO_BUFFER:
        return "copy-image-to-buffer";
    case CL_COMMAND_COPY_BUFFER_TO_IMAGE:
        return "copy-buffer-to-image";
    case CL_COMMAND_MAP_BUFFER:
        return "map-buffer";
    case CL_COMMAND_MAP_IMAGE:
        return "map-image";
    case CL_COMMAND_UNMAP_MEM_OBJECT:
        return "unmap";
    case CL_COMMAND_MARKER:
        return "marker";
    case CL_COMMAND_READ_BUFFER_RECT:
        return "read-buffer-rect";
    case CL_COMMAND_WRITE_BUFFER_RECT:
        return "write-buffer-rect";
    case CL_COMMAND_COPY_BUFFER_RECT:
        return "copy-buffer-rect";
    case CL_COMMAND_BARRIER:
        return "barrier";
    case CL_COMMAND_MIGRATE_MEM_OBJECTS:
        return "migrate";
    case CL_COMMAND_FILL_BUFFER:
        return "fill-buffer";
    case CL_COMMAND_FILL_IMAGE:
        return "fill-image";
    case CL_COMMAND_SVM_FREE:
        return "svm-free";
    case CL_COMMAND_SVM_MEMCPY:
        return "svm-memcpy";
    case CL_COMMAND_SVM_MEMFILL:
        return "svm-memfill";
    case CL_COMMAND_SVM_MAP:
        return "svm-map";
    case CL_COMMAND_SVM_UNMAP:
        return "svm-unmap";
    case CL_COMMAND_SVM_MIGRATE_MEM:
        return "svm-migrate";
    }
    return "command-" + std::to_string(type);
}

} // namespace clscope::capture
