// Build log tabs and the diagnostics list.
#include "buildlogpanel.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStyle>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace clscope::ui {

QString buildSummary(const BuildResult &result)
{
    QStringList devices;
    for (const DeviceBuildLog &log : result.logs())
        devices << QString::fromStdString(log.device);
    int errors = 0, warnings = 0;
    for (const Diagnostic &d : result.diagnostics()) {
        errors += d.severity == Severity::Error;
        warnings += d.severity == Severity::Warning;
    }
    QString counts;
    if (errors || warnings)
        counts =
            QObject::tr(", %n error(s)", nullptr, errors) + QObject::tr(", %n warning(s)", nullptr, warnings);
    // Why the cache was off or could not be written (an unresolvable #include, a full or read-only
    // folder), so that "cache off" or a miss every time has its reason on screen.
    const QString note = result.cacheNote().empty()
                             ? QString()
                             : QStringLiteral(" — ") + QString::fromStdString(result.cacheNote());
    return QObject::tr("Build %1 in %2 ms on %3 (cache %4%5)%6")
        .arg(result.success() ? QObject::tr("succeeded") : QObject::tr("failed"))
        .arg(result.durationMs(), 0, 'f', 1)
        .arg(devices.join(QStringLiteral(", ")), QString::fromUtf8(cacheStateName(result.cache()).data()),
             counts, note);
}

BuildLogPanel::BuildLogPanel(QWidget *parent)
    : QWidget(parent)
    , m_summary(new QLabel(tr("No build yet. Press Ctrl+B to build the current kernel.")))
    , m_tabs(new QTabWidget)
{
    setObjectName(QStringLiteral("buildLogPanel"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_summary);
    layout->addWidget(m_tabs, 1);
}

QString BuildLogPanel::summary() const
{
    return m_summary->text();
}

void BuildLogPanel::showResult(const BuildResult &result)
{
    m_summary->setText(buildSummary(result) + QStringLiteral("\n") +
                       tr("Options: %1").arg(QString::fromStdString(result.options())));
    while (m_tabs->count() > 0) {
        QWidget *w = m_tabs->widget(0);
        m_tabs->removeTab(0);
        w->deleteLater();
    }
    for (const DeviceBuildLog &log : result.logs()) {
        auto *text = new QPlainTextEdit;
        text->setReadOnly(true);
        text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        text->setLineWrapMode(QPlainTextEdit::NoWrap);
        const QString body = QString::fromStdString(log.log);
        text->setPlainText(body.isEmpty() ? tr("(the compiler said nothing)") : body);
        const QIcon icon =
            style()->standardIcon(log.success ? QStyle::SP_DialogApplyButton : QStyle::SP_MessageBoxCritical);
        m_tabs->addTab(text, icon, QString::fromStdString(log.device));
    }
}

void BuildLogPanel::showFailure(const QString &message)
{
    m_summary->setText(tr("The build could not start: %1").arg(message));
}

QString BuildLogPanel::logText(const QString &device) const
{
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (m_tabs->tabText(i) == device)
            return static_cast<QPlainTextEdit *>(m_tabs->widget(i))->toPlainText();
    }
    return {};
}

DiagnosticsPanel::DiagnosticsPanel(QWidget *parent)
    : QWidget(parent)
    , m_list(new QTreeWidget)
{
    setObjectName(QStringLiteral("diagnosticsPanel"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setHeaderLabels({tr("Severity"), tr("File"), tr("Line"), tr("Column"), tr("Message")});
    m_list->header()->setStretchLastSection(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_list);
    auto activate = [this](QTreeWidgetItem *item) {
        if (item)
            emit diagnosticActivated(item->data(1, Qt::UserRole).toString(), item->text(2).toInt(),
                                     item->text(3).toInt());
    };
    connect(m_list, &QTreeWidget::itemClicked, this, activate);
    connect(m_list, &QTreeWidget::itemActivated, this, activate);
}

void DiagnosticsPanel::setDiagnostics(const std::vector<Diagnostic> &diagnostics, const QString &mainTitle)
{
    m_list->clear();
    for (const Diagnostic &d : diagnostics) {
        auto *item = new QTreeWidgetItem(m_list);
        const QStyle::StandardPixmap icon = d.severity == Severity::Error ? QStyle::SP_MessageBoxCritical
                                            : d.severity == Severity::Warning
                                                ? QStyle::SP_MessageBoxWarning
                                                : QStyle::SP_MessageBoxInformation;
        item->setIcon(0, style()->standardIcon(icon));
        item->setText(0, QString::fromUtf8(severityName(d.severity).data()));
        const QString file = QString::fromStdString(d.file);
        const bool main = file.isEmpty() && d.line > 0;
        item->setText(1, main ? mainTitle : file.isEmpty() ? QString() : QFileInfo(file).fileName());
        item->setToolTip(1, main ? tr("%1 (unsaved buffer)").arg(mainTitle) : file);
        item->setData(1, Qt::UserRole, file);
        item->setText(2, d.line > 0 ? QString::number(d.line) : QString());
        item->setText(3, d.column > 0 ? QString::number(d.column) : QString());
        item->setText(4, QString::fromStdString(d.message));
        item->setToolTip(4, item->text(4));
    }
    for (int c = 0; c < 4; ++c)
        m_list->resizeColumnToContents(c);
}

} // namespace clscope::ui
