// Test helper of the clscope-cli suites: one run of the CLI the suite was built with, in the test's
// environment without the variables that pick a device or add build options, its binary cache in a folder
// of the test's.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTest>

namespace clitest {

// The devices the CLI tests compare on, as a data column "device": PoCL and Oclgrind.
inline void deviceRows()
{
    QTest::addColumn<QString>("device");
    QTest::newRow("pocl") << QStringLiteral("pocl");
    QTest::newRow("oclgrind") << QStringLiteral("oclgrind");
}

struct Result
{
    int exitCode = -1; // -1: it crashed or did not finish in time
    QByteArray out;
    QByteArray err;
};

inline Result run(const QStringList &args, const QString &cacheDir, int timeoutMs = 300000)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"CLSCOPE_DEVICE", "PYOPENCL_CTX", "PYOPENCL_TEST", "CLSCOPE_BUILD_OPTIONS"})
        env.remove(QLatin1String(name));
    env.insert(QStringLiteral("CLSCOPE_CACHE_DIR"), cacheDir);
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(CLSCOPE_CLI_PATH), args);
    if (!p.waitForFinished(timeoutMs))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

// A pyopencl reference script (tests/data/.../pyopencl_*.py) run with the system's python3, where Debian's
// python3-pyopencl is. A missing module is the install's fault: `missing` says so.
inline Result python(const QStringList &args, QByteArray *missing = nullptr, int timeoutMs = 300000)
{
    QProcess p;
    p.start(QStringLiteral("/usr/bin/python3"), args);
    if (!p.waitForFinished(timeoutMs))
        return {};
    Result r{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
             p.readAllStandardError()};
    if (missing && r.exitCode != 0 && r.err.contains("No module named"))
        *missing = "a Python module is missing (packaging/install-deps.sh installs python3-pyopencl and "
                   "python3-pil): " +
                   r.err;
    return r;
}

} // namespace clitest
