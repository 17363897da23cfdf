// CaptureReader's connection, shared by the reader's files (reader.cpp: summary, commands and launches;
// browse.cpp: what the capture views list).
#pragma once

#include "sqlite.h"

#include "clscope/capture.h"
#include "clscope/profile.h"

namespace clscope {

struct CaptureReader::Impl
{
    capture::Db db;
    explicit Impl(const std::string &path)
        : db(path, SQLITE_OPEN_READONLY)
    {}
};

namespace capture {
// The profile type of a cl_command_type.
CommandRecord::Type recordType(std::int64_t cl);
} // namespace capture

} // namespace clscope
