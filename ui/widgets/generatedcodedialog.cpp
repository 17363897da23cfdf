// Entries of generated code by build and device, one shown or two compared.
#include "generatedcodedialog.h"

#include "codediffview.h"
#include "codeview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace clscope::ui {

GeneratedCodeDialog::GeneratedCodeDialog(CodeController *controller, QWidget *parent)
    : QDialog(parent)
    , m_controller(controller)
    , m_first(new QComboBox)
    , m_second(new QComboBox)
    , m_compare(new QCheckBox(tr("Compare with")))
    , m_status(new QLabel)
    , m_pages(new QStackedWidget)
    , m_view(new CodeView)
    , m_diff(new CodeDiffView)
{
    setObjectName(QStringLiteral("generatedCodeDialog"));
    setWindowTitle(tr("Generated code"));
    m_first->setObjectName(QStringLiteral("codeEntry"));
    m_second->setObjectName(QStringLiteral("codeDiffEntry"));
    m_compare->setObjectName(QStringLiteral("codeCompare"));
    m_status->setObjectName(QStringLiteral("codeStatus"));
    for (QComboBox *box : {m_first, m_second}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        box->setMinimumContentsLength(24);
    }
    m_second->setEnabled(false);
    m_pages->addWidget(m_view);
    m_pages->addWidget(m_diff);

    auto *choose = new QHBoxLayout;
    choose->addWidget(new QLabel(tr("Build and device:")));
    choose->addWidget(m_first);
    choose->addSpacing(12);
    choose->addWidget(m_compare);
    choose->addWidget(m_second);
    choose->addStretch(1);
    choose->addWidget(m_status);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(choose);
    layout->addWidget(m_pages, 1);
    layout->addWidget(buttons);

    connect(m_first, &QComboBox::currentIndexChanged, this, &GeneratedCodeDialog::refresh);
    connect(m_second, &QComboBox::currentIndexChanged, this, &GeneratedCodeDialog::refresh);
    connect(m_compare, &QCheckBox::toggled, this, [this](bool on) {
        m_second->setEnabled(on);
        if (on && m_second->currentIndex() == m_first->currentIndex() && m_second->count() > 1)
            m_second->setCurrentIndex((m_first->currentIndex() + 1) % m_second->count());
        refresh();
    });
    connect(m_controller, &CodeController::codeReady, this, &GeneratedCodeDialog::onCode);
    connect(m_controller, &CodeController::codeFailed, this, &GeneratedCodeDialog::onFailed);
    resize(1000, 700);
}

int GeneratedCodeDialog::find(const QString &name) const
{
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        if (m_entries[i].name == name)
            return int(i);
    }
    return -1;
}

QStringList GeneratedCodeDialog::entryNames() const
{
    QStringList names;
    for (const Entry &e : m_entries)
        names << e.name;
    return names;
}

bool GeneratedCodeDialog::addBuild(const QString &label, const BuildResult &build)
{
    if (!build.success())
        return false;
    std::erase_if(m_entries, [&label](const Entry &e) { return e.key == label; });
    for (std::size_t i = 0; i < build.logs().size(); ++i) {
        Entry e;
        e.key = label;
        e.device = QString::fromStdString(build.logs()[i].device);
        e.name = label + QStringLiteral(" — ") + e.device;
        e.index = int(i);
        m_entries.push_back(std::move(e));
    }
    rebuildChoices();
    if (!m_controller->request(label, build)) {
        onFailed(label, tr("the build has no program"));
        return false;
    }
    refresh();
    return true;
}

void GeneratedCodeDialog::rebuildChoices()
{
    m_updating = true;
    const QString first = m_first->currentText();
    const QString second = m_second->currentText();
    m_first->clear();
    m_second->clear();
    for (const Entry &e : m_entries) {
        m_first->addItem(e.name);
        m_second->addItem(e.name);
    }
    if (const int i = find(first); i >= 0)
        m_first->setCurrentIndex(i);
    if (const int i = find(second); i >= 0)
        m_second->setCurrentIndex(i);
    else if (m_second->count() > 1)
        m_second->setCurrentIndex(1);
    m_updating = false;
}

bool GeneratedCodeDialog::showEntry(const QString &name)
{
    const int i = find(name);
    if (i < 0)
        return false;
    m_compare->setChecked(false);
    m_first->setCurrentIndex(i);
    refresh();
    return true;
}

bool GeneratedCodeDialog::showDiff(const QString &left, const QString &right)
{
    const int a = find(left);
    const int b = find(right);
    if (a < 0 || b < 0)
        return false;
    m_updating = true;
    m_first->setCurrentIndex(a);
    m_second->setCurrentIndex(b);
    m_compare->setChecked(true);
    m_updating = false;
    refresh();
    return true;
}

bool GeneratedCodeDialog::diffMode() const
{
    return m_compare->isChecked();
}

bool GeneratedCodeDialog::isSettled() const
{
    auto settled = [this](int i) {
        return i < 0 || i >= int(m_entries.size()) || m_entries[std::size_t(i)].code ||
               !m_entries[std::size_t(i)].error.isEmpty();
    };
    return settled(m_first->currentIndex()) && (!diffMode() || settled(m_second->currentIndex()));
}

void GeneratedCodeDialog::onCode(const QString &key, const GeneratedCodeList &code)
{
    for (Entry &e : m_entries) {
        if (e.key != key)
            continue;
        if (e.index < int(code.size()))
            e.code = code[std::size_t(e.index)];
        else
            e.error = tr("no code came back for this device");
    }
    refresh();
}

void GeneratedCodeDialog::onFailed(const QString &key, const QString &message)
{
    for (Entry &e : m_entries) {
        if (e.key == key)
            e.error = message;
    }
    refresh();
}

void GeneratedCodeDialog::refresh()
{
    if (m_updating)
        return;
    const int a = m_first->currentIndex();
    const int b = m_second->currentIndex();
    const bool diff = diffMode();
    m_pages->setCurrentIndex(diff ? 1 : 0);
    if (a < 0 || a >= int(m_entries.size())) {
        m_view->setMessage(tr("No build"), tr("Build the kernel first (Ctrl+B): its code then shows here."));
        m_status->clear();
        return;
    }
    auto waiting = [](const Entry &e) { return !e.code && e.error.isEmpty(); };
    const Entry &left = m_entries[std::size_t(a)];
    if (!diff) {
        if (left.code)
            m_view->setCode(left.name, *left.code);
        else
            m_view->setMessage(left.name, waiting(left) ? tr("Reading the binary and disassembling it…")
                                                        : tr("No code: %1").arg(left.error));
    } else if (b >= 0 && b < int(m_entries.size())) {
        const Entry &right = m_entries[std::size_t(b)];
        if (left.code && right.code)
            m_diff->setCode(left.name, *left.code, right.name, *right.code);
        else
            m_diff->setTexts(left.name, left.error, right.name, right.error);
    }
    const bool busy =
        waiting(left) || (diff && b >= 0 && b < int(m_entries.size()) && waiting(m_entries[std::size_t(b)]));
    m_status->setText(busy ? tr("Disassembling…") : QString());
    if (!busy)
        emit shown();
}

} // namespace clscope::ui
