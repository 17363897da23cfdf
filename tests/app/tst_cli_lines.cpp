// clscope-cli run --lines: the line profile of kernels whose work is known by arithmetic
// (tests/data/lines/work.cl) on Oclgrind with CLScope's plugin. A copy of N floats moves 8N bytes, a matmul
// of n^3 multiply-adds counts 2n^3 flops, a work-group reduction reaches its barriers and diverges where its
// work-items part, vload4/vstore4 move their 16 bytes, atomics count once a work-item; the totals equal
// Oclgrind's own --inst-counts (OCLGRIND_INST_COUNTS) for the same launch; a missing plugin is one clear
// line. Sampling (--sample-groups): the chosen work-groups run with their own group ids, a kernel whose
// groups all work alike counts exactly what the whole launch does once scaled, and one whose work per group
// depends on its data stays within the bound docs/user-guide.md states.
#include "clitest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cmath>

namespace {

const QString kWork = QStringLiteral(CLSCOPE_TEST_DATA "/lines/work.cl");

qint64 count(const QJsonObject &counts, const char *key)
{
    return counts.value(QLatin1String(key)).toInteger(-1);
}

qint64 bytes(const QJsonObject &counts, const char *direction, const char *space)
{
    return counts.value(QLatin1String(direction)).toObject().value(QLatin1String(space)).toInteger(-1);
}

// The line of the kernel's profile whose source text contains `text`.
QJsonObject lineWith(const QJsonObject &kernel, const char *text)
{
    for (const QJsonValue &v : kernel.value(QLatin1String("lines")).toArray()) {
        if (v.toObject().value(QLatin1String("source_line")).toString().contains(QLatin1String(text)))
            return v.toObject();
    }
    return {};
}

} // namespace

using clitest::words;

class TestCliLines : public QObject
{
    Q_OBJECT
    QTemporaryDir m_cache;

    // The profile of one kernel of work.cl: doc["lines"][0], with the run's exit code checked.
    QJsonObject profile(const QStringList &launch)
    {
        const clitest::Result r = clitest::run(
            QStringList{QStringLiteral("run"), kWork} + launch + words("--lines --json"), m_cache.path());
        if (r.exitCode != 0) {
            qWarning("exit %d: %s %s", r.exitCode, r.out.constData(), r.err.constData());
            return {};
        }
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        const QJsonArray kernels = doc.value(QLatin1String("lines")).toArray();
        if (kernels.size() != 1) {
            qWarning("%lld kernels profiled: %s", qint64(kernels.size()), r.out.constData());
            return {};
        }
        return kernels.first().toObject();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid());
        if (!QFile::exists(QStringLiteral("/usr/bin/oclgrind")))
            QSKIP("Oclgrind is not installed (packaging/install-deps.sh installs it)");
    }

    void copyMovesEightBytesAnElement()
    {
        const QJsonObject k =
            profile(words("--kernel copy --global 1024 --local 64 --arg a=buffer:float:1024:iota "
                          "--arg b=buffer:float:1024"));
        QCOMPARE(k.value(QLatin1String("kernel")).toString(), QStringLiteral("copy"));
        QCOMPARE(k.value(QLatin1String("work_items")).toInteger(), 1024);
        const QJsonObject total = k.value(QLatin1String("total")).toObject();
        QCOMPARE(bytes(total, "load", "global"), 4 * 1024);
        QCOMPARE(bytes(total, "store", "global"), 4 * 1024);
        QCOMPARE(count(total, "flops32"), 0);
        // All of it on the line that copies, named as the user named the file.
        const QJsonObject line = lineWith(k, "b[i] = a[i];");
        QCOMPARE(line.value(QLatin1String("line")).toInt(), 5);
        QCOMPARE(line.value(QLatin1String("file")).toString(), kWork);
        QCOMPARE(bytes(line, "load", "global") + bytes(line, "store", "global"), 8 * 1024);
    }

    void matmulCountsTwoFlopsAMultiplyAdd()
    {
        const int n = 16;
        const QJsonObject k =
            profile(words("--kernel matmul --global 16,16 --local 4,4 --arg A=buffer:float:256:iota "
                          "--arg B=buffer:float:256:fill=1 --arg C=buffer:float:256 --arg n=int:16"));
        const QJsonObject total = k.value(QLatin1String("total")).toObject();
        QCOMPARE(count(total, "flops32"), 2 * n * n * n);
        QCOMPARE(bytes(total, "load", "global"), 2 * n * n * n * 4);
        QCOMPARE(bytes(total, "store", "global"), n * n * 4);
        const QJsonObject inner = lineWith(k, "sum += A[row * n + k] * B[k * n + col];");
        QCOMPARE(count(inner, "flops32"), 2 * n * n * n);
    }

    void reductionReachesItsBarriers()
    {
        // 256 work-items in groups of 64: 1 barrier before the loop and 6 in it (stride = 32 .. 1) each.
        const QJsonObject k =
            profile(words("--kernel reduce --global 256 --local 64 --arg in=buffer:float:256:fill=1 "
                          "--arg out=buffer:float:4 --arg scratch=local:256"));
        const QJsonObject total = k.value(QLatin1String("total")).toObject();
        QCOMPARE(count(total, "barriers"), 256 * 7);
        QCOMPARE(bytes(total, "load", "global"), 256 * 4);
        QCOMPARE(bytes(total, "store", "global"), 4 * 4);
        // Local memory: every work-item stores its element; the adds of the loop read two and write one
        // (63 adds a group), the first work-item reads the sum.
        QCOMPARE(bytes(total, "store", "local"), 4 * (64 + 63) * 4);
        QCOMPARE(bytes(total, "load", "local"), 4 * (63 * 2 + 1) * 4);
        // The loop's test parts the work-items of every group.
        QCOMPARE(count(lineWith(k, "if (l < stride)"), "divergent_groups"), 4);
        QCOMPARE(count(lineWith(k, "scratch[l] = in[get_global_id(0)];"), "divergent_groups"), 0);
    }

    void divergenceCountsGroups()
    {
        const QJsonObject k =
            profile(words("--kernel diverge --global 64 --local 16 --arg x=buffer:float:64:iota "
                          "--arg y=buffer:float:64 --arg evens=buffer:int:1:zeros"));
        QCOMPARE(count(lineWith(k, "if (i % 2)"), "divergent_groups"), 4);
        QCOMPARE(count(k.value(QLatin1String("total")).toObject(), "flops32"), 32);
        QCOMPARE(count(lineWith(k, "atomic_inc(evens);"), "atomics"), 32);
    }

    void vectorLoadsCountTheirBytes()
    {
        // --inst-counts counts 0 bytes for vload4/vstore4; the memory callbacks give 16 each.
        const QJsonObject k = profile(words("--kernel vec4 --global 256 --arg a=buffer:float:1024:iota "
                                            "--arg b=buffer:float:1024"));
        const QJsonObject total = k.value(QLatin1String("total")).toObject();
        QCOMPARE(bytes(total, "load", "global"), 256 * 16);
        QCOMPARE(bytes(total, "store", "global"), 256 * 16);
        QCOMPARE(count(total, "flops32"), 256 * 4);
    }

    void atomicsCountOnceAWorkItem()
    {
        const QJsonObject k = profile(words("--kernel count --global 100 --arg counter=buffer:int:1:zeros"));
        const QJsonObject line = lineWith(k, "atomic_inc(counter);");
        QCOMPARE(count(line, "atomics"), 100);
        QCOMPARE(bytes(line, "load", "global"), 100 * 4);
        QCOMPARE(bytes(line, "store", "global"), 100 * 4);
    }

    void totalsEqualOclgrindsInstructionCounts()
    {
        // Oclgrind's own counter prints to the child's stdout (so the text run shows it, before the profile);
        // ours comes from the JSON run of the same launch.
        const QStringList launch =
            QStringList{QStringLiteral("run"), kWork} +
            words("--kernel matmul --global 8,8 --arg A=buffer:float:64:iota "
                  "--arg B=buffer:float:64:iota --arg C=buffer:float:64 --arg n=int:8 --lines");
        qputenv("OCLGRIND_INST_COUNTS", "1");
        const clitest::Result text = clitest::run(launch, m_cache.path());
        qunsetenv("OCLGRIND_INST_COUNTS");
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("Instructions executed for kernel 'matmul'"), text.out.constData());
        std::map<QString, qint64> theirs;
        qint64 theirTotal = 0;
        static const QRegularExpression row(QStringLiteral(R"(^\s*([0-9]+) - (.+)$)"));
        for (const QByteArray &l : text.out.split('\n')) {
            const auto m = row.match(QString::fromUtf8(l));
            if (!m.hasMatch())
                continue;
            // "load global (2048 bytes)" is our "load": loads and stores are counted by instruction here.
            QString name = m.captured(2);
            name = name.section(u' ', 0, 0) == QLatin1String("call") ? name : name.section(u' ', 0, 0);
            theirs[name] += m.captured(1).toLongLong();
            theirTotal += m.captured(1).toLongLong();
        }
        QVERIFY(theirTotal > 0);
        const QByteArray header =
            "Kernel matmul: 64 work-items, " + QByteArray::number(theirTotal) + " instructions";
        QVERIFY2(text.out.contains(header), text.out.constData());

        const QJsonObject k = profile(launch.mid(2, launch.size() - 3));
        QCOMPARE(count(k.value(QLatin1String("total")).toObject(), "executed"), theirTotal);
        const QJsonObject ours = k.value(QLatin1String("instructions")).toObject();
        QCOMPARE(qsizetype(ours.size()), qsizetype(theirs.size()));
        for (const auto &[name, n] : theirs)
            QCOMPARE(ours.value(name).toInteger(), n);
    }

    void uniformKernelsAreExactWhenSampled_data()
    {
        QTest::addColumn<QString>("launch");
        QTest::newRow("copy") << "--kernel copy --global 4096 --local 64 --arg a=buffer:float:4096:iota "
                                 "--arg b=buffer:float:4096";
        QTest::newRow("matmul 2-D")
            << "--kernel matmul --global 32,32 --local 4,4 --arg A=buffer:float:1024:iota "
               "--arg B=buffer:float:1024:fill=1 --arg C=buffer:float:1024 --arg n=int:32";
        QTest::newRow("reduce")
            << "--kernel reduce --global 2048 --local 64 --arg in=buffer:float:2048:fill=1 "
               "--arg out=buffer:float:32 --arg scratch=local:256";
        QTest::newRow("diverge")
            << "--kernel diverge --global 1024 --local 16 --arg x=buffer:float:1024:iota "
               "--arg y=buffer:float:1024 --arg evens=buffer:int:1:zeros";
        QTest::newRow("vec4") << "--kernel vec4 --global 1024 --local 32 --arg a=buffer:float:4096:iota "
                                 "--arg b=buffer:float:4096";
    }

    void uniformKernelsAreExactWhenSampled()
    {
        QFETCH(QString, launch);
        const QJsonObject whole =
            profile(launch.split(u' ', Qt::SkipEmptyParts) + words("--sample-groups 0"));
        const QJsonObject sampled =
            profile(launch.split(u' ', Qt::SkipEmptyParts) + words("--sample-groups 5"));
        QVERIFY(!whole.isEmpty() && !sampled.isEmpty());
        QCOMPARE(whole.value(QLatin1String("sampled")).toBool(), false);
        QCOMPARE(sampled.value(QLatin1String("sampled")).toBool(), true);
        QCOMPARE(sampled.value(QLatin1String("work_groups_run")).toInteger(), 5);
        QCOMPARE(sampled.value(QLatin1String("work_groups")).toInteger(),
                 whole.value(QLatin1String("work_groups")).toInteger());
        QVERIFY(
            sampled.value(QLatin1String("sampling")).toString().startsWith(QLatin1String("sampled 5 of ")));
        // Every count of every line, of the totals and of every instruction, divergent groups included.
        for (const char *key : {"total", "unlocated", "group_copies", "instructions"})
            QCOMPARE(sampled.value(QLatin1String(key)), whole.value(QLatin1String(key)));
        QCOMPARE(sampled.value(QLatin1String("lines")), whole.value(QLatin1String("lines")));
    }

    void sampledGroupsAreSpreadAndKeepTheirIds()
    {
        // 16 groups, 5 of them: floor(k * 15 / 4) = 0, 3, 7, 11, 15. Each writes its sum at its group id, so
        // the groups that ran show, and get_group_id is the launch's own (no sub-launches with offsets).
        const clitest::Result r = clitest::run(
            QStringList{QStringLiteral("run"), kWork} +
                words("--kernel reduce --global 1024 --local 64 --arg in=buffer:float:1024:fill=1 "
                      "--arg out=buffer:float:16 --arg scratch=local:256 --print out --lines --json "
                      "--sample-groups 5"),
            m_cache.path());
        QCOMPARE(r.exitCode, 0);
        const QJsonArray out = QJsonDocument::fromJson(r.out)
                                   .object()
                                   .value(QLatin1String("buffers"))
                                   .toObject()
                                   .value(QLatin1String("out"))
                                   .toArray();
        QCOMPARE(out.size(), 16);
        for (int g = 0; g < 16; ++g) {
            const bool ran = g == 0 || g == 3 || g == 7 || g == 11 || g == 15;
            QCOMPARE(out[g].toDouble(), ran ? 64.0 : 0.0);
        }
    }

    void dataDependentWorkIsWithinItsBound()
    {
        // Group g runs steps[g] iterations, steps uniform in [0, 64]: a group's work is as likely small as
        // large, a spread (coefficient of variation 0.58) few kernels have. The sample errs like a random
        // one, about 0.58 / sqrt(256) * sqrt(1 - 256 / 1024) = 3.1 % (one standard deviation); measured -4.8
        // % for executed instructions and -5.0 % for flops with this seed; the bound is three deviations, 10
        // %.
        const QStringList launch =
            words("--kernel uneven --global 16384 --local 16 "
                  "--arg steps=buffer:int:1024:random=7:0:64 --arg out=buffer:float:16384");
        const QJsonObject whole = profile(launch + words("--sample-groups 0"));
        const QJsonObject sampled = profile(launch + words("--sample-groups 256"));
        for (const char *key : {"executed", "flops32"}) {
            const double w = double(count(whole.value(QLatin1String("total")).toObject(), key));
            const double s = double(count(sampled.value(QLatin1String("total")).toObject(), key));
            QVERIFY(w > 0);
            qInfo("%s: whole %.0f, sampled and scaled %.0f, %+.2f %%", key, w, s, 100 * (s - w) / w);
            QVERIFY2(std::abs(s - w) / w < 0.10, key);
        }
    }

    void textSaysWhatWasSampled()
    {
        const clitest::Result r =
            clitest::run(QStringList{QStringLiteral("run"), kWork} +
                             words("--kernel copy --global 4096 --local 64 --arg a=buffer:float:4096:iota "
                                   "--arg b=buffer:float:4096 --lines --sample-groups 8"),
                         m_cache.path());
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("Sampled: only some work-groups ran"), r.out.constData());
        QVERIFY2(r.out.contains("Kernel copy: 4096 work-items, 24576 instructions"), r.out.constData());
        QVERIFY2(r.out.contains("  sampled 8 of 64 work-groups (evenly spread, every 9th, first and last "
                                "included), counts scaled by 8 (divergent groups too)\n"),
                 r.out.constData());
    }

    void textShowsTheLines()
    {
        const clitest::Result r = clitest::run(
            QStringList{QStringLiteral("run"), kWork} +
                words(
                    "--kernel matmul --global 8,8 --arg A=buffer:float:64:iota --arg B=buffer:float:64:iota "
                    "--arg C=buffer:float:64 --arg n=int:8 --lines"),
            m_cache.path());
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith("Line profile on Oclgrind"), r.out.constData());
        QVERIFY2(r.out.contains("Kernel matmul: 64 work-items,"), r.out.constData());
        // The inner loop's line: 8^3 multiply-adds, 1024 flops, with its source text.
        static const QRegularExpression inner(QStringLiteral(
            R"(\n\s+15\s+\S+\s+[0-9.]+\s+1024\s.*sum \+= A\[row \* n \+ k\] \* B\[k \* n \+ col\];)"));
        QVERIFY2(inner.match(QString::fromUtf8(r.out)).hasMatch(), r.out.constData());
    }

    void missingPluginIsOneLine()
    {
        qputenv("CLSCOPE_OCLGRIND_PLUGIN", "/nonexistent/libclscope-oclgrind.so");
        const clitest::Result r = clitest::run(
            QStringList{QStringLiteral("run"), kWork} +
                words("--kernel copy --global 4 --arg a=buffer:float:4 --arg b=buffer:float:4 --lines"),
            m_cache.path());
        qunsetenv("CLSCOPE_OCLGRIND_PLUGIN");
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("CLSCOPE_OCLGRIND_PLUGIN=/nonexistent/libclscope-oclgrind.so is not a file"),
                 r.err.constData());
        QCOMPARE(r.err.count('\n'), 1);
    }

    void linesAndCheckAreTwoRuns()
    {
        const clitest::Result r = clitest::run(
            QStringList{QStringLiteral("run"), kWork} +
                words(
                    "--kernel copy --global 4 --arg a=buffer:float:4 --arg b=buffer:float:4 --lines --check"),
            m_cache.path());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--lines and --check"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliLines)
#include "tst_cli_lines.moc"
