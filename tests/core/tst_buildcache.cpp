// The binary cache without a driver: SHA-256 against known vectors, the entry format and its corruption
// checks, the cache folder (atomic writes under concurrency, the environment's choice of folder), and the
// include scan and inputs behind the key. Real builds through the cache: tst_cachedbuilds.cpp.
#include "buildtest.h"

#include "clscope/build.h"

#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

using namespace clscope;
using namespace buildtest;

namespace {

namespace fs = std::filesystem;

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

private slots:
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
};

QTEST_GUILESS_MAIN(TestBuildCache)
#include "tst_buildcache.moc"
