// The Profile application dialog and its per-program memory.
#include "profiledialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace clscope::ui {

ProfileDialog::ProfileDialog(QWidget *parent)
    : QDialog(parent)
    , m_program(new QLineEdit)
    , m_arguments(new QLineEdit)
    , m_folder(new QLineEdit)
    , m_environment(new QPlainTextEdit)
    , m_contents(new QComboBox)
    , m_kernels(new QLineEdit)
    , m_budget(new QSpinBox)
    , m_timestamps(new QComboBox)
    , m_sampleEvery(new QSpinBox)
    , m_output(new QLineEdit)
    , m_error(new QLabel)
{
    setObjectName(QStringLiteral("profileDialog"));
    setWindowTitle(tr("Profile application"));
    m_program->setObjectName(QStringLiteral("profileProgram"));
    m_program->setPlaceholderText(tr("python3, ./my_app, /usr/bin/clpeak"));
    m_arguments->setObjectName(QStringLiteral("profileArguments"));
    m_arguments->setPlaceholderText(tr("as on a command line, e.g. demo.py --size 1024"));
    m_folder->setObjectName(QStringLiteral("profileFolder"));
    m_environment->setObjectName(QStringLiteral("profileEnvironment"));
    m_environment->setPlaceholderText(tr("KEY=VALUE, one per line (e.g. PYOPENCL_CTX=0)"));
    m_environment->setMaximumHeight(70);
    m_contents->setObjectName(QStringLiteral("profileContents"));
    m_contents->addItem(tr("None (timeline and memory only)"));
    m_contents->addItem(tr("Launches of these kernels"));
    m_contents->addItem(tr("Every launch, within a budget"));
    m_kernels->setObjectName(QStringLiteral("profileKernels"));
    m_kernels->setPlaceholderText(tr("kernel names, comma-separated"));
    m_budget->setRange(1, 1 << 20);
    m_budget->setSuffix(tr(" MiB"));
    m_timestamps->setObjectName(QStringLiteral("profileTimestamps"));
    m_timestamps->addItem(tr("Every command"));
    m_timestamps->addItem(tr("One command in N"));
    m_timestamps->addItem(tr("Only where the program asks (its own events)"));
    m_timestamps->setToolTip(
        tr("A command the program passed no event for is timed with an event of CLScope's. That costs some "
           "drivers more than the rest of the capture (NVIDIA's about 8 µs per launch): for a program that "
           "enqueues in a tight loop, time one command in N, or only the program's own."));
    m_sampleEvery->setObjectName(QStringLiteral("profileSampleEvery"));
    m_sampleEvery->setRange(2, 1 << 20);
    m_sampleEvery->setValue(64);
    m_sampleEvery->setPrefix(tr("1 in "));
    m_output->setObjectName(QStringLiteral("profileOutput"));
    m_error->setObjectName(QStringLiteral("profileError"));
    m_error->setStyleSheet(QStringLiteral("color: #c62828"));
    m_error->setWordWrap(true);

    auto withButton = [this](QLineEdit *edit, const QString &text, auto choose) {
        auto *row = new QHBoxLayout;
        row->addWidget(edit, 1);
        auto *b = new QPushButton(text);
        b->setFocusPolicy(Qt::ClickFocus);
        connect(b, &QPushButton::clicked, this, choose);
        row->addWidget(b);
        return row;
    };
    auto *form = new QFormLayout;
    form->addRow(tr("Program"), withButton(m_program, tr("Browse…"), [this] {
                     const QString path = QFileDialog::getOpenFileName(this, tr("Program to profile"));
                     if (!path.isEmpty()) {
                         m_program->setText(path);
                         onProgramEdited();
                     }
                 }));
    form->addRow(tr("Arguments"), m_arguments);
    form->addRow(tr("Working folder"), withButton(m_folder, tr("Browse…"), [this] {
                     const QString dir =
                         QFileDialog::getExistingDirectory(this, tr("Working folder"), m_folder->text());
                     if (!dir.isEmpty())
                         m_folder->setText(dir);
                 }));
    form->addRow(tr("Environment"), m_environment);
    auto *contentsRow = new QHBoxLayout;
    contentsRow->addWidget(m_contents);
    contentsRow->addWidget(m_kernels, 1);
    contentsRow->addWidget(m_budget);
    form->addRow(tr("Keep buffer contents"), contentsRow);
    auto *timestampsRow = new QHBoxLayout;
    timestampsRow->addWidget(m_timestamps);
    timestampsRow->addWidget(m_sampleEvery);
    timestampsRow->addStretch(1);
    form->addRow(tr("Device times"), timestampsRow);
    form->addRow(tr("Capture file"), withButton(m_output, tr("Choose…"), [this] {
                     const QString path = QFileDialog::getSaveFileName(
                         this, tr("Capture file"), m_output->text(), tr("CLScope captures (*.clscope)"));
                     if (!path.isEmpty())
                         m_output->setText(path);
                 }));
    auto *hint = new QLabel(tr("Contents let a launch be opened in the workbench and replayed; they cost a "
                               "copy of every buffer argument before and after the launch. Device times of "
                               "every command cost an event of CLScope's each where the program passed none "
                               "(NVIDIA: about 8 µs a launch)."));
    hint->setWordWrap(true);
    hint->setStyleSheet(QStringLiteral("color: palette(placeholder-text)"));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Profile"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ProfileDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ProfileDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hint);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    // Tab goes from field to field (the Browse buttons are for the mouse), and leaves the environment box.
    m_environment->setTabChangesFocus(true);
    QWidget *order[] = {m_program, m_arguments, m_folder,     m_environment, m_contents,
                        m_kernels, m_budget,    m_timestamps, m_sampleEvery, m_output};
    for (std::size_t i = 1; i < std::size(order); ++i)
        setTabOrder(order[i - 1], order[i]);
    connect(m_program, &QLineEdit::editingFinished, this, &ProfileDialog::onProgramEdited);
    connect(m_contents, &QComboBox::currentIndexChanged, this, &ProfileDialog::updateContents);
    connect(m_timestamps, &QComboBox::currentIndexChanged, this, &ProfileDialog::updateTimestamps);
    // The capture file follows the program and its arguments until the user names one.
    connect(m_output, &QLineEdit::textEdited, this, [this] { m_outputEdited = true; });
    connect(m_arguments, &QLineEdit::textChanged, this, [this] {
        if (!m_outputEdited)
            m_output->setText(settings().suggestedOutput());
    });
    resize(640, sizeHint().height());
    setSettings(ProfileSettings::remembered(QSettings().value(QStringLiteral("profile/last")).toString()));
}

void ProfileDialog::onProgramEdited()
{
    // Another program: what was used for it last time.
    const QString program = m_program->text().trimmed();
    if (program == m_loadedFor)
        return;
    if (ProfileSettings::isRemembered(program)) {
        setSettings(ProfileSettings::remembered(program));
        return;
    }
    // A program profiled for the first time keeps what was chosen before it was typed (contents, device
    // times, environment); its arguments, kernel names, folder and capture file are its own.
    ProfileSettings s = settings();
    const ProfileSettings fresh = ProfileSettings::remembered(program);
    s.program = program;
    s.arguments = fresh.arguments;
    s.kernels = fresh.kernels;
    s.workingFolder = fresh.workingFolder;
    s.output = fresh.output;
    setSettings(s);
}

void ProfileDialog::updateContents()
{
    const auto c = ProfileSettings::Contents(m_contents->currentIndex());
    m_kernels->setVisible(c == ProfileSettings::Contents::Kernels);
    m_budget->setVisible(c == ProfileSettings::Contents::All);
}

void ProfileDialog::updateTimestamps()
{
    m_sampleEvery->setVisible(m_timestamps->currentIndex() == 1);
}

void ProfileDialog::setSettings(const ProfileSettings &s)
{
    m_loadedFor = s.program;
    m_program->setText(s.program);
    QStringList quoted;
    for (const QString &a : s.arguments)
        quoted << (a.contains(u' ') || a.isEmpty() ? u'"' + a + u'"' : a);
    m_arguments->setText(quoted.join(u' '));
    m_folder->setText(s.workingFolder);
    m_environment->setPlainText(s.environment.join(u'\n'));
    m_contents->setCurrentIndex(int(s.contents));
    m_kernels->setText(s.kernels.join(QStringLiteral(", ")));
    m_budget->setValue(int(std::max<quint64>(1, s.budgetBytes >> 20)));
    m_timestamps->setCurrentIndex(s.timestampEvery == 1 ? 0 : s.timestampEvery == 0 ? 2 : 1);
    if (s.timestampEvery > 1)
        m_sampleEvery->setValue(int(std::min<quint32>(s.timestampEvery, 1 << 20)));
    m_output->setText(s.output);
    m_outputEdited = false;
    updateContents();
    updateTimestamps();
}

ProfileSettings ProfileDialog::settings() const
{
    ProfileSettings s;
    s.program = m_program->text().trimmed();
    s.arguments = QProcess::splitCommand(m_arguments->text());
    s.workingFolder = m_folder->text().trimmed();
    for (const QString &line : m_environment->toPlainText().split(u'\n', Qt::SkipEmptyParts))
        if (!line.trimmed().isEmpty())
            s.environment << line.trimmed();
    s.contents = ProfileSettings::Contents(m_contents->currentIndex());
    for (const QString &k : m_kernels->text().split(u',', Qt::SkipEmptyParts))
        if (!k.trimmed().isEmpty())
            s.kernels << k.trimmed();
    s.budgetBytes = quint64(m_budget->value()) << 20;
    const int timestamps = m_timestamps->currentIndex();
    s.timestampEvery = timestamps == 0 ? 1 : timestamps == 2 ? 0 : quint32(m_sampleEvery->value());
    s.output = m_output->text().trimmed();
    return s;
}

void ProfileDialog::accept()
{
    const ProfileSettings s = settings();
    if (const QString problem = s.problem(); !problem.isEmpty()) {
        m_error->setText(problem);
        return;
    }
    s.remember();
    QDialog::accept();
}

} // namespace clscope::ui
