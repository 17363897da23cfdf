// Helpers of the build suites (tst_buildcache, tst_cachedbuilds, tst_program, tst_programcli): the files of
// tests/data/build, files written for a test, the entries of a cache folder, and the drivers the program
// suites build with.
#pragma once

#include "testicd.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTemporaryDir>
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

inline std::string dataPath(const char *name)
{
    return std::string(CLSCOPE_TEST_DATA "/build/") + name;
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

// The drivers of tst_program and tst_programcli: PoCL and Oclgrind through a vendors folder of the suite's
// own, PoCL with two devices.
class ProgramDrivers
{
protected:
    QTemporaryDir m_vendors;
    bool m_haveDrivers = false;

    // The suites' initTestCase.
    void setUpDrivers()
    {
        QVERIFY(m_vendors.isValid());
        // Two PoCL devices with different names (so: different cache keys) for the multi-device build.
        qputenv("POCL_DEVICES", "pthread basic");
        qunsetenv("CLSCOPE_BUILD_OPTIONS");
        m_haveDrivers = clscope::test::setUpVendors(m_vendors, false);
    }

    // In init(): skips a test that needs the drivers when they are missing.
    void requireDrivers()
    {
        if (!m_haveDrivers)
            QSKIP("PoCL or Oclgrind is not installed (packaging/install-deps.sh installs both)");
    }
};

} // namespace buildtest
