// Helpers of the build suites (tst_buildcache, tst_cachedbuilds): the files of tests/data/build, files
// written for a test, and the entries of a cache folder.
#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace buildtest {

inline void writeFile(const QString &path, const QByteArray &contents)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    f.write(contents);
}

// A file of tests/data/build; empty when it is not there.
inline QByteArray readData(const QString &name)
{
    QFile f(QStringLiteral(CLSCOPE_TEST_DATA "/build/") + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The files in a folder (a cache's entries), sorted; none when it does not exist.
inline std::vector<std::filesystem::path> entriesIn(const QString &dir)
{
    std::vector<std::filesystem::path> out;
    std::error_code ec;
    for (const auto &e : std::filesystem::directory_iterator(dir.toStdString(), ec))
        out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace buildtest
