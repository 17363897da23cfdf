// libclscope-oclgrind.so, the line profile: an Oclgrind plugin that counts, for every instruction a kernel
// executes, how often it ran and what it did (floating-point operations, bytes loaded and stored by address
// space, atomics, barriers reached, branches that split a work-group), and writes one JSON line per kernel
// invocation to the file named by CLSCOPE_LINE_PROFILE. The host side (core/src/lines) groups the
// instructions by source line and maps Oclgrind's file names to the user's.
//
// Oclgrind loads the library named in OCLGRIND_PLUGINS and calls initializePlugins. Without
// CLSCOPE_LINE_PROFILE the library registers nothing, so loading it costs a launch nothing.
//
// Sampling: with CLSCOPE_LINE_SAMPLE_GROUPS=N, a launch of more than N work-groups runs only N of them,
// spread evenly over the launch with its first and last included, and its line says how many of how many ran
// (the host scales the counts). Oclgrind has no way to skip work-groups but OCLGRIND_QUICK (first and last
// only), and splitting the launch into sub-launches with offsets would change get_group_id, get_num_groups
// and get_global_size; so kernelBegin, which Oclgrind calls after it listed the launch's work-groups and
// before its workers take them from the list, shortens that list (KernelInvocation::m_workGroups, a private
// member of the Oclgrind whose headers this library is built against, reached through pendingGroups below).
//
// Threads: the plugin says it is thread safe, so Oclgrind keeps running work-groups on all its worker
// threads. Each thread counts into its own table (no lock on the hot path); a work-group runs start to end
// on one thread, so a branch's sides are collected per group on that thread. kernelEnd, on the thread that
// enqueued the kernel after every worker finished it, sums the tables and writes the line.
#include "debugger.h"

#include "Context.h"
#include "Kernel.h"
#include "KernelInvocation.h"
#include "Memory.h"
#include "Plugin.h"
#include "WorkGroup.h"
#include "WorkItem.h"

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

// The work-groups a launch has left to run. Explicit instantiation may name a private member (C++
// [temp.spec]/6), so this template hands out a pointer to KernelInvocation::m_workGroups without a cast
// over its layout; the member's type is checked against the header here at compile time.
using PendingGroups = std::vector<oclgrind::Size3> oclgrind::KernelInvocation::*;
PendingGroups pendingGroups();
template<PendingGroups Member> struct PendingGroupsAccess
{
    friend PendingGroups pendingGroups() { return Member; }
};
template struct PendingGroupsAccess<&oclgrind::KernelInvocation::m_workGroups>;

// budget of total work-groups, spread evenly with the first and the last included: index k of the list is
// floor(k * (total - 1) / (budget - 1)); every group when total <= budget.
std::vector<oclgrind::Size3> spreadGroups(const std::vector<oclgrind::Size3> &groups, std::size_t budget)
{
    const std::size_t total = groups.size();
    if (budget == 0 || total <= budget)
        return groups;
    std::vector<oclgrind::Size3> chosen;
    chosen.reserve(budget);
    if (budget == 1) {
        chosen.push_back(groups.front());
        return chosen;
    }
    // k * (total - 1) / (budget - 1) without the product: quotient and remainder apart (k * remainder is
    // below budget squared, and a budget is far below 2^32).
    const std::size_t step = (total - 1) / (budget - 1), rest = (total - 1) % (budget - 1);
    for (std::size_t k = 0; k < budget; ++k) {
        const std::size_t index = k * step + k * rest / (budget - 1);
        chosen.push_back(groups[index]);
    }
    return chosen;
}

constexpr int kSpaces = 4; // Oclgrind's address spaces: private, global, constant, local

struct Counts
{
    std::uint64_t executed = 0;
    std::uint64_t flops32 = 0; // single (and half) precision
    std::uint64_t flops64 = 0;
    std::array<std::uint64_t, kSpaces> loadBytes{};
    std::array<std::uint64_t, kSpaces> storeBytes{};
    std::uint64_t atomics = 0;
    std::uint64_t barriers = 0;
    std::uint64_t divergentGroups = 0; // work-groups whose work-items took this branch differently

    void add(const Counts &other)
    {
        executed += other.executed;
        flops32 += other.flops32;
        flops64 += other.flops64;
        for (int s = 0; s < kSpaces; ++s) {
            loadBytes[s] += other.loadBytes[s];
            storeBytes[s] += other.storeBytes[s];
        }
        atomics += other.atomics;
        barriers += other.barriers;
        divergentGroups += other.divergentGroups;
    }
};

// One worker thread's counts for the kernel that runs.
struct ThreadTable
{
    std::unordered_map<const llvm::Instruction *, Counts> byInstruction;
    // Copies of a work-group's async_work_group_copy: they come through the work-group callbacks, with no
    // instruction to charge.
    Counts groupCopies;
    // The conditional branches of the running work-group: how often each work-item took either side. A
    // branch diverged in the group when two work-items that reached it did not take the same sides the
    // same number of times (a loop that every work-item runs as often is not divergence).
    using Sides = std::pair<std::uint32_t, std::uint32_t>;
    std::unordered_map<const llvm::BranchInst *, std::unordered_map<const oclgrind::WorkItem *, Sides>> sides;
    // The last instruction counted and its counts: a work-item's load or store callback comes right after
    // instructionExecuted of the same instruction on the same thread.
    const llvm::Instruction *lastInstruction = nullptr;
    Counts *lastCounts = nullptr;

    Counts &countsOf(const llvm::Instruction *instruction)
    {
        if (instruction != lastInstruction) {
            lastInstruction = instruction;
            lastCounts = &byInstruction[instruction];
        }
        return *lastCounts;
    }
    void clear()
    {
        byInstruction.clear();
        groupCopies = Counts{};
        sides.clear();
        lastInstruction = nullptr;
        lastCounts = nullptr;
    }
};

// 2 for a fused multiply-add (fma, mad, llvm.fmuladd), 1 for other arithmetic of the called builtins we
// count (none: math functions are not counted as flops), 0 for anything else.
int flopsOfCall(llvm::StringRef callee)
{
    if (callee.startswith("llvm.fmuladd") || callee.startswith("llvm.fma"))
        return 2;
    // OpenCL builtins by their Itanium names: _Z3fmafff, _Z3madDv4_fS_S_, ...
    if (callee.startswith("_Z3fma") || callee.startswith("_Z3mad"))
        return 2;
    return 0;
}

bool isBarrier(llvm::StringRef callee)
{
    return callee == "_Z7barrierj" || callee.startswith("_Z18work_group_barrier");
}

bool isAtomic(llvm::StringRef callee)
{
    // atomic_add, atom_inc, atomic_fetch_add_explicit, ... by the name inside the mangling.
    return callee.contains("atomic_") || callee.contains("atom_");
}

void appendEscaped(std::string &out, llvm::StringRef text)
{
    out += '"';
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\u%04x", u);
            out += buffer;
        } else {
            out += c;
        }
    }
    out += '"';
}

void appendSpaces(std::string &out, const char *key, const std::array<std::uint64_t, kSpaces> &bytes)
{
    out += '"';
    out += key;
    out += "\":{\"private\":" + std::to_string(bytes[oclgrind::AddrSpacePrivate]) +
           ",\"global\":" + std::to_string(bytes[oclgrind::AddrSpaceGlobal]) +
           ",\"constant\":" + std::to_string(bytes[oclgrind::AddrSpaceConstant]) +
           ",\"local\":" + std::to_string(bytes[oclgrind::AddrSpaceLocal]) + "}";
}

void appendCounts(std::string &out, const Counts &counts)
{
    out += "\"executed\":" + std::to_string(counts.executed) +
           ",\"flops32\":" + std::to_string(counts.flops32) +
           ",\"flops64\":" + std::to_string(counts.flops64) + ",";
    appendSpaces(out, "load", counts.loadBytes);
    out += ',';
    appendSpaces(out, "store", counts.storeBytes);
    out += ",\"atomics\":" + std::to_string(counts.atomics) +
           ",\"barriers\":" + std::to_string(counts.barriers) +
           ",\"divergent_groups\":" + std::to_string(counts.divergentGroups);
}

std::string size3(const oclgrind::Size3 &size)
{
    return "[" + std::to_string(size.x) + "," + std::to_string(size.y) + "," + std::to_string(size.z) + "]";
}

// The name --inst-counts gives an instruction: its opcode, or "call NAME()" for a call.
std::string instructionName(const llvm::Instruction *instruction)
{
    if (const auto *call = llvm::dyn_cast<llvm::CallInst>(instruction)) {
        if (const llvm::Function *callee = call->getCalledFunction())
            return "call " + callee->getName().str() + "()";
        return "call";
    }
    return instruction->getOpcodeName();
}

class LineProfile : public oclgrind::Plugin
{
public:
    LineProfile(const oclgrind::Context *context, int fd, std::size_t sampleGroups)
        : oclgrind::Plugin(context)
        , m_fd(fd)
        , m_sampleGroups(sampleGroups)
    {
        write("{\"hello\":\"clscope-oclgrind\",\"mode\":\"lines\",\"format\":1}\n");
    }
    ~LineProfile() override { ::close(m_fd); }

    bool isThreadSafe() const override { return true; }

    void instructionExecuted(const oclgrind::WorkItem *workItem, const llvm::Instruction *instruction,
                             const oclgrind::TypedValue &result) override
    {
        ThreadTable &table = threadTable();
        Counts &counts = table.countsOf(instruction);
        ++counts.executed;
        switch (instruction->getOpcode()) {
        case llvm::Instruction::FAdd:
        case llvm::Instruction::FSub:
        case llvm::Instruction::FMul:
        case llvm::Instruction::FDiv:
        case llvm::Instruction::FRem:
        case llvm::Instruction::FNeg:
            addFlops(counts, instruction, result, 1);
            break;
        case llvm::Instruction::Call: {
            const llvm::Function *callee = llvm::cast<llvm::CallInst>(instruction)->getCalledFunction();
            if (callee == nullptr)
                break;
            const llvm::StringRef name = callee->getName();
            if (const int flops = flopsOfCall(name); flops > 0)
                addFlops(counts, instruction, result, flops);
            else if (isBarrier(name))
                ++counts.barriers;
            else if (isAtomic(name))
                ++counts.atomics;
            break;
        }
        case llvm::Instruction::Br: {
            const auto *branch = llvm::cast<llvm::BranchInst>(instruction);
            if (!branch->isConditional())
                break;
            // The condition is the branch's own operand, so the work-item holds it (getValueData, unlike
            // getOperand, never stops the kernel when it does not).
            const unsigned char *condition = workItem->getValueData(branch->getCondition());
            if (condition != nullptr) {
                ThreadTable::Sides &taken = table.sides[branch][workItem];
                ++((*condition & 1) != 0 ? taken.first : taken.second);
            }
            break;
        }
        default:
            break;
        }
    }

    void memoryLoad(const oclgrind::Memory *memory, const oclgrind::WorkItem *workItem, size_t,
                    size_t size) override
    {
        chargeTo(workItem).loadBytes[space(memory)] += size;
    }
    void memoryStore(const oclgrind::Memory *memory, const oclgrind::WorkItem *workItem, size_t, size_t size,
                     const uint8_t *) override
    {
        chargeTo(workItem).storeBytes[space(memory)] += size;
    }
    void memoryLoad(const oclgrind::Memory *memory, const oclgrind::WorkGroup *, size_t, size_t size) override
    {
        threadTable().groupCopies.loadBytes[space(memory)] += size;
    }
    void memoryStore(const oclgrind::Memory *memory, const oclgrind::WorkGroup *, size_t, size_t size,
                     const uint8_t *) override
    {
        threadTable().groupCopies.storeBytes[space(memory)] += size;
    }
    void memoryAtomicLoad(const oclgrind::Memory *memory, const oclgrind::WorkItem *workItem,
                          oclgrind::AtomicOp, size_t, size_t size) override
    {
        chargeTo(workItem).loadBytes[space(memory)] += size;
    }
    void memoryAtomicStore(const oclgrind::Memory *memory, const oclgrind::WorkItem *workItem,
                           oclgrind::AtomicOp, size_t, size_t size) override
    {
        chargeTo(workItem).storeBytes[space(memory)] += size;
    }

    void workGroupBegin(const oclgrind::WorkGroup *) override { threadTable().sides.clear(); }
    void workGroupComplete(const oclgrind::WorkGroup *) override
    {
        ThreadTable &table = threadTable();
        for (const auto &[branch, byWorkItem] : table.sides) {
            const ThreadTable::Sides &first = byWorkItem.begin()->second;
            const bool diverged = std::any_of(byWorkItem.begin(), byWorkItem.end(),
                                              [&](const auto &item) { return item.second != first; });
            if (diverged)
                ++table.byInstruction[branch].divergentGroups;
        }
        table.sides.clear();
        table.lastInstruction = nullptr; // byInstruction may have grown
        table.lastCounts = nullptr;
    }

    void kernelBegin(const oclgrind::KernelInvocation *invocation) override
    {
        {
            const std::lock_guard lock(m_tablesMutex);
            for (const auto &table : m_tables)
                table->clear();
        }
        // No worker runs yet: the list is Oclgrind's to read only once kernelBegin returned.
        auto &groups = const_cast<oclgrind::KernelInvocation *>(invocation)->*pendingGroups();
        groups = spreadGroups(groups, m_sampleGroups);
    }

    void kernelEnd(const oclgrind::KernelInvocation *invocation) override
    {
        std::map<const llvm::Instruction *, Counts> total;
        Counts groupCopies;
        {
            const std::lock_guard lock(m_tablesMutex);
            for (const auto &table : m_tables) {
                for (const auto &[instruction, counts] : table->byInstruction)
                    total[instruction].add(counts);
                groupCopies.add(table->groupCopies);
                table->clear();
            }
        }
        // The launch's work-groups, and those that ran: fewer when sampled (or under OCLGRIND_QUICK).
        const oclgrind::Size3 launched = invocation->getNumGroups();
        const std::size_t run = (invocation->*pendingGroups()).size();
        write(invocationLine(invocation, total, groupCopies, launched.x * launched.y * launched.z, run));
    }

private:
    static unsigned space(const oclgrind::Memory *memory)
    {
        const unsigned s = memory->getAddressSpace();
        return s < kSpaces ? s : 0u; // none other exists; private if one did
    }

    static void addFlops(Counts &counts, const llvm::Instruction *instruction,
                         const oclgrind::TypedValue &result, int perElement)
    {
        const std::uint64_t flops =
            static_cast<std::uint64_t>(perElement) * (result.num == 0 ? 1 : result.num);
        if (instruction->getType()->getScalarType()->isDoubleTy())
            counts.flops64 += flops;
        else
            counts.flops32 += flops;
    }

    Counts &chargeTo(const oclgrind::WorkItem *workItem)
    {
        ThreadTable &table = threadTable();
        const llvm::Instruction *instruction =
            workItem != nullptr ? workItem->getCurrentInstruction() : nullptr;
        if (instruction == nullptr)
            return table.groupCopies;
        return table.countsOf(instruction);
    }

    ThreadTable &threadTable()
    {
        // One table per thread and plugin, found by the plugin's serial number (a plugin made where a
        // released one was has another); the plugin owns its tables, so the pointer stays good.
        thread_local std::uint64_t owner = 0;
        thread_local ThreadTable *table = nullptr;
        if (owner != m_serial) {
            auto fresh = std::make_unique<ThreadTable>();
            table = fresh.get();
            owner = m_serial;
            const std::lock_guard lock(m_tablesMutex);
            m_tables.push_back(std::move(fresh));
        }
        return *table;
    }

    static std::string invocationLine(const oclgrind::KernelInvocation *invocation,
                                      const std::map<const llvm::Instruction *, Counts> &total,
                                      const Counts &groupCopies, std::size_t groups, std::size_t groupsRun)
    {
        std::string out = "{\"kernel\":";
        appendEscaped(out, invocation->getKernel()->getName());
        out += ",\"global\":" + size3(invocation->getGlobalSize()) +
               ",\"local\":" + size3(invocation->getLocalSize()) +
               ",\"offset\":" + size3(invocation->getGlobalOffset()) +
               ",\"groups\":" + std::to_string(groups) + ",\"groups_run\":" + std::to_string(groupsRun) +
               ",\"instructions\":[";
        bool first = true;
        for (const auto &[instruction, counts] : total) {
            if (!first)
                out += ',';
            first = false;
            out += "{\"name\":";
            appendEscaped(out, instructionName(instruction));
            const llvm::DILocation *location = instruction->getDebugLoc().get();
            if (location != nullptr) {
                out += ",\"file\":";
                appendEscaped(out, location->getFilename());
                out += ",\"directory\":";
                appendEscaped(out, location->getDirectory());
                out += ",\"line\":" + std::to_string(location->getLine()) +
                       ",\"column\":" + std::to_string(location->getColumn());
            }
            out += ',';
            appendCounts(out, counts);
            out += '}';
        }
        out += "],\"group_copies\":{";
        appendCounts(out, groupCopies);
        out += "}}\n";
        return out;
    }

    void write(const std::string &text)
    {
        // One write of a whole line on an O_APPEND descriptor: a reader never sees half a record of ours.
        const std::lock_guard lock(m_writeMutex);
        std::size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = ::write(m_fd, text.data() + done, text.size() - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                std::fprintf(stderr, "clscope-oclgrind: cannot write the line profile: %s\n",
                             std::strerror(errno));
                return;
            }
            done += static_cast<std::size_t>(n);
        }
    }

    static inline std::atomic<std::uint64_t> s_serials{0};
    const std::uint64_t m_serial = ++s_serials;
    int m_fd;
    const std::size_t m_sampleGroups; // 0: every work-group
    std::mutex m_writeMutex;
    std::mutex m_tablesMutex;
    std::vector<std::unique_ptr<ThreadTable>> m_tables;
};

// Oclgrind makes a Context, and calls initializePlugins, for every clCreateContext of the program.
std::mutex g_pluginsMutex;
std::map<const oclgrind::Context *, std::unique_ptr<LineProfile>> g_plugins;

} // namespace

extern "C" {

__attribute__((visibility("default"))) void initializePlugins(oclgrind::Context *context)
{
    clscope::debugplugin::startDebugger(context);
    const char *path = std::getenv("CLSCOPE_LINE_PROFILE");
    if (path == nullptr || *path == '\0')
        return;
    const int fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) {
        std::fprintf(stderr, "clscope-oclgrind: cannot open the line profile %s: %s\n", path,
                     std::strerror(errno));
        return;
    }
    std::size_t sampleGroups = 0;
    if (const char *sample = std::getenv("CLSCOPE_LINE_SAMPLE_GROUPS");
        sample != nullptr && *sample != '\0') {
        char *end = nullptr;
        const unsigned long long n = std::strtoull(sample, &end, 10);
        if (*end != '\0')
            std::fprintf(stderr,
                         "clscope-oclgrind: CLSCOPE_LINE_SAMPLE_GROUPS=%s is not a count; every work-group "
                         "runs\n",
                         sample);
        else
            sampleGroups = static_cast<std::size_t>(n);
    }
    auto plugin = std::make_unique<LineProfile>(context, fd, sampleGroups);
    context->registerPlugin(plugin.get());
    const std::lock_guard lock(g_pluginsMutex);
    g_plugins[context] = std::move(plugin);
}

__attribute__((visibility("default"))) void releasePlugins(oclgrind::Context *context)
{
    clscope::debugplugin::stopDebugger(context);
    std::unique_ptr<LineProfile> plugin;
    {
        const std::lock_guard lock(g_pluginsMutex);
        const auto found = g_plugins.find(context);
        if (found == g_plugins.end())
            return;
        plugin = std::move(found->second);
        g_plugins.erase(found);
    }
    context->unregisterPlugin(plugin.get());
}
}
