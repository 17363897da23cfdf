// Real builds through the binary cache on PoCL and Oclgrind: hits, a miss on every change of options or
// headers, warnings kept with the entry, corrupt, stale, foreign and FIFO entries rebuilt, programs that
// cannot be cached, unwritable or full cache folders named, and concurrent builders. The cache without a
// driver: tst_buildcache.cpp.
#include "buildtest.h"

#include "clscope/build.h"
#include "clscope/devicespec.h"
#include "testicd.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace clscope;
using namespace buildtest;

namespace {

namespace fs = std::filesystem;

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

} // namespace

class TestCachedBuilds : public QObject
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

QTEST_GUILESS_MAIN(TestCachedBuilds)
#include "tst_cachedbuilds.moc"
