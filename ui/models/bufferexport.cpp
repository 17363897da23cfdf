// Writing read-back buffers to files.
#include "bufferexport.h"

#include "buffertablemodel.h"
#include "files/safewrite.h"

#include "clscope/npy.h"

#include <QObject>

namespace clscope::ui {

namespace {
QString writeBytes(const QString &path, const QByteArray &bytes)
{
    const QString error = writeFileSafely(path, bytes);
    if (!error.isEmpty())
        return QObject::tr("Cannot write %1: %2").arg(path, error);
    return {};
}
} // namespace

QString writeBufferCsv(const BufferData &buffer, const QString &path)
{
    BufferTableModel model;
    model.setBuffer(buffer);
    QByteArray out;
    const int cols = model.columnCount();
    for (int c = 0; c < cols; ++c)
        out += (c ? "," : "") + model.headerData(c, Qt::Horizontal).toString().toUtf8();
    out += '\n';
    if (buffer.layout) {
        // A row per struct, a column per field.
        for (int r = 0; r < model.rowCount(); ++r) {
            for (int c = 0; c < cols; ++c)
                out += (c ? "," : "") + model.index(r, c).data().toString().toUtf8();
            out += '\n';
        }
        return writeBytes(path, out);
    }
    const std::size_t components = buffer.componentCount();
    for (std::size_t i = 0; i < components; ++i) {
        out += model.formatComponent(i).toUtf8();
        out += (i % std::size_t(cols) == std::size_t(cols - 1)) ? '\n' : ',';
    }
    return writeBytes(path, out);
}

QString writeBufferBin(const BufferData &buffer, const QString &path)
{
    return writeBytes(path, QByteArray(reinterpret_cast<const char *>(buffer.bytes.data()),
                                       qsizetype(buffer.bytes.size())));
}

QString writeBufferNpy(const BufferData &buffer, const QString &path)
{
    try {
        const std::string bytes = encodeNpy(toNpy(buffer));
        return writeBytes(path, QByteArray(bytes.data(), qsizetype(bytes.size())));
    } catch (const std::exception &e) {
        return QString::fromStdString(e.what());
    }
}

QString writeBuffer(const BufferData &buffer, const QString &path)
{
    if (path.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive))
        return writeBufferCsv(buffer, path);
    if (path.endsWith(QStringLiteral(".bin"), Qt::CaseInsensitive))
        return writeBufferBin(buffer, path);
    return writeBufferNpy(buffer, path);
}

} // namespace clscope::ui
