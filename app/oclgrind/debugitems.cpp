// The paused work-group's work-items, and the next instruction of a work-item (debugitems.h).
#include "debugitems.h"

#include "WorkGroup.h"
#include "WorkItem.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

namespace clscope::debugplugin {

using nlohmann::json;

Id idOf(const oclgrind::Size3 &s)
{
    return {s.x, s.y, s.z};
}

json itemJson(const oclgrind::WorkItem *item)
{
    return {{"global", jsonOf(idOf(item->getGlobalID()))},
            {"local", jsonOf(idOf(item->getLocalID()))},
            {"group", jsonOf(idOf(item->getWorkGroup()->getGroupID()))}};
}

const oclgrind::WorkItem *itemById(const Paused &paused, const Id &global, std::string &why)
{
    const oclgrind::WorkGroup *group = paused.item ? paused.item->getWorkGroup() : nullptr;
    if (!group) {
        why = "not paused";
        return nullptr;
    }
    const oclgrind::Size3 size = group->getGroupSize();
    const Id first = idOf(group->getWorkItem(oclgrind::Size3(0, 0, 0))->getGlobalID());
    Id local{};
    for (int d = 0; d < 3; ++d) {
        const std::size_t extent = d == 0 ? size.x : d == 1 ? size.y : size.z;
        if (global[d] < first[d] || global[d] - first[d] >= extent) {
            why = "work-item (" + std::to_string(global[0]) + "," + std::to_string(global[1]) + "," +
                  std::to_string(global[2]) +
                  ") is not in the running work-group: only its work-items can be read (set a breakpoint for "
                  "that work-item and continue)";
            return nullptr;
        }
        local[d] = global[d] - first[d];
    }
    return group->getWorkItem(oclgrind::Size3(local[0], local[1], local[2]));
}

namespace {

bool notStarted(const oclgrind::WorkItem *item)
{
    if (item->getState() != oclgrind::WorkItem::READY || !item->getCallStack().empty())
        return false;
    const llvm::Instruction *current = item->getCurrentInstruction();
    return current && current == &current->getFunction()->getEntryBlock().front();
}

} // namespace

ItemPosition positionOfItem(const oclgrind::WorkItem *item, const Paused &paused, std::string &state)
{
    if (item == paused.item) {
        state = "stopped";
        return {item, paused.next};
    }
    switch (item->getState()) {
    case oclgrind::WorkItem::FINISHED:
        state = "finished";
        return {item, nullptr};
    case oclgrind::WorkItem::BARRIER:
        state = "barrier";
        break;
    default:
        state = notStarted(item) ? "not started" : "ready";
        break;
    }
    return {item, item->getCurrentInstruction()};
}

json itemState(const oclgrind::WorkItem *item, const Paused &paused)
{
    std::string state;
    const ItemPosition at = positionOfItem(item, paused, state);
    json out = itemJson(item);
    out["state"] = state;
    const SourcePosition p = positionOf(at.next);
    if (at.next && p.line != 0) {
        out["file"] = p.file;
        out["line"] = p.line;
    }
    return out;
}

const llvm::Instruction *predictNext(const oclgrind::WorkItem *item, const llvm::Instruction *done)
{
    if (const auto *branch = llvm::dyn_cast<llvm::BranchInst>(done)) {
        if (branch->isUnconditional())
            return &branch->getSuccessor(0)->front();
        const unsigned char *data = item->getValueData(branch->getCondition());
        if (!data)
            return nullptr;
        return &branch->getSuccessor((*data & 1) ? 0 : 1)->front();
    }
    if (const auto *sw = llvm::dyn_cast<llvm::SwitchInst>(done)) {
        const oclgrind::TypedValue value = item->getOperand(sw->getCondition());
        const std::uint64_t v = value.getUInt();
        for (const auto &c : sw->cases()) {
            if (c.getCaseValue()->getZExtValue() == v)
                return &c.getCaseSuccessor()->front();
        }
        return &sw->getDefaultDest()->front();
    }
    if (llvm::isa<llvm::ReturnInst>(done)) {
        // Back in the caller: the work-item is at the call, and runs the instruction after it.
        const llvm::Instruction *call = item->getCurrentInstruction();
        return call && call != done ? call->getNextNode() : nullptr;
    }
    if (const auto *call = llvm::dyn_cast<llvm::CallInst>(done)) {
        const llvm::Function *callee = call->getCalledFunction();
        if (callee && !callee->isDeclaration())
            return &callee->getEntryBlock().front();
    }
    if (done->isTerminator())
        return nullptr; // unreachable, indirect branches: no guess
    return done->getNextNode();
}

} // namespace clscope::debugplugin
