// The scripted GUI (clscope --open ... --screenshot OUT.png) as a script or CI job runs it: it never
// waits on a modal message, exits 1 when a file, the build, the kernel or an argument fails (with the
// reason on stderr), refuses a FIFO or /dev/zero as a file at once, leaves nothing in its temporary folder,
// and clamps an absurd --size instead of crashing.
#include <QDir>
#include <QFile>
#include <QImageReader>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

#include <sys/stat.h>

namespace {
const QByteArray kGood = "__kernel void scale(__global float *data, float factor)\n"
                         "{\n    data[get_global_id(0)] *= factor;\n}\n";
const QByteArray kBroken = "__kernel void broken(__global float *out)\n{\n    out[0] = x + 1.0f;\n}\n";
} // namespace

class TestGuiScripted : public QObject
{
    Q_OBJECT

private slots:
    void scriptedSessions_data()
    {
        QTest::addColumn<QStringList>("args"); // $DIR is the test's folder
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrText");
        QTest::addColumn<bool>("picture");
        const QString shot = QStringLiteral("$DIR/out.png");
        QTest::newRow("missing file")
            << QStringList{QStringLiteral("--open"), QStringLiteral("$DIR/missing.cl"),
                           QStringLiteral("--screenshot"), shot}
            << 1 << QStringLiteral("missing.cl: the file does not exist") << false;
        QTest::newRow("folder as file") << QStringList{QStringLiteral("--open"), QStringLiteral("$DIR"),
                                                       QStringLiteral("--screenshot"), shot}
                                        << 1 << QStringLiteral("it is a folder") << false;
        // Issue 27: a FIFO blocked the GUI before its window showed; /dev/zero was read until bad_alloc.
        QTest::newRow("FIFO as file") << QStringList{QStringLiteral("--open"), QStringLiteral("$DIR/pipe.cl"),
                                                     QStringLiteral("--screenshot"), shot}
                                      << 1 << QStringLiteral("pipe.cl: not a regular file (a FIFO)") << false;
        QTest::newRow("/dev/zero as file")
            << QStringList{QStringLiteral("--open"), QStringLiteral("/dev/zero"),
                           QStringLiteral("--screenshot"), shot}
            << 1 << QStringLiteral("/dev/zero: not a regular file (a character device)") << false;
        QTest::newRow("FIFO as sweep results")
            << QStringList{QStringLiteral("--sweep-results"), QStringLiteral("$DIR/pipe.cl"),
                           QStringLiteral("--screenshot"), shot}
            << 1 << QStringLiteral("pipe.cl: not a regular file (a FIFO)") << true;
        QTest::newRow("build error") << QStringList{QStringLiteral("--open"),
                                                    QStringLiteral("$DIR/broken.cl"),
                                                    QStringLiteral("--build"), QStringLiteral("--screenshot"),
                                                    shot}
                                     << 1 << QStringLiteral("the build failed (line 3:") << true;
        QTest::newRow("unknown kernel") << QStringList{QStringLiteral("--open"),
                                                       QStringLiteral("$DIR/good.cl"),
                                                       QStringLiteral("--build"),
                                                       QStringLiteral("--run"),
                                                       QStringLiteral("nope"),
                                                       QStringLiteral("--screenshot"),
                                                       shot}
                                        << 1 << QStringLiteral("no kernel 'nope'") << true;
        QTest::newRow("bad argument") << QStringList{QStringLiteral("--open"),
                                                     QStringLiteral("$DIR/good.cl"),
                                                     QStringLiteral("--build"),
                                                     QStringLiteral("--run"),
                                                     QStringLiteral("scale"),
                                                     QStringLiteral("--arg"),
                                                     QStringLiteral("data=buffer:float:64:iota"),
                                                     QStringLiteral("--arg"),
                                                     QStringLiteral("factor=float:abc"),
                                                     QStringLiteral("--global"),
                                                     QStringLiteral("64"),
                                                     QStringLiteral("--screenshot"),
                                                     shot}
                                      << 1 << QStringLiteral("factor") << true;
        QTest::newRow("good run") << QStringList{QStringLiteral("--open"),
                                                 QStringLiteral("$DIR/good.cl"),
                                                 QStringLiteral("--build"),
                                                 QStringLiteral("--run"),
                                                 QStringLiteral("scale"),
                                                 QStringLiteral("--arg"),
                                                 QStringLiteral("data=buffer:float:64:iota"),
                                                 QStringLiteral("--arg"),
                                                 QStringLiteral("factor=float:2"),
                                                 QStringLiteral("--global"),
                                                 QStringLiteral("64"),
                                                 QStringLiteral("--screenshot"),
                                                 shot}
                                  << 0 << QString() << true;
        const QStringList goodRun{QStringLiteral("--open"),
                                  QStringLiteral("$DIR/good.cl"),
                                  QStringLiteral("--build"),
                                  QStringLiteral("--run"),
                                  QStringLiteral("scale"),
                                  QStringLiteral("--arg"),
                                  QStringLiteral("data=buffer:float:64:iota"),
                                  QStringLiteral("--arg"),
                                  QStringLiteral("factor=float:2"),
                                  QStringLiteral("--global"),
                                  QStringLiteral("64")};
        QTest::newRow("generated code")
            << QStringList{QStringLiteral("--open"),       QStringLiteral("$DIR/good.cl"),
                           QStringLiteral("--build"),      QStringLiteral("--show-code"),
                           QStringLiteral("--screenshot"), shot}
            << 0 << QString() << true;
        QTest::newRow("run on all devices")
            << goodRun + QStringList{QStringLiteral("--run-all"), QStringLiteral("--screenshot"), shot} << 0
            << QString() << true;
        QTest::newRow("matrix timed, code compared")
            << goodRun + QStringList{QStringLiteral("--matrix"),     QStringLiteral("|-cl-fast-relaxed-math"),
                                     QStringLiteral("--time-it"),    QStringLiteral("--code-diff"),
                                     QStringLiteral("--screenshot"), shot}
            << 0 << QString() << true;
        QTest::newRow("matrix timed without a launch")
            << QStringList{QStringLiteral("--open"),
                           QStringLiteral("$DIR/good.cl"),
                           QStringLiteral("--matrix"),
                           QStringLiteral("-cl-fast-relaxed-math"),
                           QStringLiteral("--time-it"),
                           QStringLiteral("--screenshot"),
                           shot}
            << 1 << QStringLiteral("cannot time the matrix: Cannot time: No kernel to run") << true;
        QTest::newRow("huge size") << QStringList{QStringLiteral("--size"), QStringLiteral("100000x100000"),
                                                  QStringLiteral("--screenshot"), shot}
                                   << 0 << QStringLiteral("--size 100000x100000 clamped to 8192x8192")
                                   << true;
        QTest::newRow("tiny size") << QStringList{QStringLiteral("--size"), QStringLiteral("10x10"),
                                                  QStringLiteral("--screenshot"), shot}
                                   << 0 << QStringLiteral("--size 10x10 clamped to 320x320") << true;
        QTest::newRow("not a size") << QStringList{QStringLiteral("--size"), QStringLiteral("big"),
                                                   QStringLiteral("--screenshot"), shot}
                                    << 2 << QStringLiteral("--size takes WIDTHxHEIGHT") << false;
    }

    void scriptedSessions()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrText);
        QFETCH(bool, picture);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (auto [name, text] : {std::pair{"good.cl", kGood}, std::pair{"broken.cl", kBroken}}) {
            QFile f(dir.filePath(QString::fromLatin1(name)));
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(text) == text.size());
        }
        QCOMPARE(::mkfifo(QFile::encodeName(dir.filePath(QStringLiteral("pipe.cl"))).constData(), 0600), 0);
        // Its own temporary folder, where it must leave nothing of its own (issue 27: every start left an
        // empty clscope-oclgrind-PID.log there, under a name anyone could guess).
        const QString tmp = dir.filePath(QStringLiteral("tmp"));
        QVERIFY(QDir().mkpath(tmp));
        for (QString &a : args)
            a.replace(QStringLiteral("$DIR"), dir.path());

        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        // Its own settings and autosaves: nothing of the user's (or another test's) is read or left.
        for (const char *var : {"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"})
            env.insert(QString::fromLatin1(var), dir.filePath(QStringLiteral("home")));
        env.insert(QStringLiteral("TMPDIR"), tmp);
        env.remove(QStringLiteral("OCLGRIND_LOG"));
        gui.setProcessEnvironment(env);
        gui.start(QStringLiteral(CLSCOPE_GUI_PATH), args);
        QVERIFY(gui.waitForStarted());
        // A modal message box would wait forever. Longer than the app's own 180 s limit on the work, so
        // a slow machine (a good run takes 90 s under ASan on a busy one) fails with the app's reason.
        const bool finished = gui.waitForFinished(240000);
        if (!finished) {
            gui.kill();
            gui.waitForFinished();
        }
        const QString err = QString::fromLocal8Bit(gui.readAllStandardError());
        QVERIFY2(finished, qPrintable(QStringLiteral("still running after 4 minutes; stderr: ") + err));
        QCOMPARE(gui.exitStatus(), QProcess::NormalExit);
        QVERIFY2(gui.exitCode() == exitCode,
                 qPrintable(QStringLiteral("exit %1, stderr: %2").arg(gui.exitCode()).arg(err)));
        if (!stderrText.isEmpty())
            QVERIFY2(err.contains(stderrText), qPrintable(err));
        // Only CLScope's own: Qt may make its runtime folder there when XDG_RUNTIME_DIR is not set.
        // clscope-icd-UID is kept on purpose: the user's own 0700 folder of .icd files that every start
        // reuses when XDG_RUNTIME_DIR is not set (core/src/platform/loaderenv.cpp).
        QStringList left =
            QDir(tmp).entryList({QStringLiteral("clscope*")},
                                QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
        left.removeAll(QStringLiteral("clscope-icd-") + QString::number(::getuid()));
        QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("left in TMPDIR: ") + left.join(u' ')));
        // The size from the header: an 8192x8192 picture is more than QImage decodes by default.
        QImageReader reader(dir.filePath(QStringLiteral("out.png")));
        const QSize size = reader.size();
        QCOMPARE(size.isValid(), picture);
        if (picture) {
            QVERIFY(size.width() >= 320 && size.width() <= 8192);
            QVERIFY(size.height() >= 320 && size.height() <= 8192);
        }
    }
};

QTEST_GUILESS_MAIN(TestGuiScripted)
#include "tst_gui_scripted.moc"
