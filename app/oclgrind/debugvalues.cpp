// Variables, __local arrays, call stacks and values by path of a stopped work-item (see debugvalues.h), from
// the program's debug information: llvm.dbg.declare of an alloca (or of a struct passed by value),
// llvm.dbg.value of a constant, the __local module variables the kernel uses. Their values are read by
// debugtypes.cpp.
#include "debugvalues.h"
#include "debugread.h"

#include "Context.h"
#include "Memory.h"
#include "WorkGroup.h"
#include "WorkItem.h"

#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <stack>
#include <stdexcept>

namespace clscope::debugplugin {
namespace {

struct Variable
{
    std::string name;
    const llvm::DILocalVariable *debug = nullptr;
    std::optional<Place> place;
    std::string why; // when place is empty
};

// Clang's OpenCL debug info says where a variable lives as DW_OP_constu SPACE, DW_OP_swap, DW_OP_xderef:
// the address, in that address space, nothing more to compute.
bool isAddressSpaceOnly(const llvm::DIExpression *expression)
{
    const auto e = expression->getElements();
    return e.size() == 4 && e[0] == llvm::dwarf::DW_OP_constu && e[2] == llvm::dwarf::DW_OP_swap &&
           e[3] == llvm::dwarf::DW_OP_xderef;
}

bool scopeContains(const llvm::DILocation *at, const llvm::DILocalScope *scope)
{
    if (!at)
        return true;
    for (const llvm::DIScope *s = at->getScope(); s; s = s->getScope()) {
        if (s == scope)
            return true;
        if (llvm::isa<llvm::DISubprogram>(s))
            break;
    }
    return false;
}

std::vector<Variable> frameVariables(const Reader &reader, const ItemPosition &at)
{
    std::vector<Variable> out;
    if (!at.next)
        return out;
    const llvm::Function *function = at.next->getFunction();
    const llvm::DILocation *location = at.next->getDebugLoc().get();
    // How many locations each variable is given: one that changes along the function (several llvm.dbg.value)
    // is not evaluated from any one of them.
    std::map<const llvm::DILocalVariable *, int> locations;
    for (const llvm::BasicBlock &block : *function) {
        for (const llvm::Instruction &instruction : block) {
            if (const auto *intrinsic = llvm::dyn_cast<llvm::DbgVariableIntrinsic>(&instruction))
                ++locations[intrinsic->getVariable()];
        }
    }
    std::set<const llvm::DILocalVariable *> seen;
    for (const llvm::BasicBlock &block : *function) {
        for (const llvm::Instruction &instruction : block) {
            const auto *intrinsic = llvm::dyn_cast<llvm::DbgVariableIntrinsic>(&instruction);
            if (!intrinsic)
                continue;
            const llvm::DILocalVariable *variable = intrinsic->getVariable();
            if (!variable || !seen.insert(variable).second)
                continue;
            if (!scopeContains(location, variable->getScope()))
                continue;
            // Declared further down in its scope: not yet a variable here.
            if (variable->getArg() == 0 && location && variable->getLine() > location->getLine())
                continue;
            Variable v;
            v.name = variable->getName().str();
            v.debug = variable;
            const llvm::DIExpression *expression = intrinsic->getExpression();
            if (expression && expression->getNumElements() > 0 && !isAddressSpaceOnly(expression)) {
                v.why = "not evaluated: its location is a debug expression";
            } else if (llvm::isa<llvm::DbgDeclareInst>(intrinsic)) {
                const llvm::Value *address = intrinsic->getVariableLocationOp(0);
                // An alloca, or a struct passed by value (a pointer argument to the caller's copy).
                const auto *alloca = llvm::dyn_cast_or_null<llvm::AllocaInst>(address);
                const auto *argument = llvm::dyn_cast_or_null<llvm::Argument>(address);
                llvm::Type *stored = alloca ? alloca->getAllocatedType()
                                     : argument && argument->getType()->isPointerTy() &&
                                             !argument->getType()->isOpaquePointerTy()
                                         ? argument->getType()->getNonOpaquePointerElementType()
                                         : nullptr;
                const unsigned char *data = stored ? at.item->getValueData(address) : nullptr;
                if (!data) {
                    v.why = "optimised out (rebuild with -cl-opt-disable)";
                } else {
                    Place p;
                    p.type = variable->getType();
                    p.ir = stored;
                    p.space = argument ? argument->getType()->getPointerAddressSpace() : 0;
                    std::memcpy(&p.address, data, sizeof p.address);
                    v.place = p;
                }
            } else {
                const llvm::Value *value = intrinsic->getVariableLocationOp(0);
                const auto *constant = llvm::dyn_cast_or_null<llvm::Constant>(value);
                if (constant && !llvm::isa<llvm::UndefValue>(constant) && locations[variable] == 1 &&
                    reader.layout) {
                    Place p;
                    p.type = variable->getType();
                    p.ir = constant->getType();
                    p.held.resize(reader.layout->getTypeStoreSize(constant->getType()));
                    if (!p.held.empty()) {
                        oclgrind::getConstantData(p.held.data(), constant);
                        v.place = p;
                    }
                }
                // An argument of the function: the simulator holds it for the whole call (an optimised build
                // describes arguments this way).
                const auto *argument = llvm::dyn_cast_or_null<llvm::Argument>(value);
                if (!v.place && argument && argument->getParent() == function && locations[variable] == 1 &&
                    reader.layout && argument->getType()->isSized()) {
                    const unsigned char *data = at.item->getValueData(argument);
                    const std::uint64_t size = reader.layout->getTypeStoreSize(argument->getType());
                    if (data && size > 0 && size <= 4096) {
                        Place p;
                        p.type = variable->getType();
                        p.ir = argument->getType();
                        p.held.assign(data, data + size);
                        v.place = p;
                    }
                }
                if (!v.place)
                    v.why = "optimised out (rebuild with -cl-opt-disable)";
            }
            out.push_back(std::move(v));
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const Variable &a, const Variable &b) {
        const unsigned argA = a.debug->getArg() ? a.debug->getArg() : 1u << 30;
        const unsigned argB = b.debug->getArg() ? b.debug->getArg() : 1u << 30;
        if (argA != argB)
            return argA < argB;
        return a.debug->getLine() < b.debug->getLine();
    });
    return out;
}

// The functions a kernel runs: itself and every function it calls, transitively.
std::set<const llvm::Function *> reachableFunctions(const llvm::Function *root)
{
    std::set<const llvm::Function *> seen{root};
    std::vector<const llvm::Function *> work{root};
    while (!work.empty()) {
        const llvm::Function *f = work.back();
        work.pop_back();
        for (const llvm::BasicBlock &block : *f) {
            for (const llvm::Instruction &instruction : block) {
                const auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
                const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
                if (callee && !callee->isDeclaration() && seen.insert(callee).second)
                    work.push_back(callee);
            }
        }
    }
    return seen;
}

bool usedBy(const llvm::Value *value, const std::set<const llvm::Function *> &functions, int depth = 0)
{
    if (depth > 8)
        return false;
    for (const llvm::User *user : value->users()) {
        if (const auto *instruction = llvm::dyn_cast<llvm::Instruction>(user)) {
            if (functions.contains(instruction->getFunction()))
                return true;
        } else if (llvm::isa<llvm::Constant>(user) && usedBy(user, functions, depth + 1)) {
            return true;
        }
    }
    return false;
}

struct LocalArray
{
    std::string name;
    Place place;
};

// The kernel: the outermost frame's function.
const llvm::Function *kernelFunction(const oclgrind::WorkItem *item, const llvm::Instruction *where)
{
    const llvm::Function *function = where->getFunction();
    std::stack<const llvm::Instruction *> calls = item->getCallStack();
    while (!calls.empty()) {
        function = calls.top()->getFunction();
        calls.pop();
    }
    return function;
}

std::vector<LocalArray> localArrays(const ItemPosition &at)
{
    std::vector<LocalArray> out;
    const oclgrind::WorkGroup *group = at.item ? at.item->getWorkGroup() : nullptr;
    const llvm::Instruction *where =
        at.next ? at.next : (at.item ? at.item->getCurrentInstruction() : nullptr);
    if (!group || !where)
        return out;
    const llvm::Function *function = kernelFunction(at.item, where);
    const auto functions = reachableFunctions(function);
    for (const llvm::GlobalVariable &global : function->getParent()->globals()) {
        if (global.getAddressSpace() != oclgrind::AddrSpaceLocal || !usedBy(&global, functions))
            continue;
        llvm::SmallVector<llvm::DIGlobalVariableExpression *, 1> debug;
        global.getDebugInfo(debug);
        if (debug.empty() || !debug.front()->getVariable())
            continue;
        LocalArray a;
        a.name = debug.front()->getVariable()->getName().str();
        a.place.type = debug.front()->getVariable()->getType();
        a.place.ir = global.getValueType();
        a.place.space = oclgrind::AddrSpaceLocal;
        try {
            a.place.address = group->getLocalMemoryAddress(&global);
        } catch (const std::out_of_range &) {
            continue;
        }
        out.push_back(std::move(a));
    }
    return out;
}

const llvm::DataLayout *layoutOf(const ItemPosition &at)
{
    const llvm::Instruction *where =
        at.next ? at.next : (at.item ? at.item->getCurrentInstruction() : nullptr);
    return where && where->getModule() ? &where->getModule()->getDataLayout() : nullptr;
}

// A path's tokens: NAME, ".", "->", "[", NUMBER, "]", "*".
std::optional<std::vector<std::string>> tokenize(const std::string &path)
{
    std::vector<std::string> tokens;
    std::size_t i = 0;
    while (i < path.size()) {
        const char c = path[i];
        if (std::isspace(static_cast<unsigned char>(c))) {
            ++i;
        } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            std::size_t j = i;
            while (j < path.size() && (std::isalnum(static_cast<unsigned char>(path[j])) || path[j] == '_'))
                ++j;
            tokens.push_back(path.substr(i, j - i));
            i = j;
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            std::size_t j = i;
            while (j < path.size() && std::isdigit(static_cast<unsigned char>(path[j])))
                ++j;
            tokens.push_back(path.substr(i, j - i));
            i = j;
        } else if (path.compare(i, 2, "->") == 0) {
            tokens.emplace_back("->");
            i += 2;
        } else if (c == '.' || c == '[' || c == ']' || c == '*') {
            tokens.emplace_back(1, c);
            ++i;
        } else {
            return std::nullopt;
        }
    }
    return tokens;
}

struct Resolved
{
    std::optional<Place> place;
    std::string error;
    std::string name;
};

Resolved resolve(const Reader &reader, const Values &values, const ItemPosition &at, const std::string &path)
{
    Resolved r;
    r.name = path;
    const auto tokens = tokenize(path);
    if (!tokens || tokens->empty()) {
        r.error = "not a variable: write NAME, NAME.FIELD, NAME[INDEX], NAME->FIELD or *NAME";
        return r;
    }
    std::size_t i = 0;
    int derefs = 0;
    while (i < tokens->size() && (*tokens)[i] == "*") {
        ++derefs;
        ++i;
    }
    if (i >= tokens->size() ||
        !(std::isalpha(static_cast<unsigned char>((*tokens)[i][0])) || (*tokens)[i][0] == '_')) {
        r.error = "not a variable: " + path;
        return r;
    }
    const std::string root = (*tokens)[i++];
    Place place;
    bool found = false;
    for (const Variable &v : frameVariables(reader, at)) {
        if (v.name != root)
            continue;
        if (!v.place) {
            r.error = v.why;
            return r;
        }
        place = *v.place;
        found = true;
        break;
    }
    if (!found) {
        for (const LocalArray &a : localArrays(at)) {
            if (a.name == root) {
                place = a.place;
                found = true;
                break;
            }
        }
    }
    if (!found) {
        r.error = "no variable " + root + " here";
        return r;
    }
    std::string why;
    while (i < tokens->size()) {
        const std::string &t = (*tokens)[i];
        std::optional<Place> next;
        if ((t == "." || t == "->") && i + 1 < tokens->size()) {
            Place from = place;
            if (t == "->") {
                const auto target = values.pointee(place, why);
                if (!target) {
                    r.error = root + ": " + why;
                    return r;
                }
                from = *target;
            }
            next = values.member(from, (*tokens)[i + 1], why);
            i += 2;
        } else if (t == "[" && i + 2 < tokens->size() && (*tokens)[i + 2] == "]" &&
                   std::isdigit(static_cast<unsigned char>((*tokens)[i + 1][0]))) {
            std::uint64_t index = 0;
            const std::string &number = (*tokens)[i + 1];
            if (std::from_chars(number.data(), number.data() + number.size(), index).ec != std::errc()) {
                r.error = "index " + number + " is too large";
                return r;
            }
            const auto *derived = llvm::dyn_cast_or_null<llvm::DIDerivedType>(underlying(place.type));
            if (derived && derived->getTag() == llvm::dwarf::DW_TAG_pointer_type) {
                next = values.pointee(place, why);
                if (next) {
                    const std::uint64_t size = sizeOf(next->type);
                    if (size == 0) {
                        next.reset();
                        why = "its element size is not known";
                    } else {
                        next->address += index * size;
                    }
                }
            } else {
                next = values.element(place, index, why);
            }
            i += 3;
        } else {
            r.error = "not a variable: " + path;
            return r;
        }
        if (!next) {
            r.error = why;
            return r;
        }
        place = *next;
    }
    for (int d = 0; d < derefs; ++d) {
        const auto target = values.pointee(place, why);
        if (!target) {
            r.error = why;
            return r;
        }
        place = *target;
    }
    r.place = place;
    return r;
}

} // namespace

SourcePosition positionOf(const llvm::Instruction *instruction)
{
    if (!instruction)
        return {};
    const llvm::DILocation *location = instruction->getDebugLoc().get();
    if (!location)
        return {};
    return {location->getFilename().str(), location->getLine()};
}

bool isDebugIntrinsic(const llvm::Instruction *instruction)
{
    return llvm::isa<llvm::DbgInfoIntrinsic>(instruction);
}

json callStackOf(const ItemPosition &at)
{
    json frames = json::array();
    if (!at.item || !at.next)
        return frames;
    const auto frame = [](const llvm::Instruction *instruction) {
        const SourcePosition p = positionOf(instruction);
        return json{
            {"function", instruction->getFunction()->getName().str()}, {"file", p.file}, {"line", p.line}};
    };
    frames.push_back(frame(at.next));
    std::stack<const llvm::Instruction *> calls = at.item->getCallStack();
    while (!calls.empty()) {
        frames.push_back(frame(calls.top()));
        calls.pop();
    }
    return frames;
}

json variablesOf(const oclgrind::Context *context, const ItemPosition &at)
{
    const Reader reader{context, at.item, layoutOf(at)};
    const Values values(reader);
    json out = json::array();
    for (const Variable &v : frameVariables(reader, at)) {
        if (v.place)
            out.push_back(values.node(v.name, *v.place, 0));
        else
            out.push_back({{"name", v.name}, {"type", typeName(v.debug->getType())}, {"error", v.why}});
    }
    return out;
}

json localArraysOf(const oclgrind::Context *context, const ItemPosition &at)
{
    const Reader reader{context, at.item, layoutOf(at)};
    const Values values(reader);
    json out = json::array();
    for (const LocalArray &a : localArrays(at))
        out.push_back(values.node(a.name, a.place, 0));
    return out;
}

json globalBuffersOf(const oclgrind::Context *context, const ItemPosition &at)
{
    json out = json::array();
    const llvm::Instruction *where =
        at.next ? at.next : (at.item ? at.item->getCurrentInstruction() : nullptr);
    if (!at.item || !where)
        return out;
    const Reader reader{context, at.item, layoutOf(at)};
    const Values values(reader);
    const llvm::Function *kernel = kernelFunction(at.item, where);
    std::vector<std::pair<unsigned, json>> found;
    std::set<const llvm::DILocalVariable *> seen;
    for (const llvm::BasicBlock &block : *kernel) {
        for (const llvm::Instruction &instruction : block) {
            const auto *declare = llvm::dyn_cast<llvm::DbgDeclareInst>(&instruction);
            const llvm::DILocalVariable *variable = declare ? declare->getVariable() : nullptr;
            if (!variable || variable->getArg() == 0 || !seen.insert(variable).second)
                continue;
            const auto *alloca = llvm::dyn_cast_or_null<llvm::AllocaInst>(declare->getVariableLocationOp(0));
            const unsigned char *data = alloca ? at.item->getValueData(alloca) : nullptr;
            if (!data)
                continue;
            Place pointer;
            pointer.type = variable->getType();
            pointer.ir = alloca->getAllocatedType();
            std::memcpy(&pointer.address, data, sizeof pointer.address);
            std::string why;
            const auto target = values.pointee(pointer, why);
            if (!target ||
                (target->space != oclgrind::AddrSpaceGlobal && target->space != oclgrind::AddrSpaceConstant))
                continue;
            const std::uint64_t elementSize = sizeOf(target->type);
            oclgrind::Memory *memory = context->getGlobalMemory();
            const auto *buffer =
                memory->isAddressValid(target->address) ? memory->getBuffer(target->address) : nullptr;
            if (!buffer || elementSize == 0)
                continue;
            const std::uint64_t offset = memory->extractOffset(target->address);
            const std::uint64_t count = buffer->size > offset ? (buffer->size - offset) / elementSize : 0;
            json node = {{"name", variable->getName().str()},
                         {"type", typeName(target->type) + "[" + std::to_string(count) + "]"},
                         {"elements", count}};
            json children = json::array();
            std::string summary;
            for (std::uint64_t i = 0; i < count && i < 1024; ++i) {
                Place element = *target;
                element.address += i * elementSize;
                json child = values.node("[" + std::to_string(i) + "]", element, 1);
                if (i < 8)
                    summary += (i ? ", " : "") + child.value("value", std::string("?"));
                children.push_back(std::move(child));
            }
            node["value"] = "[" + summary + (count > 8 ? ", ...]" : "]");
            node["children"] = std::move(children);
            found.emplace_back(variable->getArg(), std::move(node));
        }
    }
    std::sort(found.begin(), found.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    for (auto &[arg, node] : found)
        out.push_back(std::move(node));
    return out;
}

json valueAt(const oclgrind::Context *context, const ItemPosition &at, const std::string &path)
{
    const Reader reader{context, at.item, layoutOf(at)};
    const Values values(reader);
    const Resolved r = resolve(reader, values, at, path);
    if (!r.place)
        return {{"name", path}, {"error", r.error}};
    return values.node(path, *r.place, 0);
}

std::optional<double> scalarAt(const oclgrind::Context *context, const ItemPosition &at,
                               const std::string &path)
{
    const Reader reader{context, at.item, layoutOf(at)};
    const Values values(reader);
    const Resolved r = resolve(reader, values, at, path);
    if (!r.place)
        return std::nullopt;
    const auto s = values.scalar(*r.place);
    return s ? s->number : std::nullopt;
}

} // namespace clscope::debugplugin
