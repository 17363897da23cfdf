// The driver's compiler runs in our process (clBuildProgram, clCompileProgram, clLinkProgram): clang and LLVM
// recurse once per level of an expression, and PoCL 3.1 needs about 250 bytes of stack per term of
// `a+a+...+a` (100,000 terms: 25 MiB; 3,000,000 terms: 750 MiB), so a long expression overflowed the 8 MiB
// of the calling thread and took the process down with SIGSEGV. Every compile of core runs on a thread of
// its own with a large stack instead, and a process that asks (reportCompilerCrashes) says "the compiler
// crashed" and names the program when the compiler dies all the same.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace clscope {

// The stack of a compiler thread: 1 GiB of address space (pages are only taken as the compiler touches
// them), enough for about 4 million terms on PoCL 3.1. CLSCOPE_COMPILER_STACK_MIB overrides it (1 to
// 65536), as the tests do to make a small program crash.
constexpr std::size_t kCompilerStackBytes = std::size_t(1) << 30;
std::size_t compilerStackBytes();

// What a crash report names: "FILE (N source lines)" or "the program (N source lines)".
std::string compileSubject(const std::string &path, const std::string &source);
// The same for a program given as bytes: "FILE (SPIR-V, N bytes)", "FILE (a device binary, N bytes)".
std::string compileSubject(const std::string &path, const char *what, std::size_t bytes);

// Runs `work` on a new thread with compilerStackBytes() of stack and waits for it; an exception of `work`
// is rethrown here. Where the system refuses a stack that large, smaller ones are tried down to the
// system's default. While `work` runs, a crash on that thread is reported as the compiler's (below).
void onCompilerThread(const std::function<void()> &work, const std::string &subject);

// From now on a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) on a compiler thread writes one
// line to stderr, "PREFIX: the compiler crashed (SIGSEGV) building big.cl (3 source lines): ...", and
// ends the process with status 1 (a failed build) instead of dying of the signal; a signal on any other
// thread goes to the handler that was there before. For programs, not libraries: call it once from main.
void reportCompilerCrashes(const std::string &prefix);

} // namespace clscope
