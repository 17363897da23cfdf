// File → Profile application…: the program to capture, its arguments, working folder and environment,
// which launches keep their buffer contents (none, by kernel name, all within a budget), and where the
// capture goes. Remembered per program.
#pragma once

#include <QDialog>
#include <QStringList>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace clscope::ui {

struct ProfileSettings
{
    QString program;
    QStringList arguments;
    QString workingFolder;
    QStringList environment; // KEY=VALUE
    enum class Contents { None, Kernels, All } contents = Contents::None;
    QStringList kernels;
    quint64 budgetBytes = 256ull << 20; // for All
    // Device times of the commands the program passed no event for (CaptureTimestamps::every): 1 every
    // one, N one in N, 0 none (only the program's own events).
    quint32 timestampEvery = 1;
    QString output; // the capture file

    // The settings last used for this program (QSettings), or the defaults for it.
    static ProfileSettings remembered(const QString &program);
    static bool isRemembered(const QString &program);
    void remember() const;
    // A new file in the application's captures folder, named after the script or program and the time.
    QString suggestedOutput() const;
    // A problem with them (no program, a folder that is not there, a bad KEY=VALUE), or empty.
    QString problem() const;
};

class ProfileDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ProfileDialog(QWidget *parent = nullptr);

    void setSettings(const ProfileSettings &settings);
    ProfileSettings settings() const;

    QLineEdit *programEdit() const { return m_program; }

    void accept() override;

private:
    void onProgramEdited();
    void updateContents();
    void updateTimestamps();

    QLineEdit *m_program;
    QLineEdit *m_arguments;
    QLineEdit *m_folder;
    QPlainTextEdit *m_environment;
    QComboBox *m_contents;
    QLineEdit *m_kernels;
    QSpinBox *m_budget;
    QComboBox *m_timestamps;
    QSpinBox *m_sampleEvery;
    QLineEdit *m_output;
    QLabel *m_error;
    QString m_loadedFor;
    bool m_outputEdited = false;
};

} // namespace clscope::ui
