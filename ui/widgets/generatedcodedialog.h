// Build → Show generated code: the code each device made of a build, listed by build and device (the
// current build, and cells of a build matrix as the user opens them). View shows one entry (CodeView); Diff
// compares two (CodeDiffView): two devices of one build, or two option sets on one device.
#pragma once

#include "controllers/codecontroller.h"

#include <QDialog>

#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QStackedWidget;

namespace clscope::ui {

class CodeDiffView;
class CodeView;

class GeneratedCodeDialog : public QDialog
{
    Q_OBJECT
public:
    explicit GeneratedCodeDialog(CodeController *controller, QWidget *parent = nullptr);

    // The build's devices become entries "LABEL — DEVICE" (a build of that label already listed is replaced)
    // and their code is asked for. False for a failed build (nothing to show).
    bool addBuild(const QString &label, const BuildResult &build);
    QStringList entryNames() const;
    // Shows one entry; false when there is no such entry.
    bool showEntry(const QString &name);
    // Compares two entries side by side.
    bool showDiff(const QString &left, const QString &right);
    // True once every entry shown has its code (or its error).
    bool isSettled() const;
    CodeView *codeView() const { return m_view; }
    CodeDiffView *diffView() const { return m_diff; }
    bool diffMode() const;

signals:
    // What is shown has all it needs now (code arrived, or the choice changed to entries that have it).
    void shown();

private:
    struct Entry
    {
        QString name;
        QString key; // the build's label
        QString device;
        int index = 0; // in the build's device order
        std::optional<GeneratedCode> code;
        QString error;
    };
    int find(const QString &name) const;
    void onCode(const QString &key, const GeneratedCodeList &code);
    void onFailed(const QString &key, const QString &message);
    void refresh();
    void rebuildChoices();

    CodeController *m_controller;
    std::vector<Entry> m_entries;
    QComboBox *m_first;
    QComboBox *m_second;
    QCheckBox *m_compare;
    QLabel *m_status;
    QStackedWidget *m_pages;
    CodeView *m_view;
    CodeDiffView *m_diff;
    bool m_updating = false;
};

} // namespace clscope::ui
