// A read-back buffer as a table on a virtual model: one row per element, one column per vector
// component, values formatted on demand, so 100 million elements cost no more than the bytes themselves.
#pragma once

#include "clscope/kernelargs.h"

#include <QAbstractTableModel>

namespace clscope::ui {

enum class NumberFormat { Decimal, Hex, Scientific };

struct BufferSummary
{
    double min = 0;
    double max = 0;
    double mean = 0;
    std::size_t nanCount = 0;
    std::size_t infCount = 0;
    std::size_t count = 0; // finite values the min/max/mean are over
};

BufferSummary summarize(const BufferData &buffer);

struct Comparison
{
    std::size_t compared = 0;
    std::size_t mismatches = 0;
    std::size_t firstMismatch = 0; // component index
    double maxAbsError = 0;
    QString error; // set when the two cannot be compared (sizes differ)
};

// Component-wise |a - b| <= tolerance (NaN equals NaN).
Comparison compareBuffers(const BufferData &a, const BufferData &b, double tolerance);

class BufferTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit BufferTableModel(QObject *parent = nullptr);

    void setBuffer(BufferData buffer);
    const BufferData &buffer() const { return m_buffer; }
    void setFormat(NumberFormat format);
    NumberFormat format() const { return m_format; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    QString formatComponent(std::size_t component) const;

private:
    BufferData m_buffer;
    NumberFormat m_format = NumberFormat::Decimal;
    int m_columns = 1;
};

// Writes the buffer as CSV (one row per element, one column per component). Returns an error or empty.
QString writeBufferCsv(const BufferData &buffer, const QString &path);
// Raw bytes as stored (3-vectors padded). Returns an error or empty.
QString writeBufferBin(const BufferData &buffer, const QString &path);
// NumPy .npy. Returns an error or empty.
QString writeBufferNpy(const BufferData &buffer, const QString &path);

} // namespace clscope::ui
