// EditorTabs' autosave: after an interval, a failure shown above the editor and retried (also on a full
// disk), and recovery after a real kill -9 or abort of a child process (this binary re-executed as the
// child), claimed by one instance only or discarded.
#include "editortest.h"
#include "fulldisk.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"
#include "widgets/noticebar.h"

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <cstdio>
#include <cstdlib>

using namespace clscope::ui;
using namespace editortest;

namespace {
const QString kChildArg = QStringLiteral("--autosave-child");
const QString kTyped = QStringLiteral("typed ");
// Appended without typing: non-ASCII and CRLF must come back byte for byte.
const QString kTail = QStringLiteral("\r\n// \u00b5-kernel \u2713 tab\there\r\n");

// The child: opens a file and a new buffer, types into both, waits until both are autosaved, tells the
// parent, then either waits to be killed (-9) or aborts itself.
int runChild(const QString &file, const QString &mode)
{
    EditorTabs tabs;
    tabs.setAutosaveInterval(100);
    if (!tabs.openFile(file))
        return 2;
    QTest::keyClicks(tabs.currentEditor(), kTyped);
    tabs.currentEditor()->append(kTail);
    tabs.newDocument();
    QTest::keyClicks(tabs.currentEditor(), kTyped);
    tabs.currentEditor()->append(kTail);
    QObject::connect(&tabs, &EditorTabs::autosaved, &tabs, [&tabs, mode] {
        if (autosaveTexts(tabs.autosaveSessionPath()).size() < 2)
            return;
        std::fputs("ready\n", stdout);
        std::fflush(stdout);
        if (mode == QLatin1String("abort"))
            std::abort();
    });
    return QApplication::exec(); // until killed
}
} // namespace

class TestEditorAutosave : public QObject, private editortest::Fixture
{
    Q_OBJECT

private slots:
    void init() { setUp(); }
    void cleanup() { tearDown(); }

    void autosaveAfterInterval()
    {
        const QString a = file(QStringLiteral("a.cl"));
        EditorTabs tabs;
        tabs.setAutosaveInterval(50);
        QVERIFY(tabs.openFile(a));
        QSignalSpy autosaved(&tabs, &EditorTabs::autosaved);
        QTest::keyClicks(tabs.currentEditor(), QStringLiteral("abc "));
        QVERIFY(autosaved.wait(5000));
        const QStringList texts = autosaveTexts(tabs.autosaveSessionPath());
        QCOMPARE(texts.size(), 1);
        const QString base = tabs.autosaveSessionPath() + u'/' + texts.first().chopped(4);
        QCOMPARE(readAll(base + QStringLiteral(".txt")), QStringLiteral("abc ") + kOriginal);
        const QJsonObject meta =
            QJsonDocument::fromJson(readAll(base + QStringLiteral(".json")).toUtf8()).object();
        QCOMPARE(meta.value(QStringLiteral("path")).toString(), a);
        QCOMPARE(meta.value(QStringLiteral("title")).toString(), QStringLiteral("a.cl"));
        QVERIFY(QDateTime::fromString(meta.value(QStringLiteral("timestamp")).toString(), Qt::ISODateWithMs)
                    .isValid());

        QTest::keyClicks(tabs.currentEditor(), QStringLiteral("d"));
        QTRY_COMPARE(readAll(base + QStringLiteral(".txt")), QStringLiteral("abc d") + kOriginal);
        QVERIFY(tabs.save()); // a clean save removes it
        QVERIFY(autosaveTexts(tabs.autosaveSessionPath()).isEmpty());
        // A live instance's autosaves are not recoverable by another one.
        tabs.currentEditor()->append(QStringLiteral("z"));
        QCOMPARE(tabs.autosaveNow(), 1);
        EditorTabs other;
        QVERIFY(other.pendingRecoveries().isEmpty());
    }

    // Item 2: an autosave that cannot be written says so above the editor, keeps trying, and clears
    // the notice once a write succeeds.
    void autosaveFailureIsShownAndRetried_data()
    {
        QTest::addColumn<bool>("rootIsFile");
        QTest::newRow("autosave folder is a file") << true;
        QTest::newRow("session folder replaced by a file") << false;
    }

    void autosaveFailureIsShownAndRetried()
    {
        QFETCH(bool, rootIsFile);
        const QString root = AutosaveStore::defaultRoot();
        QString blocker = root;
        if (rootIsFile) {
            QVERIFY(QDir().mkpath(QFileInfo(root).absolutePath()));
            QVERIFY(writeAll(root, QStringLiteral("in the way")));
        }
        EditorTabs tabs;
        tabs.setAutosaveInterval(50);
        if (!rootIsFile) {
            blocker = tabs.autosaveSessionPath();
            QVERIFY(QDir(blocker).removeRecursively());
            QVERIFY(writeAll(blocker, QStringLiteral("in the way")));
        }
        const QString a = file(QStringLiteral("a.cl"));
        QVERIFY(tabs.openFile(a));
        QSignalSpy errors(&tabs, &EditorTabs::errorOccurred);
        QSignalSpy autosaved(&tabs, &EditorTabs::autosaved);
        QTest::keyClicks(tabs.currentEditor(), QStringLiteral("edit "));
        QVERIFY(autosaved.wait(5000));
        QCOMPARE(autosaved.last().at(0).toInt(), 0);
        NoticeBar *bar = tabs.notice(0, QStringLiteral("autosaveNotice"));
        QVERIFY(bar);
        QVERIFY(!bar->isHidden());
        const QString reason = QDir::toNativeSeparators(blocker) + QStringLiteral(" is a file, not a folder");
        QVERIFY2(bar->text().contains(reason), qPrintable(bar->text()));
        QVERIFY(bar->text().contains(QStringLiteral("only in memory")));
        QVERIFY(tabs.autosaveError().contains(reason));
        QVERIFY(bar->findChild<QPushButton *>(QStringLiteral("saveAsButton")));
        QCOMPARE(errors.size(), 0); // a notice, not an error box every few seconds
        // It keeps trying without another keystroke, and the notice goes once a write succeeds.
        QVERIFY(autosaved.wait(5000));
        QVERIFY(!bar->isHidden());
        QVERIFY(QFile::remove(blocker));
        QTRY_VERIFY(bar->isHidden());
        QVERIFY(tabs.autosaveError().isEmpty());
        QCOMPARE(autosaveTexts(tabs.autosaveSessionPath()).size(), 1);
        QCOMPARE(readAll(a), kOriginal); // autosave never touches the user's file
    }

    void autosaveOnFullDisk()
    {
        FullDisk disk(AutosaveStore::defaultRoot());
        REQUIRE_TMPFS(disk);
        EditorTabs tabs;
        tabs.setAutosaveInterval(50);
        tabs.resize(600, 400);
        tabs.show();
        QVERIFY(tabs.openFile(file(QStringLiteral("a.cl"))));
        QVERIFY(disk.fill());
        QSignalSpy autosaved(&tabs, &EditorTabs::autosaved);
        tabs.currentEditor()->append(QStringLiteral("// ") + QString(2000, u'y'));
        QVERIFY(autosaved.wait(5000));
        NoticeBar *bar = tabs.notice(0, QStringLiteral("autosaveNotice"));
        QVERIFY(bar && !bar->isHidden());
        QVERIFY2(bar->text().contains(QStringLiteral("No space left on device")), qPrintable(bar->text()));
        // Room is made above the text: the notice covers none of it.
        QTRY_VERIFY(bar->isVisible());
        QVERIFY(tabs.currentEditor()->viewport()->geometry().top() >= bar->height());
        // No 0-byte autosave pretends to hold the edits.
        QVERIFY(autosaveTexts(tabs.autosaveSessionPath()).isEmpty());

        // Save As… from the notice puts the edits somewhere safe, and the notice goes.
        const QString elsewhere = m_dir->filePath(QStringLiteral("rescued.cl"));
        tabs.setSavePathCallback([&](const QString &) { return elsewhere; });
        bar->findChild<QPushButton *>(QStringLiteral("saveAsButton"))->click();
        QCOMPARE(readAll(elsewhere), tabs.currentEditor()->text());
        QVERIFY(!tabs.isModified());
        QVERIFY(bar->isHidden());
        QTRY_VERIFY(tabs.currentEditor()->viewport()->geometry().top() < bar->height());

        // Edited again with the disk freed: the next autosave succeeds.
        tabs.currentEditor()->append(QStringLiteral("z"));
        QVERIFY(autosaved.wait(5000));
        disk.free();
        QTRY_COMPARE(autosaveTexts(tabs.autosaveSessionPath()).size(), 1);
        QVERIFY(tabs.autosaveError().isEmpty());
        QVERIFY(bar->isHidden());
    }

    void recoversAfterKill_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::newRow("kill -9 from outside") << QStringLiteral("wait");
        QTest::newRow("abort") << QStringLiteral("abort");
    }

    void recoversAfterKill()
    {
        QFETCH(QString, mode);
        const QString a = file(QStringLiteral("a.cl"));
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QCoreApplication::applicationFilePath(), {kChildArg, a, mode});
        QVERIFY(child.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(child.canReadLine() || child.state() != QProcess::Running, 30000);
        QCOMPARE(child.readLine(), QByteArray("ready\n"));
        if (mode == QLatin1String("wait")) {
            EditorTabs live; // the child still runs: its autosaves are not ours to take
            QVERIFY(live.pendingRecoveries().isEmpty());
            child.kill(); // SIGKILL
        }
        if (child.state() != QProcess::NotRunning)
            QVERIFY(child.waitForFinished(30000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        EditorTabs tabs;
        const QList<AutosaveRecord> records = tabs.pendingRecoveries();
        QCOMPARE(records.size(), 2);
        EditorTabs second; // claimed by the first restarted instance
        QVERIFY(second.pendingRecoveries().isEmpty());

        QCOMPARE(tabs.restoreRecoveries(), 2);
        QCOMPARE(tabs.documentCount(), 2);
        const int fileTab = tabs.indexOfPath(a);
        QVERIFY(fileTab >= 0);
        const int untitledTab = 1 - fileTab;
        QCOMPARE(tabs.editor(fileTab)->text(), kTyped + kOriginal + kTail);
        QCOMPARE(tabs.editor(untitledTab)->text(), kTyped + kTail);
        QCOMPARE(tabs.title(untitledTab), QStringLiteral("untitled-1.cl"));
        QVERIFY(tabs.isModified(fileTab));
        QVERIFY(tabs.isModified(untitledTab));
        QCOMPARE(readAll(a), kOriginal); // recovery never writes the user's file by itself
        QVERIFY(tabs.pendingRecoveries().isEmpty());
        // Restored buffers are autosaved by this session before the old copies go.
        QCOMPARE(autosaveTexts(tabs.autosaveSessionPath()).size(), 2);

        tabs.editor(fileTab)->undo(); // back to what is on disk
        QVERIFY(!tabs.isModified(fileTab));
        tabs.editor(fileTab)->redo();
        QVERIFY(tabs.save(fileTab));
        QCOMPARE(readAll(a), kTyped + kOriginal + kTail);
        QCOMPARE(tabs.newDocument(), 2);
        QCOMPARE(tabs.title(2), QStringLiteral("untitled-2.cl"));
    }

    void discardRemovesRecoveries()
    {
        {
            EditorTabs tabs;
            tabs.newDocument();
            tabs.currentEditor()->setText(QStringLiteral("unsaved"));
            tabs.currentEditor()->append(QStringLiteral("!"));
            // Destroyed with a modified buffer (no clean close): it stays recoverable.
        }
        EditorTabs tabs;
        const QList<AutosaveRecord> records = tabs.pendingRecoveries();
        QCOMPARE(records.size(), 1);
        QCOMPARE(records.first().text, QStringLiteral("unsaved!"));
        QVERIFY(records.first().originalPath.isEmpty());
        tabs.discardRecoveries();
        QVERIFY(tabs.pendingRecoveries().isEmpty());
        const QStringList left =
            QDir(AutosaveStore::defaultRoot()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot);
        const QString own = QFileInfo(tabs.autosaveSessionPath()).fileName();
        QCOMPARE(left, (QStringList{own, own + QStringLiteral(".lock")}));
        EditorTabs later;
        QVERIFY(later.pendingRecoveries().isEmpty());
    }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() == 4 && args.at(1) == kChildArg)
        return runChild(args.at(2), args.at(3)); // with the parent's HOME
    QTEST_SET_MAIN_SOURCE_PATH
    return editortest::exec<TestEditorAutosave>(app, argc, argv);
}

#include "tst_editorautosave.moc"
