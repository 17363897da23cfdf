// The build log panel (one tab per device, every word the compiler said, kept also on success) and the
// diagnostics list (click a row to jump to its line).
#pragma once

#include "clscope/build.h"

#include <QWidget>

class QLabel;
class QTabWidget;
class QTreeWidget;

namespace clscope::ui {

class BuildLogPanel : public QWidget
{
    Q_OBJECT
public:
    explicit BuildLogPanel(QWidget *parent = nullptr);

    void showResult(const BuildResult &result);
    void showFailure(const QString &message);
    QTabWidget *tabs() const { return m_tabs; }
    QString summary() const;
    // The log text of a device tab (by device name), for tests.
    QString logText(const QString &device) const;

private:
    QLabel *m_summary;
    QTabWidget *m_tabs;
};

class DiagnosticsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DiagnosticsPanel(QWidget *parent = nullptr);

    // mainTitle names the main source's tab (diagnostics without a file belong to it: an unsaved buffer).
    void setDiagnostics(const std::vector<Diagnostic> &diagnostics, const QString &mainTitle = {});
    QTreeWidget *list() const { return m_list; }

signals:
    void diagnosticActivated(const QString &file, int line, int column);

private:
    QTreeWidget *m_list;
};

// "Build succeeded in 12.3 ms on pthread-... (cache hit)".
QString buildSummary(const BuildResult &result);

} // namespace clscope::ui
