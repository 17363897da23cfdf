// Device selection specs: parsing and matching over a fixed set of candidates (no OpenCL needed).
#include "clscope/devicespec.h"

#include <QTest>

using namespace clscope;

namespace {
std::vector<DeviceCandidate> candidates()
{
    return {
        {0, 0, "NVIDIA CUDA", "NVIDIA Corporation", "NVIDIA H200", "NVIDIA Corporation", CL_DEVICE_TYPE_GPU},
        {0, 1, "NVIDIA CUDA", "NVIDIA Corporation", "NVIDIA H200", "NVIDIA Corporation", CL_DEVICE_TYPE_GPU},
        {1, 0, "Portable Computing Language", "The pocl project", "pthread-skylake-avx512-AMD EPYC",
         "AuthenticAMD", CL_DEVICE_TYPE_CPU},
        {2, 0, "Oclgrind", "Oclgrind", "Oclgrind Simulator", "Oclgrind",
         CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_DEFAULT},
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
};

QTEST_APPLESS_MAIN(TestDeviceSpec)
#include "tst_devicespec.moc"
