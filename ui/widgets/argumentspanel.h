// The arguments panel: generated from the chosen kernel's signature after a successful build. One row per
// argument with a typed, validating editor (ArgumentRow: buffers with element type, count, initialiser,
// read-back), an NDRange editor that shows the device limits and a repeat count (RangeEditor), and Run (F5)
// / Stop. The values are saved per kernel and come back next time. It is the workbench's launch view: it
// takes each good build from the Workbench context, publishes what it shows there as the user edits, and
// opens the launches the context asks for (LaunchView).
#pragma once

#include "clscope/build.h"
#include "clscope/deviceinfo.h"
#include "clscope/rundirective.h"
#include "clscope/runner.h"
#include "clscope/structs.h"
#include "controllers/workbench.h"

#include <QPointer>
#include <QWidget>

#include <optional>

class QComboBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QScrollArea;

namespace clscope::ui {

class ArgumentRow;
class RangeEditor;

class ArgumentsPanel : public QWidget, public LaunchView
{
    Q_OBJECT
public:
    explicit ArgumentsPanel(QWidget *parent = nullptr);
    ~ArgumentsPanel() override;

    // The context the panel serves: it becomes its launch view, takes its good builds (with that build's
    // device) and publishes its launch there from now on.
    void setWorkbench(Workbench *workbench);

    // A new build (kernels and their arguments) on a device (for the limits shown; the panel keeps a copy,
    // so a refresh of the devices cannot pull it away).
    void setBuild(const BuildResult &build, const DeviceSnapshot *device);
    // Fills kernel, arguments, NDRange, repeat and read-backs from a `// clscope-run:` directive; false
    // with *error when the build has no such kernel or an argument does not fit.
    bool applyDirective(const RunDirective &directive, QString *error = nullptr) override;
    // Shows why a run did not happen (next to Run), or clears it with an empty text.
    void showMessage(const QString &text) override;
    // A run's error where the mistake is: the argument or NDRange field it names is marked, its reason shown
    // under it and scrolled into view. Returns the field, or null when the message names none.
    QWidget *markError(const QString &message);
    void showError(const QString &message) override { markError(message); }
    QStringList openLaunch(const ArgumentsState &launch) override;
    const BuildResult &build() const { return m_build; }
    QStringList kernelNames() const;
    QString currentKernel() const;
    bool setCurrentKernel(const QString &name);

    // Fills a row from the CLI's --arg form (n=uint:1024, a=buffer:float:1024:iota, s=local:256).
    bool applySpec(const QString &spec, QString *error = nullptr);
    void setRange(const QString &global, const QString &local = {}, const QString &offset = {});
    // The local size alone ("64", "16,16"; empty: the driver chooses), as a sweep's "Use best" sets it.
    void setLocalSize(const QString &local);
    void setReadBack(const QString &name, bool readBack);
    void setRepeat(int repeat);

    // The run the panel describes, or nothing with the first problem in *error (naming the argument).
    std::optional<RunRequest> makeRequest(QString *error) const override;
    // The panel as CLI --arg specs (for the run history and re-runs).
    QStringList argSpecs() const;
    QString rangeText() const override;
    ArgumentsState state() const;
    // Puts a saved state back (kernel, values, range); false with *error when an argument does not fit.
    bool applyState(const ArgumentsState &state, QString *error = nullptr) override;

    // Room on screen: how many argument rows the part of the panel now visible shows (whatever the kernel
    // has), and the height the panel needs at `width` to show `rows` of them (the window keeps at least 4).
    int rowsShown() const;
    int heightForRows(int rows, int width) const;

    void setRunning(bool running) override;
    // Remembers the values per kernel (QSettings), as a run does.
    void saveValues() const override;
    QPushButton *runButton() const { return m_run; }
    // The struct field editor of an argument (a struct by value, or the fill of a buffer of structs),
    // opened as the row's {…} button opens it; null when the argument is no struct of the program. The
    // caller owns it; accepting it writes its value into the row.
    class StructEditor *structEditor(const QString &argument);
    // The struct declarations of the current build's source, as the editor shows them.
    const SourceTypes &sourceTypes() const { return m_sourceTypes; }
    QPushButton *stopButton() const { return m_stop; }

private:
    // Tells the context what the panel shows now (after every change of a field, the kernel or the build).
    void publishLaunch();
    // Every field of the panel reports its changes to publishLaunch (the rows are made anew per kernel).
    void followFields();
    void rebuildRows();
    void restoreValues();
    // The height of one argument row with the space after it.
    int rowPitch() const;

    BuildResult m_build;
    SourceTypes m_sourceTypes;
    std::optional<DeviceSnapshot> m_device;
    std::string m_deviceName;
    QComboBox *m_kernel;
    QWidget *m_rowsHost;
    QFormLayout *m_rows;
    QScrollArea *m_rowsScroll = nullptr;
    RangeEditor *m_range = nullptr;
    QPushButton *m_run;
    QPushButton *m_stop;
    QLabel *m_message;
    std::vector<std::unique_ptr<ArgumentRow>> m_rowState;
    bool m_restoring = false;
    bool m_rebuilding = false; // rows being made anew
    QPointer<Workbench> m_workbench;
};

} // namespace clscope::ui
