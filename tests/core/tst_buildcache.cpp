// The binary cache: SHA-256 against known vectors, the entry format and its corruption checks, the
// include scan behind the key, atomic writes under concurrency, and real builds on PoCL and Oclgrind
// that hit, miss on every change, rebuild corrupt or stale entries and survive concurrent builders.
#include "clscope/build.h"
#include "clscope/devicespec.h"
#include "testicd.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace clscope;

namespace {

namespace fs = std::filesystem;

void writeFile(const QString &path, const QByteArray &contents)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    f.write(contents);
}

QByteArray readData(const QString &name)
{
    QFile f(QStringLiteral(CLSCOPE_TEST_DATA "/build/") + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::string readBytes(const fs::path &path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const fs::path &path, const std::string &bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

std::vector<fs::path> entriesIn(const QString &dir)
{
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(dir.toStdString(), ec))
        out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

CacheEntry sampleEntry()
{
    CacheEntry e;
    for (int i = 0; i < 300; ++i)
        e.binary.push_back(static_cast<unsigned char>(i * 7));
    e.log = "warning: k.cl:1:2: something";
    return e;
}

} // namespace

class TestBuildCache : public QObject
{
    Q_OBJECT
    QTemporaryDir m_vendors;
    bool m_haveDrivers = false;

    // good.cl and config.h copied to a fresh folder, so that the header can be changed.
    struct Workspace
    {
        QTemporaryDir dir;
        QString source() const { return dir.filePath(QStringLiteral("good.cl")); }
        QString header() const { return dir.filePath(QStringLiteral("config.h")); }
        QString cache() const { return dir.filePath(QStringLiteral("cache")); }
    };

    static void fill(Workspace &w)
    {
        writeFile(w.source(), readData(QStringLiteral("good.cl")));
        writeFile(w.header(), readData(QStringLiteral("config.h")));
    }

    static BuildRequest request(const SelectedDevice &dev, const Workspace &w, std::string options = {})
    {
        BuildRequest r;
        r.devices = {dev.device};
        r.sourcePath = w.source().toStdString();
        r.options = std::move(options);
        r.environmentOptions = false; // a CLSCOPE_BUILD_OPTIONS of the caller must not change the keys here
        return r;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_vendors.isValid());
        m_haveDrivers = test::setUpVendors(m_vendors, false);
    }

    // ---- SHA-256 ----------------------------------------------------------------------------------

    void sha256Vectors_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("digest");
        // FIPS 180-4 examples and boundary lengths around the 56- and 64-byte padding edges.
        QTest::newRow("empty") << QByteArray()
                               << QByteArray(
                                      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        QTest::newRow("abc") << QByteArray("abc")
                             << QByteArray(
                                    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        QTest::newRow("448 bits") << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                                  << QByteArray(
                                         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        QTest::newRow("896 bits") << QByteArray("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijk"
                                                "lmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                                                "mnopqrstnopqrstu")
                                  << QByteArray(
                                         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
        QTest::newRow("fox") << QByteArray("The quick brown fox jumps over the lazy dog")
                             << QByteArray(
                                    "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592");
        QTest::newRow("a*55") << QByteArray(55, 'a')
                              << QByteArray(
                                     "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
        QTest::newRow("a*56") << QByteArray(56, 'a')
                              << QByteArray(
                                     "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
        QTest::newRow("a*63") << QByteArray(63, 'a')
                              << QByteArray(
                                     "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34");
        QTest::newRow("a*64") << QByteArray(64, 'a')
                              << QByteArray(
                                     "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
        QTest::newRow("a*65") << QByteArray(65, 'a')
                              << QByteArray(
                                     "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0");
        QTest::newRow("a*119") << QByteArray(119, 'a')
                               << QByteArray(
                                      "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb");
        QTest::newRow("a*120") << QByteArray(120, 'a')
                               << QByteArray(
                                      "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c");
        QTest::newRow("a*128") << QByteArray(128, 'a')
                               << QByteArray(
                                      "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e");
        QTest::newRow("a*1000000") << QByteArray(1000000, 'a')
                                   << QByteArray(
                                          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    }

    void sha256Vectors()
    {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, digest);
        const std::string_view in(input.constData(), size_t(input.size()));
        QCOMPARE(QByteArray::fromStdString(toHex(sha256(in))), digest);
        // Fed in uneven pieces, the digest is the same.
        for (size_t piece : {size_t(1), size_t(7), size_t(63), size_t(64), size_t(65)}) {
            if (in.size() > 4096 && piece < 63)
                continue;
            Sha256 h;
            for (size_t pos = 0; pos < in.size(); pos += piece)
                h.update(in.substr(pos, piece));
            QCOMPARE(QByteArray::fromStdString(toHex(h.finish())), digest);
        }
    }

    // ---- Entry format -----------------------------------------------------------------------------

    void entryRoundTrip()
    {
        const Digest key = sha256("key");
        const CacheEntry e = sampleEntry();
        const auto back = decodeCacheEntry(encodeCacheEntry(key, e), key);
        QVERIFY(back);
        QCOMPARE(back->binary, e.binary);
        QCOMPARE(back->log, e.log);
        QVERIFY(!decodeCacheEntry(encodeCacheEntry(key, e), sha256("other key")));
        // An empty log and binary are valid too.
        QVERIFY(decodeCacheEntry(encodeCacheEntry(key, CacheEntry{}), key));
    }

    // Issue 17 item 5: an entry whose checksum is valid but that was built from other inputs (copied or
    // renamed to this key, or written under a colliding digest) is a miss.
    void entryBindsItsKeyMaterial()
    {
        const CacheKey mine(sha256("key"), "source A, options, device, headers");
        const CacheKey other(sha256("key"), "source B, options, device, headers");
        const CacheEntry e = sampleEntry();
        QVERIFY(decodeCacheEntry(encodeCacheEntry(mine, e), mine));
        QVERIFY(!decodeCacheEntry(encodeCacheEntry(other, e), mine));
        // The digest in the header is under the checksum too: patching it in breaks the entry.
        std::string bytes = encodeCacheEntry(CacheKey(sha256("another key"), mine.material), e);
        std::memcpy(bytes.data() + 16, mine.digest.data(), mine.digest.size());
        QVERIFY(!decodeCacheEntry(bytes, mine));
        // makeCacheKey binds every input it hashes.
        const DeviceIdentity dev{"vendor", "name", "OpenCL 3.0", "1.0"};
        const CacheKey k = makeCacheKey("src", "-DA", dev, {});
        QCOMPARE(k.digest, sha256(k.material));
        QVERIFY(k.material.find("src") != std::string::npos && k.material.find("-DA") != std::string::npos);
    }

    void entryCorruption_data()
    {
        QTest::addColumn<int>(
            "offset"); // byte flipped; negative: truncate to -offset bytes; 0x7fffffff: append
        QTest::newRow("magic") << 0;
        QTest::newRow("version") << 8;
        QTest::newRow("header size") << 12;
        QTest::newRow("key") << 20;
        QTest::newRow("key material size") << 48;
        QTest::newRow("binary size") << 56;
        QTest::newRow("log size") << 64;
        QTest::newRow("checksum") << 80;
        QTest::newRow("key material") << 104 + 2;
        QTest::newRow("binary") << 104 + 5 + 10;
        QTest::newRow("log") << 104 + 5 + 300 + 3;
        QTest::newRow("truncated header") << -50;
        QTest::newRow("truncated payload") << -(104 + 100);
        QTest::newRow("one byte short") << -(104 + 5 + 300 + 27);
        QTest::newRow("empty file") << -1000000;
        QTest::newRow("extra byte") << 0x7fffffff;
    }

    void entryCorruption()
    {
        QFETCH(int, offset);
        const CacheKey key(sha256("key"), "input");
        std::string bytes = encodeCacheEntry(key, sampleEntry());
        QCOMPARE(bytes.size(), size_t(104 + 5 + 300 + 28));
        if (offset == 0x7fffffff)
            bytes += 'x';
        else if (offset < 0)
            bytes.resize(std::min(bytes.size(), size_t(-offset)));
        else
            bytes[size_t(offset)] = char(bytes[size_t(offset)] ^ 0x40);
        if (offset == -1000000)
            bytes.clear();
        QVERIFY(!decodeCacheEntry(bytes, key));
    }

    // ---- The cache folder -------------------------------------------------------------------------

    void storeLoadRemove()
    {
        QTemporaryDir tmp;
        const BinaryCache cache(tmp.filePath(QStringLiteral("nested/cache")).toStdString());
        QVERIFY(cache.enabled());
        const Digest key = sha256("k");
        QVERIFY(!cache.load(key));
        QVERIFY(cache.store(key, sampleEntry()));
        const auto back = cache.load(key);
        QVERIFY(back);
        QCOMPARE(back->log, sampleEntry().log);
        // Only the entry is left: the temporary file was renamed onto it.
        const auto files = entriesIn(tmp.filePath(QStringLiteral("nested/cache")));
        QCOMPARE(files.size(), size_t(1));
        QCOMPARE(files.front(), cache.entryPath(key));
        cache.remove(key);
        QVERIFY(!cache.load(key));
    }

    void corruptFileIsRemoved()
    {
        QTemporaryDir tmp;
        const BinaryCache cache(tmp.path().toStdString());
        const Digest key = sha256("k");
        QVERIFY(cache.store(key, sampleEntry()));
        {
            std::fstream f(cache.entryPath(key), std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(120);
            f.put('\x5a');
        }
        QVERIFY(!cache.load(key));
        QVERIFY(!fs::exists(cache.entryPath(key)));
    }

    void disabledCache()
    {
        const BinaryCache off;
        QVERIFY(!off.enabled());
        QVERIFY(!off.store(sha256("k"), sampleEntry()));
        QVERIFY(!off.load(sha256("k")));
    }

    void fromEnvironment_data()
    {
        QTest::addColumn<QByteArray>("noCache");
        QTest::addColumn<QByteArray>("cacheDir");
        QTest::addColumn<QByteArray>("xdg");
        QTest::addColumn<QByteArray>("home");
        QTest::addColumn<QString>("expected"); // empty: disabled
        QTest::newRow("explicit dir") << QByteArray() << QByteArray("/c/d") << QByteArray("/x")
                                      << QByteArray("/h") << QStringLiteral("/c/d");
        QTest::newRow("xdg") << QByteArray() << QByteArray() << QByteArray("/x") << QByteArray("/h")
                             << QStringLiteral("/x/clscope/binaries");
        QTest::newRow("home") << QByteArray() << QByteArray() << QByteArray() << QByteArray("/h")
                              << QStringLiteral("/h/.cache/clscope/binaries");
        QTest::newRow("no cache") << QByteArray("1") << QByteArray("/c/d") << QByteArray() << QByteArray("/h")
                                  << QString();
        QTest::newRow("no cache=0 keeps it") << QByteArray("0") << QByteArray("/c/d") << QByteArray()
                                             << QByteArray("/h") << QStringLiteral("/c/d");
    }

    void fromEnvironment()
    {
        QFETCH(QByteArray, noCache);
        QFETCH(QByteArray, cacheDir);
        QFETCH(QByteArray, xdg);
        QFETCH(QByteArray, home);
        QFETCH(QString, expected);
        const QByteArray savedHome = qgetenv("HOME");
        auto set = [](const char *name, const QByteArray &v) {
            if (v.isEmpty())
                qunsetenv(name);
            else
                qputenv(name, v);
        };
        set("CLSCOPE_NO_CACHE", noCache);
        set("CLSCOPE_CACHE_DIR", cacheDir);
        set("XDG_CACHE_HOME", xdg);
        set("HOME", home);
        const BinaryCache cache = BinaryCache::fromEnvironment();
        for (const char *n : {"CLSCOPE_NO_CACHE", "CLSCOPE_CACHE_DIR", "XDG_CACHE_HOME"})
            qunsetenv(n);
        qputenv("HOME", savedHome);
        QCOMPARE(QString::fromStdString(cache.directory().string()), expected);
        QCOMPARE(cache.enabled(), !expected.isEmpty());
    }

    // Writers replace the entry while readers load it: a reader sees a whole entry or none, never a
    // part (which load() would report as corrupt and delete).
    void concurrentStoresAreAtomic()
    {
        QTemporaryDir tmp;
        const BinaryCache cache(tmp.path().toStdString());
        const Digest key = sha256("shared");
        std::atomic<int> bad{0}, seen{0};
        std::atomic<bool> stop{false};
        std::vector<std::thread> threads;
        for (int w = 0; w < 3; ++w) {
            threads.emplace_back([&, w] {
                for (int i = 0; i < 60; ++i) {
                    CacheEntry e;
                    e.binary.assign(size_t(20000 + 997 * ((w * 60 + i) % 13)), static_cast<unsigned char>(w));
                    e.log = "writer " + std::to_string(w);
                    cache.store(key, e);
                }
            });
        }
        std::thread reader([&] {
            while (!stop) {
                std::ifstream in(cache.entryPath(key), std::ios::binary);
                if (!in)
                    continue;
                const std::string bytes((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
                if (decodeCacheEntry(bytes, key))
                    ++seen;
                else
                    ++bad;
            }
        });
        for (auto &t : threads)
            t.join();
        stop = true;
        reader.join();
        QCOMPARE(bad.load(), 0);
        QVERIFY(seen.load() > 0);
        QVERIFY(cache.load(key));
        QCOMPARE(entriesIn(tmp.path()).size(), size_t(1)); // no temporary file left behind
    }

    // ---- Keys -------------------------------------------------------------------------------------

    void includeScan()
    {
        QTemporaryDir tmp;
        const QString src = tmp.filePath(QStringLiteral("src"));
        const QString inc = tmp.filePath(QStringLiteral("inc"));
        writeFile(src + QStringLiteral("/a.h"), "#include \"sub/c.h\"\n");
        writeFile(src + QStringLiteral("/sub/c.h"), "  #  include \"d.h\"\n#include \"a.h\" // cycle\n");
        writeFile(src + QStringLiteral("/sub/d.h"), "// found next to c.h\n");
        writeFile(inc + QStringLiteral("/b.h"), "#include <missing2.h>\n");
        const std::string source =
            "#include \"a.h\"\n#include <b.h>\n#include \"nothere.h\"\n#include \"nothere.h\"\n"
            "// #include \"commented.h\" is not a directive\n";
        const auto files = scanIncludes(source, src.toStdString(), {inc.toStdString()});
        QStringList got;
        for (const auto &f : files)
            got << QString(QString::fromStdString(f.spelling) +
                           (f.found ? QStringLiteral("+") : QStringLiteral("-")));
        QCOMPARE(got, QStringList({QStringLiteral("a.h+"), QStringLiteral("sub/c.h+"), QStringLiteral("d.h+"),
                                   QStringLiteral("b.h+"), QStringLiteral("missing2.h-"),
                                   QStringLiteral("nothere.h-")}));
        QCOMPARE(files[2].path, QString(src + QStringLiteral("/sub/d.h")).toStdString());
    }

    void keyChangesWithEveryInput()
    {
        const DeviceIdentity dev{"Vendor", "Device", "OpenCL 3.0", "1.0"};
        std::vector<IncludedFile> inc{{"h.h", "/p/h.h", "#define A 1\n", true}, {"gone.h", "", "", false}};
        const Digest base = cacheKey("src", "-DA", dev, inc);
        QCOMPARE(cacheKey("src", "-DA", dev, inc), base);
        QVERIFY(cacheKey("src ", "-DA", dev, inc) != base);
        QVERIFY(cacheKey("src", "-DB", dev, inc) != base);
        // Framing: moving a byte from one field to the next changes the key.
        QVERIFY(cacheKey("sr", "c-DA", dev, inc) != base);
        for (int field = 0; field < 4; ++field) {
            DeviceIdentity d = dev;
            std::string *f[] = {&d.vendor, &d.name, &d.version, &d.driverVersion};
            *f[field] += "x";
            QVERIFY(cacheKey("src", "-DA", d, inc) != base);
        }
        auto changed = inc;
        changed[0].contents = "#define A 2\n";
        QVERIFY(cacheKey("src", "-DA", dev, changed) != base);
        changed = inc;
        changed[1].spelling = "other.h";
        QVERIFY(cacheKey("src", "-DA", dev, changed) != base);
        // A missing header that appears changes the key.
        changed = inc;
        changed[1] = {"gone.h", "/p/gone.h", "", true};
        QVERIFY(cacheKey("src", "-DA", dev, changed) != base);
    }

    // ---- Real builds ------------------------------------------------------------------------------

    void hitMissAndChanges_data()
    {
        QTest::addColumn<QString>("platform");
        QTest::newRow("pocl") << QStringLiteral("pocl");
        QTest::newRow("oclgrind") << QStringLiteral("oclgrind");
    }

    void hitMissAndChanges()
    {
        if (!m_haveDrivers)
            QSKIP("PoCL or Oclgrind is not installed");
        QFETCH(QString, platform);
        const SelectedDevice dev = selectDevice(platform.toStdString());
        Workspace w;
        fill(w);
        const BinaryCache cache(w.cache().toStdString());

        const BuildResult first = buildProgram(request(dev, w), cache);
        QVERIFY2(first.success(), first.logs().front().log.c_str());
        QCOMPARE(first.cache(), CacheState::Miss);
        QCOMPARE(entriesIn(w.cache()).size(), size_t(1));

        const BuildResult second = buildProgram(request(dev, w), cache);
        QVERIFY(second.success());
        QCOMPARE(second.cache(), CacheState::Hit);
        QCOMPARE(second.logs().front().cache, CacheState::Hit);
        QCOMPARE(second.logs().front().log, first.logs().front().log);
        QCOMPARE(second.kernels().size(), size_t(1));
        QCOMPARE(second.kernels().front().args, first.kernels().front().args);
        QVERIFY(second.program());

        // Changed options: a different entry.
        QCOMPARE(buildProgram(request(dev, w, "-D EXTRA=1"), cache).cache(), CacheState::Miss);
        QCOMPARE(buildProgram(request(dev, w, "-D EXTRA=1"), cache).cache(), CacheState::Hit);

        // Changed header: a miss although the source file is the same.
        writeFile(w.header(), "#define OFFSET 1.0f\n");
        QCOMPARE(buildProgram(request(dev, w), cache).cache(), CacheState::Miss);
        QCOMPARE(buildProgram(request(dev, w), cache).cache(), CacheState::Hit);
        QCOMPARE(entriesIn(w.cache()).size(), size_t(3));
    }

    void warningsReappearOnHit()
    {
        if (!m_haveDrivers)
            QSKIP("PoCL or Oclgrind is not installed");
        const SelectedDevice dev = selectDevice("pocl");
        QTemporaryDir tmp;
        writeFile(tmp.filePath(QStringLiteral("warning.cl")), readData(QStringLiteral("warning.cl")));
        writeFile(tmp.filePath(QStringLiteral("headers/helper.h")),
                  readData(QStringLiteral("headers/helper.h")));
        const BinaryCache cache(tmp.filePath(QStringLiteral("cache")).toStdString());
        BuildRequest r;
        r.devices = {dev.device};
        r.sourcePath = tmp.filePath(QStringLiteral("warning.cl")).toStdString();
        r.options = "-I " + tmp.filePath(QStringLiteral("headers")).toStdString();
        const BuildResult miss = buildProgram(r, cache);
        const BuildResult hit = buildProgram(r, cache);
        QCOMPARE(miss.cache(), CacheState::Miss);
        QCOMPARE(hit.cache(), CacheState::Hit);
        QCOMPARE(hit.diagnostics().size(), size_t(2));
        QCOMPARE(hit.diagnostics(), miss.diagnostics());
        QCOMPARE(hit.diagnostics()[1].file, r.sourcePath);
    }

    void corruptEntryIsRebuilt_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::newRow("truncated") << QStringLiteral("truncate");
        QTest::newRow("byte flipped") << QStringLiteral("flip");
        QTest::newRow("emptied") << QStringLiteral("empty");
        // Checksum fine, binary not: only the driver can tell (clCreateProgramWithBinary/clBuildProgram).
        QTest::newRow("stale binary") << QStringLiteral("stale");
    }

    void corruptEntryIsRebuilt()
    {
        if (!m_haveDrivers)
            QSKIP("PoCL or Oclgrind is not installed");
        QFETCH(QString, damage);
        const SelectedDevice dev = selectDevice("pocl");
        Workspace w;
        fill(w);
        const BinaryCache cache(w.cache().toStdString());
        QCOMPARE(buildProgram(request(dev, w), cache).cache(), CacheState::Miss);
        const auto files = entriesIn(w.cache());
        QCOMPARE(files.size(), size_t(1));
        const fs::path entry = files.front();
        const auto size = fs::file_size(entry);
        if (damage == QLatin1String("truncate")) {
            fs::resize_file(entry, size / 2);
        } else if (damage == QLatin1String("flip")) {
            std::fstream f(entry, std::ios::in | std::ios::out | std::ios::binary);
            f.seekg(std::streamoff(size - 40));
            const char c = char(f.get());
            f.seekp(std::streamoff(size - 40));
            f.put(char(c ^ 0x01));
        } else if (damage == QLatin1String("empty")) {
            fs::resize_file(entry, 0);
        } else {
            // A well-formed entry under the right key whose binary is not one.
            const std::string hex = entry.stem().string();
            Digest key{};
            for (size_t i = 0; i < key.size(); ++i)
                key[i] = std::uint8_t(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
            CacheEntry junk;
            junk.binary.assign(4096, 0xAB);
            QVERIFY(cache.store(key, junk));
        }
        const BuildResult again = buildProgram(request(dev, w), cache);
        QVERIFY(again.success());
        QCOMPARE(again.cache(), CacheState::Miss);
        QCOMPARE(buildProgram(request(dev, w), cache).cache(), CacheState::Hit);
    }

    // Issue 17 item 5, end to end: program B's entry replaced by program A's with B's key patched into
    // its header. The checksum used to cover the binary and the log only, so B's build "hit" and got A's
    // kernels.
    void entryHoldingAnotherProgramIsAMiss()
    {
        if (!m_haveDrivers)
            QSKIP("PoCL or Oclgrind is not installed");
        const SelectedDevice dev = selectDevice("pocl");
        Workspace a, b;
        writeFile(a.source(), "__kernel void kernel_a(__global int *x) { x[0] = 1; }\n");
        writeFile(b.source(), "__kernel void kernel_b(__global int *x) { x[0] = 2; }\n");
        QTemporaryDir cacheDir;
        const BinaryCache cache(cacheDir.path().toStdString());
        QCOMPARE(buildProgram(request(dev, b), cache).cache(), CacheState::Miss);
        const fs::path entryB = entriesIn(cacheDir.path()).front();
        QCOMPARE(buildProgram(request(dev, a), cache).cache(), CacheState::Miss);
        fs::path entryA;
        for (const auto &f : entriesIn(cacheDir.path()))
            if (f != entryB)
                entryA = f;
        std::string bytesA = readBytes(entryA), bytesB = readBytes(entryB);
        std::memcpy(bytesA.data() + 16, bytesB.data() + 16, 32); // B's key in A's entry
        writeBytes(entryB, bytesA);

        const BuildResult again = buildProgram(request(dev, b), cache);
        QVERIFY(again.success());
        QCOMPARE(again.cache(), CacheState::Miss);
        QVERIFY(again.kernel("kernel_b"));
        QVERIFY(!again.kernel("kernel_a"));
        // The bad entry was replaced: the next build hits, with B's program.
        const BuildResult third = buildProgram(request(dev, b), cache);
        QCOMPARE(third.cache(), CacheState::Hit);
        QVERIFY(third.kernel("kernel_b"));
    }

    // Issue 17 item 4: a header included through a macro was not in the key, so an edited header gave a
    // stale binary and "cache hit". Such programs are not cached, and the build says why.
    void macroIncludeIsNotCached()
    {
        if (!m_haveDrivers)
            QSKIP("PoCL or Oclgrind is not installed");
        const SelectedDevice dev = selectDevice("pocl");
        Workspace w;
        writeFile(w.source(), "#define HDR \"val.h\"\n#include HDR\n"
                              "__kernel void k(__global int *x) { x[0] = VAL; }\n");
        writeFile(w.dir.filePath(QStringLiteral("val.h")), "#define VAL 1\n");
        const BinaryCache cache(w.cache().toStdString());
        const BuildResult first = buildProgram(request(dev, w), cache);
        QVERIFY2(first.success(), first.logs().front().log.c_str());
        QCOMPARE(first.cache(), CacheState::Off);
        QCOMPARE(
            QString::fromStdString(first.cacheNote()),
            QStringLiteral("cache off for this program: '#include HDR' (the source line 2) does not name "
                           "its file literally"));
        writeFile(w.dir.filePath(QStringLiteral("val.h")), "#define VAL 2\n");
        const BuildResult second = buildProgram(request(dev, w), cache);
        QCOMPARE(second.cache(), CacheState::Off);
        QVERIFY(entriesIn(w.cache()).empty());
        QVERIFY(QString::fromStdString(buildResultToJson(second)).contains(QStringLiteral("\"cache_note\"")));

        // Also in a header, and through -include, which no directive names.
        writeFile(w.source(), "#include \"outer.h\"\n__kernel void k(__global int *x) { x[0] = VAL; }\n");
        writeFile(w.dir.filePath(QStringLiteral("outer.h")), "#define INNER \"val.h\"\n#include INNER\n");
        QCOMPARE(buildProgram(request(dev, w), cache).cache(), CacheState::Off);
        writeFile(w.source(), "__kernel void k(__global int *x) { x[0] = VAL; }\n");
        const std::string option = "-include " + w.dir.filePath(QStringLiteral("val.h")).toStdString();
        // (PoCL refuses the option; a driver that takes it must not be handed a stale binary.)
        const BuildResult forced = buildProgram(request(dev, w, option), cache);
        QCOMPARE(forced.cache(), CacheState::Off);
        QVERIFY(forced.cacheNote().find("-include") != std::string::npos);
        // A plain program still uses the cache.
        QCOMPARE(buildProgram(request(dev, w, "-D VAL=3"), cache).cache(), CacheState::Miss);
        QCOMPARE(buildProgram(request(dev, w, "-D VAL=3"), cache).cache(), CacheState::Hit);
    }

    // Issue 17 item 9: a FIFO where the entry goes blocked the build forever (a blocking open with no
    // writer). It is now a miss, and the rebuild puts a regular entry there.
    void fifoEntryIsAMiss()
    {
        if (!m_haveDrivers)
            QSKIP("PoCL or Oclgrind is not installed");
        const SelectedDevice dev = selectDevice("pocl");
        Workspace w;
        fill(w);
        const BinaryCache cache(w.cache().toStdString());
        QCOMPARE(buildProgram(request(dev, w), cache).cache(), CacheState::Miss);
        const fs::path entry = entriesIn(w.cache()).front();
        fs::remove(entry);
        QCOMPARE(mkfifo(entry.c_str(), 0600), 0);
        const BuildResult again = buildProgram(request(dev, w), cache);
        QVERIFY(again.success());
        QCOMPARE(again.cache(), CacheState::Miss);
        QVERIFY(fs::is_regular_file(entry));
        QCOMPARE(buildProgram(request(dev, w), cache).cache(), CacheState::Hit);
    }

    // "An unwritable cache says so": the store failure is in the result, not a silent miss forever.
    void unwritableCacheIsNoted()
    {
        if (!m_haveDrivers)
            QSKIP("PoCL or Oclgrind is not installed");
        const SelectedDevice dev = selectDevice("pocl");
        Workspace w;
        fill(w);
        writeFile(w.dir.filePath(QStringLiteral("file")), "x");
        const BinaryCache cache(w.dir.filePath(QStringLiteral("file/cache")).toStdString());
        const BuildResult r = buildProgram(request(dev, w), cache);
        QVERIFY(r.success());
        QCOMPARE(r.cache(), CacheState::Miss);
        QVERIFY2(
            QString::fromStdString(r.cacheNote())
                .startsWith(QStringLiteral("the binary cache cannot keep this build: cannot create the cache "
                                           "folder ")),
            r.cacheNote().c_str());
        QVERIFY(r.cacheNote().find("Not a directory") != std::string::npos);
    }

    // ENOSPC by name: a cache on a full file system (a 64 KiB tmpfs, filled) says "No space left on
    // device" in the result instead of a silent miss. Needs root for the mount; skipped otherwise.
    void fullCacheDiskIsNamed()
    {
        if (!m_haveDrivers)
            QSKIP("PoCL or Oclgrind is not installed");
        QTemporaryDir mountPoint;
        if (geteuid() != 0 ||
            ::mount("tmpfs", mountPoint.path().toLocal8Bit().constData(), "tmpfs", 0, "size=64k") != 0)
            QSKIP("mounting a small tmpfs needs root (CAP_SYS_ADMIN)");
        struct Unmount
        {
            QByteArray path;
            ~Unmount() { ::umount(path.constData()); }
        } unmount{mountPoint.path().toLocal8Bit()};
        {
            QFile filler(mountPoint.filePath(QStringLiteral("filler")));
            QVERIFY(filler.open(QIODevice::WriteOnly));
            const QByteArray block(4096, 'x');
            while (filler.write(block) == block.size() && filler.flush()) {
            }
        }
        const SelectedDevice dev = selectDevice("pocl");
        Workspace w;
        fill(w);
        const BinaryCache cache(mountPoint.filePath(QStringLiteral("cache")).toStdString());
        const BuildResult r = buildProgram(request(dev, w), cache);
        QVERIFY(r.success());
        QCOMPARE(r.cache(), CacheState::Miss);
        QVERIFY2(r.cacheNote().find("No space left on device") != std::string::npos, r.cacheNote().c_str());
        QVERIFY(entriesIn(mountPoint.filePath(QStringLiteral("cache"))).empty()); // no partial entry left
    }

    void noCacheIsOff()
    {
        if (!m_haveDrivers)
            QSKIP("PoCL or Oclgrind is not installed");
        const SelectedDevice dev = selectDevice("oclgrind");
        Workspace w;
        fill(w);
        qputenv("CLSCOPE_CACHE_DIR", w.cache().toLocal8Bit());
        qputenv("CLSCOPE_NO_CACHE", "1");
        const BuildResult r = buildProgram(request(dev, w)); // the environment's cache
        qunsetenv("CLSCOPE_NO_CACHE");
        qunsetenv("CLSCOPE_CACHE_DIR");
        QVERIFY(r.success());
        QCOMPARE(r.cache(), CacheState::Off);
        QCOMPARE(r.logs().front().cache, CacheState::Off);
        QVERIFY(!QFileInfo::exists(w.cache()));
    }

    void concurrentBuilders()
    {
        if (!m_haveDrivers)
            QSKIP("PoCL or Oclgrind is not installed");
        const SelectedDevice dev = selectDevice("pocl");
        Workspace w;
        fill(w);
        const BinaryCache cache(w.cache().toStdString());
        std::vector<BuildResult> results(2);
        std::vector<std::string> errors(2);
        std::vector<std::thread> threads;
        for (size_t i = 0; i < results.size(); ++i) {
            threads.emplace_back([&, i] {
                try {
                    results[i] = buildProgram(request(dev, w), cache);
                } catch (const std::exception &e) {
                    errors[i] = e.what();
                }
            });
        }
        for (auto &t : threads)
            t.join();
        for (size_t i = 0; i < results.size(); ++i) {
            QVERIFY2(errors[i].empty(), errors[i].c_str());
            QVERIFY(results[i].success());
            QVERIFY(results[i].cache() != CacheState::Off);
        }
        const auto files = entriesIn(w.cache());
        QCOMPARE(files.size(), size_t(1));
        std::ifstream in(files.front(), std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QVERIFY(bytes.size() > 96);
        QCOMPARE(buildProgram(request(dev, w), cache).cache(), CacheState::Hit);
    }
};

QTEST_GUILESS_MAIN(TestBuildCache)
#include "tst_buildcache.moc"
