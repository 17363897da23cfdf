// What the capture suites share (tst_capture, tst_capturereplay, tst_capturereader): programs run to their
// end (clscope-cli capture among them; through clitest.h's run), one query on a capture through Debian's
// sqlite3, and a folder with pyopencl's examples and the environment they run in: PoCL, no compiler chatter,
// no binary cache.
#pragma once

#include "clitest.h"
#include "sanitizers.h"

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

namespace capturetest {

inline const QString kExamples = QStringLiteral("/usr/share/doc/python-pyopencl-doc/examples");
inline const QString kPython = QStringLiteral("/usr/bin/python3");

struct Run
{
    int code = -1;
    QByteArray out;
    QByteArray err;
};

// The program in env and dir, input on its stdin (then closed), through clitest::run.
inline Run run(const QString &program, const QStringList &args, const QProcessEnvironment &env,
               const QString &dir, const QByteArray &input = {})
{
    clitest::Options options;
    options.unset.clear();
    options.workingDirectory = dir;
    options.timeoutMs = 120000;
    options.program = program;
    options.environment = env;
    options.input = input;
    const clitest::Result r = clitest::run(args, options);
    return {r.exitCode, r.out, r.err};
}

// The clscope-cli this suite was built with.
inline QString cli()
{
    return QStringLiteral(CLSCOPE_CLI_PATH);
}

// One value of a query on the capture, through Debian's sqlite3: the file is queryable as documented.
inline QString sql(const QString &file, const QString &query)
{
    QProcess p;
    p.start(QStringLiteral("sqlite3"), {file, query});
    p.waitForFinished(30000);
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

// The suites' folder and environment. setUp() is the suites' initTestCase; m_ready says it went through
// (nothing skipped or failed), for a suite that makes captures after it.
class Fixture
{
protected:
    QTemporaryDir m_dir;
    QProcessEnvironment m_env;
    bool m_ready = false;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    void setUp()
    {
        QVERIFY(m_dir.isValid());
        if (!QFile::exists(kExamples + QStringLiteral("/demo.py")))
            QSKIP("pyopencl's examples are missing: apt-get install python-pyopencl-doc");
        if (QStandardPaths::findExecutable(QStringLiteral("sqlite3")).isEmpty())
            QSKIP("sqlite3 is missing: apt-get install sqlite3");
        m_env = QProcessEnvironment::systemEnvironment();
        // PoCL, no compiler chatter, and no binary cache: pyopencl then builds from source, which replay
        // needs.
        m_env.insert(QStringLiteral("PYOPENCL_CTX"), QStringLiteral("0"));
        m_env.insert(QStringLiteral("PYOPENCL_COMPILER_OUTPUT"), QStringLiteral("0"));
        m_env.insert(QStringLiteral("PYOPENCL_NO_CACHE"), QStringLiteral("1"));
        m_env.remove(QStringLiteral("OPENCL_LAYERS"));
#if defined(__SANITIZE_ADDRESS__)
        // The asan preset builds the layer with ASan and UBSan too: the programs it is loaded into (clinfo,
        // Python) are not, so their runtimes are preloaded; leaks of those programs are not ours to report.
        const QStringList runtimes = clscope::test::sanitizerRuntimes();
        QVERIFY2(!runtimes.isEmpty(), "no sanitizer runtime found in /proc/self/maps");
        m_env.insert(QStringLiteral("LD_PRELOAD"), runtimes.join(QLatin1Char(':')));
        m_env.insert(QStringLiteral("ASAN_OPTIONS"),
                     m_env.value(QStringLiteral("ASAN_OPTIONS")) + QStringLiteral(":detect_leaks=0"));
#endif
        for (const QString &f : {QStringLiteral("demo.py"), QStringLiteral("demo_elementwise.py"),
                                 QStringLiteral("demo-struct-reduce.py"), QStringLiteral("demo_array.py")})
            QVERIFY(QFile::copy(kExamples + QLatin1Char('/') + f, path(f)));
        m_ready = true;
    }

    // clscope-cli capture OPTIONS -o FILE -- COMMAND..., in the suite's folder.
    Run capture(const QStringList &options, const QString &file, const QStringList &command,
                const QProcessEnvironment &env) const
    {
        return run(cli(),
                   QStringList{QStringLiteral("capture")} + options +
                       QStringList{QStringLiteral("-o"), file, QStringLiteral("--")} + command,
                   env, m_dir.path());
    }

    // The program of ours (tests/data/capture/testapp.c) and its arguments: 9 launches, then an exit or,
    // with crash, a SIGSEGV.
    static QStringList testApp(bool crash)
    {
        QStringList command{QStringLiteral(CLSCOPE_CAPTURE_TESTAPP), QStringLiteral("9")};
        if (crash)
            command << QStringLiteral("crash");
        return command;
    }

    // The environment it runs in.
    QProcessEnvironment testAppEnvironment() const
    {
        QProcessEnvironment env = m_env;
#if defined(__SANITIZE_ADDRESS__)
        // ASan would turn the SIGSEGV into its report and exit 1: let the program die of it.
        env.insert(QStringLiteral("ASAN_OPTIONS"),
                   env.value(QStringLiteral("ASAN_OPTIONS")) + QStringLiteral(":handle_segv=0"));
#endif
        return env;
    }
};

} // namespace capturetest
