// The Capture panel's Programs tab: the captured programs (kind, whether a build failed, their kernels), and
// the selected one's builds (options, result, time, logs) and sources; open read-only or as a copy.
#pragma once

#include "clscope/capture.h"

#include <QWidget>

#include <vector>

class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace clscope::ui {

class CapturePrograms : public QWidget
{
    Q_OBJECT
public:
    explicit CapturePrograms(QWidget *parent = nullptr);

    // The programs of a capture; the selected row stays where it was when there is one.
    void setPrograms(std::vector<CapturedProgram> programs);
    QListWidget *list() const { return m_list; }

signals:
    // A program's sources into the editor: read-only, or as an unsaved copy.
    void openRequested(int program, bool copy);

private:
    void show(int row);

    std::vector<CapturedProgram> m_programs;
    QListWidget *m_list;
    QPlainTextEdit *m_text;
    QPushButton *m_openReadOnly;
    QPushButton *m_openCopy;
};

} // namespace clscope::ui
