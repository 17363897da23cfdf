// Build options: shell-like splitting (quotes, escapes, errors), joining that splits back to the same
// tokens, -I discovery, per-platform defaults and the order of the effective options.
#include "clscope/build.h"

#include <QTest>

using namespace clscope;

namespace {

QStringList toList(const std::vector<std::string> &tokens)
{
    QStringList out;
    for (const auto &t : tokens)
        out << QString::fromStdString(t);
    return out;
}

} // namespace

class TestBuildOptions : public QObject
{
    Q_OBJECT

private slots:
    void split_data()
    {
        QTest::addColumn<QString>("options");
        QTest::addColumn<QStringList>("tokens");
        using L = QStringList;
        QTest::newRow("empty") << QString() << L{};
        QTest::newRow("blanks only") << QStringLiteral(" \t\n ") << L{};
        QTest::newRow("words") << QStringLiteral("-D N=4 -cl-fast-relaxed-math")
                               << L{QStringLiteral("-D"), QStringLiteral("N=4"),
                                    QStringLiteral("-cl-fast-relaxed-math")};
        QTest::newRow("runs of blanks")
            << QStringLiteral("  -DA \t -DB  ") << L{QStringLiteral("-DA"), QStringLiteral("-DB")};
        QTest::newRow("double quotes keep spaces")
            << QStringLiteral("-I \"/my dir/inc\" -DX")
            << L{QStringLiteral("-I"), QStringLiteral("/my dir/inc"), QStringLiteral("-DX")};
        QTest::newRow("single quotes keep spaces")
            << QStringLiteral("-I '/my dir' -DX")
            << L{QStringLiteral("-I"), QStringLiteral("/my dir"), QStringLiteral("-DX")};
        QTest::newRow("quotes inside a word")
            << QStringLiteral("-I\"/a b\"/c") << L{QStringLiteral("-I/a b/c")};
        QTest::newRow("adjacent quotes join") << QStringLiteral("'a'\"b\"c") << L{QStringLiteral("abc")};
        QTest::newRow("empty quotes are a token")
            << QStringLiteral("-D '' \"\"") << L{QStringLiteral("-D"), QString(), QString()};
        QTest::newRow("backslash escapes a space")
            << QStringLiteral("-I /my\\ dir") << L{QStringLiteral("-I"), QStringLiteral("/my dir")};
        QTest::newRow("backslash escapes a quote")
            << QStringLiteral("-DQ=\\\"x\\\"") << L{QStringLiteral("-DQ=\"x\"")};
        QTest::newRow("escaped quote in double quotes")
            << QStringLiteral("\"-DS=\\\"hi there\\\"\"") << L{QStringLiteral("-DS=\"hi there\"")};
        QTest::newRow("other backslash in double quotes stays")
            << QStringLiteral("\"a\\nb\"") << L{QStringLiteral("a\\nb")};
        QTest::newRow("escaped backslash") << QStringLiteral("a\\\\b") << L{QStringLiteral("a\\b")};
        QTest::newRow("single quotes are literal")
            << QStringLiteral("'a\\\"b'") << L{QStringLiteral("a\\\"b")};
        QTest::newRow("double quote inside single")
            << QStringLiteral("'say \"x\"'") << L{QStringLiteral("say \"x\"")};
        QTest::newRow("newline separates")
            << QStringLiteral("-DA\n-DB") << L{QStringLiteral("-DA"), QStringLiteral("-DB")};
    }

    void split()
    {
        QFETCH(QString, options);
        QFETCH(QStringList, tokens);
        QCOMPARE(toList(splitOptions(options.toStdString())), tokens);
    }

    void splitErrors_data()
    {
        QTest::addColumn<QString>("options");
        QTest::addColumn<QString>("message");
        QTest::newRow("unterminated double")
            << QStringLiteral("-I \"/a b") << QStringLiteral("unterminated \" quote");
        QTest::newRow("unterminated single")
            << QStringLiteral("-D 'x") << QStringLiteral("unterminated ' quote");
        QTest::newRow("escaped closing quote")
            << QStringLiteral("\"abc\\\"") << QStringLiteral("unterminated \" quote");
        QTest::newRow("lone backslash") << QStringLiteral("-DA \\") << QStringLiteral("lone backslash");
    }

    void splitErrors()
    {
        QFETCH(QString, options);
        QFETCH(QString, message);
        try {
            splitOptions(options.toStdString());
            QFAIL("no exception");
        } catch (const BuildInputError &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
        }
    }

    void joinRoundTrip_data()
    {
        QTest::addColumn<QStringList>("tokens");
        using L = QStringList;
        QTest::newRow("plain") << L{QStringLiteral("-D"), QStringLiteral("N=4")};
        QTest::newRow("space") << L{QStringLiteral("-I"), QStringLiteral("/my dir")};
        QTest::newRow("quotes") << L{QStringLiteral("-DS=\"x y\""), QStringLiteral("it's")};
        QTest::newRow("backslashes") << L{QStringLiteral("a\\b"), QStringLiteral("c\\"),
                                          QStringLiteral("\\\"")};
        QTest::newRow("empty token") << L{QString(), QStringLiteral("-DA")};
        QTest::newRow("tab") << L{QStringLiteral("a\tb")};
    }

    void joinRoundTrip()
    {
        QFETCH(QStringList, tokens);
        std::vector<std::string> in;
        for (const QString &t : tokens)
            in.push_back(t.toStdString());
        const std::string joined = joinOptions(in);
        QCOMPARE(toList(splitOptions(joined)), tokens);
    }

    void joinLeavesPlainTokensAlone()
    {
        QCOMPARE(joinOptions({"-D", "N=4", "-I", "/usr/include"}), std::string("-D N=4 -I /usr/include"));
        QCOMPARE(joinOptions({"-I", "/a b"}), std::string("-I \"/a b\""));
    }

    void includePaths_data()
    {
        QTest::addColumn<QString>("options");
        QTest::addColumn<QStringList>("paths");
        using L = QStringList;
        QTest::newRow("none") << QStringLiteral("-D A -cl-std=CL2.0") << L{};
        QTest::newRow("separate") << QStringLiteral("-I inc") << L{QStringLiteral("inc")};
        QTest::newRow("joined") << QStringLiteral("-Iinc -I/abs/path")
                                << L{QStringLiteral("inc"), QStringLiteral("/abs/path")};
        QTest::newRow("quoted separate") << QStringLiteral("-I \"/my dir\"") << L{QStringLiteral("/my dir")};
        QTest::newRow("quoted joined") << QStringLiteral("\"-I/my dir\" '-I/other one'")
                                       << L{QStringLiteral("/my dir"), QStringLiteral("/other one")};
        QTest::newRow("order kept") << QStringLiteral("-I b -DX -Ia -I c")
                                    << L{QStringLiteral("b"), QStringLiteral("a"), QStringLiteral("c")};
        QTest::newRow("dangling -I") << QStringLiteral("-DX -I") << L{};
        QTest::newRow("not an include") << QStringLiteral("-Dinclude -isystem x") << L{};
    }

    void includePaths()
    {
        QFETCH(QString, options);
        QFETCH(QStringList, paths);
        QCOMPARE(toList(clscope::includePaths(splitOptions(options.toStdString()))), paths);
    }

    void platformDefaults_data()
    {
        QTest::addColumn<QString>("platform");
        QTest::addColumn<QString>("options");
        QTest::newRow("oclgrind") << QStringLiteral("Oclgrind")
                                  << QStringLiteral("-D CLSCOPE_USING_OCLGRIND -D PYOPENCL_USING_OCLGRIND");
        QTest::newRow("pocl by name")
            << QStringLiteral("Portable Computing Language") << QStringLiteral("-D CLSCOPE_USING_POCL");
        QTest::newRow("pocl word") << QStringLiteral("PoCL CUDA") << QStringLiteral("-D CLSCOPE_USING_POCL");
        QTest::newRow("nvidia") << QStringLiteral("NVIDIA CUDA") << QString();
        QTest::newRow("empty") << QString() << QString();
    }

    void platformDefaults()
    {
        QFETCH(QString, platform);
        QFETCH(QString, options);
        QCOMPARE(QString::fromStdString(joinOptions(platformDefaultOptions(platform.toStdString()))),
                 options);
    }

    void effectiveOrder()
    {
        OptionInputs in;
        in.platformName = "Portable Computing Language";
        in.userOptions = "-D N=4 -I \"my inc\"";
        in.sourceDirectory = "/src dir";
        in.environment = "-cl-fast-relaxed-math";
        QCOMPARE(
            joinOptions(effectiveOptions(in)),
            std::string("-I \"/src dir\" -D N=4 -I \"my inc\" -D CLSCOPE_USING_POCL -cl-fast-relaxed-math "
                        "-cl-kernel-arg-info"));
        // Already present: not added twice.
        in.environment = "-cl-kernel-arg-info";
        const auto tokens = effectiveOptions(in);
        QCOMPARE(std::count(tokens.begin(), tokens.end(), std::string("-cl-kernel-arg-info")), 1);
        in.kernelArgInfo = false;
        in.environment.clear();
        in.platformName = "Oclgrind";
        in.sourceDirectory.clear();
        QCOMPARE(joinOptions(effectiveOptions(in)),
                 std::string("-D N=4 -I \"my inc\" -D CLSCOPE_USING_OCLGRIND -D PYOPENCL_USING_OCLGRIND"));
        // pyopencl's own variable after ours, split the same way (pyopencl splits it at blanks).
        in.environment = "-D A=1";
        in.pyopenclEnvironment = "-D B=2  -cl-mad-enable";
        QCOMPARE(
            joinOptions(effectiveOptions(in)),
            std::string("-D N=4 -I \"my inc\" -D CLSCOPE_USING_OCLGRIND -D PYOPENCL_USING_OCLGRIND -D A=1 "
                        "-D B=2 -cl-mad-enable"));
        in.pyopenclEnvironment = "-D 'x";
        QVERIFY_THROWS_EXCEPTION(BuildInputError, effectiveOptions(in));
    }

    void malformedEnvironmentNamed()
    {
        OptionInputs in;
        in.environment = "-D 'x";
        try {
            effectiveOptions(in);
            QFAIL("no exception");
        } catch (const BuildInputError &e) {
            QVERIFY2(
                QString::fromUtf8(e.what()).startsWith(QStringLiteral("CLSCOPE_BUILD_OPTIONS: unterminated")),
                e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestBuildOptions)
#include "tst_buildoptions.moc"
