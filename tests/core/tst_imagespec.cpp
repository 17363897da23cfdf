// Without a device: the image and sampler forms of `--arg` (parsed, refused with the argument's name,
// written back), the host side of images (element types, initialisers), and CLScope's PNG reader against
// files that PIL wrote (dynamic and fixed Huffman blocks, row filters, a palette with transparency, 1- and
// 16-bit grey) with PIL's reading of them beside each, and its writer read back.
#include "clscope/imagedata.h"
#include "clscope/kernelargs.h"
#include "clscope/npy.h"
#include "clscope/png.h"

#include "pngbomb.h"

#include <QElapsedTimer>
#include <QTest>

#include <fstream>
#include <sstream>

using namespace clscope;

namespace {

std::string dataPath(const char *name)
{
    return std::string(CLSCOPE_TEST_DATA "/images/") + name;
}

std::string fileBytes(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

QString errorOf(const std::string &spec)
{
    try {
        parseArgSpec(spec);
    } catch (const RunInputError &e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("no error");
}

} // namespace

class TestImageSpec : public QObject
{
    Q_OBJECT

private slots:
    void imageForms()
    {
        const ArgValue a = parseArgSpec("img=image2d:RGBA:UNORM_INT8:512x256:gradient");
        const auto &i = std::get<ImageArg>(a.value);
        QCOMPARE(i.dim, ImageDim::Image2D);
        QVERIFY(i.format == (ImageFormat{CL_RGBA, CL_UNORM_INT8}));
        QCOMPARE(*i.shape, (ImageShape{512, 256, 1, 1}));
        QCOMPARE(i.init.kind, ImageInitKind::Gradient);
        QCOMPARE(toString(a), std::string("img=image2d:RGBA:UNORM_INT8:512x256:gradient"));

        // CL_ names, any case, each image type's size form, initialisers with their values.
        const auto v = std::get<ImageArg>(parseArgSpec("v=image3d:cl_bgra:float:4x3x2:random=9").value);
        QVERIFY(v.format == (ImageFormat{CL_BGRA, CL_FLOAT}));
        QCOMPARE(*v.shape, (ImageShape{4, 3, 2, 1}));
        QCOMPARE(v.init.seed, std::uint64_t(9));
        const auto l = std::get<ImageArg>(parseArgSpec("l=image2d_array:R:HALF_FLOAT:8x4x3:fill=0.5").value);
        QCOMPARE(*l.shape, (ImageShape{8, 4, 1, 3}));
        QCOMPARE(formatImageShape(*l.shape, l.dim), std::string("8x4x3"));
        QCOMPARE(imageRegion(*l.shape, l.dim), (std::vector<std::size_t>{8, 4, 3}));
        const auto a1 = std::get<ImageArg>(parseArgSpec("a=image1d_array:RG:SIGNED_INT16:16x5").value);
        QCOMPARE(imageRegion(*a1.shape, a1.dim), (std::vector<std::size_t>{16, 5, 1}));
        QCOMPARE(a1.init.kind, ImageInitKind::Zeros);
        // sRGBA keeps its lower-case s; a file's size can come from the file, and its path keeps colons.
        QVERIFY(std::get<ImageArg>(parseArgSpec("s=image2d:sRGBA:UNORM_INT8:2x2").value).format.order ==
                CL_sRGBA);
        const auto f =
            std::get<ImageArg>(parseArgSpec("f=image2d:RGBA:UNSIGNED_INT8:file=/tmp/a:b.png").value);
        QVERIFY(!f.shape);
        QCOMPARE(f.init.path, std::string("/tmp/a:b.png"));
    }

    void samplerForms()
    {
        const auto s =
            std::get<SamplerArg>(parseArgSpec("s=sampler:normalized,mirrored_repeat,linear").value);
        QVERIFY(s.normalized && s.linear);
        QCOMPARE(s.addressing, SamplerAddressing::MirroredRepeat);
        // Left out: unnormalized, clamp_to_edge, nearest.
        const auto d = std::get<SamplerArg>(parseArgSpec("s=sampler:").value);
        QVERIFY(!d.normalized && !d.linear);
        QCOMPARE(d.addressing, SamplerAddressing::ClampToEdge);
        QCOMPARE(toString(parseArgSpec("s=sampler:linear,clamp")),
                 std::string("s=sampler:unnormalized,clamp,linear"));
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("message");
        QTest::newRow("order") << "img=image2d:RGBZ:UNORM_INT8:4x4"
                               << "img: unknown channel order 'RGBZ' (orders: R, A, RG, RA, RGB, RGBA";
        QTest::newRow("type") << "img=image2d:RGBA:UNORM8:4x4"
                              << "img: unknown channel type 'UNORM8' (types: SNORM_INT8, SNORM_INT16";
        QTest::newRow("size of another type")
            << "img=image3d:RGBA:FLOAT:4x4"
            << "img: an image3d size is WxHxD (whole numbers of at least 1), not '4x4'";
        QTest::newRow("zero size") << "img=image2d:RGBA:FLOAT:0x4"
                                   << "img: an image2d size is WxH (whole numbers of at least 1), not '0x4'";
        QTest::newRow("missing size") << "img=image2d:RGBA:FLOAT"
                                      << "img: an image needs image2d:ORDER:TYPE:WxH";
        QTest::newRow("packed of another order")
            << "img=image2d:RGBA:UNORM_SHORT_565:4x4"
            << "img: RGBA/UNORM_SHORT_565 is not an image format CLScope can fill and read";
        QTest::newRow("initialiser")
            << "img=image2d:R:FLOAT:4x4:iota"
            << "img: unknown image initialiser 'iota' (zeros, fill=V[,V...], random[=SEED], "
               "gradient, file=PATH)";
        QTest::newRow("gradient with a value") << "img=image2d:R:FLOAT:4x4:gradient=2"
                                               << "img: image initialiser gradient takes no value";
        QTest::newRow("sampler word") << "s=sampler:normalised"
                                      << "s: unknown sampler word 'normalised' (normalized|unnormalized, "
                                         "none|clamp|clamp_to_edge|repeat|mirrored_repeat, nearest|linear)";
        QTest::newRow("two filters") << "s=sampler:nearest,linear"
                                     << "s: the sampler has two filter modes ('linear' is the second)";
        QTest::newRow("repeat without normalized")
            << "s=sampler:repeat"
            << "s: repeat needs normalized coordinates (OpenCL leaves it undefined otherwise)";
    }

    void refusals()
    {
        QFETCH(QString, spec);
        QFETCH(QString, message);
        const QString error = errorOf(spec.toStdString());
        QVERIFY2(error.startsWith(message), qPrintable(error));
    }

    void hostSide()
    {
        QCOMPARE(imageElementType({CL_RGBA, CL_UNORM_INT8}).name(), std::string("uchar4"));
        QCOMPARE(imageElementType({CL_R, CL_FLOAT}).name(), std::string("float"));
        QCOMPARE(imageElementType({CL_RGB, CL_UNORM_SHORT_565}).name(), std::string("ushort"));
        QCOMPARE(imageElementType({CL_RG, CL_HALF_FLOAT}).name(), std::string("half2"));
        QCOMPARE(pixelSize({CL_RGBA, CL_SIGNED_INT32}), std::size_t(16));
        QCOMPARE(std::string(channelLetters(CL_ARGB)), std::string("ARGB"));

        // A gradient: red along x, green along y, blue 0.5 in 2-D, alpha 1; BGRA stores blue first.
        ImageArg g = std::get<ImageArg>(parseArgSpec("g=image2d:BGRA:UNORM_INT8:3x2:gradient").value);
        QCOMPARE(initialImage(g, "g"),
                 (std::vector<unsigned char>{128, 0,   0, 255, 128, 0,   128, 255, 128, 0,   255, 255,
                                             128, 255, 0, 255, 128, 255, 128, 255, 128, 255, 255, 255}));
        ImageArg f = std::get<ImageArg>(parseArgSpec("f=image2d:RG:SIGNED_INT16:2x1:fill=-2,300").value);
        QCOMPARE(initialImage(f, "f"),
                 (std::vector<unsigned char>{0xfe, 0xff, 0x2c, 0x01, 0xfe, 0xff, 0x2c, 0x01}));
        // The same seed gives the same contents.
        ImageArg r = std::get<ImageArg>(parseArgSpec("r=image2d:RGBA:FLOAT:5x5:random=3").value);
        QVERIFY(initialImage(r, "r") == initialImage(r, "r"));
    }

    void pngAgainstPil_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("bitDepth");
        QTest::newRow("RGBA, optimized (dynamic Huffman)") << "rgba8" << 4 << 8;
        QTest::newRow("RGB, fast (fixed Huffman)") << "rgb8" << 3 << 8;
        QTest::newRow("grey") << "grey8" << 1 << 8;
        QTest::newRow("palette with tRNS") << "palette" << 4 << 8;
        QTest::newRow("1-bit grey") << "bits1" << 1 << 8;
        QTest::newRow("16-bit grey") << "grey16" << 1 << 16;
        QTest::newRow("a picture") << "picture" << 4 << 8;
    }

    // Every sample equals what PIL read from the same file (its .npy beside it).
    void pngAgainstPil()
    {
        QFETCH(QString, name);
        QFETCH(int, channels);
        QFETCH(int, bitDepth);
        const std::string base = dataPath(name.toUtf8().constData());
        const PngImage png = decodePng(fileBytes(base + ".png"));
        const NpyArray pil = readNpyFile(base + ".npy");
        QCOMPARE(png.channels, channels);
        QCOMPARE(png.bitDepth, bitDepth);
        QCOMPARE(png.height, pil.shape[0]);
        QCOMPARE(png.width, pil.shape[1]);
        QCOMPARE(png.samples.size(), pil.valueCount());
        BufferData values{"pil", ElementType{pil.dtype, 1}, pil.valueCount(), pil.data};
        for (std::size_t i = 0; i < png.samples.size(); ++i)
            QCOMPARE(double(png.samples[i]), values.value(i));
    }

    void pngWrittenAndRead()
    {
        for (int channels = 1; channels <= 4; ++channels) {
            for (int depth : {8, 16}) {
                PngImage image;
                image.width = 300; // more than one stored block at 16 bits RGBA: 300*200*8 bytes
                image.height = 200;
                image.channels = channels;
                image.bitDepth = depth;
                for (std::size_t i = 0; i < image.width * image.height * std::size_t(channels); ++i)
                    image.samples.push_back(std::uint16_t((i * 7919) % (image.maxSample() + 1u)));
                const PngImage back = decodePng(encodePng(image));
                QCOMPARE(back.channels, channels);
                QCOMPARE(back.bitDepth, depth);
                QVERIFY(back.samples == image.samples);
            }
        }
    }

    // Issue 27: a 2.5 MB PNG declaring 65536x65536 inflated 400 MB (and more for a larger file) before
    // anything compared its size with a limit. The declared size is held against the caller's limits, and
    // against a byte budget by default, before a byte is inflated.
    void declaredSizeIsCheckedBeforeInflating()
    {
        const std::string bomb = pngbomb::make(65536, 65536, std::uint64_t(400) << 20).toStdString();
        QVERIFY(bomb.size() < (std::size_t(3) << 20));
        const PngImage header = pngHeader(bomb);
        QCOMPARE(header.width, std::size_t(65536));
        QCOMPARE(header.height, std::size_t(65536));
        QVERIFY(header.samples.empty());
        const auto errorOf = [&](const std::string &bytes, const PngLimits &limits) {
            try {
                decodePng(bytes, limits);
            } catch (const PngError &e) {
                return QString::fromUtf8(e.what());
            }
            return QStringLiteral("decoded");
        };
        QElapsedTimer timer;
        timer.start();
        PngLimits device;
        device.maxWidth = 16384;
        device.maxHeight = 16384;
        device.origin = "the device's image2d limits";
        QCOMPARE(errorOf(bomb, device),
                 QStringLiteral("PNG: the header declares 65536x65536 pixels, more than "
                                "16384x16384 (the device's image2d limits)"));
        QCOMPARE(errorOf(bomb, {}),
                 QStringLiteral("PNG: the header declares 65536x65536 pixels, 34359738368 bytes "
                                "decoded, more than the 4294967296 allowed (this reader's limit)"));
        PngLimits budget;
        budget.maxBytes = 64 << 20;
        QCOMPARE(errorOf(pngbomb::make(8192, 8192, 1 << 20).toStdString(), budget),
                 QStringLiteral(
                     "PNG: the header declares 8192x8192 pixels, 536870912 bytes decoded, more than the "
                     "67108864 allowed (this reader's limit)"));
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed())));
        // Within the limits it is inflated, and found to hold less than it declares.
        QVERIFY(errorOf(pngbomb::make(64, 64, 4096).toStdString(), {})
                    .startsWith(
                        QStringLiteral("PNG: the image data holds 3871 bytes, the header asks for 16448")));
    }

    void brokenPng_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const std::string good = fileBytes(dataPath("rgba8.png"));
        QTest::newRow("not a PNG") << QByteArray("P6\n2 2\n255\n") << "PNG: not a PNG file";
        QTest::newRow("truncated") << QByteArray::fromStdString(good.substr(0, good.size() / 2))
                                   << "PNG: chunk IDAT runs past the end of the file";
        std::string flipped = good;
        flipped[60] = char(flipped[60] ^ 0x40);
        QTest::newRow("damaged") << QByteArray::fromStdString(flipped) << "PNG: chunk IDAT has a wrong CRC";
    }

    void brokenPng()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        QString error;
        try {
            decodePng(bytes.toStdString());
        } catch (const PngError &e) {
            error = QString::fromUtf8(e.what());
        }
        QVERIFY2(error.startsWith(message), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestImageSpec)
#include "tst_imagespec.moc"
