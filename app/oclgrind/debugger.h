// The kernel debugger half of libclscope-oclgrind.so (debugger.cpp): with CLSCOPE_DEBUG_SOCKET set, the
// plugin connects to that Unix socket, says hello, and from then on pauses the simulator where the
// controller (clscope-cli debug, the GUI) asks, answering its requests about the paused work-group. The
// protocol is docs/debug-protocol.md.
#pragma once

namespace oclgrind {
class Context;
}

namespace clscope::debugplugin {

inline constexpr const char *kSocketVariable = "CLSCOPE_DEBUG_SOCKET";

// Registers a debugger with the context when CLSCOPE_DEBUG_SOCKET is set and the controller answers.
void startDebugger(oclgrind::Context *context);
void stopDebugger(oclgrind::Context *context);

} // namespace clscope::debugplugin
