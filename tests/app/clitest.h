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

} // namespace clitest
