// EditorTabs: open/save round trips, atomic saves that fail safely (also on a full disk), files that are
// not text, recent files, closing with unsaved changes, drops and samples. Files changed on disk:
// tst_editordiskchanges.cpp; autosave and recovery: tst_editorautosave.cpp.
#include "editortest.h"
#include "fulldisk.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"

#include <QApplication>
#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QUrl>

#include <sys/stat.h>

using namespace clscope::ui;
using namespace editortest;

class TestEditorTabs : public QObject, private editortest::Fixture
{
    Q_OBJECT

private slots:
    void init() { setUp(); }
    void cleanup() { tearDown(); }

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

    // Issue 27: a FIFO blocked File > Open (and --open) for good, /dev/zero was read until bad_alloc.
    // Both are refused at once, saying what they are, and the open documents stay as they were.
    void refusesFilesThatAreNotRegular_data()
    {
        QTest::addColumn<QString>("name"); // in the test's folder, made a FIFO; or an absolute path
        QTest::addColumn<QString>("reason");
        QTest::newRow("FIFO named as a source")
            << QStringLiteral("pipe.cl") << QStringLiteral("not a regular file (a FIFO)");
        QTest::newRow("FIFO named as a program file")
            << QStringLiteral("pipe.bin") << QStringLiteral("not a regular file (a FIFO)");
        QTest::newRow("/dev/zero") << QStringLiteral("/dev/zero")
                                   << QStringLiteral("not a regular file (a character device)");
    }

    void refusesFilesThatAreNotRegular()
    {
        QFETCH(QString, name);
        QFETCH(QString, reason);
        QString path = name;
        if (!QDir::isAbsolutePath(name)) {
            path = m_dir->filePath(name);
            QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        }
        EditorTabs tabs;
        tabs.newDocument();
        tabs.currentEditor()->setText(QStringLiteral("keep me"));
        QSignalSpy errors(&tabs, &EditorTabs::errorOccurred);
        QVERIFY(!tabs.openFile(path));
        QCOMPARE(errors.size(), 1);
        QVERIFY2(tabs.lastError().startsWith(QStringLiteral("Cannot open ") + path),
                 qPrintable(tabs.lastError()));
        QVERIFY2(tabs.lastError().contains(reason), qPrintable(tabs.lastError()));
        QCOMPARE(tabs.documentCount(), 1);
        QCOMPARE(tabs.currentEditor()->text(), QStringLiteral("keep me"));
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
    QTEST_SET_MAIN_SOURCE_PATH
    return editortest::exec<TestEditorTabs>(app, argc, argv);
}

#include "tst_editortabs.moc"
