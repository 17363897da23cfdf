// A read-back buffer as a table on a virtual model: one row per element, one column per vector
// component (or, laid out in 2-D, one row per NDRange row and one cell per element), values formatted on
// demand, so 100 million elements cost no more than the bytes themselves. The elements that differ from a
// compared buffer are coloured; a 2-D buffer can also be made into a grey-scale picture.
#pragma once

#include "clscope/kernelargs.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QImage>

#include <optional>
#include <vector>

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

// One column of a buffer of structs: a field, a vector component ("v.x"), an array element ("a[2]"), a
// field of a nested struct ("inner.a"); opaque fields (pointers, types CLScope does not read) as bytes.
struct FieldColumn
{
    QString header;
    std::size_t offset = 0; // from the start of the struct
    std::size_t size = 0;   // bytes the column shows
    ScalarKind scalar = ScalarKind::Bytes;
    bool complex = false; // cfloat_t, cdouble_t: real and imaginary part in one column
};

// The columns of a struct, in field order; arrays show their first 16 elements one per column and the
// rest as bytes in one column.
std::vector<FieldColumn> fieldColumns(const StructLayout &layout);

class BufferTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    explicit BufferTableModel(QObject *parent = nullptr);

    // A new buffer drops the comparison; the layout is kept.
    void setBuffer(BufferData buffer);
    const BufferData &buffer() const { return m_buffer; }
    void setFormat(NumberFormat format);
    NumberFormat format() const { return m_format; }

    // 0: one row per element (a buffer of structs: one column per field); else rows of `rowWidth`
    // elements, one element per cell (2-D results, the width from the NDRange).
    void setRowWidth(std::size_t rowWidth);
    std::size_t rowWidth() const { return m_rowWidth; }

    // Colours the elements that differ from `other` (BackgroundRole), whose value the tooltip shows:
    // `differs` flags components, as clscope::compareBuffers (compare.h) marks them.
    void setComparison(BufferData other, std::vector<bool> differs);
    void clearComparison();
    bool hasComparison() const { return !m_differs.empty(); }
    bool componentDiffers(std::size_t component) const;
    // The cell that shows a component (its element in 2-D), in either layout.
    QModelIndex indexOfComponent(std::size_t component) const;
    // The first component shown by a cell (for a buffer of structs, the first byte of the cell's field), or
    // nothing for an empty cell.
    std::optional<std::size_t> componentAt(const QModelIndex &index) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    QString formatComponent(std::size_t component) const;
    static QString formatComponent(const BufferData &buffer, std::size_t component, NumberFormat format);

    static QColor differsColour();    // the background of a differing element
    static QColor rowDiffersColour(); // the rest of a row that holds one (1-D)

private:
    bool elementDiffers(std::size_t element) const;
    void resetColumns();
    QString formatField(const BufferData &buffer, std::size_t element, const FieldColumn &field) const;
    bool fieldDiffers(std::size_t element, const FieldColumn &field) const;

    BufferData m_buffer;
    NumberFormat m_format = NumberFormat::Decimal;
    int m_components = 1; // per element
    int m_columns = 1;
    std::size_t m_rowWidth = 0;
    std::vector<FieldColumn> m_fields; // a buffer of structs in rows: its columns
    BufferData m_other;
    std::vector<bool> m_differs;
};

// Stored bits of one component as hex digits, as wide as the type: float 1.0 -> "0x3f800000", a double
// 16 digits, a half 4, int -1 -> "0xffffffff".
QString hexBits(const BufferData &buffer, std::size_t component);

// The first component of each element as a grey-scale picture `rowWidth` wide (min black, max white over
// the finite values; NaN magenta), or a null image when there is nothing to draw.
QImage bufferImage(const BufferData &buffer, std::size_t rowWidth);
// A read-back image (BufferData::image) as the picture it holds: colours and alpha as stored (normalized
// and float channels over 0..1), slices of arrays and 3-D images one under the other, as imagedata.h's
// imageToPng lays them out. Null for a buffer that is not an image or a packed format (*why says so).
QImage imagePicture(const BufferData &buffer, QString *why = nullptr);

// Writes the buffer as CSV (one row per element, one column per component). Returns an error or empty.
QString writeBufferCsv(const BufferData &buffer, const QString &path);
// Raw bytes as stored (3-vectors padded). Returns an error or empty.
QString writeBufferBin(const BufferData &buffer, const QString &path);
// NumPy .npy. Returns an error or empty.
QString writeBufferNpy(const BufferData &buffer, const QString &path);

} // namespace clscope::ui
