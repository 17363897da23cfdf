// The recorder's prepared statements, one per kind of row it writes, made once the capture file has its
// schema (schema.h).
#pragma once

#include "sqlite.h"

namespace clscope::capture {

struct RecorderStatements
{
    // Creates the schema in the empty file `db`, then prepares the statements.
    explicit RecorderStatements(Db &db);

    const bool schemaMade; // before the statements, which need the tables
    Stmt insMeta, insProcess, endProcess, insApiName, insApiCall, insDevice, insContext, insQueue, insMem,
        insSampler, insProgram, insSource, insBuild, insLog, insKernel, insCommand, updTimes, insArg,
        insContents, insDrops;
};

} // namespace clscope::capture
