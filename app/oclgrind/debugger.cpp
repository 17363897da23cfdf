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

#include "debugbreakpoints.h"
#include "debugconnection.h"
#include "debugitems.h"
#include "debugobjects.h"
#include "debugvalues.h"
#include "debugwatch.h"

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
        setKernelObjects(invocation->getKernel());
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
            !m_watch->overlaps(address, size))
            return;
        const Watch hit = *m_watch;
        m_watch.reset(); // the first writer
        const std::string value = storedValue(hit, data, size);
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
        if (m_mode == Mode::Run && !m_pauseRequested && !m_breakpoints.anyAt(line.number))
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
            reason = m_breakpoints.hit(position.file, position.line, id, [&](const std::string &variable) {
                return scalarAt(m_context, ItemPosition{item, next}, variable);
            });
        }
        if (!reason)
            return;
        if (after)
            message =
                "stopped after the first instruction of the line: the work-item had just left a barrier";
        stop(item, next, depth, reason, message);
    }

    Paused paused() const { return {m_stopped, m_stoppedNext}; }

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
            std::string why;
            if (!m_breakpoints.set(request.contains("breakpoints") ? request["breakpoints"] : json(), why)) {
                fail(why);
                return false;
            }
            reply({{"breakpoints", m_breakpoints.size()}});
            return false;
        }
        if (command == "watch") {
            std::string why;
            m_watch = watchOf(m_context, m_invocation, request, why);
            if (!m_watch) {
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
            const ItemPosition at = positionOfItem(m_selected, paused(), state);
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
            m_breakpoints.runTo(request["line"].get<unsigned>(), request.value("file", ""));
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
            const oclgrind::WorkItem *item = itemById(paused(), *id, why);
            if (!item) {
                fail(why);
                return false;
            }
            m_selected = item;
            reply({{"item", itemState(item, paused())}});
            return false;
        }
        if (command == "items") {
            json items = json::array();
            const oclgrind::WorkGroup *group = stopped->getWorkGroup();
            const oclgrind::Size3 size = group->getGroupSize();
            for (std::size_t z = 0; z < size.z; ++z)
                for (std::size_t y = 0; y < size.y; ++y)
                    for (std::size_t x = 0; x < size.x; ++x)
                        items.push_back(itemState(group->getWorkItem(oclgrind::Size3(x, y, z)), paused()));
            reply({{"items", std::move(items)}, {"selected", jsonOf(idOf(m_selected->getGlobalID()))}});
            return false;
        }
        std::string state;
        const ItemPosition at = positionOfItem(m_selected, paused(), state);
        const bool readable = at.next && state != "not started";
        if (command == "variables" || command == "print") {
            if (!readable) {
                fail("work-item is " + state + ": it has no variables");
                return false;
            }
            if (command == "variables") {
                reply({{"item", itemState(m_selected, paused())}, {"variables", variablesOf(m_context, at)}});
                return false;
            }
            json values = json::array();
            if (request.contains("paths") && request["paths"].is_array()) {
                for (const json &path : request["paths"]) {
                    if (path.is_string())
                        values.push_back(valueAt(m_context, at, path.get<std::string>()));
                }
            }
            reply({{"item", itemState(m_selected, paused())}, {"values", std::move(values)}});
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
            reply({{"item", itemState(m_selected, paused())}, {"frames", callStackOf(at)}});
            return false;
        }
        if (command == "detach") {
            m_debugging = false;
            return true;
        }
        fail("unknown request " + command);
        return false;
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
    Breakpoints m_breakpoints;
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
