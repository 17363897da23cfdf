// The build's child (buildchild.h) on PoCL: a program the child compiled is in the cache under the key of the
// caller's build, whose build is then a hit (headers, several sources and bytes that are not UTF-8 included);
// a crash of the child's compiler is told with its line; a set cancel flag stops the child; a child that
// cannot start is said so. SPIR-V and device binaries travel to the child as their bytes: a binary whose LLVM
// bitcode is damaged makes PoCL abort in clBuildProgram, which the child's end tells.
#include "clscope/buildchild.h"
#include "clscope/devicespec.h"
#include "poclbinary.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace clscope;

namespace {

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

std::string deepKernel(int terms)
{
    std::string sum = "1";
    for (int i = 1; i < terms; ++i)
        sum += "+1";
    return "// deep\nkernel void deep(global int *out)\n{\n    out[0] = " + sum + ";\n}\n";
}

} // namespace

class TestBuildChild : public QObject
{
    Q_OBJECT
    QTemporaryDir m_cacheDir;
    QTemporaryDir m_poclCache; // PoCL's own cache, emptied where a test needs PoCL to read a binary afresh
    BinaryCache m_cache;
    cl_device_id m_device = nullptr;
    const std::string m_cli = CLSCOPE_CLI_PATH;

private slots:
    void initTestCase()
    {
        qputenv("CLSCOPE_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
        qputenv("POCL_CACHE_DIR", m_poclCache.path().toLocal8Bit());
        m_cache = BinaryCache(m_cacheDir.path().toStdString());
        try {
            m_device = selectDevice("pocl").device;
        } catch (const std::exception &e) {
            QSKIP(e.what());
        }
    }

    void childFillsTheCache()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("helper.h")), "#define VALUE 7\n");
        // On disk something else: the request's text is what is built, as the editor's unsaved text is.
        writeFile(dir.filePath(QStringLiteral("main.cl")), "this is not what is built\n");
        BuildRequest request;
        request.devices = {m_device};
        request.sourcePath = dir.filePath(QStringLiteral("main.cl")).toStdString();
        request.source = "#include \"helper.h\"\n// caf\xe9 (Latin-1)\nint other(void);\n"
                         "kernel void k(global int *o) { o[0] = VALUE + other() + EXTRA; }\n";
        request.moreSources.push_back(
            {dir.filePath(QStringLiteral("more.cl")).toStdString(), "int other(void) { return 1; }\n"});
        request.options = "-D EXTRA=1";
        QVERIFY(!inBinaryCache(request, m_cache));
        const ChildCompile child = compileInChild(m_cli, request);
        QVERIFY2(child.outcome == ChildCompile::Outcome::Compiled, child.message.c_str());
        QVERIFY(inBinaryCache(request, m_cache));
        const BuildResult result = buildProgram(request, m_cache);
        QVERIFY2(result.success(), result.logs().front().log.c_str());
        QCOMPARE(result.cache(), CacheState::Hit);
        QVERIFY(result.kernel("k"));
        // Told as the child's compile: its miss, its time added.
        QCOMPARE(child.cache, CacheState::Miss);
        const BuildResult told = result.compiledElsewhere(child.durationMs);
        QCOMPARE(told.cache(), CacheState::Miss);
        QCOMPARE(told.logs().front().cache, CacheState::Miss);
        QCOMPARE(told.durationMs(), result.durationMs() + child.durationMs);
        QCOMPARE(told.program(), result.program());
    }

    // 100,000 terms need about 25 MiB of the compiler's stack: with 16 MiB the child's compiler crashes.
    void crashIsTold()
    {
        BuildRequest request;
        request.devices = {m_device};
        request.source = deepKernel(100000);
        qputenv("CLSCOPE_COMPILER_STACK_MIB", "16");
        const ChildCompile child = compileInChild(m_cli, request);
        qunsetenv("CLSCOPE_COMPILER_STACK_MIB");
        QVERIFY2(child.outcome == ChildCompile::Outcome::Crashed, child.message.c_str());
        QVERIFY2(
            child.message.starts_with(
                "the compiler crashed (SIGSEGV) building the program (5 source lines): its thread's stack "
                "of 16 MiB overflowed"),
            child.message.c_str());
        QVERIFY(child.durationMs > 0);
        const BuildResult failed = crashedBuild(request, child.message, child.durationMs);
        QCOMPARE(failed.durationMs(), child.durationMs);
        QVERIFY(!failed.success());
        QCOMPARE(failed.logs().size(), std::size_t(1));
        QCOMPARE(failed.logs().front().log, child.message);
        QCOMPARE(failed.diagnostics().size(), std::size_t(1));
        QCOMPARE(failed.diagnostics().front().message, child.message);
    }

    // A newer build supersedes: its token stops the stale child at once (SIGTERM), not after its compile.
    void cancelStopsTheChild()
    {
        BuildRequest request;
        request.devices = {m_device};
        request.source = deepKernel(20000);
        const auto cancel = std::make_shared<std::atomic<bool>>(true);
        QElapsedTimer timer;
        timer.start();
        const ChildCompile child = compileInChild(m_cli, request, cancel);
        QVERIFY(child.outcome == ChildCompile::Outcome::Cancelled);
        QVERIFY(timer.elapsed() < 5000);
        QVERIFY(!inBinaryCache(request, m_cache));
    }

    // A PoCL binary with damaged bitcode aborts PoCL's clBuildProgram (poclbinary.h). The child takes the
    // bytes and dies of it; the undamaged binary builds there.
    void damagedBinaryIsTold()
    {
        BuildRequest request;
        request.devices = {m_device};
        request.source = "kernel void twice(global float *a) { a[get_global_id(0)] *= 2.0f; }\n";
        const BuildResult built = buildProgram(request, BinaryCache());
        QVERIFY(built.success());
        ProgramSource program{
            ProgramKind::Binary, programBinaries(built.program(), request.devices).front(), {}};
        std::vector<unsigned char> damaged = program.bytes;
        if (!poclbinary::damageBitcode(damaged))
            QSKIP("not a PoCL binary with LLVM bitcode");
        request.source.clear();
        request.sourcePath = "/somewhere/twice.bin";
        const ChildCompile good = compileInChild(m_cli, request, program);
        QVERIFY2(good.outcome == ChildCompile::Outcome::Compiled, good.message.c_str());
        program.bytes = std::move(damaged);
        QVERIFY(QDir(m_poclCache.path()).removeRecursively() && QDir().mkpath(m_poclCache.path()));
        const ChildCompile child = compileInChild(m_cli, request, program);
        QVERIFY2(child.outcome == ChildCompile::Outcome::Crashed, child.message.c_str());
        const std::string subject =
            "/somewhere/twice.bin (a device binary, " + std::to_string(program.bytes.size()) + " bytes)";
        // The child's own line or, where the driver's handler came over the child's, the signal it died of.
        QVERIFY2(child.message.find(subject) != std::string::npos &&
                     child.message.ends_with("nothing was built"),
                 child.message.c_str());
    }

    void missingChildIsSaid()
    {
        BuildRequest request;
        request.devices = {m_device};
        request.source = "kernel void k(global int *o) { o[0] = 1; }\n";
        const ChildCompile child = compileInChild("/nonexistent/clscope-cli", request);
        QVERIFY(child.outcome == ChildCompile::Outcome::NotStarted);
        QVERIFY2(child.message.find("cannot start /nonexistent/clscope-cli") != std::string::npos,
                 child.message.c_str());
    }
};

QTEST_MAIN(TestBuildChild)
#include "tst_buildchild.moc"
