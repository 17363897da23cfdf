// `// clscope-run:` launches in a kernel source: what the samples carry and `clscope-cli run` honours.
#include "clscope/kernelargs.h"
#include "clscope/rundirective.h"

#include <QFile>
#include <QTest>

using namespace clscope;

class TestRunDirective : public QObject
{
    Q_OBJECT
private slots:
    void oneLaunchOverTwoLines()
    {
        const auto d = parseRunDirectives("// A kernel.\n"
                                          "// clscope-run: --kernel k --global 64,64 --local 8,8\n"
                                          "//   clscope-run: --arg \"a=buffer:float:4096:fill=1\" --print a\n"
                                          "__kernel void k(__global float *a) {}\n");
        QCOMPARE(d.size(), size_t(1));
        QCOMPARE(d[0].line, 2);
        QCOMPARE(d[0].kernel, std::string("k"));
        QCOMPARE(d[0].global, std::string("64,64"));
        QCOMPARE(d[0].local, std::string("8,8"));
        QCOMPARE(d[0].args, std::vector<std::string>{"a=buffer:float:4096:fill=1"});
        QCOMPARE(d[0].prints, std::vector<std::string>{"a"});
        QCOMPARE(d[0].repeat, 1);
    }

    void aSecondKernelStartsTheNextLaunch()
    {
        const auto d = parseRunDirectives("// clscope-run: --kernel a --global 1 --repeat 3\n"
                                          "// clscope-run: --kernel b --global 2\n");
        QCOMPARE(d.size(), size_t(2));
        QCOMPARE(d[0].repeat, 3);
        QCOMPARE(d[1].kernel, std::string("b"));
        QCOMPARE(d[1].line, 2);
        QCOMPARE(findRunDirective(d, "b"), &d[1]);
        QCOMPARE(findRunDirective(d, ""), nullptr); // two launches: the kernel must be named
        QCOMPARE(findRunDirective(d, "c"), nullptr);
    }

    void otherCommentsAreNotLaunches()
    {
        QVERIFY(parseRunDirectives("// Run: --global 8\n/* clscope-run: --kernel k */\nint x; // clscope-run")
                    .empty());
    }

    void errors_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown option") << "\n// clscope-run: --kernel k --global 1 --bogus 2"
                                        << "line 2: clscope-run: unknown option '--bogus'";
        QTest::newRow("missing value") << "// clscope-run: --kernel k --global"
                                       << "line 1: clscope-run: --global needs a value";
        QTest::newRow("no kernel") << "// clscope-run: --global 4"
                                   << "line 1: clscope-run: no --kernel given";
        QTest::newRow("no global") << "// clscope-run: --kernel k"
                                   << "line 1: clscope-run: no --global given";
        QTest::newRow("bad repeat") << "// clscope-run: --kernel k --global 1 --repeat 0"
                                    << "line 1: clscope-run: --repeat 0 must be";
        QTest::newRow("open quote") << "// clscope-run: --kernel \"k --global 1"
                                    << "line 1: clscope-run: ";
    }

    void errors()
    {
        QFETCH(QString, source);
        QFETCH(QString, message);
        try {
            parseRunDirectives(source.toStdString());
            QFAIL("no error");
        } catch (const RunInputError &e) {
            QVERIFY2(QString::fromUtf8(e.what()).startsWith(message), e.what());
        }
    }

    // Every sample carries one launch for its kernel, and its arguments parse.
    void samplesCarryTheirLaunch_data()
    {
        QTest::addColumn<QString>("sample");
        QTest::addColumn<QString>("kernel");
        QTest::newRow("vector_add") << "vector_add.cl"
                                    << "vector_add";
        QTest::newRow("reduction") << "reduction.cl"
                                   << "reduce_sum";
        QTest::newRow("mandelbrot") << "mandelbrot.cl"
                                    << "mandelbrot";
        QTest::newRow("matmul_tiled") << "matmul_tiled.cl"
                                      << "matmul_tiled";
    }

    void samplesCarryTheirLaunch()
    {
        QFETCH(QString, sample);
        QFETCH(QString, kernel);
        QFile f(QStringLiteral(CLSCOPE_TEST_DATA "/../../resources/kernels/") + sample);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto d = parseRunDirectives(f.readAll().toStdString());
        QCOMPARE(d.size(), size_t(1));
        QCOMPARE(QString::fromStdString(d[0].kernel), kernel);
        QVERIFY(!d[0].args.empty());
        for (const std::string &a : d[0].args)
            parseArgSpec(a);
    }
};

QTEST_GUILESS_MAIN(TestRunDirective)
#include "tst_rundirective.moc"
