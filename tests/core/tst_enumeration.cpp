// Enumeration on real drivers: PoCL and Oclgrind through a private vendors folder that also holds
// broken ICD entries, which must not hide the working platforms.
#include "clscope/deviceinfo.h"
#include "clscope/devicespec.h"
#include "clscope/error.h"
#include "testicd.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace clscope;

class TestEnumeration : public QObject
{
    Q_OBJECT
    QTemporaryDir m_vendors;
    SystemSnapshot m_snap;

    const PlatformSnapshot *platform(std::string_view needle) const
    {
        for (const auto &p : m_snap.platforms) {
            if (p.name().find(needle) != std::string::npos)
                return &p;
        }
        return nullptr;
    }

private slots:
    // Issue 17 "clear errors": a driver's text that is not UTF-8 (an error string, a name) used to make
    // dump() throw, so `info --json` printed nothing. It is replaced, and the document stays valid.
    void invalidUtf8FromDriversStaysValidJson()
    {
        SystemSnapshot snap;
        snap.platforms.emplace_back();
        snap.platforms.back().error = "clGetDeviceIDs failed: \xff\xfe driver text";
        snap.error = "loader says \xc3";
        QJsonParseError error;
        const QJsonDocument doc =
            QJsonDocument::fromJson(QByteArray::fromStdString(snapshotToJson(snap)), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QVERIFY(doc.object()
                    .value(QStringLiteral("platforms"))
                    .toArray()
                    .first()
                    .toObject()
                    .contains(QStringLiteral("error")));
    }

    void initTestCase()
    {
        QVERIFY(m_vendors.isValid());
        if (!test::setUpVendors(m_vendors))
            QSKIP("PoCL or Oclgrind is not installed (packaging/install-deps.sh installs both)");
        m_snap = takeSnapshot();
    }

    void bothPlatformsDespiteBrokenIcds()
    {
        QVERIFY2(m_snap.error.empty(), m_snap.error.c_str());
        QCOMPARE(m_snap.platforms.size(), size_t(2));
        QVERIFY(platform("Portable Computing Language"));
        QVERIFY(platform("Oclgrind"));
        for (const auto &p : m_snap.platforms) {
            QVERIFY2(p.error.empty(), p.error.c_str());
            QCOMPARE(p.devices.size(), size_t(1));
        }
    }

    void platformValues()
    {
        const auto *pocl = platform("Portable");
        QVERIFY(pocl);
        QCOMPARE(pocl->version().major, 3);
        QCOMPARE(pocl->string("CL_PLATFORM_PROFILE"), std::string("FULL_PROFILE"));
        QCOMPARE(pocl->string("CL_PLATFORM_ICD_SUFFIX_KHR"), std::string("POCL"));
        const InfoValue *numeric = pocl->find("CL_PLATFORM_NUMERIC_VERSION");
        QVERIFY(numeric && numeric->supported());
        QCOMPARE(numeric->display(), std::string("3.0.0"));
        const auto *oclgrind = platform("Oclgrind");
        QCOMPARE(oclgrind->version().asNumber(), 120);
        // A 1.2 platform is not asked for 2.1/3.0 parameters at all.
        const InfoValue *timer = oclgrind->find("CL_PLATFORM_HOST_TIMER_RESOLUTION");
        QVERIFY(timer && !timer->supported());
    }

    void deviceValues()
    {
        const DeviceSnapshot &dev = platform("Portable")->devices.front();
        QVERIFY(!dev.name().empty());
        QVERIFY(dev.integer("CL_DEVICE_TYPE") & CL_DEVICE_TYPE_CPU);
        QVERIFY(dev.integer("CL_DEVICE_MAX_COMPUTE_UNITS") >= 1);
        const InfoValue *sizes = dev.find("CL_DEVICE_MAX_WORK_ITEM_SIZES");
        QVERIFY(sizes && std::holds_alternative<std::vector<std::uint64_t>>(sizes->value));
        QCOMPARE(std::get<std::vector<std::uint64_t>>(sizes->value).size(), size_t(3));
        QVERIFY(sizes->display().find("×") != std::string::npos);
        const InfoValue *fp = dev.find("CL_DEVICE_SINGLE_FP_CONFIG");
        // In words for a person, the CL_* names beside them.
        QVERIFY(fp && fp->display().find("INF and NaN") != std::string::npos);
        QVERIFY(fp->symbolic().find("CL_FP_INF_NAN") != std::string::npos);
        QVERIFY(dev.find("CL_DEVICE_TYPE")->display().find("CPU") != std::string::npos);
        QVERIFY(dev.find("CL_DEVICE_TYPE")->display().find("CL_") == std::string::npos);
        const InfoValue *mem = dev.find("CL_DEVICE_GLOBAL_MEM_SIZE");
        QVERIFY(mem && mem->display().find("iB") != std::string::npos);
        const InfoValue *exts = dev.find("CL_DEVICE_EXTENSIONS_WITH_VERSION");
        QVERIFY(exts && std::holds_alternative<std::vector<NameVersion>>(exts->value));
        QVERIFY(!std::get<std::vector<NameVersion>>(exts->value).empty());
        QVERIFY(dev.kernelPreferredWorkGroupSizeMultiple.has_value());
        QVERIFY(!dev.imageFormats.empty());
        bool sawRgbaFloat = false;
        for (const auto &set : dev.imageFormats) {
            for (const auto &f : set.formats)
                sawRgbaFloat |= f.image_channel_order == CL_RGBA && f.image_channel_data_type == CL_FLOAT;
        }
        QVERIFY(sawRgbaFloat);
    }

    void oclgrindDevice()
    {
        const DeviceSnapshot &dev = platform("Oclgrind")->devices.front();
        QCOMPARE(dev.name(), std::string("Oclgrind Simulator"));
        QCOMPARE(dev.version().asNumber(), 120);
        // The 1.x name of the queue properties is reported on a 1.2 device.
        const InfoValue *queue = dev.find("CL_DEVICE_QUEUE_PROPERTIES");
        QVERIFY(queue && queue->supported());
        QVERIFY(queue->display().find("Profiling") != std::string::npos);
        QVERIFY(queue->symbolic().find("CL_QUEUE_PROFILING_ENABLE") != std::string::npos);
    }

    void rejectedParameterIsUnsupported()
    {
        const DeviceSnapshot &dev = platform("Portable")->devices.front();
        // A parameter id no driver knows: the answer is "unsupported", never an exception.
        static constexpr InfoParam bogus{0x7fff, "CL_DEVICE_BOGUS", "Bogus", ValueKind::Integer,
                                         InfoGroup::Vendor};
        const InfoValue v = queryDeviceParam(dev.id, bogus);
        QVERIFY(!v.supported());
        QCOMPARE(std::get<Unsupported>(v.value).error, CL_INVALID_VALUE);
        QVERIFY(v.display().find("unsupported") != std::string::npos);
    }

    void selection()
    {
        QCOMPARE(selectDevice("oclgrind").deviceName, std::string("Oclgrind Simulator"));
        QVERIFY(selectDevice("pocl:cpu").platformName.find("Portable") != std::string::npos);
        QCOMPARE(selectDevices("0:0;1:0").size(), size_t(2));
        try {
            selectDevice("nvidia:h200");
            QFAIL("expected no match");
        } catch (const DeviceSpecError &e) {
            const QString msg = QString::fromUtf8(e.what());
            QVERIFY2(msg.contains(QStringLiteral("no OpenCL device matches 'nvidia:h200'")), qPrintable(msg));
            QVERIFY(msg.contains(QStringLiteral("Oclgrind Simulator")));
        }
    }

    void jsonIsValidAndComplete()
    {
        const QByteArray json = QByteArray::fromStdString(snapshotToJson(m_snap));
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
        QCOMPARE(err.error, QJsonParseError::NoError);
        const QJsonArray platforms = doc.object().value(QStringLiteral("platforms")).toArray();
        QCOMPARE(platforms.size(), 2);
        for (const auto &p : platforms) {
            const QJsonObject po = p.toObject();
            QVERIFY(po.value(QStringLiteral("CL_PLATFORM_NAME")).isString());
            const QJsonObject dev = po.value(QStringLiteral("devices")).toArray().first().toObject();
            QVERIFY(dev.value(QStringLiteral("CL_DEVICE_MAX_WORK_ITEM_SIZES")).isArray());
            QVERIFY(dev.value(QStringLiteral("CL_DEVICE_AVAILABLE")).isBool());
            QVERIFY(dev.value(QStringLiteral("CL_DEVICE_TYPE")).isDouble());
        }
    }
};

QTEST_APPLESS_MAIN(TestEnumeration)
#include "tst_enumeration.moc"
