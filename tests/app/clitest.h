// Test helper of the clscope-cli suites: one run of the CLI the suite was built with (or of another program),
// in the test's environment without the variables that pick a device or add build options, its binary cache
// in a folder of the test's; pyopencl's reference scripts; a run with raw-byte arguments and its peak memory.
#pragma once

#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTest>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <optional>
#include <vector>

extern char **environ;

namespace clitest {

// The devices the CLI tests compare on, as a data column "device": PoCL and Oclgrind.
inline void deviceRows()
{
    QTest::addColumn<QString>("device");
    QTest::newRow("pocl") << QStringLiteral("pocl");
    QTest::newRow("oclgrind") << QStringLiteral("oclgrind");
}

// "--kernel k --global 4" as the words a shell would pass.
inline QStringList words(const char *text)
{
    return QString::fromLatin1(text).split(u' ', Qt::SkipEmptyParts);
}

struct Result
{
    int exitCode = -1; // -1: it crashed or did not finish in time
    QByteArray out;
    QByteArray err;
    // False when it was still running at the time limit: then killed, out and err as far as it wrote them.
    bool finished = false;
    qint64 ms = 0; // from the start to the end or the time limit
};

// The variables a run goes without unless a suite says otherwise: those that pick a device or add build
// options.
inline QStringList deviceVariables()
{
    return {QStringLiteral("CLSCOPE_DEVICE"), QStringLiteral("PYOPENCL_CTX"), QStringLiteral("PYOPENCL_TEST"),
            QStringLiteral("CLSCOPE_BUILD_OPTIONS")};
}

// Those of the suites that build and run on a named device: the device choice, build options, PoCL's own
// device list and the switch that turns the binary cache off.
inline QStringList buildVariables()
{
    return {QStringLiteral("CLSCOPE_DEVICE"), QStringLiteral("CLSCOPE_BUILD_OPTIONS"),
            QStringLiteral("POCL_DEVICES"), QStringLiteral("CLSCOPE_NO_CACHE")};
}

// How run() starts a program: the test's environment (or `environment`) less `unset`, then CLSCOPE_CACHE_DIR
// (when cacheDir is set) and the NAME=value pairs of `set`.
struct Options
{
    QString cacheDir;
    QStringList unset = deviceVariables();
    QStringList set;
    QString workingDirectory; // empty: the test's
    int timeoutMs = 300000;
    QString program = QStringLiteral(CLSCOPE_CLI_PATH);
    std::optional<QProcessEnvironment> environment; // instead of the test's
    std::optional<QByteArray> input;                // written to its stdin, which is then closed
};

inline Result run(const QStringList &args, const Options &options)
{
    QProcessEnvironment env = options.environment.value_or(QProcessEnvironment::systemEnvironment());
    for (const QString &name : options.unset)
        env.remove(name);
    if (!options.cacheDir.isEmpty())
        env.insert(QStringLiteral("CLSCOPE_CACHE_DIR"), options.cacheDir);
    for (const QString &pair : options.set) {
        const qsizetype equals = pair.indexOf(u'=');
        env.insert(pair.left(equals), pair.mid(equals + 1));
    }
    QProcess p;
    p.setProcessEnvironment(env);
    if (!options.workingDirectory.isEmpty())
        p.setWorkingDirectory(options.workingDirectory);
    QElapsedTimer clock;
    clock.start();
    p.start(options.program, args);
    if (options.input && p.waitForStarted(10000)) {
        if (!options.input->isEmpty())
            p.write(*options.input);
        p.closeWriteChannel();
    }
    Result r;
    r.finished = p.waitForFinished(options.timeoutMs);
    r.ms = clock.elapsed();
    if (!r.finished) {
        p.kill();
        p.waitForFinished();
    } else if (p.exitStatus() == QProcess::NormalExit) {
        r.exitCode = p.exitCode();
    }
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// The CLI with the default Options and its binary cache in cacheDir.
inline Result run(const QStringList &args, const QString &cacheDir, int timeoutMs = 300000)
{
    Options options;
    options.cacheDir = cacheDir;
    options.timeoutMs = timeoutMs;
    return run(args, options);
}

// A pyopencl reference script (tests/data/.../pyopencl_*.py) run with the system's python3, where Debian's
// python3-pyopencl is. A missing module is the install's fault: `missing` says so.
inline Result python(const QStringList &args, QByteArray *missing = nullptr, int timeoutMs = 300000)
{
    Options options;
    options.unset.clear();
    options.timeoutMs = timeoutMs;
    options.program = QStringLiteral("/usr/bin/python3");
    const Result r = run(args, options);
    if (missing && r.exitCode != 0 && r.err.contains("No module named"))
        *missing = "a Python module is missing (packaging/install-deps.sh installs python3-pyopencl and "
                   "python3-pil): " +
                   r.err;
    return r;
}

struct Spawned
{
    int exitCode = -1;   // 128 + the signal that ended it; -1: it could not be started
    qint64 peakMiB = -1; // the child's peak resident memory, from wait4
    QByteArray out;
    QByteArray err;
};

// clscope-cli with arguments as raw bytes (QProcess would re-encode them as UTF-8), in the test's own
// environment, its output in files under dir (stdout to /dev/null unless keepOutput); measures its peak
// memory.
inline Spawned spawn(const std::vector<QByteArray> &args, const QString &dir, bool keepOutput = true)
{
    std::vector<QByteArray> bytes{QByteArrayLiteral(CLSCOPE_CLI_PATH)};
    bytes.insert(bytes.end(), args.begin(), args.end());
    std::vector<char *> argv;
    for (QByteArray &b : bytes)
        argv.push_back(b.data());
    argv.push_back(nullptr);
    const QByteArray outPath = QFile::encodeName(dir + QStringLiteral("/spawn.out"));
    const QByteArray errPath = QFile::encodeName(dir + QStringLiteral("/spawn.err"));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, keepOutput ? outPath.constData() : "/dev/null",
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, errPath.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    Spawned r;
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        return r;
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid)
        return r;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.peakMiB = qint64(usage.ru_maxrss) / 1024;
    QFile out(QFile::decodeName(outPath)), err(QFile::decodeName(errPath));
    if (keepOutput && out.open(QIODevice::ReadOnly))
        r.out = out.readAll();
    if (err.open(QIODevice::ReadOnly))
        r.err = err.readAll();
    return r;
}

} // namespace clitest
