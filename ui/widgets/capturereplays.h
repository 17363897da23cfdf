// The Capture panel's Replay tab: a launch's replays, one row per device (time, equal or where it differs),
// and the debugger for the first element a device got wrong (Debug the first difference).
#pragma once

#include <QString>
#include <QWidget>

class QPushButton;
class QTableWidget;

namespace clscope::ui {

class CaptureReplays : public QWidget
{
    Q_OBJECT
public:
    explicit CaptureReplays(QWidget *parent = nullptr);

    void clear();
    void add(const QString &device, const QString &time, const QString &verdict, bool ok);
    // A replay whose outputs differ: its first differing element (a global buffer argument's,
    // "ARGNO[INDEX]"): the first device's is the one Debug the first difference stops the writer of.
    void setFirstDifference(qint64 launch, const QString &element);

    QTableWidget *table() const { return m_table; }
    QPushButton *debugButton() const { return m_debug; }

signals:
    void debugRequested(qint64 launch, const QString &element);

private:
    QTableWidget *m_table;
    QPushButton *m_debug;
    qint64 m_launch = -1;
    QString m_element;
};

} // namespace clscope::ui
