// A read-back buffer as a table on a virtual model: one row per element, one column per vector
// component (or, laid out in 2-D, one row per NDRange row and one cell per element), values formatted on
// demand, so 100 million elements cost no more than the bytes themselves. The elements that differ from a
// compared buffer are coloured. The text of a value is bufferformat.h's; pictures, statistics and saving
// are bufferpicture.h, buffersummary.h and bufferexport.h.
#pragma once

#include "models/bufferformat.h"

#include <QAbstractTableModel>
#include <QColor>

#include <optional>
#include <vector>

namespace clscope::ui {

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

    static QColor differsColour();    // the background of a differing element
    static QColor rowDiffersColour(); // the rest of a row that holds one (1-D)

private:
    bool elementDiffers(std::size_t element) const;
    void resetColumns();
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

} // namespace clscope::ui
