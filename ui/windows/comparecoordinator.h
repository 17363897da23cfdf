// Ties the comparisons of builds and devices to the window: Build → Show generated code (the current
// build's code, per device), Build → Build matrix (option sets × devices), Build → Run on all devices (the
// current launch everywhere, outputs compared). It takes the program and the launch from the Workbench
// context (what the editor shows, through its builder; what F5 would run), the devices from the
// DeviceManager, and hands the work to its controllers; the dialogs are made on first use, as children of
// the window (scripts and tests find them with findChild).
#pragma once

#include "controllers/devicetarget.h"

#include "clscope/build.h"

#include <QObject>
#include <QPointer>

#include <memory>
#include <vector>

class QAction;
class QStatusBar;
class QWidget;

namespace clscope::ui {

class BuildMatrixDialog;
class CodeController;
class DeviceManager;
class DeviceWorkers;
class GeneratedCodeDialog;
class MatrixController;
class RunAllController;
class RunAllDialog;
class Workbench;

class CompareCoordinator : public QObject
{
    Q_OBJECT
public:
    CompareCoordinator(std::shared_ptr<DeviceWorkers> workers, DeviceManager *devices, Workbench *workbench,
                       QStatusBar *statusBar, QWidget *window);

    QAction *codeAction() const { return m_codeAction; }
    QAction *matrixAction() const { return m_matrixAction; }
    QAction *runAllAction() const { return m_runAllAction; }

    // Shows the generated code of the current program, built first when the editor changed since the last
    // build (as F5 does). False when it cannot be built (the status bar says why).
    bool showCode();
    // Opens the build matrix dialog (with these option sets, when given), and builds at once when asked.
    BuildMatrixDialog *showMatrix(const QString &sets = {}, bool build = false);
    // Builds the current program for every device and runs the Arguments panel's launch on each.
    bool runOnAllDevices();

    GeneratedCodeDialog *codeDialog();
    BuildMatrixDialog *matrixDialog();
    RunAllDialog *runAllDialog();
    MatrixController *matrix() const { return m_matrix; }
    RunAllController *runAll() const { return m_runAll; }
    CodeController *code() const { return m_code; }

    // Every device of every platform, in the Devices panel's order.
    std::vector<DeviceTarget> allDevices() const;

signals:
    // Run on all devices could not start (no kernel, a failed build); the reason.
    void runAllRefused(const QString &why);

private:
    void buildMatrix(const QStringList &sets, const std::vector<DeviceTarget> &devices);
    void timeMatrix();
    void startRunAll();
    void present(QWidget *dialog);

    std::shared_ptr<DeviceWorkers> m_workers;
    DeviceManager *m_devices;
    Workbench *m_workbench;
    QStatusBar *m_statusBar;
    QWidget *m_window;
    CodeController *m_code;
    MatrixController *m_matrix;
    RunAllController *m_runAll;
    QAction *m_codeAction;
    QAction *m_matrixAction;
    QAction *m_runAllAction;
    QPointer<GeneratedCodeDialog> m_codeDialog;
    QPointer<BuildMatrixDialog> m_matrixDialog;
    QPointer<RunAllDialog> m_runAllDialog;
};

} // namespace clscope::ui
