// What the editor suites share (tst_editortabs, tst_editordiskchanges, tst_editorautosave): files written
// and read back, the autosave texts of a session, a folder per test with no autosaves or settings left from
// the one before, and a main() that runs the suite in a home of its own.
#pragma once

#include "widgets/editortabs.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace editortest {
using namespace clscope::ui;

inline const QString kOriginal = QStringLiteral("kernel void k(global int *p) { p[0] = 1; }\n");

inline QString readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QStringLiteral("<unreadable>");
}

inline bool writeAll(const QString &path, const QString &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text.toUtf8()) >= 0;
}

inline QStringList autosaveTexts(const QString &sessionPath)
{
    return QDir(sessionPath).entryList({QStringLiteral("*.txt")}, QDir::Files);
}

// A folder per test for the files it opens. setUp() is the suites' init(), tearDown() their cleanup().
class Fixture
{
protected:
    std::unique_ptr<QTemporaryDir> m_dir;

    QString file(const QString &name, const QString &text = kOriginal)
    {
        const QString path = m_dir->filePath(name);
        return writeAll(path, text) ? QFileInfo(path).canonicalFilePath() : QString();
    }

    void setUp()
    {
        QDir(AutosaveStore::defaultRoot()).removeRecursively();
        QSettings().clear();
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    static void tearDown() { QDir(AutosaveStore::defaultRoot()).removeRecursively(); }
};

// The rest of the suites' main(), after the QApplication and QStandardPaths' test mode: a home of its own
// (settings, autosaves, the full-disk mount), so that runs of these suites in other checkouts at the same
// time neither see nor disturb each other's files.
template<typename Suite> int exec(QApplication &app, int argc, char **argv)
{
    QTemporaryDir home;
    if (!home.isValid() || !qputenv("HOME", QFile::encodeName(home.path())))
        return 2;
    app.setAttribute(Qt::AA_Use96Dpi, true);
    Suite test;
    return QTest::qExec(&test, argc, argv);
}

} // namespace editortest
