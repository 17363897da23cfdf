// EditorTabs and files changed on disk by another program: a notice that offers to reload (never a reload
// or an overwrite behind the user's back), a question before a save over the other program's text, and
// files replaced by rename, deleted and created again.
#include "editortest.h"
#include "widgets/editortabs.h"
#include "widgets/kerneleditor.h"
#include "widgets/noticebar.h"

#include <QApplication>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <cstdio>

using namespace clscope::ui;
using namespace editortest;

class TestEditorDiskChanges : public QObject, private editortest::Fixture
{
    Q_OBJECT

private slots:
    void init() { setUp(); }
    void cleanup() { tearDown(); }

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
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QTEST_SET_MAIN_SOURCE_PATH
    return editortest::exec<TestEditorDiskChanges>(app, argc, argv);
}

#include "tst_editordiskchanges.moc"
