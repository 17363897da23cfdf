// What the struct suites share (tst_structs, tst_structruns): PoCL and Oclgrind (a second platform,
// through a vendors folder of the suite's own, when it is installed), builds and runs of the programs in
// tests/data/structs, and struct buffers printed as --arg writes them.
#pragma once

#include "clscope/devicespec.h"
#include "clscope/error.h"
#include "clscope/runner.h"
#include "clscope/structs.h"
#include "testicd.h"

#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace structtest {
using namespace clscope;

inline QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

inline std::string dataPath(const char *name)
{
    return std::string(CLSCOPE_TEST_DATA "/structs/") + name;
}

inline std::vector<ArgValue> specs(const std::vector<std::string> &texts)
{
    std::vector<ArgValue> out;
    for (const std::string &s : texts)
        out.push_back(parseArgSpec(s));
    return out;
}

inline QStringList list(std::initializer_list<const char *> items)
{
    QStringList out;
    for (const char *i : items)
        out << QString::fromLatin1(i);
    return out;
}

template<typename F> QString errorOf(F f)
{
    try {
        f();
    } catch (const RunInputError &e) {
        return QString::fromUtf8(e.what());
    } catch (const ClError &e) {
        return QStringLiteral("ClError: ") + QString::fromUtf8(e.what());
    }
    return QStringLiteral("no error");
}

template<typename T> std::vector<T> valuesOf(const BufferData &data)
{
    std::vector<T> out(data.bytes.size() / sizeof(T));
    std::memcpy(out.data(), data.bytes.data(), out.size() * sizeof(T));
    return out;
}

// The suites' devices, builds and runs. setUp() is the suites' initTestCase.
class Fixture
{
protected:
    QTemporaryDir m_vendors;
    QTemporaryDir m_cacheDir;
    bool m_haveOclgrind = false;

    cl_device_id device(const QString &name) const
    {
        if (name == QStringLiteral("oclgrind") && !m_haveOclgrind)
            return nullptr;
        return selectDevice(name.toStdString()).device;
    }

    static BuildResult build(const std::string &path, cl_device_id device, const BinaryCache &cache = {})
    {
        BuildRequest r;
        r.devices = {device};
        r.sourcePath = path;
        return buildProgram(r, cache);
    }

    static RunResult run(const BuildResult &b, cl_device_id device, const char *kernel,
                         std::vector<std::size_t> global, const std::vector<std::string> &args,
                         std::vector<std::string> readBack, std::vector<std::size_t> local = {})
    {
        RunRequest r;
        r.build = b;
        r.device = device;
        r.kernel = kernel;
        r.range.global = std::move(global);
        r.range.local = std::move(local);
        r.args = specs(args);
        r.readBack = std::move(readBack);
        return runKernel(r);
    }

    static QString structs(const BufferData &b)
    {
        QStringList out;
        for (std::size_t i = 0; i < b.count; ++i)
            out << qs(formatStruct(*b.layout, b.bytes.data() + i * b.type.size()));
        return out.join(u' ');
    }

    void setUp()
    {
        // Oclgrind as a second platform, through a vendors folder of our own; the build cache in a folder
        // of this suite, so that nothing from another run is a hit.
        m_haveOclgrind = m_vendors.isValid() && test::setUpVendors(m_vendors, false);
        qputenv("CLSCOPE_CACHE_DIR", m_cacheDir.path().toLocal8Bit());
        qunsetenv("CLSCOPE_NO_CACHE");
        qunsetenv("CLSCOPE_BUILD_OPTIONS");
        try {
            selectDevice("pocl");
        } catch (const std::exception &e) {
            QSKIP(e.what());
        }
    }
};

} // namespace structtest
