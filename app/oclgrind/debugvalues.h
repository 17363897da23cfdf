// The debugger plugin's view of a work-item's source-level state: its named variables (from the program's
// debug info: llvm.dbg.declare of an alloca, llvm.dbg.value of a constant), the work-group's __local arrays,
// the call stack, and values read from Oclgrind's memories by their debug types (scalars, vectors, structs
// by field, arrays by element, pointers with the value they point at). Nothing is guessed: a value whose
// location cannot be evaluated (an optimised-out variable, a debug expression with operations, a pointer
// whose address space is unknown) says why instead.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class DILocation;
class DIType;
class Function;
class Instruction;
class Type;
} // namespace llvm

namespace oclgrind {
class Context;
class WorkItem;
} // namespace oclgrind

namespace clscope::debugplugin {

// A source position: the file as the debug info names it (Oclgrind calls the main source input.cl) and the
// line; 0 when the instruction has none.
struct SourcePosition
{
    std::string file;
    unsigned line = 0;
    bool operator==(const SourcePosition &) const = default;
};
SourcePosition positionOf(const llvm::Instruction *instruction);
// llvm.dbg.* intrinsics: they carry a declaration's line but do nothing, so no stop happens before one.
bool isDebugIntrinsic(const llvm::Instruction *instruction);

// Where a work-item is: the instruction it runs next (the one it stopped before) and its frames.
struct ItemPosition
{
    const oclgrind::WorkItem *item = nullptr;
    const llvm::Instruction *next = nullptr; // nullptr: the work-item finished
};

// [{"function", "file", "line"}], the innermost frame first.
nlohmann::json callStackOf(const ItemPosition &at);

// The named variables in scope at the work-item's next instruction, in declaration order (arguments first):
// [{"name", "type", "value", "children": [...]} or {"name", "type", "error"}].
nlohmann::json variablesOf(const oclgrind::Context *context, const ItemPosition &at);

// The __local arrays of the kernel's work-group (module variables in the local address space that the
// kernel's functions use), read through the running work-group.
nlohmann::json localArraysOf(const oclgrind::Context *context, const ItemPosition &at);

// The kernel's global and constant buffer arguments as they are now, element by element (the first 1024;
// "elements" says how many the buffer holds from where the argument points).
nlohmann::json globalBuffersOf(const oclgrind::Context *context, const ItemPosition &at);

// One value by a path: NAME, then any of .FIELD, [INDEX], ->FIELD, or a leading * ("a[5]", "p.x",
// "*out", "s->count"). Vector components by .x .y .z .w or .s0 ... .sF. An error document when the path
// names nothing. The scalar of a path, for a breakpoint's condition: nothing when it is not a number.
nlohmann::json valueAt(const oclgrind::Context *context, const ItemPosition &at, const std::string &path);
std::optional<double> scalarAt(const oclgrind::Context *context, const ItemPosition &at,
                               const std::string &path);

} // namespace clscope::debugplugin
