// The base of every exception core throws (with the category clscope-cli turns into its exit status),
// names for every OpenCL error code, and the exception CLScope throws when an OpenCL call fails.
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace clscope {

// What an error says about the work it stopped. Input: what was asked for cannot be used as given (a
// malformed device spec, no device that matches it, an unreadable input, a bad argument, a launch past a
// device's limits). Failure: the work itself failed (the driver, a device, a write, a file that does not
// hold what it should). clscope-cli exits 2 for the first and 1 for the second (DESIGN.md), in one place
// (app/cli/main.cpp).
enum class ErrorCategory : std::uint8_t { Failure, Input };

// Every exception of core derives from this; the message is one line that says what went wrong.
class Error : public std::runtime_error
{
public:
    explicit Error(const std::string &message, ErrorCategory category = ErrorCategory::Failure)
        : std::runtime_error(message)
        , m_category(category)
    {}
    ErrorCategory category() const { return m_category; }

private:
    ErrorCategory m_category;
};

// "CL_BUILD_PROGRAM_FAILURE" for -11; "CL_UNKNOWN_ERROR(-9999)" style text is never returned here:
// unknown codes give an empty view so callers can decide how to print them.
std::string_view errorName(cl_int code);

// The name without its CL_ prefix, or "error -9999" for an unknown code.
std::string errorLabel(cl_int code);

// An OpenCL call that failed: "clBuildProgram failed: BUILD_PROGRAM_FAILURE" (+ ": detail").
class ClError : public Error
{
public:
    ClError(std::string routine, cl_int code, std::string detail = {});

    const std::string &routine() const { return m_routine; }
    cl_int code() const { return m_code; }
    const std::string &detail() const { return m_detail; }

private:
    std::string m_routine;
    cl_int m_code;
    std::string m_detail;
};

// Throws ClError when code is not CL_SUCCESS.
inline void check(cl_int code, const char *routine, std::string_view detail = {})
{
    if (code != CL_SUCCESS)
        throw ClError(routine, code, std::string(detail));
}

// Out-of-memory class of errors (POOL.md): allocation failure, out of resources, out of host memory.
bool isOutOfMemory(cl_int code);

} // namespace clscope
