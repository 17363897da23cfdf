// clscope-cli run with images and samplers (docs/cli.md): the Khronos OpenCL-SDK-shaped blur of
// blur.cl from a PNG, on PoCL and Oclgrind, equal to pyopencl's run of the same kernels on the same
// picture; outputs saved as .npy and as PNG; the JSON's image description and the text header; and the
// refusals, one stderr line each with exit 2.
#include "clitest.h"
#include "testicd.h"

#include "clscope/npy.h"
#include "clscope/png.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <sstream>

namespace {

QString dataPath(const char *name)
{
    return QStringLiteral(CLSCOPE_TEST_DATA "/images/") + QLatin1String(name);
}

using clitest::words;

std::string fileBytes(const QString &path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// blur_box (RGBA/UNSIGNED_INT8, no sampler) or blur_sampled (RGBA/UNORM_INT8 through a sampler argument).
QStringList blur(const QString &device, bool sampled)
{
    const QString type = sampled ? QStringLiteral("UNORM_INT8") : QStringLiteral("UNSIGNED_INT8");
    QStringList args{dataPath("blur.cl"),
                     QStringLiteral("--device"),
                     device,
                     QStringLiteral("--kernel"),
                     sampled ? QStringLiteral("blur_sampled") : QStringLiteral("blur_box"),
                     QStringLiteral("--global"),
                     QStringLiteral("40,30"),
                     QStringLiteral("--arg"),
                     QStringLiteral("input_image=image2d:RGBA:%1:file=%2").arg(type, dataPath("picture.png")),
                     QStringLiteral("--arg"),
                     QStringLiteral("output_image=image2d:RGBA:%1:40x30").arg(type),
                     QStringLiteral("--arg"),
                     sampled ? QStringLiteral("size=2") : QStringLiteral("size=1")};
    if (sampled)
        args << QStringLiteral("--arg")
             << QStringLiteral("sampler=sampler:unnormalized,clamp_to_edge,nearest");
    return args;
}

} // namespace

class TestCliImages : public QObject
{
    Q_OBJECT
    QTemporaryDir m_cache;
    QTemporaryDir m_vendors;
    QTemporaryDir m_out;
    bool m_haveOclgrind = false;

    clitest::Result run(const QStringList &args) const
    {
        return clitest::run(QStringList{QStringLiteral("run")} + args, m_cache.path());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid() && m_out.isValid());
        m_haveOclgrind = m_vendors.isValid() && clscope::test::setUpVendors(m_vendors, false);
        const clitest::Result probe = run(blur(QStringLiteral("pocl"), false));
        if (probe.exitCode != 0)
            QSKIP(qPrintable(QStringLiteral("no PoCL device: ") + QString::fromUtf8(probe.err)));
    }

    void againstPyopencl_data() { clitest::deviceRows(); }

    // The same kernels on the same picture give pyopencl's bytes exactly, as .npy and as PNG.
    void againstPyopencl()
    {
        QFETCH(QString, device);
        if (device == QStringLiteral("oclgrind") && !m_haveOclgrind)
            QSKIP("Oclgrind is not installed");
        const QString dir = m_out.filePath(device);
        QVERIFY(QDir().mkpath(dir));
        QByteArray missing;
        const clitest::Result py = clitest::python({dataPath("pyopencl_blur.py"), device, dir}, &missing);
        if (!missing.isEmpty())
            QFAIL(missing.constData());
        QVERIFY2(py.exitCode == 0, py.err.constData());
        for (bool sampled : {false, true}) {
            const QString name = sampled ? QStringLiteral("sampled") : QStringLiteral("box");
            const QString npy = dir + u'/' + name + QStringLiteral("-clscope.npy");
            const QString png = dir + u'/' + name + QStringLiteral("-clscope.png");
            const clitest::Result r = run(
                blur(device, sampled) << QStringLiteral("--save") << QStringLiteral("output_image=") + npy
                                      << QStringLiteral("--save") << QStringLiteral("output_image=") + png);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const clscope::NpyArray ours = clscope::readNpyFile(npy.toStdString());
            const clscope::NpyArray theirs =
                clscope::readNpyFile(QString(dir + u'/' + name + u".npy").toStdString());
            QCOMPARE(ours.shape, (std::vector<std::size_t>{30, 40, 4}));
            QVERIFY(ours.dtype == theirs.dtype && ours.shape == theirs.shape);
            QVERIFY2(ours.data == theirs.data, qPrintable(name));
            const clscope::PngImage picture = clscope::decodePng(fileBytes(png));
            QCOMPARE(picture.channels, 4);
            QCOMPARE(picture.samples.size(), theirs.data.size());
            for (std::size_t i = 0; i < picture.samples.size(); ++i)
                QCOMPARE(picture.samples[i], std::uint16_t(theirs.data[i]));
        }
    }

    void jsonAndText()
    {
        const clitest::Result j =
            run(blur(QStringLiteral("pocl"), false)
                << QStringLiteral("--print") << QStringLiteral("output_image") << QStringLiteral("--json"));
        QCOMPARE(j.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(j.out).object();
        QCOMPARE(
            doc.value(QLatin1String("images")).toObject().value(QLatin1String("output_image")).toObject(),
            (QJsonObject{{QStringLiteral("type"), QStringLiteral("image2d")},
                         {QStringLiteral("format"), QStringLiteral("RGBA/UNSIGNED_INT8")},
                         {QStringLiteral("size"), QStringLiteral("40x30")},
                         {QStringLiteral("region"), QJsonArray{40, 30, 1}},
                         {QStringLiteral("channels"), 4}}));
        const QJsonArray values =
            doc.value(QLatin1String("buffers")).toObject().value(QLatin1String("output_image")).toArray();
        QCOMPARE(values.size(), 40 * 30 * 4);
        QCOMPARE(values[3].toInt(), 255); // the picture is opaque
        const clitest::Result t = run(blur(QStringLiteral("pocl"), false)
                                      << QStringLiteral("--print") << QStringLiteral("input_image"));
        QCOMPARE(t.exitCode, 0);
        QVERIFY2(t.out.contains("\ninput_image (image2d 40x30 RGBA/UNSIGNED_INT8): "), t.out.constData());
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QStringList lacking = blur(QStringLiteral("pocl"), false);
        lacking.replaceInStrings(QStringLiteral("output_image=image2d:RGBA:UNSIGNED_INT8"),
                                 QStringLiteral("output_image=image2d:sRGBA:UNORM_INT8"));
        QTest::newRow("a format the device lacks")
            << lacking
            << "clscope-cli: output_image: the device has no sRGBA/UNORM_INT8 image2d for write_only access; "
               "it has ";
        QStringList sampler = blur(QStringLiteral("pocl"), true);
        sampler.replaceInStrings(QStringLiteral("sampler:unnormalized,clamp_to_edge,nearest"),
                                 QStringLiteral("sampler:unnormalized,repeat"));
        QTest::newRow("repeat without normalized coordinates")
            << sampler << "clscope-cli: sampler: repeat needs normalized coordinates";
        QTest::newRow("a sampler missing")
            << (blur(QStringLiteral("pocl"), true).mid(0, 13))
            << "clscope-cli: missing argument 'sampler' (sampler_t) of kernel blur_sampled: give "
               "sampler=sampler:normalized|unnormalized,ADDRESSING,nearest|linear";
        QTest::newRow("a PNG for a buffer")
            << (QStringList{dataPath("sampling.cl")} +
                words("--device pocl --kernel read_1d --global 4 --arg src=image1d:R:FLOAT:4 --arg "
                      "out=buffer:float4:4 --save out=/tmp/out.png"))
            << "clscope-cli: --save out=/tmp/out.png: only images are saved as PNG; a buffer is saved as "
               ".npy";
        QTest::newRow("a PNG for an image3d")
            << (QStringList{dataPath("sampling.cl")} +
                words("--device pocl --kernel read_3d --global 4,3,2 --arg out=buffer:float4:24 --arg") +
                QStringList{QStringLiteral("src=image3d:RGBA:UNORM_INT8:4x3x2:file=") +
                            dataPath("rgba8.png")})
            << "clscope-cli: src: a PNG file fills an image2d; an image3d takes an .npy";
    }

    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const clitest::Result r = run(args);
        const QString err = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(r.exitCode == 2, qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(err)));
        QVERIFY2(!err.contains(u'\n'), qPrintable(err));
        QVERIFY2(err.startsWith(message), qPrintable(err));
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCliImages)
#include "tst_cli_images.moc"
