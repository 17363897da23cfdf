// The sweep window's table (SweepDialog): one row per local size tried, with its work-items, median, min,
// mean and standard deviation in µs, and whether its outputs equal the reference's; sizes that did not run
// are greyed, sizes whose outputs differ are in the warning colour, the best in bold. Columns sort by their
// numbers (a size that did not run last); until a header is clicked the rows are in the order tried.
#pragma once

#include "clscope/sweep.h"

#include <QTreeWidget>

namespace clscope::ui {

class SweepTable : public QTreeWidget
{
    Q_OBJECT
public:
    enum Column {
        LocalColumn,
        ItemsColumn,
        MedianColumn,
        MinColumn,
        MeanColumn,
        StddevColumn,
        OutputsColumn
    };

    explicit SweepTable(QWidget *parent = nullptr);

    void setResult(const SweepResult &result);
};

} // namespace clscope::ui
