// The Capture panel's Programs tab (captureprograms.h).
#include "captureprograms.h"

#include "display/recordformat.h"
#include "display/stdstring.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace clscope::ui {

CapturePrograms::CapturePrograms(QWidget *parent)
    : QWidget(parent)
    , m_list(new QListWidget)
    , m_text(new QPlainTextEdit)
    , m_openReadOnly(new QPushButton(tr("Open read-only")))
    , m_openCopy(new QPushButton(tr("Open as a copy")))
{
    m_list->setObjectName(QStringLiteral("capturePrograms"));
    m_text->setObjectName(QStringLiteral("captureProgramText"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_list);
    split->addWidget(m_text);
    split->setStretchFactor(1, 3);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_openReadOnly);
    buttons->addWidget(m_openCopy);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split, 1);
    layout->addLayout(buttons);
    m_openReadOnly->setEnabled(false);
    m_openCopy->setEnabled(false);
    connect(m_list, &QListWidget::currentRowChanged, this, &CapturePrograms::show);
    connect(m_openReadOnly, &QPushButton::clicked, this,
            [this] { emit openRequested(m_list->currentRow(), false); });
    connect(m_openCopy, &QPushButton::clicked, this,
            [this] { emit openRequested(m_list->currentRow(), true); });
}

void CapturePrograms::setPrograms(std::vector<CapturedProgram> programs)
{
    const int keep = m_list->currentRow();
    m_programs = std::move(programs);
    const QSignalBlocker block(m_list);
    m_list->clear();
    for (const CapturedProgram &p : m_programs) {
        QStringList kernels;
        for (const std::string &k : p.kernels)
            kernels << qs(k);
        bool failed = false;
        for (const CapturedBuild &b : p.builds)
            failed |= b.result != 0;
        auto *item = new QListWidgetItem(
            tr("Program %1 (%2)%3\n%4")
                .arg(p.id)
                .arg(qs(p.kind), failed ? tr(", a build failed") : QString(),
                     kernels.isEmpty() ? tr("no kernels") : kernels.join(QStringLiteral(", "))));
        m_list->addItem(item);
    }
    m_list->setCurrentRow(keep >= 0 && keep < m_list->count() ? keep : (m_list->count() ? 0 : -1));
    show(m_list->currentRow());
}

void CapturePrograms::show(int row)
{
    const bool valid = row >= 0 && std::size_t(row) < m_programs.size();
    m_openReadOnly->setEnabled(valid && m_programs[std::size_t(row)].kind == "source");
    m_openCopy->setEnabled(m_openReadOnly->isEnabled());
    if (!valid) {
        m_text->clear();
        return;
    }
    const CapturedProgram &p = m_programs[std::size_t(row)];
    QString text;
    for (const CapturedBuild &b : p.builds) {
        text += tr("// %1 with options \"%2\": %3 in %4\n")
                    .arg(qs(b.op), qs(b.options),
                         b.result == 0 ? tr("succeeded") : tr("failed (%1)").arg(b.result),
                         durationText(double(b.durationNs)));
        for (const CapturedBuildLog &l : b.logs) {
            const QString log = qs(l.log).trimmed();
            if (log.isEmpty())
                continue;
            text += tr("// log on %1:\n").arg(qs(l.device));
            for (const QString &line : log.split(u'\n'))
                text += QStringLiteral("//   ") + line + u'\n';
        }
    }
    if (p.kind == "source") {
        for (std::size_t i = 0; i < p.sources.size(); ++i) {
            if (p.sources.size() > 1)
                text += tr("\n// ---- source string %1 ----\n").arg(i);
            text += qs(p.sources[i]);
        }
    } else {
        std::size_t bytes = 0;
        for (const std::string &b : p.sources)
            bytes += b.size();
        text += tr("\n// created from %1 (%2): no source to show\n").arg(qs(p.kind), bytesText(bytes));
    }
    m_text->setPlainText(text);
}

} // namespace clscope::ui
