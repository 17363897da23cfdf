// Saving a read-back buffer to a file: CSV (as the table shows it), raw bytes, or NumPy .npy. Each returns
// an error, or empty when the file was written (atomically, files/safewrite.h).
#pragma once

#include "clscope/kernelargs.h"

#include <QString>

namespace clscope::ui {

// Writes the buffer as CSV (one row per element, one column per component). Returns an error or empty.
QString writeBufferCsv(const BufferData &buffer, const QString &path);
// Raw bytes as stored (3-vectors padded). Returns an error or empty.
QString writeBufferBin(const BufferData &buffer, const QString &path);
// NumPy .npy. Returns an error or empty.
QString writeBufferNpy(const BufferData &buffer, const QString &path);
// The format the extension names (.csv, .bin), else .npy. Returns an error or empty.
QString writeBuffer(const BufferData &buffer, const QString &path);

} // namespace clscope::ui
