// The device tree model: structure checked by QAbstractItemModelTester, contents by a text snapshot of a
// hand-made system snapshot (so the expected text does not depend on this machine's CPU).
#include "models/devicefilterproxy.h"
#include "models/devicetreemodel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace clscope;
using namespace clscope::ui;

namespace {
InfoValue value(std::string_view name, RawValue v)
{
    const InfoParam *p = findParam(name);
    Q_ASSERT_X(p, "findParam", std::string(name).c_str());
    return {p, std::move(v)};
}

std::shared_ptr<const SystemSnapshot> makeSnapshot(std::vector<InfoValue> extra = {})
{
    SystemSnapshot s;
    PlatformSnapshot p;
    p.index = 0;
    p.values = {value("CL_PLATFORM_NAME", std::string("Test Platform")),
                value("CL_PLATFORM_VENDOR", std::string("CLScope")),
                value("CL_PLATFORM_VERSION", std::string("OpenCL 3.0 test")),
                value("CL_PLATFORM_HOST_TIMER_RESOLUTION", Unsupported{CL_SUCCESS})};
    DeviceSnapshot d;
    d.index = 0;
    d.values = {
        value("CL_DEVICE_NAME", std::string("Test Device")),
        value("CL_DEVICE_VERSION", std::string("OpenCL 3.0 test")),
        value("CL_DEVICE_TYPE", std::uint64_t{CL_DEVICE_TYPE_GPU}),
        value("CL_DEVICE_MAX_COMPUTE_UNITS", std::uint64_t{132}),
        value("CL_DEVICE_MAX_CLOCK_FREQUENCY", std::uint64_t{1980}),
        value("CL_DEVICE_MAX_WORK_ITEM_SIZES", std::vector<std::uint64_t>{1024, 1024, 64}),
        value("CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE", std::uint64_t{32}),
        value("CL_DEVICE_SINGLE_FP_CONFIG", std::uint64_t{CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_FMA}),
        value("CL_DEVICE_GLOBAL_MEM_SIZE", std::uint64_t{150ull << 30}),
        value("CL_DEVICE_LOCAL_MEM_TYPE", std::uint64_t{CL_LOCAL}),
        value("CL_DEVICE_SVM_CAPABILITIES", Unsupported{CL_INVALID_VALUE}),
        value("CL_DEVICE_IMAGE_SUPPORT", false),
    };
    for (InfoValue &v : extra) {
        std::erase_if(d.values, [&v](const InfoValue &old) { return old.param == v.param; });
        d.values.push_back(std::move(v));
    }
    // The model groups consecutive rows; keep them in table order like a real snapshot.
    std::stable_sort(d.values.begin(), d.values.end(), [](const InfoValue &a, const InfoValue &b) {
        const auto all = deviceParams();
        auto pos = [&](const InfoParam *p) { return p - all.data(); };
        return pos(a.param) < pos(b.param);
    });
    d.kernelPreferredWorkGroupSizeMultiple = 32;
    p.devices.push_back(std::move(d));
    s.platforms.push_back(std::move(p));
    return std::make_shared<const SystemSnapshot>(std::move(s));
}
} // namespace

class TestDeviceTreeModel : public QObject
{
    Q_OBJECT
private slots:
    void modelTester()
    {
        DeviceTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(makeSnapshot());
        model.setSnapshot(nullptr);
        model.setSnapshot(makeSnapshot());
        QSortFilterProxyModel proxy;
        proxy.setRecursiveFilteringEnabled(true);
        proxy.setFilterKeyColumn(-1);
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setFilterFixedString(QStringLiteral("compute"));
        proxy.setFilterFixedString(QString());
    }

    void textSnapshot()
    {
        DeviceTreeModel model;
        model.setSnapshot(makeSnapshot());
        const QString text = modelToText(model);
        const QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
        // Platform -> its own group -> device -> parameter groups, values human-formatted.
        QCOMPARE(lines.value(0), QStringLiteral("Test Platform\tOpenCL 3.0 test"));
        QCOMPARE(lines.value(1), QStringLiteral("  Platform"));
        QVERIFY(lines.value(2).startsWith(QStringLiteral("    ")));
        QVERIFY2(text.contains(QStringLiteral("  Test Device\tOpenCL 3.0 test\n")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("\t1024×1024×64\n")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("\t150 GiB\n")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("\t1980 MHz\n")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("\tGPU\n")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("\tDenormals | INF and NaN | FMA\n")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("\tLocal\n")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("CL_DEVICE_TYPE")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("unsupported (CL_INVALID_VALUE)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Preferred work-group size multiple (kernel)\t32")),
                 qPrintable(text));
        // Not queried (version gate) rows are not shown at all.
        QVERIFY(!text.contains(QStringLiteral("not available")));
        for (const char *group : {"    General", "    Compute", "    Memory", "    Images"})
            QVERIFY2(text.contains(QString::fromLatin1(group) + u'\n'), group);
    }

    void rolesAndTooltips()
    {
        DeviceTreeModel model;
        model.setSnapshot(makeSnapshot());
        const QModelIndex device = model.deviceIndex(0, 0);
        QVERIFY(device.isValid());
        QCOMPARE(device.data(DeviceTreeModel::NodeKindRole).toInt(), int(DeviceTreeModel::DeviceNode));
        QCOMPARE(device.data().toString(), QStringLiteral("Test Device"));
        QVERIFY(!model.deviceIndex(0, 1).isValid());
        // Find the global memory row and check its tooltip carries the CL name and raw value.
        QModelIndexList hits = model.match(model.index(0, 0), DeviceTreeModel::ParamNameRole,
                                           QStringLiteral("CL_DEVICE_GLOBAL_MEM_SIZE"), 1,
                                           Qt::MatchExactly | Qt::MatchRecursive);
        QCOMPARE(hits.size(), 1);
        const QString tip = hits[0].siblingAtColumn(1).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("CL_DEVICE_GLOBAL_MEM_SIZE")), qPrintable(tip));
        QVERIFY2(tip.contains(QString::number(150ull << 30)), qPrintable(tip));
        QCOMPARE(hits[0].data(DeviceTreeModel::DeviceIndexRole).toInt(), 0);
    }

    // Enums and bitfields in words; the CL_* names and the number in the tooltip.
    void humanValues_data()
    {
        QTest::addColumn<QString>("param");
        QTest::addColumn<qulonglong>("raw");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<QString>("tooltip");
        QTest::newRow("cpu") << "CL_DEVICE_TYPE" << qulonglong(CL_DEVICE_TYPE_CPU) << "CPU"
                             << "CL_DEVICE_TYPE\nCL_DEVICE_TYPE_CPU\nraw: 2 (0x2)";
        QTest::newRow("gpu | accelerator")
            << "CL_DEVICE_TYPE" << qulonglong(CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)
            << "GPU | Accelerator"
            << "CL_DEVICE_TYPE\nCL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR\nraw: 12 (0xc)";
        QTest::newRow("unknown bit")
            << "CL_DEVICE_TYPE" << qulonglong(CL_DEVICE_TYPE_GPU | (1u << 20)) << "GPU | 0x100000"
            << "CL_DEVICE_TYPE\nCL_DEVICE_TYPE_GPU | 0x100000\nraw: 1048580 (0x100004)";
        QTest::newRow("global") << "CL_DEVICE_LOCAL_MEM_TYPE" << qulonglong(CL_GLOBAL) << "Global"
                                << "CL_DEVICE_LOCAL_MEM_TYPE\nCL_GLOBAL\nraw: 2";
        QTest::newRow("local") << "CL_DEVICE_LOCAL_MEM_TYPE" << qulonglong(CL_LOCAL) << "Local"
                               << "CL_DEVICE_LOCAL_MEM_TYPE\nCL_LOCAL\nraw: 1";
        QTest::newRow("cache") << "CL_DEVICE_GLOBAL_MEM_CACHE_TYPE" << qulonglong(CL_READ_WRITE_CACHE)
                               << "Read/write cache"
                               << "CL_DEVICE_GLOBAL_MEM_CACHE_TYPE\nCL_READ_WRITE_CACHE\nraw: 2";
        QTest::newRow("queue")
            << "CL_DEVICE_QUEUE_ON_HOST_PROPERTIES"
            << qulonglong(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE)
            << "Out-of-order | Profiling"
            << "CL_DEVICE_QUEUE_ON_HOST_PROPERTIES\nCL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | "
               "CL_QUEUE_PROFILING_ENABLE\nraw: 3 (0x3)";
        QTest::newRow("no flags") << "CL_DEVICE_EXECUTION_CAPABILITIES" << qulonglong(0) << "(none)"
                                  << "CL_DEVICE_EXECUTION_CAPABILITIES\n0\nraw: 0 (0x0)";
        QTest::newRow("plain number") << "CL_DEVICE_MAX_COMPUTE_UNITS" << qulonglong(132) << "132"
                                      << "CL_DEVICE_MAX_COMPUTE_UNITS\nraw: 132";
    }
    void humanValues()
    {
        QFETCH(QString, param);
        QFETCH(qulonglong, raw);
        QFETCH(QString, shown);
        QFETCH(QString, tooltip);
        DeviceTreeModel model;
        model.setSnapshot(makeSnapshot({value(param.toStdString(), std::uint64_t{raw})}));
        const QModelIndexList hits = model.match(model.index(0, 0), DeviceTreeModel::ParamNameRole, param, 1,
                                                 Qt::MatchExactly | Qt::MatchRecursive);
        QCOMPARE(hits.size(), 1);
        const QModelIndex cell = hits[0].siblingAtColumn(DeviceTreeModel::ValueColumn);
        QCOMPARE(cell.data().toString(), shown);
        QCOMPARE(cell.data(Qt::ToolTipRole).toString(), tooltip);
    }

    void currentDeviceMarkStays()
    {
        DeviceTreeModel model;
        model.setSnapshot(makeSnapshot());
        model.setCurrentDevice(0, 0);
        const QModelIndex device = model.deviceIndex(0, 0);
        QCOMPARE(device.siblingAtColumn(DeviceTreeModel::ValueColumn).data().toString(),
                 QStringLiteral("OpenCL 3.0 test (current device)"));
        QVERIFY(device.data(Qt::DecorationRole).isValid());
        model.setCurrentDevice(-1, -1);
        QCOMPARE(device.siblingAtColumn(DeviceTreeModel::ValueColumn).data().toString(),
                 QStringLiteral("OpenCL 3.0 test"));
    }

    void filterKeepsAncestors()
    {
        DeviceTreeModel model;
        model.setSnapshot(makeSnapshot());
        DeviceFilterProxy proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setFilterText(QStringLiteral("MHz"));
        const QString expected =
            QStringLiteral("Test Platform\tOpenCL 3.0 test\n  Test Device\tOpenCL 3.0 test\n"
                           "    Compute\n      Max clock frequency\t1980 MHz\n");
        QCOMPARE(modelToText(proxy), expected);
        // The CL_* name matches too, though it is only in the tooltip and a role.
        proxy.setFilterText(QStringLiteral("cl_device_max_clock"));
        QCOMPARE(modelToText(proxy), expected);
        // The CL_* name of a value, which the tree shows in words.
        proxy.setFilterText(QStringLiteral("CL_DEVICE_TYPE_GPU"));
        QCOMPARE(modelToText(proxy),
                 QStringLiteral("Test Platform\tOpenCL 3.0 test\n  Test Device\tOpenCL 3.0 test\n"
                                "    General\n      Type\tGPU\n"));
        proxy.setFilterText(QString());
        QCOMPARE(modelToText(proxy), modelToText(model));
    }
};

QTEST_MAIN(TestDeviceTreeModel)
#include "tst_devicetreemodel.moc"
