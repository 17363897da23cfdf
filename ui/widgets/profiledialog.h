// File → Profile application…: the program to capture, its arguments, working folder and environment,
// which launches keep their buffer contents (none, by kernel name, all within a budget), and where the
// capture goes. Remembered per program.
#pragma once

#include "controllers/profilesettings.h"

#include <QDialog>
#include <QStringList>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace clscope::ui {

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
