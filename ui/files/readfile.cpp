// The Qt side of core's RegularFile: paths in the local 8-bit encoding, FileError as a reason.
#include "readfile.h"

#include "clscope/fileio.h"

#include <QCryptographicHash>
#include <QFile>

#include <algorithm>
#include <filesystem>
#include <new>

namespace clscope::ui {
namespace {

std::filesystem::path nativePath(const QString &path)
{
    return std::filesystem::path(QFile::encodeName(path).toStdString());
}

template<typename F> FileRead attempt(F &&read)
{
    FileRead out;
    try {
        read(out.bytes);
    } catch (const FileError &e) {
        out.bytes.clear();
        out.error = QString::fromStdString(e.reason());
    } catch (const std::bad_alloc &) {
        out.bytes.clear();
        out.error = QStringLiteral("not enough memory to read it");
    }
    return out;
}

} // namespace

FileRead readCheckedFile(const QString &path, qint64 maxBytes)
{
    return attempt([&](QByteArray &bytes) {
        const std::string read =
            readRegularFile(nativePath(path), std::uint64_t(std::max<qint64>(0, maxBytes)));
        bytes = QByteArray(read.data(), qsizetype(read.size()));
    });
}

FileRead readCheckedFileAt(const QString &path, qint64 offset, qint64 maxBytes)
{
    return attempt([&](QByteArray &bytes) {
        const std::string read = RegularFile(nativePath(path))
                                     .readAt(std::uint64_t(std::max<qint64>(0, offset)),
                                             std::size_t(std::max<qint64>(0, maxBytes)));
        bytes = QByteArray(read.data(), qsizetype(read.size()));
    });
}

FileRead hashCheckedFile(const QString &path)
{
    return attempt([&](QByteArray &bytes) {
        RegularFile file(nativePath(path));
        QCryptographicHash hash(QCryptographicHash::Sha256);
        QByteArray piece(1 << 16, Qt::Uninitialized);
        while (const std::size_t n = file.read(piece.data(), std::size_t(piece.size())))
            hash.addData(QByteArrayView(piece.constData(), qsizetype(n)));
        bytes = hash.result();
    });
}

} // namespace clscope::ui
