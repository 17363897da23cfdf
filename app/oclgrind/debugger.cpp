// The kernel debugger: an Oclgrind plugin that pauses the simulator's thread inside its callbacks and answers
// a controller over a Unix socket, one JSON document per line (docs/debug-protocol.md).
//
// Oclgrind has no "before an instruction" callback: instructionExecuted comes after one. The plugin predicts
// the instruction a work-item runs next (the following one; a branch's target from its condition; a called
// function's first; after a return, the one after the call) and stops before it when it starts a new
// source line that a breakpoint, a step or a pause asks for. A work-item that waits at a barrier runs on
// only when the whole group has arrived: a step across a barrier stops when the group is released (the
// others have run to it); a breakpoint right after a barrier is checked when each work-item resumes, after
// the first instruction of that line (Oclgrind gives no callback between the release and it).
//
// The plugin says it is not thread safe, so Oclgrind runs one work-group at a time on one thread: while a
// callback waits for the controller, the kernel is paused. If the controller goes away the kernel runs to
// its end as if no debugger were there.
#include "debugger.h"

#include "debugconnection.h"
#include "debugvalues.h"

#include "Context.h"
#include "Kernel.h"
#include "KernelInvocation.h"
#include "Memory.h"
#include "Plugin.h"
#include "WorkGroup.h"
#include "WorkItem.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>

namespace clscope::debugplugin {
namespace {

using nlohmann::json;

constexpr std::uint64_t kPauseCheckEvery = 4096; // instructions between looks for a pause request
constexpr auto kProgressEvery = std::chrono::milliseconds(100);

// The socket to the controller: whole lines out, whole lines in.
Id idOf(const oclgrind::Size3 &s)
{
    return {s.x, s.y, s.z};
}
enum class Mode { Run, Start, StepInto, StepOver, StepOut };

// An instruction's line without its file's name: what the hot path compares (no string per instruction).
struct Line
{
    unsigned number = 0;
    const llvm::DIFile *file = nullptr;
    bool operator==(const Line &) const = default;
};

Line lineOf(const llvm::Instruction *instruction)
{
    const llvm::DILocation *location = instruction->getDebugLoc().get();
    return location ? Line{location->getLine(), location->getFile()} : Line{};
}

class Debugger : public oclgrind::Plugin
{
public:
    Debugger(const oclgrind::Context *context, std::shared_ptr<Connection> connection)
        : oclgrind::Plugin(context)
        , m_connection(std::move(connection))
    {}

    bool isThreadSafe() const override { return false; }

    void kernelBegin(const oclgrind::KernelInvocation *invocation) override
    {
        m_debugging = false;
        if (!m_connection->open())
            return;
        m_invocation = invocation;
        m_watch.reset();
        std::map<std::size_t, oclgrind::Image> images;
        for (auto v = invocation->getKernel()->values_begin(); v != invocation->getKernel()->values_end();
             ++v) {
            const auto *argument = llvm::dyn_cast<llvm::Argument>(v->first);
            const auto *pointer = argument ? llvm::dyn_cast<llvm::PointerType>(argument->getType()) : nullptr;
            const auto *target =
                pointer && !pointer->isOpaque()
                    ? llvm::dyn_cast<llvm::StructType>(pointer->getNonOpaquePointerElementType())
                    : nullptr;
            if (target && target->hasName() && target->getName().startswith("opencl.image") &&
                v->second.data && v->second.size == sizeof(oclgrind::Image *)) {
                const oclgrind::Image *image = nullptr;
                std::memcpy(&image, v->second.data, sizeof image);
                if (image)
                    images.emplace(reinterpret_cast<std::size_t>(image), *image);
            }
        }
        setKernelImages(std::move(images));
        m_resuming.clear();
        m_pauseRequested = false;
        m_mode = Mode::Run;
        m_lastItem.reset();
        m_groupsStarted = 0;
        m_lastProgress = {};
        const oclgrind::Size3 groups = invocation->getNumGroups();
        m_groups = groups.x * groups.y * groups.z;
        m_connection->send({{"event", "kernel"},
                            {"kernel", invocation->getKernel()->getName()},
                            {"work_dim", invocation->getWorkDim()},
                            {"global", jsonOf(idOf(invocation->getGlobalSize()))},
                            {"local", jsonOf(idOf(invocation->getLocalSize()))},
                            {"offset", jsonOf(idOf(invocation->getGlobalOffset()))},
                            {"groups", jsonOf(idOf(groups))}});
        // The controller sets breakpoints, then says run (debug this launch) or skip (let it run).
        while (const auto request = m_connection->receive()) {
            const std::string command = request->value("cmd", "");
            if (command == "run") {
                m_debugging = true;
                m_startItem.reset();
                if (request->value("start", false)) {
                    m_mode = Mode::Start;
                    if (request->contains("item"))
                        m_startItem = idFrom((*request)["item"]);
                }
                return;
            }
            if (command == "skip" || command == "detach")
                return;
            answer(*request, nullptr);
        }
    }

    void kernelEnd(const oclgrind::KernelInvocation *invocation) override
    {
        if (m_debugging)
            m_connection->send({{"event", "kernel_end"}, {"kernel", invocation->getKernel()->getName()}});
        m_debugging = false;
        m_invocation = nullptr;
        m_stopped = nullptr;
    }

    void workGroupBegin(const oclgrind::WorkGroup *group) override
    {
        if (!m_debugging)
            return;
        ++m_groupsStarted;
        const auto now = std::chrono::steady_clock::now();
        if (now - m_lastProgress >= kProgressEvery || m_groupsStarted == m_groups) {
            m_lastProgress = now;
            m_connection->send({{"event", "progress"},
                                {"group", jsonOf(idOf(group->getGroupID()))},
                                {"groups_started", m_groupsStarted},
                                {"groups", m_groups}});
            checkForPause();
        }
    }

    void workItemBegin(const oclgrind::WorkItem *) override
    {
        if (m_debugging)
            m_lastItem.reset(); // a new work-item: its first line is a new line
    }

    void instructionExecuted(const oclgrind::WorkItem *item, const llvm::Instruction *instruction,
                             const oclgrind::TypedValue &) override
    {
        if (!m_debugging)
            return;
        if (++m_executed % kPauseCheckEvery == 0)
            checkForPause();
        const Id id = idOf(item->getGlobalID());

        // Resuming after a barrier: the first instruction has run; decide as if before it.
        if (const auto resumed = m_resuming.find(item); resumed != m_resuming.end()) {
            m_resuming.erase(resumed);
            m_lastItem.reset();
            if (!isDebugIntrinsic(instruction) && lineOf(instruction).number != 0)
                consider(item, id, instruction, item->getCallStack().size(), /*after=*/true, false);
        }

        // Where this instruction was: the work-item's current line.
        std::size_t depth = item->getCallStack().size();
        const auto *call = llvm::dyn_cast<llvm::CallInst>(instruction);
        const bool enteredFunction = call && call->getCalledFunction() &&
                                     !call->getCalledFunction()->isDeclaration() &&
                                     item->getState() == oclgrind::WorkItem::READY;
        const bool returned = llvm::isa<llvm::ReturnInst>(instruction);
        const std::size_t depthOfThis = enteredFunction ? depth - 1 : returned ? depth + 1 : depth;
        const Line here = lineOf(instruction);
        if (here.number != 0 && !isDebugIntrinsic(instruction))
            m_lastItem = LastLine{id, here, depthOfThis};

        switch (item->getState()) {
        case oclgrind::WorkItem::BARRIER:
            m_resuming.insert(item);
            if (stepping(id))
                m_barrierStep = true;
            return;
        case oclgrind::WorkItem::FINISHED:
            // The stepped work-item ended: the step ends at the next line any work-item runs.
            if (stepping(id))
                m_stepAnyItem = true, m_mode = Mode::StepInto;
            return;
        default:
            break;
        }
        const llvm::Instruction *next = predictNext(item, instruction);
        if (next)
            consider(item, id, next, depth, /*after=*/false, /*returning=*/returned);
    }

    void workGroupBarrier(const oclgrind::WorkGroup *group, std::uint32_t) override
    {
        if (!m_debugging || !m_barrierStep)
            return;
        m_barrierStep = false;
        const Id first = idOf(group->getWorkItem(oclgrind::Size3(0, 0, 0))->getGlobalID());
        const Id local{m_stepItem[0] - first[0], m_stepItem[1] - first[1], m_stepItem[2] - first[2]};
        const oclgrind::Size3 size = group->getGroupSize();
        if (local[0] >= size.x || local[1] >= size.y || local[2] >= size.z)
            return;
        const oclgrind::WorkItem *item = group->getWorkItem(oclgrind::Size3(local[0], local[1], local[2]));
        m_resuming.erase(item);
        const llvm::Instruction *next = item->getCurrentInstruction();
        m_lastItem.reset();
        stop(item, next, item->getCallStack().size(), "barrier",
             "the work-group's " + std::to_string(size.x * size.y * size.z) +
                 " work-items reached the barrier");
    }

    // A watched element written: the work-item that writes it stops at the store's line (before the next
    // instruction; the value is the one being stored).
    void memoryStore(const oclgrind::Memory *memory, const oclgrind::WorkItem *item, std::size_t address,
                     std::size_t size, const std::uint8_t *data) override
    {
        if (!m_debugging || !m_watch || memory != m_context->getGlobalMemory() ||
            address + size <= m_watch->address || address >= m_watch->address + m_watch->bytes)
            return;
        const Watch hit = *m_watch;
        m_watch.reset(); // the first writer
        std::string value;
        if (data && size == hit.bytes) {
            char text[64] = "";
            if (hit.element && hit.element->isFloatTy()) {
                float f = 0;
                std::memcpy(&f, data, sizeof f);
                *std::to_chars(text, text + sizeof text - 1, f).ptr = '\0'; // as the variables show it
            } else if (hit.element && hit.element->isDoubleTy()) {
                double d = 0;
                std::memcpy(&d, data, sizeof d);
                *std::to_chars(text, text + sizeof text - 1, d).ptr = '\0';
            } else if (hit.element && hit.element->isIntegerTy() && size <= 8) {
                std::int64_t v = 0;
                std::memcpy(&v, data, size);
                const unsigned shift = unsigned(64 - 8 * size);
                std::snprintf(text, sizeof text, "%lld", static_cast<long long>((v << shift) >> shift));
            }
            value = text;
        }
        stop(item, item->getCurrentInstruction(), item->getCallStack().size(), "watch",
             "work-item (" + std::to_string(item->getGlobalID().x) + "," +
                 std::to_string(item->getGlobalID().y) + "," + std::to_string(item->getGlobalID().z) +
                 ") writes " + hit.what + (value.empty() ? std::string() : ": " + value));
    }

    void log(oclgrind::MessageType type, const char *message) override
    {
        if (!m_debugging || type != oclgrind::ERROR || !m_invocation)
            return;
        const oclgrind::WorkItem *item = m_invocation->getCurrentWorkItem();
        if (!item || item->getState() == oclgrind::WorkItem::FINISHED)
            return;
        stop(item, item->getCurrentInstruction(), item->getCallStack().size(), "error",
             message ? message : "");
    }

private:
    struct LastLine
    {
        Id item;
        Line line;
        std::size_t depth = 0;
    };

    bool steppingMode() const
    {
        return m_mode == Mode::StepInto || m_mode == Mode::StepOver || m_mode == Mode::StepOut;
    }

    bool stepping(const Id &id) const
    {
        return (m_mode == Mode::StepInto || m_mode == Mode::StepOver || m_mode == Mode::StepOut) &&
               !m_stepAnyItem && id == m_stepItem;
    }

    // The instruction the work-item runs after `done`, which it has just run; nullptr when not known.
    static const llvm::Instruction *predictNext(const oclgrind::WorkItem *item, const llvm::Instruction *done)
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

    // Stops before `next` when it starts a line that a pause, a step, the start or a breakpoint asks for.
    // after: `next` has already run (a work-item resuming after a barrier). returning: back from a call to
    // the rest of the caller's line, where a breakpoint of that line was hit already.
    void consider(const oclgrind::WorkItem *item, const Id &id, const llvm::Instruction *next,
                  std::size_t depth, bool after, bool returning)
    {
        const Line line = lineOf(next);
        if (line.number == 0 || isDebugIntrinsic(next))
            return;
        if (!after && m_lastItem && m_lastItem->item == id && m_lastItem->line == line &&
            m_lastItem->depth == depth)
            return; // the same line goes on
        // Running with no breakpoint on this line: nothing to decide (the common case, kept cheap).
        if (m_mode == Mode::Run && !m_pauseRequested &&
            (line.number >= m_breakLines.size() || !m_breakLines[line.number]))
            return;
        const SourcePosition position = positionOf(next);
        const char *reason = nullptr;
        std::string message;
        if (m_pauseRequested) {
            reason = "pause";
        } else if (m_mode == Mode::StepInto && (m_stepAnyItem || id == m_stepItem)) {
            reason = "step";
        } else if (m_mode == Mode::StepOver && id == m_stepItem && depth <= m_stepDepth &&
                   !(depth == m_stepDepth && position == m_stepFrom)) {
            reason = "step"; // back from a call on the line it started from is not a new line
        } else if (m_mode == Mode::StepOut && id == m_stepItem && depth < m_stepDepth) {
            reason = "step";
        } else if (m_mode == Mode::Start && (!m_startItem || *m_startItem == id)) {
            reason = "start";
        } else if (!returning && (!steppingMode() || id == m_stepItem)) {
            // While a work-item is stepped the others run to where it waits (a barrier): their breakpoints
            // would stop each of them there.
            for (auto b = m_breakpoints.begin(); b != m_breakpoints.end(); ++b) {
                if (b->line != position.line || (!b->file.empty() && b->file != position.file) ||
                    (b->item && *b->item != id))
                    continue;
                if (!b->variable.empty()) {
                    const auto value = scalarAt(m_context, ItemPosition{item, next}, b->variable);
                    if (!value || !compare(*value, b->op, b->value))
                        continue;
                }
                reason = b->temporary ? "cursor" : "breakpoint";
                if (b->temporary) {
                    m_breakpoints.erase(b);
                    indexBreakpoints();
                }
                break;
            }
        }
        if (!reason)
            return;
        if (after)
            message =
                "stopped after the first instruction of the line: the work-item had just left a barrier";
        stop(item, next, depth, reason, message);
    }

    json itemJson(const oclgrind::WorkItem *item) const
    {
        return {{"global", jsonOf(idOf(item->getGlobalID()))},
                {"local", jsonOf(idOf(item->getLocalID()))},
                {"group", jsonOf(idOf(item->getWorkGroup()->getGroupID()))}};
    }

    // The paused work-group's work-item by global id, or nullptr with why.
    const oclgrind::WorkItem *itemById(const Id &global, std::string &why) const
    {
        const oclgrind::WorkGroup *group = m_stopped ? m_stopped->getWorkGroup() : nullptr;
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
                      ") is not in the running work-group: only its work-items can be read (set a breakpoint "
                      "for that work-item and continue)";
                return nullptr;
            }
            local[d] = global[d] - first[d];
        }
        return group->getWorkItem(oclgrind::Size3(local[0], local[1], local[2]));
    }

    static bool notStarted(const oclgrind::WorkItem *item)
    {
        if (item->getState() != oclgrind::WorkItem::READY || !item->getCallStack().empty())
            return false;
        const llvm::Instruction *current = item->getCurrentInstruction();
        return current && current == &current->getFunction()->getEntryBlock().front();
    }

    // Where a work-item of the paused group is: the stopped one before its predicted instruction, others at
    // their current one. Its state: stopped, ready, barrier, finished, not started.
    ItemPosition positionOfItem(const oclgrind::WorkItem *item, std::string &state) const
    {
        if (item == m_stopped) {
            state = "stopped";
            return {item, m_stoppedNext};
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

    json itemState(const oclgrind::WorkItem *item) const
    {
        std::string state;
        const ItemPosition at = positionOfItem(item, state);
        json out = itemJson(item);
        out["state"] = state;
        const SourcePosition p = positionOf(at.next);
        if (at.next && p.line != 0) {
            out["file"] = p.file;
            out["line"] = p.line;
        }
        return out;
    }

    void stop(const oclgrind::WorkItem *item, const llvm::Instruction *next, std::size_t depth,
              const char *reason, const std::string &message)
    {
        m_pauseRequested = false;
        m_stepAnyItem = false;
        m_mode = Mode::Run;
        m_stopped = item;
        m_stoppedNext = next;
        m_stoppedDepth = depth;
        m_selected = item;
        const SourcePosition p = positionOf(next);
        json event = {
            {"event", "stopped"},     {"reason", reason},
            {"item", itemJson(item)}, {"file", p.file},
            {"line", p.line},         {"function", next ? next->getFunction()->getName().str() : ""},
            {"depth", depth}};
        if (!message.empty())
            event["message"] = message;
        m_connection->send(event);
        while (const auto request = m_connection->receive()) {
            if (answer(*request, item))
                break;
        }
        if (!m_connection->open())
            m_debugging = false; // the controller went away: run to the end
        m_stopped = nullptr;
        m_stoppedNext = nullptr;
        m_selected = nullptr;
    }

    // Answers one request; true when it resumes the kernel.
    bool answer(const json &request, const oclgrind::WorkItem *stopped)
    {
        const std::string command = request.value("cmd", "");
        const auto reply = [&](json body) {
            body["reply"] = command;
            m_connection->send(body);
        };
        const auto fail = [&](const std::string &why) {
            m_connection->send({{"reply", command}, {"error", why}});
        };
        if (command == "break") {
            std::vector<Breakpoint> list;
            if (!request.contains("breakpoints") || !request["breakpoints"].is_array()) {
                fail("break needs \"breakpoints\": [{\"line\": N, ...}]");
                return false;
            }
            for (const json &b : request["breakpoints"]) {
                if (!b.is_object() || !b.contains("line") || !b["line"].is_number_unsigned()) {
                    fail("a breakpoint needs a line");
                    return false;
                }
                Breakpoint bp;
                if (const std::string condition = b.value("condition", ""); !condition.empty()) {
                    std::string why;
                    const auto parsed = parseCondition(condition, why);
                    if (!parsed) {
                        fail(why);
                        return false;
                    }
                    bp = *parsed;
                }
                bp.line = b["line"].get<unsigned>();
                bp.file = b.value("file", "");
                if (b.contains("item") && !b["item"].is_null()) {
                    bp.item = idFrom(b["item"]);
                    if (!bp.item) {
                        fail("a breakpoint's item is [x, y, z]");
                        return false;
                    }
                }
                list.push_back(bp);
            }
            const auto temporary = std::find_if(m_breakpoints.begin(), m_breakpoints.end(),
                                                [](const Breakpoint &b) { return b.temporary; });
            if (temporary != m_breakpoints.end())
                list.push_back(*temporary);
            m_breakpoints = std::move(list);
            indexBreakpoints();
            reply({{"breakpoints", m_breakpoints.size()}});
            return false;
        }
        if (command == "watch") {
            std::string why;
            if (!watch(request, why)) {
                fail(why);
                return false;
            }
            reply({{"watching", m_watch->what}});
            return false;
        }
        if (!stopped) {
            fail("the kernel is not paused");
            return false;
        }
        if (command == "continue") {
            m_mode = Mode::Run;
            return true;
        }
        if (command == "step") {
            const std::string kind = request.value("kind", "over");
            std::string state;
            const ItemPosition at = positionOfItem(m_selected, state);
            if (state == "finished") {
                fail("work-item has finished");
                return false;
            }
            m_stepItem = idOf(m_selected->getGlobalID());
            m_stepDepth = m_selected == stopped ? m_stoppedDepth : m_selected->getCallStack().size();
            m_stepFrom = positionOf(at.next);
            m_stepAnyItem = false;
            m_mode = kind == "into" ? Mode::StepInto : kind == "out" ? Mode::StepOut : Mode::StepOver;
            if (m_mode == Mode::StepOut && m_stepDepth == 0) {
                fail("the kernel has no caller to step out to");
                return false;
            }
            return true;
        }
        if (command == "run_to") {
            if (!request.contains("line") || !request["line"].is_number_unsigned()) {
                fail("run_to needs a line");
                return false;
            }
            Breakpoint b;
            b.line = request["line"].get<unsigned>();
            b.file = request.value("file", "");
            b.temporary = true;
            std::erase_if(m_breakpoints, [](const Breakpoint &x) { return x.temporary; });
            m_breakpoints.push_back(b);
            indexBreakpoints();
            m_mode = Mode::Run;
            return true;
        }
        if (command == "select") {
            const auto id = request.contains("global") ? idFrom(request["global"]) : std::nullopt;
            if (!id) {
                fail("select needs \"global\": [x, y, z]");
                return false;
            }
            std::string why;
            const oclgrind::WorkItem *item = itemById(*id, why);
            if (!item) {
                fail(why);
                return false;
            }
            m_selected = item;
            reply({{"item", itemState(item)}});
            return false;
        }
        if (command == "items") {
            json items = json::array();
            const oclgrind::WorkGroup *group = stopped->getWorkGroup();
            const oclgrind::Size3 size = group->getGroupSize();
            for (std::size_t z = 0; z < size.z; ++z)
                for (std::size_t y = 0; y < size.y; ++y)
                    for (std::size_t x = 0; x < size.x; ++x)
                        items.push_back(itemState(group->getWorkItem(oclgrind::Size3(x, y, z))));
            reply({{"items", std::move(items)}, {"selected", jsonOf(idOf(m_selected->getGlobalID()))}});
            return false;
        }
        std::string state;
        const ItemPosition at = positionOfItem(m_selected, state);
        const bool readable = at.next && state != "not started";
        if (command == "variables" || command == "print") {
            if (!readable) {
                fail("work-item is " + state + ": it has no variables");
                return false;
            }
            if (command == "variables") {
                reply({{"item", itemState(m_selected)}, {"variables", variablesOf(m_context, at)}});
                return false;
            }
            json values = json::array();
            if (request.contains("paths") && request["paths"].is_array()) {
                for (const json &path : request["paths"]) {
                    if (path.is_string())
                        values.push_back(valueAt(m_context, at, path.get<std::string>()));
                }
            }
            reply({{"item", itemState(m_selected)}, {"values", std::move(values)}});
            return false;
        }
        if (command == "locals") {
            reply({{"group", jsonOf(idOf(stopped->getWorkGroup()->getGroupID()))},
                   {"arrays", localArraysOf(m_context, ItemPosition{stopped, m_stoppedNext})}});
            return false;
        }
        if (command == "buffers") {
            reply({{"buffers", globalBuffersOf(m_context, ItemPosition{stopped, m_stoppedNext})}});
            return false;
        }
        if (command == "stack") {
            reply({{"item", itemState(m_selected)}, {"frames", callStackOf(at)}});
            return false;
        }
        if (command == "detach") {
            m_debugging = false;
            return true;
        }
        fail("unknown request " + command);
        return false;
    }

    struct Watch
    {
        std::size_t address = 0;
        std::size_t bytes = 0;
        const llvm::Type *element = nullptr;
        std::string what; // "out[5]"
    };

    // {"cmd": "watch", "arg": NAME or INDEX, "index": ELEMENT}: a global buffer argument's element of the
    // kernel that begins.
    bool watch(const json &request, std::string &why)
    {
        if (!m_invocation) {
            why = "watch is set when a kernel begins";
            return false;
        }
        const oclgrind::Kernel *kernel = m_invocation->getKernel();
        const llvm::Function *function = kernel->getFunction();
        const json &arg = request.contains("arg") ? request["arg"] : json();
        std::optional<unsigned> index;
        for (unsigned i = 0; i < kernel->getNumArguments(); ++i) {
            if ((arg.is_string() && kernel->getArgumentName(i) == arg.get<std::string>()) ||
                (arg.is_number_unsigned() && arg.get<unsigned>() == i))
                index = i;
        }
        if (!index || *index >= function->arg_size()) {
            why = "the kernel has no argument " + arg.dump();
            return false;
        }
        const llvm::Argument *argument = function->getArg(*index);
        auto *pointer = llvm::dyn_cast<llvm::PointerType>(argument->getType());
        if (!pointer || pointer->isOpaque() || pointer->getAddressSpace() != oclgrind::AddrSpaceGlobal) {
            why = "argument " + kernel->getArgumentName(*index).str() + " is not a global buffer";
            return false;
        }
        const llvm::Type *element = pointer->getNonOpaquePointerElementType();
        const std::size_t bytes =
            function->getParent()->getDataLayout().getTypeStoreSize(const_cast<llvm::Type *>(element));
        if (!request.contains("index") || !request["index"].is_number_unsigned() || bytes == 0) {
            why = "watch needs an element index";
            return false;
        }
        std::optional<std::size_t> base;
        for (auto v = kernel->values_begin(); v != kernel->values_end(); ++v) {
            if (v->first == argument && v->second.size == sizeof(std::size_t))
                base = v->second.getPointer();
        }
        if (!base) {
            why = "argument " + kernel->getArgumentName(*index).str() + " has no buffer";
            return false;
        }
        const std::size_t elementIndex = request["index"].get<std::size_t>();
        m_watch = Watch{*base + elementIndex * bytes, bytes, element,
                        kernel->getArgumentName(*index).str() + "[" + std::to_string(elementIndex) + "]"};
        if (!m_context->getGlobalMemory()->isAddressValid(m_watch->address, bytes)) {
            why = m_watch->what + " is outside its buffer";
            m_watch.reset();
            return false;
        }
        return true;
    }

    void indexBreakpoints()
    {
        m_breakLines.assign(1, false);
        for (const Breakpoint &b : m_breakpoints) {
            if (b.line >= m_breakLines.size())
                m_breakLines.resize(std::min<std::size_t>(b.line + 1, 1u << 24), false);
            if (b.line < m_breakLines.size())
                m_breakLines[b.line] = true;
        }
    }

    void checkForPause()
    {
        while (const auto request = m_connection->poll()) {
            if (request->value("cmd", "") == "pause")
                m_pauseRequested = true;
            else
                answer(*request, nullptr);
        }
        if (!m_connection->open())
            m_debugging = false;
    }

    std::shared_ptr<Connection> m_connection;
    const oclgrind::KernelInvocation *m_invocation = nullptr;
    bool m_debugging = false;
    Mode m_mode = Mode::Run;
    std::optional<Id> m_startItem;
    Id m_stepItem{};
    std::size_t m_stepDepth = 0;
    SourcePosition m_stepFrom;
    bool m_stepAnyItem = false;
    bool m_barrierStep = false;
    bool m_pauseRequested = false;
    std::vector<Breakpoint> m_breakpoints;
    std::vector<bool> m_breakLines; // by line number: a breakpoint (of any file) is there
    std::optional<Watch> m_watch;
    std::optional<LastLine> m_lastItem;
    std::unordered_set<const oclgrind::WorkItem *> m_resuming;
    const oclgrind::WorkItem *m_stopped = nullptr;
    const llvm::Instruction *m_stoppedNext = nullptr;
    std::size_t m_stoppedDepth = 0;
    const oclgrind::WorkItem *m_selected = nullptr;
    std::uint64_t m_executed = 0;
    std::uint64_t m_groupsStarted = 0;
    std::uint64_t m_groups = 0;
    std::chrono::steady_clock::time_point m_lastProgress;
};

// One connection per process (a program may make several contexts); one debugger per context.
std::mutex g_mutex;
std::shared_ptr<Connection> g_connection;
bool g_tried = false;
std::map<const oclgrind::Context *, std::unique_ptr<Debugger>> g_debuggers;

std::shared_ptr<Connection> connectToController()
{
    if (g_tried)
        return g_connection;
    g_tried = true;
    const char *path = std::getenv(kSocketVariable);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    if (std::strlen(path) >= sizeof address.sun_path) {
        std::fprintf(stderr, "clscope-oclgrind: the debugger's socket path is too long: %s\n", path);
        return nullptr;
    }
    std::strcpy(address.sun_path, path);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || ::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0) {
        std::fprintf(stderr, "clscope-oclgrind: cannot reach the debugger at %s: %s\n", path,
                     std::strerror(errno));
        if (fd >= 0)
            ::close(fd);
        return nullptr;
    }
    g_connection = std::make_shared<Connection>(fd);
    g_connection->send(
        {{"hello", "clscope-oclgrind"}, {"mode", "debug"}, {"format", 1}, {"pid", ::getpid()}});
    return g_connection;
}

} // namespace

void startDebugger(oclgrind::Context *context)
{
    const char *path = std::getenv(kSocketVariable);
    if (path == nullptr || *path == '\0')
        return;
    const std::lock_guard lock(g_mutex);
    auto connection = connectToController();
    if (!connection)
        return;
    auto debugger = std::make_unique<Debugger>(context, connection);
    context->registerPlugin(debugger.get());
    g_debuggers[context] = std::move(debugger);
}

void stopDebugger(oclgrind::Context *context)
{
    std::unique_ptr<Debugger> debugger;
    {
        const std::lock_guard lock(g_mutex);
        const auto found = g_debuggers.find(context);
        if (found == g_debuggers.end())
            return;
        debugger = std::move(found->second);
        g_debuggers.erase(found);
    }
    context->unregisterPlugin(debugger.get());
}

} // namespace clscope::debugplugin
