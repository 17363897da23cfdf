// The driver probe and the bounded readers (docs/reliability.md, item 7): which drivers the loader would
// load for each form of OCL_ICD_VENDORS, OPENCL_VENDOR_PATH and OCL_ICD_FILENAMES; the broken drivers of
// tests/icd/fakeicd.c probed in children, all at once within one time limit (crashed, hung, kept); sizes
// over the limits refused without allocating; and, in this process, a snapshot beside the lying driver,
// whose absurd answers are errors of its values and its platform instead of a std::bad_alloc.
#include "clscope/clquery.h"
#include "clscope/deviceinfo.h"
#include "clscope/devicespec.h"
#include "clscope/icdprobe.h"
#include "testicd.h"

#include <QElapsedTimer>
#include <QTest>

#include <sys/stat.h>

#include <csignal>

using namespace clscope;
using namespace std::chrono_literals;

namespace {

std::string str(const QString &s)
{
    return s.toStdString();
}

QStringList files(const std::vector<IcdEntry> &entries)
{
    QStringList out;
    for (const IcdEntry &e : entries)
        out << QString::fromStdString(e.file) + u'|' + QString::fromStdString(e.library) +
                   (e.fromFilenames ? QStringLiteral("|filenames") : QString()) +
                   (e.unreadable.empty() ? QString() : u'|' + QString::fromStdString(e.unreadable));
    return out;
}

const PlatformSnapshot *platform(const SystemSnapshot &snap, std::string_view needle)
{
    for (const auto &p : snap.platforms) {
        if (p.name().find(needle) != std::string::npos)
            return &p;
    }
    return nullptr;
}

} // namespace

class TestIcdProbe : public QObject
{
    Q_OBJECT
    QTemporaryDir m_tmp;
    QString m_folder; // a.icd, b.icd, an empty .icd, a folder named .icd, a FIFO named .icd, a .txt
    QString m_empty;  // no .icd at all

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        if (!QFile::exists(QStringLiteral("/etc/OpenCL/vendors/pocl.icd")))
            QSKIP("PoCL is not installed (packaging/install-deps.sh installs it)");
        // This process's loader: PoCL and the lying driver, read in-process by snapshotBesideALyingDriver.
        const QDir vendors(m_tmp.filePath(QStringLiteral("vendors")));
        QVERIFY(QDir().mkpath(vendors.path()));
        QVERIFY(test::writePoclAnd(vendors, {{QStringLiteral("lying.icd"), test::fakeIcd("lying")}}));
        qputenv("OCL_ICD_VENDORS", vendors.path().toLocal8Bit());
        qunsetenv("OPENCL_VENDOR_PATH");
        qunsetenv("OCL_ICD_FILENAMES");

        m_folder = m_tmp.filePath(QStringLiteral("forms"));
        m_empty = m_tmp.filePath(QStringLiteral("empty"));
        QVERIFY(QDir().mkpath(m_folder) && QDir().mkpath(m_empty));
        const QDir f(m_folder);
        QVERIFY(test::writeIcd(f, QStringLiteral("b.icd"), "/abs/libb.so\r"));
        QVERIFY(test::writeIcd(f, QStringLiteral("a.icd"), "liba.so"));
        QFile empty(f.filePath(QStringLiteral("empty.icd")));
        QVERIFY(empty.open(QIODevice::WriteOnly));
        QVERIFY(f.mkdir(QStringLiteral("folder.icd")));
        QVERIFY(test::writeIcd(f, QStringLiteral("notes.txt"), "libnotes.so"));
        QCOMPARE(::mkfifo(f.filePath(QStringLiteral("fifo.icd")).toLocal8Bit().constData(), 0600), 0);
    }

    // ocl-icd's rules. A FIFO would block the loader: it is listed as unreadable (and skipped unprobed).
    void loaderIcds_data()
    {
        QTest::addColumn<QStringList>("environment");
        QTest::addColumn<QStringList>("expected"); // file|library[|filenames][|unreadable]
        const QString a = m_folder + QStringLiteral("/a.icd|liba.so");
        const QString b = m_folder + QStringLiteral("/b.icd|/abs/libb.so");
        const QString fifo = m_folder + QStringLiteral("/fifo.icd||not a regular file (a FIFO)");
        QTest::newRow("a folder") << QStringList{QStringLiteral("OCL_ICD_VENDORS=") + m_folder}
                                  << QStringList{a, b, fifo};
        QTest::newRow("OPENCL_VENDOR_PATH")
            << QStringList{QStringLiteral("OPENCL_VENDOR_PATH=") + m_folder} << QStringList{a, b, fifo};
        QTest::newRow("an .icd file")
            << QStringList{QStringLiteral("OCL_ICD_VENDORS=") + m_folder + QStringLiteral("/b.icd")}
            << QStringList{b};
        QTest::newRow("a bare .icd name") << QStringList{QStringLiteral("OCL_ICD_VENDORS=a.icd"),
                                                         QStringLiteral("OPENCL_VENDOR_PATH=") + m_folder}
                                          << QStringList{a};
        QTest::newRow("a library") << QStringList{QStringLiteral("OCL_ICD_VENDORS=/x/libfoo.so")}
                                   << QStringList{QStringLiteral("/x/libfoo.so|/x/libfoo.so")};
        QTest::newRow("OCL_ICD_FILENAMES")
            << QStringList{QStringLiteral("OCL_ICD_VENDORS=") + m_empty,
                           QStringLiteral("OCL_ICD_FILENAMES=/a/x.so::/b/y.so")}
            << QStringList{QStringLiteral("/a/x.so|/a/x.so|filenames"),
                           QStringLiteral("/b/y.so|/b/y.so|filenames")};
    }
    void loaderIcds()
    {
        QFETCH(QStringList, environment);
        QFETCH(QStringList, expected);
        std::vector<std::string> env;
        for (const QString &e : environment)
            env.push_back(str(e));
        QCOMPARE(files(clscope::loaderIcds(env)), expected);
    }

    void loaderIcdsKeepTheFileAsItIs()
    {
        const auto entries = clscope::loaderIcds({"OCL_ICD_VENDORS=" + str(m_folder) + "/b.icd"});
        QCOMPARE(entries.size(), size_t(1));
        QCOMPARE(entries[0].text, std::string("/abs/libb.so\r\n")); // the loader gets exactly these bytes
        const auto system = clscope::loaderIcds({});
        QVERIFY(std::any_of(system.begin(), system.end(),
                            [](const IcdEntry &e) { return e.file == "/etc/OpenCL/vendors/pocl.icd"; }));
    }

    // Every driver in a child of its own, all at once: two hung ones cost one time limit, not two.
    void probeOutcomes()
    {
        std::vector<IcdEntry> icds;
        const auto add = [&](const QByteArray &library) {
            const std::string lib = library.toStdString();
            icds.push_back({lib + ".icd", lib, lib + "\n", false});
        };
        add(QByteArray("libpocl.so.2"));
        for (const char *mode :
             {"crash-platforms", "hang-platforms", "crash-deviceinfo", "hang-deviceinfo", "lying"})
            add(test::fakeIcd(mode));
        add("/nonexistent/libOpenCL-broken.so");
        icds.push_back(clscope::loaderIcds({"OCL_ICD_VENDORS=" + str(m_folder) + "/fifo.icd"}).at(0));

        QElapsedTimer clock;
        clock.start();
        const std::chrono::milliseconds limit = std::chrono::seconds(test::kProbeTimeoutSeconds);
        const auto probes = probeIcds(icds, {"PATH=/usr/bin:/bin"}, {CLSCOPE_CLI_PATH, limit});
        const qint64 ms = clock.elapsed();
        QCOMPARE(probes.size(), icds.size());
        const std::vector<ProbeOutcome> expected{
            ProbeOutcome::Ok,   ProbeOutcome::Crashed, ProbeOutcome::Hung, ProbeOutcome::Crashed,
            ProbeOutcome::Hung, ProbeOutcome::Ok,      ProbeOutcome::Ok,   ProbeOutcome::Failed};
        for (size_t i = 0; i < probes.size(); ++i) {
            QVERIFY2(probes[i].outcome == expected[i],
                     qPrintable(QStringLiteral("%1: outcome %2, %3 %4")
                                    .arg(QString::fromStdString(icds[i].library))
                                    .arg(int(probes[i].outcome))
                                    .arg(QString::fromStdString(probes[i].detail),
                                         QString::fromStdString(probes[i].summary))));
        }
        // The child sees its own driver only: PoCL's probe finds one platform, not this process's two.
        QCOMPARE(probes[0].summary, std::string("1 platform, 1 device"));
        QCOMPARE(probes[5].summary, std::string("2 platforms, 1 device"));
        QCOMPARE(probes[6].summary, std::string("0 platforms, 0 devices"));
        QCOMPARE(probes[1].signal, SIGSEGV);
        QCOMPARE(probes[3].signal, SIGSEGV);
        QCOMPARE(probes[1].message(), "the OpenCL driver " + icds[1].file + " (" + icds[1].library +
                                          ") crashed (SIGSEGV) while listing its devices; it was skipped");
        QCOMPARE(probes[2].reason(),
                 "did not answer within " + std::to_string(test::kProbeTimeoutSeconds) + " s");
        QCOMPARE(probes[7].message(),
                 "the OpenCL driver file " + str(m_folder) +
                     "/fifo.icd cannot be read (not a regular file (a FIFO)); it was skipped");
        for (size_t i : {0, 5, 6})
            QVERIFY(!probes[i].skipped() && probes[i].message().empty());
        QVERIFY2(ms < limit.count() + 8000, qPrintable(QString::number(ms)));
    }

    void probeWithoutAnExecutable()
    {
        const auto probes = probeIcds({{"pocl.icd", "libpocl.so.2", "libpocl.so.2\n", false}}, {},
                                      {"/nonexistent/clscope-cli", 1000ms});
        QCOMPARE(probes.size(), size_t(1));
        QVERIFY(probes[0].outcome == ProbeOutcome::NotRun && !probes[0].skipped());
        QCOMPARE(probes[0].detail,
                 std::string("cannot run the probe /nonexistent/clscope-cli: No such file or directory"));
    }

    void probeTimeoutFromTheEnvironment()
    {
        QCOMPARE(probeTimeout({}), kDefaultProbeTimeout);
        QCOMPARE(probeTimeout({"CLSCOPE_ICD_PROBE_TIMEOUT=0.5"}), 500ms);
        QCOMPARE(probeTimeout({"CLSCOPE_ICD_PROBE_TIMEOUT=3"}), 3000ms);
        for (const char *bad : {"CLSCOPE_ICD_PROBE_TIMEOUT=abc", "CLSCOPE_ICD_PROBE_TIMEOUT=-1",
                                "CLSCOPE_ICD_PROBE_TIMEOUT=0", "CLSCOPE_ICD_PROBE_TIMEOUT=2s"})
            QCOMPARE(probeTimeout({bad}), kDefaultProbeTimeout);
    }

    // The size comes first; over the limit, the value is never asked for and nothing is allocated.
    void boundedReads()
    {
        int reads = 0;
        const auto liar = [&](size_t size, void *value, size_t *ret) {
            if (value) {
                ++reads;
                return CL_INVALID_VALUE;
            }
            (void)size;
            *ret = SIZE_MAX / 2;
            return CL_SUCCESS;
        };
        const InfoBytes big = readInfoBytes(liar, kMaxInfoStringBytes);
        QVERIFY(big.tooLarge() && !big.ok() && big.bytes.empty());
        QCOMPARE(reads, 0);
        QCOMPARE(big.refusal("CL_DEVICE_NAME"),
                 std::string("the driver reports 9223372036854775807 bytes for CL_DEVICE_NAME, more than the "
                             "65536 CLScope accepts"));

        const auto honest = [](size_t size, void *value, size_t *ret) {
            static const char text[] = "PoCL\0\0";
            if (value) {
                if (size < sizeof text)
                    return CL_INVALID_VALUE;
                std::memcpy(value, text, sizeof text);
            }
            if (ret)
                *ret = sizeof text;
            return CL_SUCCESS;
        };
        const InfoBytes small = readInfoBytes(honest, kMaxInfoStringBytes);
        QVERIFY(small.ok());
        QCOMPARE(small.text(), std::string("PoCL"));
        QVERIFY(!readInfoBytes(honest, 4).ok()); // 7 bytes against a limit of 4

        const auto rejects = [](size_t, void *, size_t *) { return CL_INVALID_VALUE; };
        QCOMPARE(readInfoBytes(rejects, 10).error, CL_INVALID_VALUE);

        try {
            checkReported(1000000000, kMaxDevices, "CL_CONTEXT_NUM_DEVICES", "devices");
            QFAIL("no InfoLimitError");
        } catch (const InfoLimitError &e) {
            QCOMPARE(std::string(e.what()),
                     std::string("the driver reports 1000000000 devices for "
                                 "CL_CONTEXT_NUM_DEVICES, more than the 1024 CLScope accepts"));
        }
        QCOMPARE(checkReported(3, kMaxDevices, "x", "devices"), size_t(3));
    }

    // In this process (no probe: the lying driver does not crash, it lies): every absurd size is an
    // error of its value or platform. Before, the first one was a std::bad_alloc (or a billion devices).
    void snapshotBesideALyingDriver()
    {
        const SystemSnapshot snap = takeSnapshot({.imageFormats = false, .kernelProbe = false});
        QVERIFY2(snap.error.empty(), snap.error.c_str());
        const PlatformSnapshot *pocl = platform(snap, "Portable Computing Language");
        QVERIFY(pocl && pocl->devices.size() == 1);
        const PlatformSnapshot *devices = platform(snap, "Fake lying platform (devices)");
        QVERIFY(devices && devices->devices.empty());
        QCOMPARE(devices->error,
                 std::string("the driver reports 1000000000 devices for clGetDeviceIDs, more than "
                             "the 1024 CLScope accepts"));
        const PlatformSnapshot *sizes = platform(snap, "Fake lying platform (sizes)");
        QVERIFY(sizes && sizes->devices.size() == 1);
        QCOMPARE(refusedValues(sizes->values).size(), size_t(1));
        const DeviceSnapshot &dev = sizes->devices[0];
        QCOMPARE(dev.name(), std::string("Fake lying device"));
        QStringList refused;
        for (const InfoValue *v : refusedValues(dev.values))
            refused << QString::fromUtf8(v->param->name.data(), qsizetype(v->param->name.size()));
        QCOMPARE(refused, (QStringList{QStringLiteral("CL_DEVICE_VENDOR"),
                                       QStringLiteral("CL_DEVICE_MAX_COMPUTE_UNITS"),
                                       QStringLiteral("CL_DEVICE_MAX_WORK_ITEM_SIZES"),
                                       QStringLiteral("CL_DEVICE_EXTENSIONS")}));
        const InfoValue *vendor = dev.find("CL_DEVICE_VENDOR");
        QVERIFY(vendor && !vendor->supported());
        QCOMPARE(vendor->display(), std::string("not read: the driver reports 9223372036854775807 bytes for "
                                                "CL_DEVICE_VENDOR, more than the 65536 CLScope accepts"));
        QCOMPARE(dev.string("CL_DEVICE_VENDOR"), std::string());

        // Device choice reads the same answers through the same readers.
        std::vector<DeviceCandidate> candidates;
        const auto all = listDevices(&candidates);
        QVERIFY(std::any_of(candidates.begin(), candidates.end(), [](const DeviceCandidate &c) {
            return c.deviceName == "Fake lying device" && c.deviceVendor.empty();
        }));
        QVERIFY(!selectDevice("pocl").deviceName.empty());
        // A string the code must have is an InfoLimitError naming it, not an allocation.
        cl_device_id liar = nullptr;
        for (const auto &s : all) {
            if (s.deviceName == "Fake lying device")
                liar = s.device;
        }
        QVERIFY(liar);
        QCOMPARE(deviceString(liar, CL_DEVICE_VENDOR), std::string());
        try {
            deviceInfoString(liar, CL_DEVICE_VENDOR, "CL_DEVICE_VENDOR");
            QFAIL("no InfoLimitError");
        } catch (const InfoLimitError &e) {
            QVERIFY(std::string(e.what()).find("9223372036854775807 bytes for CL_DEVICE_VENDOR") !=
                    std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TestIcdProbe)
#include "tst_icdprobe.moc"
