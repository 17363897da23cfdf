// Test helper: a private OpenCL vendors folder (PoCL, Oclgrind, and broken entries) for OCL_ICD_VENDORS.
// Must be used before the first OpenCL call of the test process: the loader reads the folder once.
#pragma once

#include <QDir>
#include <QFile>
#include <QList>
#include <QTemporaryDir>
#include <QtGlobal>

#include <utility>

namespace clscope::test {

inline const char *kOclgrindIcd = "/usr/lib/oclgrind/liboclgrind-rt-icd.so";

// The time limit of a driver probe in the tests (CLSCOPE_ICD_PROBE_TIMEOUT, seconds): short, so that the
// hanging fake drivers cost little, but long enough for PoCL's probe child, which loads LLVM; a sanitized
// build of clscope-cli on a loaded two-core machine took over a second there.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr int kProbeTimeoutSeconds = 8;
#else
inline constexpr int kProbeTimeoutSeconds = 2;
#endif

inline bool writeIcd(const QDir &dir, const QString &name, const QByteArray &library)
{
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly))
        return false;
    f.write(library + '\n');
    return true;
}

// Fills dir with pocl.icd (copied from the system), oclgrind.icd and two broken ones, and points
// OCL_ICD_VENDORS at it. Returns false when PoCL or Oclgrind is not installed.
inline bool setUpVendors(const QTemporaryDir &tmp, bool withBroken = true)
{
    const QDir dir(tmp.path());
    QFile pocl(QStringLiteral("/etc/OpenCL/vendors/pocl.icd"));
    if (!pocl.open(QIODevice::ReadOnly) || !QFile::exists(QString::fromLatin1(kOclgrindIcd)))
        return false;
    if (!writeIcd(dir, QStringLiteral("pocl.icd"), pocl.readAll().trimmed()))
        return false;
    if (!writeIcd(dir, QStringLiteral("oclgrind.icd"), kOclgrindIcd))
        return false;
    if (withBroken) {
        // A library that does not exist, and one that exists but is no ICD: neither may hide the others.
        writeIcd(dir, QStringLiteral("broken-missing.icd"), "/nonexistent/libOpenCL-broken.so");
        writeIcd(dir, QStringLiteral("broken-notanicd.icd"), "libz.so.1");
    }
    qputenv("OCL_ICD_VENDORS", tmp.path().toLocal8Bit());
    return true;
}

// PoCL's .icd (copied from the system) and one .icd per (file name, library) in dir, for OCL_ICD_VENDORS
// (not set here). False when PoCL is not installed.
inline bool writePoclAnd(const QDir &dir, const QList<std::pair<QString, QByteArray>> &others)
{
    QFile pocl(QStringLiteral("/etc/OpenCL/vendors/pocl.icd"));
    if (!pocl.open(QIODevice::ReadOnly) ||
        !writeIcd(dir, QStringLiteral("pocl.icd"), pocl.readAll().trimmed()))
        return false;
    for (const auto &[name, library] : others) {
        if (!writeIcd(dir, name, library))
            return false;
    }
    return true;
}

#ifdef CLSCOPE_FAKE_ICD_DIR
// A broken driver of tests/icd/fakeicd.c: "crash-platforms", "hang-platforms", "crash-deviceinfo",
// "hang-deviceinfo", "lying" or "quirky".
inline QByteArray fakeIcd(const QByteArray &mode)
{
    return QByteArrayLiteral(CLSCOPE_FAKE_ICD_DIR "/libclscope-fakeicd-") + mode + QByteArrayLiteral(".so");
}
#endif

} // namespace clscope::test
