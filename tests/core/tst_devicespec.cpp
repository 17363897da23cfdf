// Device selection specs: parsing and matching over a fixed set of candidates (no OpenCL needed).
#include "clscope/deviceinfo.h"
#include "clscope/devicespec.h"

#include <QTest>

using namespace clscope;

namespace {
std::vector<DeviceCandidate> candidates()
{
    return {
        {0, 0, "NVIDIA CUDA", "NVIDIA Corporation", "NVIDIA H200", "NVIDIA Corporation", CL_DEVICE_TYPE_GPU,
         nullptr},
        {0, 1, "NVIDIA CUDA", "NVIDIA Corporation", "NVIDIA H200", "NVIDIA Corporation", CL_DEVICE_TYPE_GPU,
         nullptr},
        {1, 0, "Portable Computing Language", "The pocl project", "pthread-skylake-avx512-AMD EPYC",
         "AuthenticAMD", CL_DEVICE_TYPE_CPU, nullptr},
        {2, 0, "Oclgrind", "Oclgrind", "Oclgrind Simulator", "Oclgrind",
         CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_DEFAULT,
         nullptr},
    };
}

QString picks(const std::vector<size_t> &picked)
{
    const auto all = candidates();
    QStringList out;
    for (size_t i : picked)
        out << QStringLiteral("%1:%2").arg(all[i].platformIndex).arg(all[i].deviceIndex);
    return out.join(u' ');
}
InfoValue info(const char *param, RawValue value)
{
    const InfoParam *p = findParam(param);
    Q_ASSERT(p);
    return {p, std::move(value)};
}
} // namespace

class TestDeviceSpec : public QObject
{
    Q_OBJECT
private slots:
    void match_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("expected");
        QTest::newRow("default-prefers-gpu") << ""
                                             << "0:0";
        QTest::newRow("indices") << "0:1"
                                 << "0:1";
        QTest::newRow("platform-index") << "1"
                                        << "1:0";
        QTest::newRow("names") << "nvidia:h200"
                               << "0:0 0:1";
        QTest::newRow("names-case") << "NVIDIA:H200"
                                    << "0:0 0:1";
        QTest::newRow("list-and-alternative") << "0:0,1;pocl"
                                              << "0:0 0:1 1:0";
        QTest::newRow("platform-name") << "pocl"
                                       << "1:0";
        QTest::newRow("platform-vendor") << "pocl project"
                                         << "1:0";
        QTest::newRow("device-vendor") << ":authenticamd"
                                       << "1:0";
        QTest::newRow("type") << "gpu"
                              << "0:0 0:1 2:0";
        QTest::newRow("type-in-platform") << "oclgrind:cpu"
                                          << "2:0";
        QTest::newRow("no-dups") << "0:0;nvidia:0"
                                 << "0:0";
        QTest::newRow("spaces") << " 1 : 0 "
                                << "1:0";
        QTest::newRow("all") << " ALL "
                             << "0:0 0:1 1:0 2:0";
        QTest::newRow("nothing") << "amd:mi300"
                                 << "";
        QTest::newRow("index-out-of-range") << "0:7"
                                            << "";
    }
    void match()
    {
        QFETCH(QString, spec);
        QFETCH(QString, expected);
        QCOMPARE(picks(matchDeviceSpec(spec.toStdString(), candidates())), expected);
    }
    // pyopencl's variables as pyopencl reads them, on a platform of two devices (what tst_cli_devicechoice
    // cannot show on a machine whose platforms have one device each; the rules are pyopencl 2022.3's).
    void pyopenclForms_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("expected"); // "error" when pyopencl refuses it
        QTest::newRow("ctx-platform-only") << "PYOPENCL_CTX=0"
                                           << "0:0";
        QTest::newRow("ctx-device") << "PYOPENCL_CTX=0:1"
                                    << "0:1";
        QTest::newRow("ctx-device-list") << "PYOPENCL_CTX=0:1,0"
                                         << "0:1 0:0";
        QTest::newRow("ctx-names") << "PYOPENCL_CTX=nvidia:h200"
                                   << "0:0";
        // An index out of range is tried as a name: "2" is in "NVIDIA H200".
        QTest::newRow("ctx-index-as-name") << "PYOPENCL_CTX=0:2"
                                           << "0:0";
        QTest::newRow("ctx-negative") << "PYOPENCL_CTX=0:-1"
                                      << "error";
        // The last platform whose name matches wins ("o" is in "Portable ..." and in "Oclgrind").
        QTest::newRow("ctx-last-platform") << "PYOPENCL_CTX=o"
                                           << "2:0";
        // One device: the device answer is not taken, so it is left over.
        QTest::newRow("ctx-left-over") << "PYOPENCL_CTX=1:0"
                                       << "error";
        QTest::newRow("ctx-empty") << "PYOPENCL_CTX="
                                   << "0:0";
        QTest::newRow("ctx-no-platform") << "PYOPENCL_CTX=amd"
                                         << "error";
        QTest::newRow("test-platform") << "PYOPENCL_TEST=0"
                                       << "0:0 0:1";
        QTest::newRow("test-order") << "PYOPENCL_TEST=2;1"
                                    << "2:0 1:0";
        QTest::newRow("test-negative") << "PYOPENCL_TEST=-1:-1"
                                       << "2:0";
        QTest::newRow("test-vendor") << "PYOPENCL_TEST=pocl project"
                                     << "1:0";
        QTest::newRow("test-devices") << "PYOPENCL_TEST=nvidia:1,0"
                                      << "0:1 0:0";
        QTest::newRow("test-all") << "PYOPENCL_TEST="
                                  << "0:0 0:1 1:0 2:0";
        QTest::newRow("test-out-of-range") << "PYOPENCL_TEST=0:2"
                                           << "error";
        QTest::newRow("test-not-found") << "PYOPENCL_TEST=amd"
                                        << "error";
        QTest::newRow("test-syntax") << "PYOPENCL_TEST=0:0:0"
                                     << "error";
    }
    void pyopenclForms()
    {
        QFETCH(QString, spec);
        QFETCH(QString, expected);
        if (expected == QStringLiteral("error")) {
            QVERIFY_THROWS_EXCEPTION(DeviceSpecError, matchDeviceSpec(spec.toStdString(), candidates()));
            return;
        }
        QCOMPARE(picks(matchDeviceSpec(spec.toStdString(), candidates())), expected);
    }
    void pyopenclEnvironment()
    {
        qunsetenv("CLSCOPE_DEVICE");
        qputenv("PYOPENCL_CTX", "0:1");
        QCOMPARE(effectiveDeviceSpec(""), std::string("PYOPENCL_CTX=0:1"));
        qputenv("PYOPENCL_TEST", "");
        QCOMPARE(effectiveDeviceSpec(""), std::string("PYOPENCL_TEST=")); // set, even empty, it wins
        qputenv("CLSCOPE_DEVICE", "pocl");
        QCOMPARE(effectiveDeviceSpec(""), std::string("pocl"));
        QCOMPARE(effectiveDeviceSpec("1"), std::string("1"));
        for (const char *name : {"CLSCOPE_DEVICE", "PYOPENCL_CTX", "PYOPENCL_TEST"})
            qunsetenv(name);
    }
    void defaultWithoutGpu()
    {
        auto cpuOnly = candidates();
        cpuOnly.erase(cpuOnly.begin(), cpuOnly.begin() + 2);
        cpuOnly.pop_back();
        const auto picked = matchDeviceSpec("", cpuOnly);
        QCOMPARE(picked.size(), size_t(1));
        QCOMPARE(cpuOnly[picked[0]].platformName, std::string("Portable Computing Language"));
    }
    // Oclgrind says it is a GPU (it reports every device type) and comes first in /etc/OpenCL/vendors'
    // order (oclgrind.icd < pocl.icd); the default is still the real device.
    void defaultIsNeverTheSimulator()
    {
        auto noGpu = candidates();
        noGpu.erase(noGpu.begin(), noGpu.begin() + 2);
        std::swap(noGpu[0], noGpu[1]);
        const auto picked = matchDeviceSpec("", noGpu);
        QCOMPARE(picked.size(), size_t(1));
        QCOMPARE(noGpu[picked[0]].platformName, std::string("Portable Computing Language"));
        // Oclgrind alone is still a device to use.
        const auto alone = matchDeviceSpec("", {noGpu[0]});
        QCOMPARE(alone.size(), size_t(1));
    }
    void malformed_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::newRow("two-colons") << "0:1:2";
        QTest::newRow("empty-term") << "0:0;;pocl";
        QTest::newRow("empty-device") << "0:0,,1";
        QTest::newRow("trailing-semicolon") << "pocl;";
    }
    void malformed()
    {
        QFETCH(QString, spec);
        QVERIFY_THROWS_EXCEPTION(DeviceSpecError, parseDeviceSpec(spec.toStdString()));
    }
    void environment()
    {
        qputenv("CLSCOPE_DEVICE", "pocl");
        QCOMPARE(effectiveDeviceSpec(""), std::string("pocl"));
        QCOMPARE(effectiveDeviceSpec("0:1"), std::string("0:1"));
        qunsetenv("CLSCOPE_DEVICE");
        QCOMPARE(effectiveDeviceSpec(""), std::string());
    }

    // The one list of devices a spec, a launch, a replay or a comparison runs on (the GUI's device manager,
    // run on every device, replay on every device and `info --device` all take it): every device of the
    // snapshot in platform then device order, with its id; a platform whose devices could not be listed
    // adds none. The names list and label are what errors and tables show.
    void candidatesOfASnapshot()
    {
        SystemSnapshot snap;
        PlatformSnapshot nvidia;
        nvidia.index = 0;
        nvidia.values = {info("CL_PLATFORM_NAME", std::string("NVIDIA CUDA")),
                         info("CL_PLATFORM_VENDOR", std::string("NVIDIA Corporation"))};
        for (int i = 0; i < 2; ++i) {
            DeviceSnapshot d;
            d.index = i;
            d.id = reinterpret_cast<cl_device_id>(std::uintptr_t(0x100 + i));
            d.values = {info("CL_DEVICE_NAME", std::string("NVIDIA H200")),
                        info("CL_DEVICE_VENDOR", std::string("NVIDIA Corporation")),
                        info("CL_DEVICE_TYPE", std::uint64_t(CL_DEVICE_TYPE_GPU))};
            nvidia.devices.push_back(d);
        }
        PlatformSnapshot broken;
        broken.index = 1;
        broken.values = {info("CL_PLATFORM_NAME", std::string("Broken"))};
        broken.error = "clGetDeviceIDs failed: OUT_OF_HOST_MEMORY";
        PlatformSnapshot pocl;
        pocl.index = 2;
        pocl.values = {info("CL_PLATFORM_NAME", std::string("Portable Computing Language")),
                       info("CL_PLATFORM_VENDOR", std::string("The pocl project"))};
        DeviceSnapshot cpu;
        cpu.id = reinterpret_cast<cl_device_id>(std::uintptr_t(0x200));
        cpu.values = {info("CL_DEVICE_NAME", std::string("cpu")),
                      info("CL_DEVICE_TYPE", std::uint64_t(CL_DEVICE_TYPE_CPU))};
        pocl.devices.push_back(cpu);
        snap.platforms = {nvidia, broken, pocl};

        const std::vector<DeviceCandidate> c = deviceCandidates(snap);
        QCOMPARE(c.size(), std::size_t(3));
        QCOMPARE(c[1].platformIndex, 0);
        QCOMPARE(c[1].deviceIndex, 1);
        QCOMPARE(c[1].id, nvidia.devices[1].id);
        QCOMPARE(c[1].platformVendor, std::string("NVIDIA Corporation"));
        QCOMPARE(c[1].deviceVendor, std::string("NVIDIA Corporation"));
        QCOMPARE(c[1].type, cl_device_type(CL_DEVICE_TYPE_GPU));
        QCOMPARE(c[2].platformIndex, 2);
        QCOMPARE(c[2].id, cpu.id);
        QCOMPARE(c[2].deviceVendor, std::string()); // not given: empty, as the device tree shows it
        // What a spec selects from it: the default is the first GPU, "pocl" the CPU.
        QCOMPARE(matchDeviceSpec("", c), std::vector<size_t>{0});
        QCOMPARE(matchDeviceSpec("pocl", c), std::vector<size_t>{2});
        QCOMPARE(candidateList(c),
                 std::string("0:0 NVIDIA CUDA / NVIDIA H200, 0:1 NVIDIA CUDA / NVIDIA H200, "
                             "2:0 Portable Computing Language / cpu"));
        QCOMPARE(candidateList({}), std::string("none"));
        QCOMPARE(candidateLabel(c[2]), std::string("cpu — Portable Computing Language"));
        QVERIFY(deviceCandidates(SystemSnapshot{}).empty());
    }
};

QTEST_APPLESS_MAIN(TestDeviceSpec)
#include "tst_devicespec.moc"
