// Helpers shared by the core suites: the device the OpenCL tests use, a clscope-cli run, and a buffer's
// components as text.
#pragma once

#include "clscope/kernelargs.h"

#include <CL/cl.h>

#include <QtCore/QByteArray>
#include <QtCore/QProcess>
#include <QtCore/QStringList>

namespace testhelpers {

// The first device of the first platform (PoCL in the suites' ICD setup); null when there is none.
inline cl_device_id firstDevice()
{
    cl_platform_id platform = nullptr;
    cl_uint n = 0;
    if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0)
        return nullptr;
    cl_device_id device = nullptr;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, &n) != CL_SUCCESS || n == 0)
        return nullptr;
    return device;
}

struct CliRun
{
    int code = -1; // -1: it did not finish in time
    QByteArray out;
    QByteArray err;
};

// Runs the clscope-cli the suite was built with (CLSCOPE_CLI_PATH) and waits for it.
inline CliRun runCli(const QStringList &args, int timeoutMs = 120000)
{
    QProcess p;
    p.start(QStringLiteral(CLSCOPE_CLI_PATH), args);
    CliRun r;
    if (!p.waitForFinished(timeoutMs))
        return r;
    r.code = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// A buffer's components as formatNumber writes them, separated by spaces; raw bytes as unsigned numbers.
inline QString components(const clscope::BufferData &data)
{
    QStringList out;
    const clscope::ScalarKind kind = data.type.isRaw() ? clscope::ScalarKind::UChar : data.type.scalar;
    for (const clscope::Number &n : data.numbers())
        out << QString::fromStdString(clscope::formatNumber(n, kind));
    return out.join(u' ');
}

} // namespace testhelpers
