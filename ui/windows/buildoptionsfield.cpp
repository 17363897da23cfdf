// The build options field: a tab's options in, the user's edits out, a history to choose from.
#include "buildoptionsfield.h"

#include "widgets/editortabs.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSettings>

namespace clscope::ui {

namespace {
const QString kHistoryKey = QStringLiteral("build/optionsHistory");
constexpr int kHistorySize = 20;
} // namespace

BuildOptionsField::BuildOptionsField(EditorTabs *editors, std::function<KernelEditor *()> programEditor,
                                     QObject *parent)
    : QObject(parent)
    , m_editors(editors)
    , m_programEditor(std::move(programEditor))
    , m_box(new QComboBox)
{
    m_box->setEditable(true);
    m_box->setObjectName(QStringLiteral("buildOptions"));
    m_box->setMinimumContentsLength(40);
    m_box->setInsertPolicy(QComboBox::NoInsert);
    m_box->lineEdit()->setPlaceholderText(
        tr("Build options, e.g. -cl-fast-relaxed-math -D N=1024 -I include"));
    m_box->setToolTip(tr("Options are split like a shell does; -I folders are searched for headers"));
    // The history is a list to choose from; the field shows the options of the current tab's program (a
    // new tab has none), never the latest ones of whichever program was built last.
    m_box->addItems(QSettings().value(kHistoryKey).toStringList());
    m_box->setCurrentIndex(-1);
    m_box->setEditText(QString());
    connect(m_box, &QComboBox::editTextChanged, this, [this](const QString &text) {
        if (!m_showing)
            m_editors->setBuildOptions(text, m_editors->indexOf(m_programEditor()));
    });
    connect(m_editors, &EditorTabs::currentDocumentChanged, this, &BuildOptionsField::showProgramOptions);
    connect(m_editors, &EditorTabs::buildOptionsChanged, this, [this](int index) {
        if (index == m_editors->indexOf(m_programEditor()))
            showProgramOptions();
    });
    showProgramOptions();
}

void BuildOptionsField::showProgramOptions()
{
    KernelEditor *program = m_programEditor();
    const QString options = program ? m_editors->buildOptions(m_editors->indexOf(program)) : QString();
    // Without a tab there is no program to give options to.
    m_box->setEnabled(program != nullptr);
    if (m_box->currentText() == options)
        return;
    m_showing = true;
    m_box->setEditText(options);
    m_showing = false;
}

void BuildOptionsField::remember(const QString &options)
{
    QStringList history = QSettings().value(kHistoryKey).toStringList();
    history.removeAll(options);
    history.prepend(options);
    while (history.size() > kHistorySize)
        history.removeLast();
    QSettings().setValue(kHistoryKey, history);
    const QString current = m_box->currentText();
    m_box->blockSignals(true);
    m_box->clear();
    m_box->addItems(history);
    m_box->setEditText(current);
    m_box->blockSignals(false);
}

} // namespace clscope::ui
