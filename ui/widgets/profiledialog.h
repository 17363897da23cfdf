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
    QString output;                     // the capture file

    // The settings last used for this program (QSettings), or the defaults for it.
    static ProfileSettings remembered(const QString &program);
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

    QLineEdit *m_program;
    QLineEdit *m_arguments;
    QLineEdit *m_folder;
    QPlainTextEdit *m_environment;
    QComboBox *m_contents;
    QLineEdit *m_kernels;
    QSpinBox *m_budget;
    QLineEdit *m_output;
    QLabel *m_error;
    QString m_loadedFor;
    bool m_outputEdited = false;
};

} // namespace clscope::ui
