// What the runner's suites share (tst_runner, tst_runnererrors): PoCL (and Oclgrind as a second platform
// when it is installed), types.cl and vector_add.cl built on PoCL, and run requests from --arg specs.
#pragma once

#include "clscope/devicespec.h"
#include "clscope/runner.h"
#include "testicd.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace runnertest {
using namespace clscope;

inline QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

inline std::string dataPath(const char *name)
{
    return std::string(CLSCOPE_TEST_DATA "/run/") + name;
}

inline std::string kernelPath(const char *name)
{
    return std::string(CLSCOPE_TEST_DATA "/../../resources/kernels/") + name;
}

inline std::vector<ArgValue> specs(const QString &text)
{
    std::vector<ArgValue> out;
    for (const QString &s : text.split(u' ', Qt::SkipEmptyParts))
        out.push_back(parseArgSpec(s.toStdString()));
    return out;
}

template<typename T> std::vector<T> valuesOf(const BufferData &data)
{
    std::vector<T> out(data.bytes.size() / sizeof(T));
    std::memcpy(out.data(), data.bytes.data(), out.size() * sizeof(T));
    return out;
}

template<typename F> QString errorOf(F f)
{
    try {
        f();
    } catch (const std::exception &e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("no error");
}

// The suites' device and builds. setUp() is the suites' initTestCase.
class Fixture
{
protected:
    QTemporaryDir m_vendors;
    bool m_haveOclgrind = false;
    cl_device_id m_device = nullptr;
    BuildResult m_types;
    BuildResult m_vectorAdd;

    void setUp()
    {
        qunsetenv("CLSCOPE_DEVICE");
        qunsetenv("CLSCOPE_BUILD_OPTIONS");
        qunsetenv("POCL_DEVICES");
        // Oclgrind as a second platform (OpenCL 1.2, strict argument checks), when it is installed.
        m_haveOclgrind = m_vendors.isValid() && test::setUpVendors(m_vendors, false);
        try {
            m_device = selectDevice("pocl").device;
        } catch (const std::exception &e) {
            QSKIP(qPrintable(QStringLiteral("no PoCL device: ") + QString::fromUtf8(e.what())));
        }
        m_types = build(dataPath("types.cl"));
        QVERIFY2(m_types.success(), m_types.logs().front().log.c_str());
        m_vectorAdd = build(kernelPath("vector_add.cl"));
        QVERIFY(m_vectorAdd.success());
    }

    BuildResult build(const std::string &path, bool argInfo = true, cl_context context = nullptr,
                      cl_device_id device = nullptr) const
    {
        BuildRequest r;
        r.devices = {device ? device : m_device};
        r.sourcePath = path;
        r.kernelArgInfo = argInfo;
        r.environmentOptions = false;
        r.context = context;
        return buildProgram(r, BinaryCache());
    }

    static RunRequest request(const BuildResult &build, const char *kernel, const char *global,
                              const QString &args, std::vector<std::string> readBack = {})
    {
        RunRequest r;
        r.build = build;
        r.kernel = kernel;
        r.range.global = parseSizeList(global, "global size");
        r.args = specs(args);
        r.readBack = std::move(readBack);
        return r;
    }
};

} // namespace runnertest
