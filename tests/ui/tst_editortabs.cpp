// EditorTabs: open/save round trips, atomic saves that fail safely, recent files, drops, samples, and
// autosave recovery after a real kill -9 of a child process (this binary re-executed as the child).
#include "fulldisk.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"
#include "widgets/noticebar.h"

#include <QApplication>
#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMimeData>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>

using namespace clscope::ui;

namespace {
const QString kChildArg = QStringLiteral("--autosave-child");
const QString kOriginal = QStringLiteral("kernel void k(global int *p) { p[0] = 1; }\n");
const QString kTyped = QStringLiteral("typed ");
// Appended without typing: non-ASCII and CRLF must come back byte for byte.
const QString kTail = QStringLiteral("\r\n// \u00b5-kernel \u2713 tab\there\r\n");

QString readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QStringLiteral("<unreadable>");
}

bool writeAll(const QString &path, const QString &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.toUtf8()) >= 0;
}

QStringList autosaveTexts(const QString &sessionPath)
{
    return QDir(sessionPath).entryList({QStringLiteral("*.txt")}, QDir::Files);
}

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

class TestEditorTabs : public QObject
{
    Q_OBJECT
    std::unique_ptr<QTemporaryDir> m_dir;

    QString file(const QString &name, const QString &text = kOriginal)
    {
        const QString path = m_dir->filePath(name);
        return writeAll(path, text) ? QFileInfo(path).canonicalFilePath() : QString();
    }

private slots:
    void init()
    {
        QDir(AutosaveStore::defaultRoot()).removeRecursively();
        QSettings().clear();
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void cleanup() { QDir(AutosaveStore::defaultRoot()).removeRecursively(); }

    void openSaveRoundTrip()
    {
        const QString a = file(QStringLiteral("a.cl"), QStringLiteral("line1\r\nline2 \u00e9\n"));
        EditorTabs tabs;
        QSignalSpy modified(&tabs, &EditorTabs::documentModified);
        QVERIFY(tabs.openFile(a));
        QCOMPARE(tabs.documentCount(), 1);
        QCOMPARE(tabs.currentPath(), a);
        QCOMPARE(tabs.title(0), QStringLiteral("a.cl"));
        QCOMPARE(tabs.currentEditor()->text(), QStringLiteral("line1\r\nline2 \u00e9\n"));
        QVERIFY(!tabs.isModified());
        QCOMPARE(tabs.tabText(0), QStringLiteral("a.cl"));

        tabs.currentEditor()->append(QStringLiteral("more\n"));
        QVERIFY(tabs.isModified());
        QCOMPARE(tabs.tabText(0), QStringLiteral("a.cl*"));
        QCOMPARE(modified.last().at(0).toBool(), true);
        QVERIFY(tabs.save());
        QCOMPARE(readAll(a), QStringLiteral("line1\r\nline2 \u00e9\nmore\n"));
        QVERIFY(!tabs.isModified());
        QCOMPARE(tabs.tabText(0), QStringLiteral("a.cl"));
        QCOMPARE(modified.last().at(0).toBool(), false);

        const QString b = m_dir->filePath(QStringLiteral("b.cl"));
        QVERIFY(tabs.saveAs(b));
        QCOMPARE(readAll(b), readAll(a));
        QCOMPARE(tabs.currentPath(), QFileInfo(b).canonicalFilePath());
        QCOMPARE(tabs.title(0), QStringLiteral("b.cl"));

        EditorTabs again;
        QVERIFY(again.openFile(b));
        QCOMPARE(again.currentEditor()->text(), QStringLiteral("line1\r\nline2 \u00e9\nmore\n"));
    }

    void untitledDocuments()
    {
        EditorTabs tabs;
        tabs.newDocument();
        tabs.newDocument();
        QCOMPARE(tabs.title(0), QStringLiteral("untitled-1.cl"));
        QCOMPARE(tabs.title(1), QStringLiteral("untitled-2.cl"));
        QVERIFY(tabs.path(1).isEmpty());
        tabs.currentEditor()->setText(QStringLiteral("x"));
        tabs.currentEditor()->append(QStringLiteral("y"));
        QString suggested;
        QString answer;
        tabs.setSavePathCallback([&](const QString &s) {
            suggested = s;
            return answer;
        });
        QVERIFY(!tabs.save()); // cancelled: no error, still modified
        QCOMPARE(suggested, QStringLiteral("untitled-2.cl"));
        QVERIFY(tabs.isModified());
        answer = m_dir->filePath(QStringLiteral("saved.cl"));
        QVERIFY(tabs.save());
        QCOMPARE(readAll(answer), QStringLiteral("xy"));
        QCOMPARE(tabs.title(1), QStringLiteral("saved.cl"));
    }

    void openMissingFileIsAnError()
    {
        EditorTabs tabs;
        tabs.newDocument();
        tabs.currentEditor()->setText(QStringLiteral("keep me"));
        QSignalSpy errors(&tabs, &EditorTabs::errorOccurred);
        const QString missing = m_dir->filePath(QStringLiteral("missing.cl"));
        QVERIFY(!tabs.openFile(missing));
        QCOMPARE(errors.size(), 1);
        QVERIFY(tabs.lastError().contains(QStringLiteral("missing.cl")));
        QVERIFY(tabs.lastError().contains(QStringLiteral("does not exist")));
        QVERIFY(!tabs.openFile(m_dir->path()));
        QCOMPARE(errors.size(), 2);
        QCOMPARE(tabs.documentCount(), 1);
        QCOMPARE(tabs.currentEditor()->text(), QStringLiteral("keep me"));
    }

    void failedSaveKeepsOriginal_data()
    {
        QTest::addColumn<bool>("readOnlyFolder");
        QTest::newRow("save as under a file") << false;
        QTest::newRow("save into a read-only folder") << true;
    }

    void failedSaveKeepsOriginal()
    {
        QFETCH(bool, readOnlyFolder);
        QDir(m_dir->path()).mkdir(QStringLiteral("ro"));
        const QString a = file(QStringLiteral("ro/a.cl"));
        EditorTabs tabs;
        QVERIFY(tabs.openFile(a));
        tabs.currentEditor()->append(QStringLiteral("// edit\n"));
        QSignalSpy errors(&tabs, &EditorTabs::errorOccurred);
        bool saved = true;
        if (readOnlyFolder) {
            const QString folder = QFileInfo(a).absolutePath();
            QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner);
            const bool folderWritable = QFileInfo(folder).isWritable(); // root ignores permissions
            if (!folderWritable)
                saved = tabs.save();
            QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
            if (folderWritable)
                QSKIP("permissions do not apply to this user (root)");
        } else {
            saved = tabs.saveAs(a + QStringLiteral("/inside.cl"));
        }
        QVERIFY(!saved);
        QCOMPARE(errors.size(), 1);
        QVERIFY(tabs.lastError().startsWith(QStringLiteral("Cannot save")));
        QCOMPARE(readAll(a), kOriginal);
        QVERIFY(tabs.isModified());
        QCOMPARE(tabs.currentPath(), a);
        QCOMPARE(tabs.tabText(0), QStringLiteral("a.cl*"));
        QCOMPARE(QDir(QFileInfo(a).absolutePath()).entryList(QDir::Files),
                 QStringList{QStringLiteral("a.cl")});
    }

    void saveOnFullDiskKeepsFileAndEdits()
    {
        FullDisk disk(m_dir->filePath(QStringLiteral("disk")));
        REQUIRE_TMPFS(disk);
        const QString a = file(QStringLiteral("disk/a.cl"));
        EditorTabs tabs;
        QVERIFY(tabs.openFile(a));
        const QString edit = QStringLiteral("// ") + QString(4000, u'x') + u'\n';
        tabs.currentEditor()->append(edit);
        QVERIFY(disk.fill());
        QSignalSpy errors(&tabs, &EditorTabs::errorOccurred);
        QVERIFY(!tabs.save());
        QCOMPARE(errors.size(), 1);
        QVERIFY2(tabs.lastError().contains(QStringLiteral("No space left on device")),
                 qPrintable(tabs.lastError()));
        QVERIFY(tabs.lastError().contains(a));
        QCOMPARE(readAll(a), kOriginal); // not a 0-byte file
        QVERIFY(tabs.isModified());
        QCOMPARE(tabs.tabText(0), QStringLiteral("a.cl*"));
        const QStringList onDisk = QDir(QFileInfo(a).absolutePath()).entryList(QDir::Files | QDir::Hidden);
        QCOMPARE(onDisk, (QStringList{QStringLiteral(".filler"), QStringLiteral("a.cl")}));
        // Save as a new name on the full disk: nothing appears, the tab keeps its file.
        const QString b = m_dir->filePath(QStringLiteral("disk/b.cl"));
        QVERIFY(!tabs.saveAs(b));
        QVERIFY(!QFileInfo::exists(b));
        QCOMPARE(tabs.currentPath(), a);

        disk.free();
        QVERIFY(tabs.save());
        QCOMPARE(readAll(a), kOriginal + edit);
        QVERIFY(!tabs.isModified());
    }

    void sameFileOpensOnce()
    {
        const QString a = file(QStringLiteral("a.cl"));
        QVERIFY(QFile::link(a, m_dir->filePath(QStringLiteral("link.cl"))));
        EditorTabs tabs;
        QVERIFY(tabs.openFile(a));
        tabs.newDocument();
        tabs.currentEditor()->setText(QStringLiteral("other"));
        QCOMPARE(tabs.currentIndex(), 1);
        QVERIFY(tabs.openFile(m_dir->path() + QStringLiteral("/./a.cl")));
        QCOMPARE(tabs.documentCount(), 2);
        QCOMPARE(tabs.currentIndex(), 0);
        tabs.setCurrentIndex(1);
        QVERIFY(tabs.openFile(m_dir->filePath(QStringLiteral("link.cl"))));
        QCOMPARE(tabs.documentCount(), 2);
        QCOMPARE(tabs.currentIndex(), 0);
    }

    void pristineUntitledIsReplaced()
    {
        EditorTabs tabs;
        tabs.newDocument();
        QVERIFY(tabs.openFile(file(QStringLiteral("a.cl"))));
        QCOMPARE(tabs.documentCount(), 1);
        QCOMPARE(tabs.title(0), QStringLiteral("a.cl"));
    }

    void recentFiles()
    {
        EditorTabs tabs;
        QSignalSpy changed(&tabs, &EditorTabs::recentFilesChanged);
        QStringList paths;
        for (int i = 0; i < 12; ++i)
            paths << file(QStringLiteral("f%1.cl").arg(i));
        QVERIFY(tabs.openFile(paths[0]));
        QVERIFY(tabs.openFile(paths[1]));
        QVERIFY(tabs.openFile(paths[2]));
        QCOMPARE(tabs.recentFiles(), (QStringList{paths[2], paths[1], paths[0]}));
        QVERIFY(tabs.openFile(paths[0])); // already open: switches, and becomes most recent
        QCOMPARE(tabs.recentFiles(), (QStringList{paths[0], paths[2], paths[1]}));
        QVERIFY(changed.size() >= 4);
        QVERIFY(QFile::remove(paths[2]));
        QCOMPARE(tabs.recentFiles(), (QStringList{paths[0], paths[1]}));
        QCOMPARE(QSettings().value(QStringLiteral("editor/recentFiles")).toStringList(), tabs.recentFiles());
        for (int i = 3; i < 12; ++i)
            QVERIFY(tabs.openFile(paths[i]));
        const QStringList recent = tabs.recentFiles();
        QCOMPARE(recent.size(), 10);
        QCOMPARE(recent.first(), paths[11]);
        QCOMPARE(recent.last(), paths[0]); // paths[1] fell off the end
        tabs.clearRecentFiles();
        QVERIFY(tabs.recentFiles().isEmpty());
    }

    void closeAsksAboutUnsavedChanges()
    {
        const QString a = file(QStringLiteral("a.cl"));
        EditorTabs tabs;
        tabs.setAutosaveInterval(10);
        int asked = 0;
        auto choice = EditorTabs::CloseChoice::Cancel;
        tabs.setConfirmCallback([&](const QString &title) {
            ++asked;
            [&] { QCOMPARE(title, QStringLiteral("a.cl")); }();
            return choice;
        });
        QVERIFY(tabs.openFile(a));
        QVERIFY(tabs.closeTab(0)); // unmodified: no question
        QCOMPARE(asked, 0);

        QVERIFY(tabs.openFile(a));
        tabs.currentEditor()->append(QStringLiteral("x"));
        QTRY_COMPARE(autosaveTexts(tabs.autosaveSessionPath()).size(), 1);
        QVERIFY(!tabs.closeTab(0));
        QCOMPARE(asked, 1);
        QCOMPARE(tabs.documentCount(), 1);

        choice = EditorTabs::CloseChoice::Discard;
        QVERIFY(tabs.closeAll());
        QCOMPARE(asked, 2);
        QCOMPARE(tabs.documentCount(), 0);
        QCOMPARE(readAll(a), kOriginal);
        QVERIFY(autosaveTexts(tabs.autosaveSessionPath()).isEmpty()); // a clean close removes it

        QVERIFY(tabs.openFile(a));
        tabs.currentEditor()->append(QStringLiteral("y"));
        choice = EditorTabs::CloseChoice::Save;
        QVERIFY(tabs.closeTab(0));
        QCOMPARE(readAll(a), kOriginal + QStringLiteral("y"));
    }

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

    // Item 6: a file changed on disk is never reloaded or overwritten behind the user's back.
    void changedOnDiskOffersReload_data()
    {
        QTest::addColumn<bool>("modified");
        QTest::newRow("unmodified buffer") << false;
        QTest::newRow("modified buffer") << true;
    }

    void changedOnDiskOffersReload()
    {
        QFETCH(bool, modified);
        const QString a = file(QStringLiteral("a.cl"));
        EditorTabs tabs;
        tabs.resize(600, 400);
        tabs.show();
        QVERIFY(tabs.openFile(a));
        if (modified)
            tabs.currentEditor()->append(QStringLiteral("// mine\n"));
        const QString before = tabs.currentEditor()->text();
        QSignalSpy changed(&tabs, &EditorTabs::changedOnDisk);
        QVERIFY(writeAll(a, QStringLiteral("changed elsewhere\n")));
        QVERIFY(changed.wait(5000));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().at(0).toString(), a);
        QVERIFY(tabs.isChangedOnDisk());
        NoticeBar *bar = tabs.notice(0, QStringLiteral("diskChangedNotice"));
        QVERIFY(bar && !bar->isHidden());
        QVERIFY2(bar->text().startsWith(a + QStringLiteral(" changed on disk.")), qPrintable(bar->text()));
        QCOMPARE(bar->text().contains(QStringLiteral("unsaved changes")), modified);
        QCOMPARE(tabs.currentEditor()->text(), before); // never reloaded by itself
        QCOMPARE(tabs.isModified(), modified);
        QTRY_VERIFY(tabs.currentEditor()->viewport()->geometry().top() >= bar->height());

        bar->findChild<QPushButton *>(QStringLiteral("reloadButton"))->click();
        QCOMPARE(tabs.currentEditor()->text(), QStringLiteral("changed elsewhere\n"));
        QVERIFY(!tabs.isModified());
        QVERIFY(bar->isHidden());
        QVERIFY(!tabs.isChangedOnDisk());
        tabs.currentEditor()->undo(); // the reload is one undoable step
        QCOMPARE(tabs.currentEditor()->text(), before);
    }

    void saveWarnsBeforeOverwritingAChangedFile()
    {
        const QString a = file(QStringLiteral("a.cl"));
        EditorTabs tabs;
        QVERIFY(tabs.openFile(a));
        int asked = 0;
        bool answer = false;
        tabs.setOverwriteCallback([&](const QString &title) {
            ++asked;
            [&] { QCOMPARE(title, QStringLiteral("a.cl")); }();
            return answer;
        });
        QSignalSpy changed(&tabs, &EditorTabs::changedOnDisk);
        QVERIFY(writeAll(a, QStringLiteral("other\n")));
        QVERIFY(changed.wait(5000));
        // Ctrl+S on the unmodified buffer would put the old text back over the other program's.
        QVERIFY(!tabs.save());
        QCOMPARE(asked, 1);
        QCOMPARE(readAll(a), QStringLiteral("other\n"));
        answer = true;
        QVERIFY(tabs.save());
        QCOMPARE(asked, 2);
        QCOMPARE(readAll(a), kOriginal);
        QVERIFY(tabs.notice(0, QStringLiteral("diskChangedNotice"))->isHidden());

        // Our own saves are neither reported nor asked about.
        tabs.currentEditor()->append(QStringLiteral("x"));
        QVERIFY(tabs.save());
        QCOMPARE(asked, 2);
        QVERIFY(!changed.wait(300));
        QCOMPARE(changed.size(), 1);

        // Keep mine: the change counts as seen, the next save overwrites without asking.
        QVERIFY(writeAll(a, QStringLiteral("third\n")));
        QVERIFY(changed.wait(5000));
        NoticeBar *bar = tabs.notice(0, QStringLiteral("diskChangedNotice"));
        QVERIFY(!bar->isHidden());
        bar->findChild<QPushButton *>(QStringLiteral("keepMineButton"))->click();
        QVERIFY(bar->isHidden());
        QCOMPARE(tabs.currentEditor()->text(), kOriginal + QStringLiteral("x"));
        QVERIFY(tabs.save());
        QCOMPARE(asked, 2);
        QCOMPARE(readAll(a), kOriginal + QStringLiteral("x"));

        // The same bytes written again (a touch, a tool rewriting it unchanged) are no change.
        QVERIFY(writeAll(a, kOriginal + QStringLiteral("x")));
        QVERIFY(!changed.wait(300));
        QVERIFY(!tabs.isChangedOnDisk());
    }

    void replacedAndDeletedFilesAreNoticed()
    {
        const QString a = file(QStringLiteral("a.cl"));
        EditorTabs tabs;
        QVERIFY(tabs.openFile(a));
        QSignalSpy changed(&tabs, &EditorTabs::changedOnDisk);
        // Replaced by rename, as editors and git do, twice: the watch follows the new file each time.
        for (int round = 1; round <= 2; ++round) {
            const QString next = m_dir->filePath(QStringLiteral("next.cl"));
            const QString text = QStringLiteral("version %1\n").arg(round);
            QVERIFY(writeAll(next, text));
            QVERIFY(std::rename(QFile::encodeName(next).constData(), QFile::encodeName(a).constData()) == 0);
            QVERIFY(changed.wait(5000));
            QCOMPARE(changed.size(), round);
            QVERIFY(tabs.reload());
            QCOMPARE(tabs.currentEditor()->text(), text);
        }
        QVERIFY(QFile::remove(a));
        QVERIFY(changed.wait(5000));
        NoticeBar *bar = tabs.notice(0, QStringLiteral("diskChangedNotice"));
        QVERIFY(bar && !bar->isHidden());
        QVERIFY2(bar->text().contains(QStringLiteral("was deleted on disk")), qPrintable(bar->text()));
        QVERIFY(bar->findChild<QPushButton *>(QStringLiteral("reloadButton"))->isHidden());
        int asked = 0;
        tabs.setOverwriteCallback([&](const QString &) { return ++asked, true; });
        QVERIFY(tabs.save()); // writes it again: nothing there to overwrite, so no question
        QCOMPARE(asked, 0);
        QCOMPARE(readAll(a), QStringLiteral("version 2\n"));
        // Created again by someone else after that: noticed too.
        QVERIFY(QFile::remove(a));
        QVERIFY(changed.wait(5000));
        QVERIFY(writeAll(a, QStringLiteral("back\n")));
        QVERIFY(changed.wait(5000));
        QVERIFY(tabs.reload());
        QCOMPARE(tabs.currentEditor()->text(), QStringLiteral("back\n"));
    }

    void refusesBytesThatAreNotText_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("reason"); // empty: opens, byte for byte
        QTest::newRow("latin-1") << QByteArray("// caf\xe9\n") << QStringLiteral("byte 0xE9 at offset 6");
        QTest::newRow("NUL") << QByteArray("ab\0cd\n", 6) << QStringLiteral("NUL byte at offset 2");
        QTest::newRow("cut at the end")
            << QByteArray("ok \xe2\x82") << QStringLiteral("byte 0xE2 at offset 3");
        QTest::newRow("overlong") << QByteArray("\xc0\xaf") << QStringLiteral("byte 0xC0 at offset 0");
        QTest::newRow("surrogate") << QByteArray("x\xed\xa0\x80") << QStringLiteral("byte 0xED at offset 1");
        QTest::newRow("above U+10FFFF")
            << QByteArray("\xf4\x90\x80\x80") << QStringLiteral("byte 0xF4 at offset 0");
        QTest::newRow("valid UTF-8") << QByteArray("\xef\xbb\xbf// \xc2\xb5 \xe2\x9c\x93 \xf0\x9f\x98\x80\n")
                                     << QString();
    }

    void refusesBytesThatAreNotText()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, reason);
        const QString path = m_dir->filePath(QStringLiteral("k.cl"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size());
        }
        EditorTabs tabs;
        if (reason.isEmpty()) {
            QVERIFY(tabs.openFile(path));
            QCOMPARE(tabs.currentEditor()->text(), QString::fromUtf8(bytes)); // shown without the BOM
            QVERIFY(!tabs.currentEditor()->text().startsWith(QChar(0xFEFF)));
            tabs.currentEditor()->append(QStringLiteral("x"));
            QVERIFY(tabs.save());
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), bytes + "x"); // saved with it
            return;
        }
        QSignalSpy errors(&tabs, &EditorTabs::errorOccurred);
        QVERIFY(!tabs.openFile(path));
        QCOMPARE(errors.size(), 1);
        QVERIFY2(tabs.lastError().startsWith(QStringLiteral("Cannot open ") + path),
                 qPrintable(tabs.lastError()));
        QVERIFY2(tabs.lastError().contains(reason), qPrintable(tabs.lastError()));
        QCOMPARE(tabs.documentCount(), 0);

        // A file that turns into such bytes while open is not reloaded either: the buffer stays.
        const QString a = file(QStringLiteral("a.cl"));
        QVERIFY(tabs.openFile(a));
        {
            QFile f(a);
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size());
        }
        QVERIFY(!tabs.reload());
        QVERIFY(tabs.lastError().contains(reason));
        QCOMPARE(tabs.currentEditor()->text(), kOriginal);
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

    void openableFiles_data()
    {
        QTest::addColumn<QStringList>("urls");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("kinds") << QStringList{QStringLiteral("file:///k/a.cl"),
                                              QStringLiteral("file:///k/B.CLH"),
                                              QStringLiteral("file:///k/c.h"),
                                              QStringLiteral("file:///k/d.txt")}
                               << QStringList{QStringLiteral("/k/a.cl"), QStringLiteral("/k/B.CLH"),
                                              QStringLiteral("/k/c.h"), QStringLiteral("/k/d.txt")};
        QTest::newRow("others") << QStringList{QStringLiteral("file:///k/e.cpp"),
                                               QStringLiteral("https://x/a.cl"),
                                               QStringLiteral("file:///k/noext")}
                                << QStringList{};
        QTest::newRow("duplicates") << QStringList{QStringLiteral("file:///k/a.cl"),
                                                   QStringLiteral("file:///k/a.cl")}
                                    << QStringList{QStringLiteral("/k/a.cl")};
    }

    void openableFiles()
    {
        QFETCH(QStringList, urls);
        QFETCH(QStringList, expected);
        QMimeData mime;
        QList<QUrl> list;
        for (const QString &u : std::as_const(urls))
            list << QUrl(u);
        mime.setUrls(list);
        QCOMPARE(EditorTabs::openableFiles(&mime), expected);
        QVERIFY(EditorTabs::openableFiles(nullptr).isEmpty());
    }

    void dropOpensFiles()
    {
        const QString a = file(QStringLiteral("a.cl"));
        const QString b = file(QStringLiteral("b.h"));
        EditorTabs tabs;
        tabs.resize(600, 400);
        tabs.show();
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(a)});
        // Drops are delivered to whoever accepted the DragEnter, as during a real drag.
        QDragEnterEvent enterTabs(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&tabs, &enterTabs);
        QVERIFY(enterTabs.isAccepted());
        QDropEvent onTabs(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&tabs, &onTabs);
        QVERIFY(onTabs.isAccepted());
        QCOMPARE(tabs.currentPath(), a);

        // Onto an editor: opened, not pasted as a URL.
        mime.setUrls({QUrl::fromLocalFile(b)});
        QWidget *viewport = tabs.currentEditor()->viewport();
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(viewport, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent onEditor(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(viewport, &onEditor);
        QCOMPARE(tabs.documentCount(), 2);
        QCOMPARE(tabs.currentPath(), b);
        QCOMPARE(tabs.editor(0)->text(), kOriginal);
    }

    void quickOpenCloseIsSafe()
    {
        // Editors closed while their completion list is still being prepared on a worker thread.
        for (int round = 0; round < 20; ++round) {
            EditorTabs tabs;
            for (int i = 0; i < 5; ++i)
                tabs.newDocument();
            QVERIFY(tabs.closeTab(0));
        }
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }

    void samples()
    {
        const QStringList names = EditorTabs::sampleNames();
        QVERIFY(names.contains(QStringLiteral("vector_add.cl")));
        EditorTabs tabs;
        QVERIFY(tabs.openSample(QStringLiteral("vector_add.cl")));
        QCOMPARE(tabs.title(0), QStringLiteral("vector_add.cl"));
        QVERIFY(tabs.currentPath().isEmpty());
        QVERIFY(!tabs.isModified());
        QFile resource(QStringLiteral(":/kernels/vector_add.cl"));
        QVERIFY(resource.open(QIODevice::ReadOnly));
        QCOMPARE(tabs.currentEditor()->text(), QString::fromUtf8(resource.readAll()));
        QVERIFY(tabs.currentEditor()->text().contains(QStringLiteral("__kernel void vector_add")));
        QVERIFY(!tabs.currentEditor()->isReadOnly());
        QVERIFY(!tabs.openSample(QStringLiteral("nope.cl")));
        QVERIFY(!tabs.openSample(QStringLiteral("../icons/clscope.svg")));
        QCOMPARE(tabs.documentCount(), 1);
    }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const QStringList args = QCoreApplication::arguments();
    if (args.size() == 4 && args.at(1) == kChildArg)
        return runChild(args.at(2), args.at(3)); // with the parent's HOME
    // A home of its own (settings, autosaves, the full-disk mount): runs of this suite in other
    // checkouts at the same time neither see nor disturb each other's files.
    QTemporaryDir home;
    if (!home.isValid() || !qputenv("HOME", QFile::encodeName(home.path())))
        return 2;
    app.setAttribute(Qt::AA_Use96Dpi, true);
    TestEditorTabs test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_editortabs.moc"
