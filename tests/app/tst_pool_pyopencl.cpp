// The memory pool against pyopencl's own: random traces (allocations over a wide size mix, frees in
// random order, free_held, stop_holding) replayed by `clscope-cli pool replay --json` and by pyopencl's
// MemoryPool (tests/data/pool/pyopencl_replay.py, Debian's python3-pyopencl) on the same PoCL device,
// for leading bits 0-8 and both allocators; the four counters must be equal after every operation.
#include "clitest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <random>
#include <vector>

namespace {
const QString kPython = QStringLiteral("/usr/bin/python3");
const QString kScript = QStringLiteral(CLSCOPE_TEST_DATA "/pool/pyopencl_replay.py");
const char *const kCounters[] = {"held_blocks", "active_blocks", "managed_bytes", "active_bytes"};

using clitest::Result;

// The program in the test's environment as it is.
Result run(const QString &program, const QStringList &args)
{
    clitest::Options options;
    options.unset.clear();
    options.timeoutMs = 180000;
    options.program = program;
    return clitest::run(args, options);
}

// A trace of `ops` operations from a seed: sizes from 1 byte to 4 MiB (small ones often, powers of two
// and their neighbours, which sit on bin edges), frees of random live blocks, a free_held now and then,
// and stop_holding two thirds in when `stop` is set.
QByteArray makeTrace(unsigned seed, int ops, bool stop)
{
    std::mt19937 rng(seed);
    std::vector<int> live;
    int next = 0;
    QByteArray text = "# seed " + QByteArray::number(seed) + "\n";
    auto size = [&]() -> quint64 {
        switch (rng() % 4) {
        case 0:
            return 1 + rng() % 64;
        case 1:
            return 1 + rng() % 4096;
        case 2: {
            const quint64 p = quint64(1) << (rng() % 22);
            return std::max<quint64>(1, p + (rng() % 3) - 1);
        }
        default:
            return 1 + rng() % (4u << 20);
        }
    };
    for (int i = 0; i < ops; ++i) {
        const unsigned pick = rng() % 100;
        if (stop && i == ops * 2 / 3) {
            text += "stop_holding\n";
        } else if (pick < 3) {
            text += "free_held\n";
        } else if (pick < 50 && !live.empty()) {
            const std::size_t k = rng() % live.size();
            text += "free b" + QByteArray::number(live[k]) + "\n";
            live.erase(live.begin() + std::ptrdiff_t(k));
        } else {
            live.push_back(next);
            text += "alloc b" + QByteArray::number(next++) + " " + QByteArray::number(size()) + "\n";
        }
    }
    return text;
}
} // namespace

class TestPoolPyopencl : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        const Result probe = run(kPython, {QStringLiteral("-c"), QStringLiteral("import pyopencl")});
        if (probe.exitCode != 0)
            QFAIL("python3-pyopencl is missing: packaging/install-deps.sh installs it");
    }

    void sameCountersAsPyopencl_data()
    {
        QTest::addColumn<unsigned>("seed");
        QTest::addColumn<int>("bits");
        QTest::addColumn<QString>("allocator");
        QTest::addColumn<bool>("stop");
        for (unsigned seed = 1; seed <= 12; ++seed) {
            const int bits = int(seed % 9); // 0..8
            const QString allocator = seed % 2 ? QStringLiteral("immediate") : QStringLiteral("deferred");
            const bool stop = seed % 3 == 0;
            QTest::addRow("seed %u, %d bits, %s%s", seed, bits, qPrintable(allocator), stop ? ", stop" : "")
                << seed << bits << allocator << stop;
        }
    }

    void sameCountersAsPyopencl()
    {
        QFETCH(unsigned, seed);
        QFETCH(int, bits);
        QFETCH(QString, allocator);
        QFETCH(bool, stop);
        const QString trace = m_dir.filePath(QStringLiteral("trace-%1.txt").arg(seed));
        QFile f(trace);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(makeTrace(seed, 400, stop));
        f.close();

        const Result ours =
            run(QStringLiteral(CLSCOPE_CLI_PATH),
                {QStringLiteral("pool"), QStringLiteral("replay"), trace, QStringLiteral("--leading-bits"),
                 QString::number(bits), QStringLiteral("--allocator"), allocator, QStringLiteral("--device"),
                 QStringLiteral("pocl"), QStringLiteral("--json")});
        QVERIFY2(ours.exitCode == 0, ours.err.constData());
        const Result theirs = run(kPython, {kScript, trace, QString::number(bits), allocator});
        QVERIFY2(theirs.exitCode == 0, theirs.err.constData());

        const QJsonArray a = QJsonDocument::fromJson(ours.out).array();
        const QJsonArray b = QJsonDocument::fromJson(theirs.out).array();
        QCOMPARE(a.size(), 400);
        QCOMPARE(b.size(), a.size());
        for (qsizetype i = 0; i < a.size(); ++i) {
            const QJsonObject x = a[i].toObject();
            const QJsonObject y = b[i].toObject();
            // clscope-cli names the whole line ("alloc b3 4096"), the script the operation.
            QCOMPARE(x.value(QLatin1String("op")).toString().section(u' ', 0, 0),
                     y.value(QLatin1String("op")).toString());
            for (const char *key : kCounters) {
                const qint64 mine = x.value(QLatin1String(key)).toInteger();
                const qint64 reference = y.value(QLatin1String(key)).toInteger();
                if (mine != reference)
                    QFAIL(qPrintable(QStringLiteral("operation %1 (%2): %3 is %4, pyopencl says %5")
                                         .arg(i + 1)
                                         .arg(x.value(QLatin1String("op")).toString(), QLatin1String(key))
                                         .arg(mine)
                                         .arg(reference)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestPoolPyopencl)
#include "tst_pool_pyopencl.moc"
