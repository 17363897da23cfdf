// The Benchmarks page: runs the device benchmarks on the current device off the GUI thread with a
// progress bar and Cancel, lists every figure, trait and note by kind, draws bar charts per vector width
// (a BenchmarkChart each: global memory, compute, local memory, transfers), and compares everything with a
// saved baseline: each figure with its ratio to the baseline, coloured better or worse, the baseline's bars
// beside the run's.
#pragma once

#include "clscope/devicebench.h"
#include "controllers/devicemanager.h"

#include <QHash>
#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTreeWidget;

namespace clscope::ui {

class BenchmarkChart;
class BenchmarkRunner;
class DeviceWorkers;

class BenchmarkDock : public QWidget
{
    Q_OBJECT
public:
    BenchmarkDock(DeviceManager *manager, std::shared_ptr<DeviceWorkers> workers, QWidget *parent = nullptr);
    ~BenchmarkDock() override;

    BenchmarkRunner *runner() const { return m_runner; }
    QComboBox *kindBox() const { return m_kind; }
    QComboBox *effortBox() const { return m_effort; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }
    QProgressBar *progressBar() const { return m_progress; }
    QLabel *statusLabel() const { return m_status; }
    QLabel *baselineLabel() const { return m_baselineLabel; }
    QTreeWidget *figureTree() const { return m_tree; }
    QTabWidget *chartTabs() const { return m_tabs; }
    // "bandwidth", "compute", "local", "transfer"; null for any other name.
    QCustomPlot *chart(const QString &name) const;

    // Runs a kind ("all" or one of benchKinds()) on the current device; false when none is selected or a
    // run is going on.
    bool start(const QString &kind, BenchEffort effort);
    void cancel();

    const BenchDocument &document() const { return m_document; }
    const std::optional<BenchDocument> &baseline() const { return m_baseline; }
    // Shows a document as if it had just been measured (a saved run, or a test's).
    void showDocument(const BenchDocument &document);
    // Errors come back as a message; empty on success.
    QString loadBaseline(const QString &path);
    QString saveResults(const QString &path) const;
    void setBaseline(const BenchDocument &baseline, const QString &name);
    void clearBaseline();

private:
    void onKindFinished(const BenchResult &result);
    void onStopped(const QString &message);
    void setRunning(bool running);
    void refresh();
    void fillTree();
    void chooseBaseline();
    void chooseSaveFile();

    DeviceManager *m_manager;
    BenchmarkRunner *m_runner;
    QComboBox *m_kind;
    QComboBox *m_effort;
    QPushButton *m_run;
    QPushButton *m_cancel;
    QPushButton *m_save;
    QPushButton *m_clearBaseline;
    QProgressBar *m_progress;
    QLabel *m_status;
    QLabel *m_baselineLabel;
    QTreeWidget *m_tree;
    QTabWidget *m_tabs;
    QHash<QString, BenchmarkChart *> m_charts;
    BenchDocument m_document;
    std::optional<BenchDocument> m_baseline;
    QString m_baselineName;
};

} // namespace clscope::ui
