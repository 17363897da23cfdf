// The kernel debugger's controller side. A launch runs on Oclgrind in a child process (a clscope-cli run or
// replay) with CLScope's plugin (app/oclgrind, libclscope-oclgrind.so) loaded; the plugin connects to a Unix
// socket that the controller listens on and pauses the simulator before source lines that the controller
// asks for (docs/debug-protocol.md). This module holds what every controller shares: the session (the
// child's environment and the socket's path), the requests, and the parse of the plugin's messages, which
// are read as hostile input (validated once, here). DebugChild is a blocking controller for clscope-cli;
// the GUI drives the same protocol with QLocalServer and QProcess and never waits.
#pragma once

#include "clscope/check.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clscope {

// ---- What the plugin says ------------------------------------------------------------------------------

// A variable, a field, an element: its value as text, or why it has none. children: fields of a struct,
// elements of an array (at most 1024 of them; elements says how many there are), components of a vector,
// the target of a pointer ("*p").
struct DebugValue
{
    std::string name;
    std::string type;
    std::string value; // "" when error says why there is none
    std::string error; // "optimised out (rebuild with -cl-opt-disable)", "not readable", ...
    std::uint64_t elements = 0;
    std::vector<DebugValue> children;
    bool operator==(const DebugValue &) const = default;
};

struct DebugItem
{
    WorkItemId global{};
    WorkItemId local{};
    WorkItemId group{};
    std::string state; // "stopped", "ready", "barrier", "finished", "not started" ("" in a stop)
    std::string file;  // where it is: the user's file name (the main source mapped), "" when not known
    int line = 0;
    bool operator==(const DebugItem &) const = default;
};

struct DebugFrame
{
    std::string function;
    std::string file;
    int line = 0;
    bool operator==(const DebugFrame &) const = default;
};

struct DebugKernel
{
    std::string name;
    int workDim = 1;
    WorkItemId global{1, 1, 1};
    WorkItemId local{1, 1, 1};
    WorkItemId offset{0, 0, 0};
    WorkItemId groups{1, 1, 1};
    bool operator==(const DebugKernel &) const = default;
};

struct DebugStop
{
    std::string reason; // "breakpoint", "step", "start", "cursor", "pause", "barrier", "error"
    DebugItem item;
    std::string file;
    int line = 0;
    std::string function;
    int depth = 0; // frames below the kernel's: 0 in the kernel, 1 in a function it called
    std::string
        message; // an Oclgrind error's report; a barrier's "the work-group's 64 work-items reached it"
    bool operator==(const DebugStop &) const = default;
};

struct DebugMessage
{
    enum class Kind { Hello, Kernel, KernelEnd, Stopped, Progress, Reply };
    Kind kind = Kind::Reply;
    DebugKernel kernel;                          // Kernel, KernelEnd (name only)
    DebugStop stop;                              // Stopped
    std::uint64_t groupsStarted = 0, groups = 0; // Progress
    // Reply: the request it answers ("variables", "print", ...), or its error.
    std::string reply;
    std::string error;
    std::vector<DebugValue> values; // variables, print, locals, buffers
    std::vector<DebugFrame> frames; // stack
    std::vector<DebugItem> items;   // items
    std::optional<DebugItem> item;  // the selected work-item of variables, print, select, stack
};

// One line of the plugin. Files named like Oclgrind's alias of the main source (input.cl) become
// mainFile. Anything but a message of the protocol's form (a missing or mistyped field, an id that is not
// three numbers, a value nested deeper than 16, more than 100,000 values) throws Error.
DebugMessage parseDebugMessage(std::string_view line, const std::string &mainFile);

// ---- What the controller asks --------------------------------------------------------------------------

struct DebugBreakpoint
{
    std::string file; // the user's name of the main source or a header; "" the main source
    int line = 0;
    std::optional<WorkItemId> item; // only this work-item (global id)
    std::string condition;          // "VARIABLE OP NUMBER" (OP == != < <= > >=), "" always
    bool operator==(const DebugBreakpoint &) const = default;
};

// Each a JSON line (with its '\n'). Breakpoints in mainFile (or with no file) are sent as Oclgrind names the
// main source.
std::string debugBreakRequest(const std::vector<DebugBreakpoint> &breakpoints, const std::string &mainFile);
// run: debug this kernel (start: stop at the first line of item, or of the first work-item); skip: let it
// run.
std::string debugRunRequest(bool start, const std::optional<WorkItemId> &item);
// continue, skip, detach, variables, locals, buffers, stack, items, pause.
std::string debugSimpleRequest(std::string_view command);
std::string debugStepRequest(std::string_view kind); // over, into, out
std::string debugRunToRequest(const std::string &file, int line, const std::string &mainFile);
std::string debugSelectRequest(const WorkItemId &global);
std::string debugPrintRequest(const std::vector<std::string> &paths);
// Stop the work-item that first writes element `index` of a global buffer argument (by name, or by index
// when name is a number), at the store's line: what wrote a wrong result.
std::string debugWatchRequest(const std::string &argument, std::uint64_t index);
// "out[5]" or "2[5]" (the argument's index): the argument and the element; nothing when it is not that.
std::optional<std::pair<std::string, std::uint64_t>> parseWatchSpec(std::string_view text);

// "X[,Y[,Z]]" as a work-item id; nothing when it is not that.
std::optional<WorkItemId> parseWorkItemId(std::string_view text);
// "(5,0,0)"
std::string formatWorkItemId(const WorkItemId &id);

// A breakpoint's own condition as the editor's margin takes it: "item X[,Y[,Z]]" (only that work-item, its
// global id), "VARIABLE OP NUMBER", or both as "item X[,Y[,Z]] if VARIABLE OP NUMBER"; "" neither. Nothing
// when an item is named but is not an id. (The condition itself is checked where the plugin reads it.)
struct BreakpointCondition
{
    std::optional<WorkItemId> item;
    std::string condition;
    bool operator==(const BreakpointCondition &) const = default;
};
std::optional<BreakpointCondition> parseBreakpointCondition(std::string_view text);

// A value and its children as indented text lines: "p = {4, 0.5}  (Params)", then "  n = 4  (int)".
std::string formatDebugValue(const DebugValue &value, int indent = 0, int maxDepth = 3);

// ---- The session ---------------------------------------------------------------------------------------

// The child's environment for debugging: CheckSession's (Oclgrind only, in a private folder) without its
// checks, with the plugin (OCLGRIND_PLUGINS), CLSCOPE_DEBUG_SOCKET (socketPath) and OCLGRIND_INTERACTIVE=1:
// Oclgrind keeps the variables' debug information only in its interactive mode (which also builds at -O0
// and runs one thread; its own prompt ends at once on the child's empty stdin). Throws
// CheckUnavailableError without Oclgrind.
class DebugSession
{
public:
    DebugSession(const std::vector<std::string> &environment, const std::string &plugin);
    const std::vector<std::string> &environment() const { return m_environment; }
    std::filesystem::path socketPath() const { return m_check.directory() / "debug.sock"; }
    const CheckSession &check() const { return m_check; }

private:
    CheckSession m_check;
    std::vector<std::string> m_environment;
};

// "-g" is Oclgrind's error ("unknown argument"); it keeps line information anyway. The options without it.
std::string withoutDebugOption(std::string_view options);

// A blocking controller (clscope-cli debug): listens on the session's socket, starts executable args in
// the session's environment (stdin /dev/null, stdout and stderr to files), and exchanges lines with the
// plugin. Destroying it ends a child still running.
class DebugChild
{
public:
    DebugChild(const DebugSession &session, const std::string &executable,
               const std::vector<std::string> &args, std::string mainFile);
    ~DebugChild();
    DebugChild(const DebugChild &) = delete;
    DebugChild &operator=(const DebugChild &) = delete;

    // The next message; nothing when the child ended (or closed the socket) or timeout passed. The first is
    // the plugin's hello: without it (the plugin did not load) next() throws Error with the child's stderr.
    std::optional<DebugMessage> next(std::chrono::milliseconds timeout);
    void send(const std::string &request);
    // False once the child has closed its end (it ended) or ended before connecting.
    bool alive() const { return m_socket >= 0 || (m_listener >= 0 && !m_endedStatus); }
    // Sends and waits for the reply (progress events in between are dropped). Throws Error when the child
    // ends first.
    DebugMessage request(const std::string &request, std::chrono::milliseconds timeout);
    // Waits for the child's end (ending it after timeout) and returns its status and output.
    CheckChildResult finish(std::chrono::milliseconds timeout);

private:
    bool fill(std::chrono::milliseconds timeout);
    std::optional<std::string> takeLine();

    const DebugSession &m_session;
    std::string m_mainFile;
    int m_listener = -1;
    int m_socket = -1;
    int m_pid = -1;
    std::optional<int> m_endedStatus; // the child ended before it connected
    bool m_helloSeen = false;
    std::string m_buffer;
};

} // namespace clscope
