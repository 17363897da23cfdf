// Program builds end to end on PoCL and Oclgrind: logs and diagnostics of failed and warning builds,
// options (defaults, environment, source folder), kernel arguments from the driver and from the
// signature parser (data-driven), work-group info, binaries, SPIR-V refusal and several devices. The
// `clscope-cli build` contract: tst_programcli.cpp.
#include "buildtest.h"

#include "clscope/build.h"
#include "clscope/devicespec.h"
#include "clscope/error.h"
#include "clscope/programsource.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace clscope;
using namespace buildtest;

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// "name(arg: address [access] type [quals]; ...)" per kernel, one a line.
QString render(const std::string &name, const std::vector<KernelArg> &args)
{
    QStringList parts;
    for (const auto &a : args) {
        QString p =
            qs(a.name) + QStringLiteral(": ") + qs(addressQualifierName(a.address)) + QLatin1Char(' ');
        if (a.access != AccessQualifier::None)
            p += qs(accessQualifierName(a.access)) + QLatin1Char(' ');
        p += qs(a.typeName);
        QStringList quals;
        for (const auto &q : typeQualifierNames(a.typeQualifiers))
            quals << qs(q);
        if (!quals.isEmpty())
            p += QStringLiteral(" [") + quals.join(QLatin1Char(',')) + QLatin1Char(']');
        parts << p;
    }
    return qs(name) + QLatin1Char('(') + parts.join(QStringLiteral("; ")) + QLatin1Char(')');
}

} // namespace

class TestProgram : public QObject, private buildtest::ProgramDrivers
{
    Q_OBJECT

    BuildRequest requestFor(const char *platform, const char *file, std::string options = {}) const
    {
        BuildRequest r;
        r.devices = {selectDevices(platform).front().device};
        r.sourcePath = dataPath(file);
        r.options = std::move(options);
        r.environmentOptions = false;
        return r;
    }

private slots:
    void initTestCase() { setUpDrivers(); }

    void init()
    {
        const QByteArray test(QTest::currentTestFunction());
        if (!test.startsWith("signature") && test != "programKinds")
            requireDrivers();
    }

    // ---- The signature parser ---------------------------------------------------------------------

    void signatures_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("expected");
        // Cases in tests/data/build/signatures.txt: "## name", the source, "--", the expected lines.
        const QStringList lines =
            QString::fromUtf8(readData(QStringLiteral("signatures.txt"))).split(QLatin1Char('\n'));
        QString name, source, expected;
        bool inExpected = false;
        auto flush = [&] {
            if (!name.isEmpty())
                QTest::newRow(qPrintable(name))
                    << source.chopped(source.isEmpty() ? 0 : 1) << expected.trimmed();
        };
        for (const QString &line : lines) {
            if (line.startsWith(QLatin1String("## "))) {
                flush();
                name = line.mid(3);
                source.clear();
                expected.clear();
                inExpected = false;
            } else if (!name.isEmpty() && line == QLatin1String("--") && !inExpected) {
                inExpected = true;
            } else if (!name.isEmpty()) {
                (inExpected ? expected : source) += line + QLatin1Char('\n');
            }
        }
        flush();
        QVERIFY2(lines.size() > 10, "tests/data/build/signatures.txt is missing");
    }

    void signatures()
    {
        QFETCH(QString, source);
        QFETCH(QString, expected);
        QStringList got;
        for (const auto &sig : parseKernelSignatures(source.toStdString()))
            got << render(sig.name, sig.args);
        QCOMPARE(got.join(QLatin1Char('\n')), expected);
    }

    // ---- Kernel arguments: driver and parser agree -------------------------------------------------

    // What a linked build checks before it links: declared and called at file scope, defined where.
    void functionNamesOfASource()
    {
        const FunctionNames n =
            functionNames("// scale(x) is elsewhere\n"
                          "float scale(float x, float k);\n"
                          "int unused(int);\n"
                          "static float twice(float x) __attribute__((const)) { return 2 * x; }\n"
                          "/* helper(\n */ kernel void k(global float *a)\n"
                          "{ a[0] = scale(twice(a[1]), 2.0f); if (a[0] > 1) return; }\n");
        QCOMPARE(n.declared.size(), std::size_t(2));
        QCOMPARE(n.declared.at("scale"), 2);
        QCOMPARE(n.declared.at("unused"), 3);
        QVERIFY(n.defined.count("twice") && n.defined.count("k"));
        QVERIFY(n.called.count("scale") && n.called.count("twice") && !n.called.count("unused"));
        QVERIFY(!n.called.count("helper"));
    }

    void argInfo_data()
    {
        QTest::addColumn<QString>("platform");
        QTest::newRow("pocl") << QStringLiteral("pocl");
        QTest::newRow("oclgrind") << QStringLiteral("oclgrind");
    }

    void argInfo()
    {
        QFETCH(QString, platform);
        const BuildResult r =
            buildProgram(requestFor(platform.toLatin1().constData(), "args.cl"), BinaryCache());
        QVERIFY2(r.success(), r.logs().front().log.c_str());
        QCOMPARE(r.kernels().size(), size_t(2));
        const auto sigs = parseKernelSignatures(readData(QStringLiteral("args.cl")).toStdString());
        QCOMPARE(sigs.size(), size_t(2));
        for (size_t i = 0; i < 2; ++i) {
            const KernelInfo &k = r.kernels()[i];
            QCOMPARE(k.argInfo, ArgInfoSource::Driver);
            QCOMPARE(k.name, sigs[i].name); // source order
            QCOMPARE(render(k.name, k.args), render(sigs[i].name, sigs[i].args));
        }
        QCOMPARE(render(r.kernels()[0].name, r.kernels()[0].args),
                 QStringLiteral(
                     "first(a: global float4* [const,restrict]; l: local int*; c: constant float* [const]; "
                     "n: private int; img: global read_only image2d_t; u: private uint; v: private uint2; "
                     "vol: global uint* [volatile]; s: private sampler_t)"));
        QVERIFY(r.options().find("-cl-kernel-arg-info") != std::string::npos);
        // Work-group info of the one device, with the compiled size from reqd_work_group_size.
        const KernelInfo *first = r.kernel("first");
        QVERIFY(first);
        QCOMPARE(first->workGroups.size(), size_t(1));
        const auto compiled = std::array<std::size_t, 3>{8, 1, 1};
        QCOMPARE(first->workGroups.front().compileWorkGroupSize, compiled);
        QVERIFY(first->workGroups.front().workGroupSize >= 1);
        QVERIFY(first->workGroups.front().preferredWorkGroupSizeMultiple >= 1);
        QCOMPARE(r.kernel("second")->workGroups.front().compileWorkGroupSize,
                 (std::array<std::size_t, 3>{0, 0, 0}));
    }

    // PoCL has no arg info without -cl-kernel-arg-info: the arguments then come from the source.
    void argInfoFromSource()
    {
        BuildRequest req = requestFor("pocl", "args.cl");
        req.kernelArgInfo = false;
        const BuildResult r = buildProgram(req, BinaryCache());
        QVERIFY(r.success());
        QVERIFY(r.options().find("-cl-kernel-arg-info") == std::string::npos);
        const BuildResult withInfo = buildProgram(requestFor("pocl", "args.cl"), BinaryCache());
        for (size_t i = 0; i < 2; ++i) {
            QCOMPARE(r.kernels()[i].argInfo, ArgInfoSource::Source);
            QCOMPARE(r.kernels()[i].args, withInfo.kernels()[i].args);
        }
    }

    // ---- Logs and diagnostics ----------------------------------------------------------------------

    void failedBuildKeepsLogs_data() { argInfo_data(); }

    void failedBuildKeepsLogs()
    {
        QFETCH(QString, platform);
        const BuildRequest req = requestFor(platform.toLatin1().constData(), "error.cl");
        const BuildResult r = buildProgram(req, BinaryCache());
        QCOMPARE(r.status(), BuildStatus::Failure);
        QCOMPARE(r.logs().size(), size_t(1));
        QVERIFY(!r.logs().front().success);
        QVERIFY(r.logs().front().log.find("undeclared identifier 'x'") != std::string::npos);
        QVERIFY(!r.logs().front().device.empty());
        QCOMPARE(r.diagnostics().size(), size_t(1));
        const Diagnostic &d = r.diagnostics().front();
        QCOMPARE(d.file, req.sourcePath);
        QCOMPARE(d.line, 4);
        QCOMPARE(d.column, 29);
        QCOMPARE(d.severity, Severity::Error);
        QCOMPARE(d.message, std::string("use of undeclared identifier 'x'"));
        QVERIFY(r.kernels().empty());
        QVERIFY(!r.program());
        QVERIFY(r.durationMs() > 0);
        QCOMPARE(r.cache(), CacheState::Off);
    }

    void warningBuildSucceeds_data() { argInfo_data(); }

    void warningBuildSucceeds()
    {
        QFETCH(QString, platform);
        const BuildRequest req =
            requestFor(platform.toLatin1().constData(), "warning.cl", "-I " + dataPath("headers"));
        const BuildResult r = buildProgram(req, BinaryCache());
        QVERIFY2(r.success(), r.logs().front().log.c_str());
        QVERIFY(r.logs().front().success);
        QVERIFY(!r.logs().front().log.empty());
        const auto warning =
            std::find_if(r.diagnostics().begin(), r.diagnostics().end(), [&](const Diagnostic &d) {
                return d.file == req.sourcePath && d.line == 7 && d.severity == Severity::Warning;
            });
        QVERIFY(warning != r.diagnostics().end());
        const auto header =
            std::find_if(r.diagnostics().begin(), r.diagnostics().end(), [](const Diagnostic &d) {
                return d.file.ends_with("headers/helper.h") && d.line == 5;
            });
        QVERIFY(header != r.diagnostics().end());
        QVERIFY(r.program());
        QCOMPARE(r.kernels().size(), size_t(1));
    }

    void badOptionIsAFailedBuild_data() { argInfo_data(); }

    void badOptionIsAFailedBuild()
    {
        QFETCH(QString, platform);
        const BuildResult r = buildProgram(
            requestFor(platform.toLatin1().constData(), "args.cl", "-fbogus-option"), BinaryCache());
        QCOMPARE(r.status(), BuildStatus::Failure);
        QVERIFY(!r.diagnostics().empty()); // from the log, or the failure code when the log has no diagnostic
        QCOMPARE(r.diagnostics().back().severity, Severity::Error);
    }

    // ---- Options -----------------------------------------------------------------------------------

    void platformDefaultsAndEnvironment_data()
    {
        QTest::addColumn<QString>("platform");
        QTest::addColumn<QString>("macro");
        QTest::newRow("pocl") << QStringLiteral("pocl") << QStringLiteral("CLSCOPE_USING_POCL");
        QTest::newRow("oclgrind") << QStringLiteral("oclgrind") << QStringLiteral("CLSCOPE_USING_OCLGRIND");
    }

    void platformDefaultsAndEnvironment()
    {
        QFETCH(QString, platform);
        QFETCH(QString, macro);
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("macros.cl"));
        writeFile(file, "#ifndef " + macro.toLatin1() +
                            "\n#error no platform macro\n#endif\n"
                            "#ifndef FROM_ENV\n#error no environment options\n#endif\n"
                            "kernel void k(global int *o) { o[0] = FROM_ENV; }\n");
        BuildRequest req;
        req.devices = {selectDevice(platform.toStdString()).device};
        req.sourcePath = file.toStdString();
        qputenv("CLSCOPE_BUILD_OPTIONS", "-D FROM_ENV=3");
        const BuildResult r = buildProgram(req, BinaryCache());
        qunsetenv("CLSCOPE_BUILD_OPTIONS");
        QVERIFY2(r.success(), r.logs().front().log.c_str());
        QVERIFY(r.options().find("-D " + macro.toStdString()) != std::string::npos);
        QVERIFY(r.options().find("-D FROM_ENV=3") != std::string::npos);
        // The user's options apart: what another build of the program (the memory check's) starts from.
        QCOMPARE(r.userOptions(), std::string());
        req.options = "-D FROM_USER=1";
        qputenv("CLSCOPE_BUILD_OPTIONS", "-D FROM_ENV=3");
        const BuildResult user = buildProgram(req, BinaryCache());
        qunsetenv("CLSCOPE_BUILD_OPTIONS");
        QCOMPARE(user.userOptions(), std::string("-D FROM_USER=1"));
        // As pyopencl orders them: the user's, then the platform's defaults, then the environment's.
        const std::size_t userAt = user.options().find("-D FROM_USER=1");
        const std::size_t macroAt = user.options().find("-D " + macro.toStdString());
        QVERIFY2(userAt < macroAt && macroAt < user.options().find("-D FROM_ENV=3"), user.options().c_str());
        // pyopencl's variable works too, and Oclgrind defines pyopencl's macro as pyopencl does.
        writeFile(file, "#ifndef FROM_PYOPENCL\n#error no PYOPENCL_BUILD_OPTIONS\n#endif\n"
                        "#if defined(CLSCOPE_USING_OCLGRIND) != defined(PYOPENCL_USING_OCLGRIND)\n"
                        "#error PYOPENCL_USING_OCLGRIND\n#endif\n"
                        "kernel void k(global int *o) { o[0] = FROM_PYOPENCL; }\n");
        qputenv("PYOPENCL_BUILD_OPTIONS", "-D FROM_PYOPENCL=4");
        const BuildResult py = buildProgram(req, BinaryCache());
        qunsetenv("PYOPENCL_BUILD_OPTIONS");
        QVERIFY2(py.success(), py.logs().front().log.c_str());
        writeFile(file, "#ifndef " + macro.toLatin1() +
                            "\n#error no platform macro\n#endif\n"
                            "#ifndef FROM_ENV\n#error no environment options\n#endif\n"
                            "kernel void k(global int *o) { o[0] = FROM_ENV; }\n");
        req.options.clear();
        // Without the environment the #error fires: the options really reached the compiler.
        const BuildResult without = buildProgram(req, BinaryCache());
        QCOMPARE(without.status(), BuildStatus::Failure);
        QVERIFY(without.logs().front().log.find("no environment options") != std::string::npos);
    }

    void sourceFolderIsIncluded()
    {
        // good.cl includes "config.h" from its own folder with no -I given.
        const BuildRequest req = requestFor("pocl", "good.cl");
        const BuildResult r = buildProgram(req, BinaryCache());
        QVERIFY2(r.success(), r.logs().front().log.c_str());
        QVERIFY(r.options().find("-I " + std::string(CLSCOPE_TEST_DATA "/build")) != std::string::npos);
    }

    void inMemorySource()
    {
        BuildRequest req;
        req.devices = {selectDevice("oclgrind").device};
        req.source = "kernel void mem(global int *o) { o[0] = 1; }";
        const BuildResult r = buildProgram(req, BinaryCache());
        QVERIFY(r.success());
        QCOMPARE(r.kernels().front().name, std::string("mem"));
    }

    // The last copy hands the release to releaseOn (the GUI's device worker) instead of calling the
    // driver where it dies; the program stays valid until the release runs.
    void lastCopyReleasesThroughReleaseOn()
    {
        BuildRequest req;
        req.devices = {selectDevice("oclgrind").device};
        req.source = "kernel void mem(global int *o) { o[0] = 1; }";
        std::vector<std::function<void()>> handed;
        req.releaseOn = [&handed](std::function<void()> release) { handed.push_back(std::move(release)); };
        cl_program program = nullptr;
        {
            const BuildResult r = buildProgram(req, BinaryCache());
            QVERIFY(r.success());
            program = r.program();
            const BuildResult copy = r; // copies share the program: only the last one releases
        }
        QCOMPARE(handed.size(), std::size_t(1));
        cl_uint refs = 0;
        QCOMPARE(clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, nullptr),
                 CL_SUCCESS);
        QVERIFY(refs >= 1); // not released yet
        handed.front()();   // the worker's turn
        // Without releaseOn the result releases in place, as the CLI wants.
        req.releaseOn = nullptr;
        {
            const BuildResult r = buildProgram(req, BinaryCache());
            QVERIFY(r.success());
        }
        QCOMPARE(handed.size(), std::size_t(1));
    }

    // ---- Infrastructure and input errors -----------------------------------------------------------

    void errorsThatAreNotBuilds()
    {
        QVERIFY_THROWS_EXCEPTION(ClError, buildProgram(BuildRequest{}, BinaryCache())); // no device

        BuildRequest mixed = requestFor("pocl", "good.cl");
        mixed.devices.push_back(selectDevice("oclgrind").device);
        QVERIFY_THROWS_EXCEPTION(ClError, buildProgram(mixed, BinaryCache()));

        BuildRequest missing = requestFor("pocl", "good.cl");
        missing.sourcePath = dataPath("does-not-exist.cl");
        try {
            buildProgram(missing, BinaryCache());
            QFAIL("no exception");
        } catch (const BuildInputError &e) {
            QVERIFY2(std::string(e.what()).find("does-not-exist.cl") != std::string::npos, e.what());
        }

        BuildRequest nothing = requestFor("pocl", "good.cl");
        nothing.sourcePath.clear();
        QVERIFY_THROWS_EXCEPTION(BuildInputError, buildProgram(nothing, BinaryCache()));

        BuildRequest badQuote = requestFor("pocl", "good.cl", "-D 'x");
        QVERIFY_THROWS_EXCEPTION(BuildInputError, buildProgram(badQuote, BinaryCache()));
    }

    void spirvRefused_data() { argInfo_data(); }

    void spirvRefused()
    {
        QFETCH(QString, platform);
        const SelectedDevice dev = selectDevice(platform.toStdString());
        BuildRequest req;
        req.devices = {dev.device};
        const std::vector<unsigned char> il = {0x03, 0x02, 0x23,
                                               0x07}; // the SPIR-V magic number, little-endian
        try {
            buildProgramFromIL(req, il);
            QFAIL("no exception");
        } catch (const BuildInputError &e) {
            QCOMPARE(std::string(e.what()), "device " + dev.deviceName + " does not accept SPIR-V");
            QVERIFY(e.category() == ErrorCategory::Failure); // the input is fine: clscope-cli build exits 1
        }
    }

    // ---- Binaries ----------------------------------------------------------------------------------

    void fromBinaries_data() { argInfo_data(); }

    void fromBinaries()
    {
        QFETCH(QString, platform);
        const BuildRequest req = requestFor(platform.toLatin1().constData(), "args.cl");
        const BuildResult built = buildProgram(req, BinaryCache());
        QVERIFY(built.success());
        const auto binaries = programBinaries(built.program(), req.devices);
        QCOMPARE(binaries.size(), size_t(1));
        QVERIFY(!binaries.front().empty());

        BuildRequest again;
        again.devices = req.devices;
        again.source = readData(QStringLiteral("args.cl")).toStdString(); // for signatures only
        again.kernelArgInfo = false;
        const BuildResult r = buildProgramFromBinaries(again, binaries);
        QVERIFY2(r.success(), r.logs().front().log.c_str());
        QCOMPARE(r.kernels().size(), size_t(2));
        for (size_t i = 0; i < 2; ++i) {
            QVERIFY(r.kernels()[i].argInfo != ArgInfoSource::None);
            QCOMPARE(r.kernels()[i].args, built.kernels()[i].args);
        }

        // Garbage is a failed build that says why, not an exception.
        const std::vector<std::vector<unsigned char>> junk = {std::vector<unsigned char>(512, 0x5A)};
        const BuildResult bad = buildProgramFromBinaries(again, junk);
        QCOMPARE(bad.status(), BuildStatus::Failure);
        QVERIFY(!bad.logs().front().log.empty() || !bad.diagnostics().empty());
    }

    // ---- One program source (programsource.h) -----------------------------------------------------

    // The kinds' words are the capture format's, which the GUI's tabs keep too (they said "builtin" where
    // a capture says "built-in"); SPIR-V is told by its magic number even where a binary was declared (the
    // CLI's --binary built a module with clCreateProgramWithBinary, the GUI's tabs with ...WithIL).
    void programKinds()
    {
        for (ProgramKind k :
             {ProgramKind::Source, ProgramKind::Il, ProgramKind::Binary, ProgramKind::BuiltIns})
            QCOMPARE(parseProgramKind(programKindName(k)), std::optional<ProgramKind>(k));
        QCOMPARE(programKindName(ProgramKind::BuiltIns), std::string_view("built-in"));
        QCOMPARE(programKindName(ProgramKind::Il), std::string_view("il"));
        QCOMPARE(parseProgramKind("builtin"), std::nullopt);
        QCOMPARE(parseProgramKind("linked"), std::nullopt); // a capture's clLinkProgram: no one input
        QCOMPARE(parseProgramKind(""), std::nullopt);
        const std::vector<unsigned char> little = {0x03, 0x02, 0x23, 0x07, 0, 0};
        const std::vector<unsigned char> big = {0x07, 0x23, 0x02, 0x03};
        const std::vector<unsigned char> text = {'k', 'e', 'r', 'n', 'e', 'l'};
        for (ProgramKind otherwise : {ProgramKind::Source, ProgramKind::Binary}) {
            QCOMPARE(programFileKind(little, otherwise), ProgramKind::Il);
            QCOMPARE(programFileKind(big, otherwise), ProgramKind::Il);
            QCOMPARE(programFileKind(text, otherwise), otherwise);
            QCOMPARE(programFileKind({}, otherwise), otherwise);
            QCOMPARE(programFileKind(std::span(little).first(3), otherwise), otherwise);
        }
    }

    void everyKindBuilds_data() { argInfo_data(); }

    // buildProgramSource, which clscope-cli build/run and the GUI's Build both call: source through the
    // cache; a binary for every device of the request, whose own source is dropped (the driver describes
    // the kernels); SPIR-V (refused by these drivers, saying so); built-in kernels by name (a name the device
    // lacks: a failed build with a log, not an exception).
    void everyKindBuilds()
    {
        QFETCH(QString, platform);
        const BuildRequest req = requestFor(platform.toLatin1().constData(), "args.cl");
        const BuildResult built = buildProgramSource({}, req, BinaryCache());
        QVERIFY(built.success());
        QCOMPARE(built.kernels().size(), size_t(2));

        BuildRequest again;
        again.devices = req.devices;
        again.source = "this is not OpenCL C";
        const ProgramSource binary{
            ProgramKind::Binary, programBinaries(built.program(), req.devices).front(), {}};
        const BuildResult fromBinary = buildProgramSource(binary, again, BinaryCache());
        QVERIFY2(fromBinary.success(), fromBinary.logs().front().log.c_str());
        QCOMPARE(fromBinary.kernels().size(), size_t(2));

        const ProgramSource il{ProgramKind::Il, {0x03, 0x02, 0x23, 0x07}, {}};
        QVERIFY_THROWS_EXCEPTION(BuildInputError, buildProgramSource(il, again, BinaryCache()));

        const ProgramSource builtIns{ProgramKind::BuiltIns, {}, "no.such.kernel"};
        const BuildResult none = buildProgramSource(builtIns, again, BinaryCache());
        QVERIFY(!none.success());
        QVERIFY(!none.logs().empty());
    }

    // ---- Several devices ---------------------------------------------------------------------------

    void twoDevicesOneContext()
    {
        const auto devices = selectDevices("pocl");
        if (devices.size() < 2)
            QSKIP("PoCL did not expose two devices for POCL_DEVICES=\"pthread basic\"");
        QTemporaryDir tmp;
        const BinaryCache cache(tmp.path().toStdString());
        BuildRequest req = requestFor("pocl", "good.cl");
        req.devices = {devices[0].device, devices[1].device};
        const BuildResult miss = buildProgram(req, cache);
        QVERIFY2(miss.success(), miss.logs().front().log.c_str());
        QCOMPARE(miss.logs().size(), size_t(2));
        QCOMPARE(miss.logs()[0].device, devices[0].deviceName);
        QCOMPARE(miss.logs()[1].device, devices[1].deviceName);
        QCOMPARE(miss.kernels().front().workGroups.size(), size_t(2));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Files).size(), 2); // one entry per device
        const BuildResult hit = buildProgram(req, cache);
        QCOMPARE(hit.cache(), CacheState::Hit);
        QCOMPARE(hit.logs()[1].cache, CacheState::Hit);
        // One device's entry gone: the build is a miss as a whole.
        QFile::remove(QDir(tmp.path()).entryInfoList(QDir::Files).front().filePath());
        QCOMPARE(buildProgram(req, cache).cache(), CacheState::Miss);
    }
};

QTEST_GUILESS_MAIN(TestProgram)
#include "tst_program.moc"
