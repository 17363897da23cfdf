// The work-items of the paused work-group as the debugger answers for them (docs/debug-protocol.md: "items",
// "select", a stop's "item"), and the instruction a work-item runs next: Oclgrind calls the plugin after an
// instruction, and the debugger stops before the next one.
#pragma once

#include "debugconnection.h"
#include "debugvalues.h"

#include <string>

namespace oclgrind {
class WorkGroup;
struct Size3;
} // namespace oclgrind

namespace clscope::debugplugin {

Id idOf(const oclgrind::Size3 &size);

// The stopped work-item and the instruction it stopped before; none while the kernel runs.
struct Paused
{
    const oclgrind::WorkItem *item = nullptr;
    const llvm::Instruction *next = nullptr;
};

// {"global", "local", "group"}.
nlohmann::json itemJson(const oclgrind::WorkItem *item);
// The work-item of the paused work-group by global id, or nullptr with why.
const oclgrind::WorkItem *itemById(const Paused &paused, const Id &global, std::string &why);
// Where a work-item of the paused group is: the stopped one before its next instruction, others at their
// current one; state: stopped, ready, barrier, finished, not started.
ItemPosition positionOfItem(const oclgrind::WorkItem *item, const Paused &paused, std::string &state);
// itemJson with its state, file and line.
nlohmann::json itemState(const oclgrind::WorkItem *item, const Paused &paused);

// The instruction the work-item runs after `done`, which it has just run (the following one; a branch's
// target from its condition; a called function's first; after a return, the one after the call); nullptr
// when it cannot be told.
const llvm::Instruction *predictNext(const oclgrind::WorkItem *item, const llvm::Instruction *done);

} // namespace clscope::debugplugin
