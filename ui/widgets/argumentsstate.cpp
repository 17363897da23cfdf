// The arguments panel's values as text and back: the --arg specs of the rows, the NDRange text, the state a
// session keeps, a spec or a // clscope-run: line applied to the rows, and the values kept per kernel in
// QSettings.
#include "argumentspanel.h"
#include "argumentsrow.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>

namespace clscope::ui {

using namespace argumentsrow;

QStringList ArgumentsPanel::argSpecs() const
{
    QStringList specs;
    for (const auto &row : m_rowState) {
        if (auto value = rowValue(*row, nullptr))
            specs << qs(toString(*value));
    }
    return specs;
}

QString ArgumentsPanel::rangeText() const
{
    QString text = tr("global %1").arg(m_global->text().trimmed());
    if (!m_local->text().trimmed().isEmpty())
        text += tr(", local %1").arg(m_local->text().trimmed());
    if (!m_offset->text().trimmed().isEmpty())
        text += tr(", offset %1").arg(m_offset->text().trimmed());
    if (m_repeat->value() > 1)
        text += tr(", ×%1").arg(m_repeat->value());
    return text;
}

ArgumentsState ArgumentsPanel::state() const
{
    ArgumentsState st;
    st.kernel = currentKernel();
    st.specs = argSpecs();
    for (const auto &row : m_rowState) {
        if (row->readBack && row->readBack->isChecked())
            st.readBack << qs(row->slot.name);
    }
    st.global = m_global->text().trimmed();
    st.local = m_local->text().trimmed();
    st.offset = m_offset->text().trimmed();
    st.repeat = m_repeat->value();
    return st;
}

bool ArgumentsPanel::applyState(const ArgumentsState &state, QString *error)
{
    if (!setCurrentKernel(state.kernel)) {
        if (error)
            *error = tr("the current build has no kernel '%1'").arg(state.kernel);
        return false;
    }
    for (const QString &spec : state.specs) {
        if (!applySpec(spec, error))
            return false;
    }
    for (const auto &row : m_rowState) {
        if (row->readBack)
            row->readBack->setChecked(state.readBack.contains(qs(row->slot.name)));
    }
    setRange(state.global, state.local, state.offset);
    m_repeat->setValue(state.repeat);
    return true;
}

bool ArgumentsPanel::applySpec(const QString &spec, QString *error)
{
    try {
        const ArgValue value = parseArgSpec(spec.toStdString());
        for (auto &row : m_rowState) {
            if (row->slot.name != value.name)
                continue;
            if (const auto *s = std::get_if<ScalarArg>(&value.value); s && row->value) {
                row->value->setText(qs(s->text));
            } else if (const auto *st = std::get_if<StructArg>(&value.value);
                       st && row->value && row->slot.kind == ArgKind::Value) {
                row->value->setText(
                    qs(st->typeName.empty() ? st->text : "struct:" + st->typeName + ":" + st->text));
            } else if (const auto *b = std::get_if<BufferArg>(&value.value); b && row->type) {
                if (b->type)
                    row->type->setCurrentText(qs(b->type->name()));
                else if (!b->typeName.empty())
                    row->type->setCurrentText(qs(b->typeName));
                row->count->setText(QString::number(b->count));
                const QString init = qs(toString(b->init));
                const qsizetype eq = init.indexOf(u'=');
                row->init->setCurrentText(eq < 0 ? init : init.left(eq));
                row->initParam->setText(eq < 0 ? QString() : init.mid(eq + 1));
            } else if (const auto *l = std::get_if<LocalArg>(&value.value); l && row->value) {
                row->value->setText(QString::number(l->bytes));
            } else if (const auto *i = std::get_if<ImageArg>(&value.value);
                       i && row->value && row->slot.kind == ArgKind::Image) {
                row->value->setText(qs(toString(*i)));
            } else if (const auto *m = std::get_if<SamplerArg>(&value.value);
                       m && row->value && row->slot.kind == ArgKind::Sampler) {
                row->value->setText(qs(toString(*m)));
            } else {
                throw RunInputError(
                    value.name + ": that kind of value does not fit " + row->slot.declaration(), value.name);
            }
            // The start of a long value in view (an image's kind and format, not the end of its path).
            for (QLineEdit *e : {row->value, row->initParam}) {
                if (e)
                    e->setCursorPosition(0);
            }
            validateRow(*row);
            return true;
        }
        throw RunInputError(
            "kernel " + currentKernel().toStdString() + " has no argument '" + value.name + "'", value.name);
    } catch (const std::exception &e) {
        if (error)
            *error = qs(e.what());
        return false;
    }
}

bool ArgumentsPanel::applyDirective(const RunDirective &directive, QString *error)
{
    if (!setCurrentKernel(QString::fromStdString(directive.kernel))) {
        if (error)
            *error = tr("line %1: the program has no kernel '%2'")
                         .arg(directive.line)
                         .arg(QString::fromStdString(directive.kernel));
        return false;
    }
    for (const std::string &spec : directive.args) {
        if (!applySpec(QString::fromStdString(spec), error))
            return false;
    }
    for (auto &row : m_rowState) {
        if (row->readBack && !directive.prints.empty())
            row->readBack->setChecked(std::find(directive.prints.begin(), directive.prints.end(),
                                                row->slot.name) != directive.prints.end());
    }
    setRange(QString::fromStdString(directive.global), QString::fromStdString(directive.local),
             QString::fromStdString(directive.offset));
    m_repeat->setValue(directive.repeat);
    return true;
}

void ArgumentsPanel::saveValues() const
{
    const QString kernel = currentKernel();
    if (kernel.isEmpty() || m_rowState.empty())
        return;
    QSettings settings;
    settings.beginGroup(settingsGroup(kernel));
    for (const auto &row : m_rowState) {
        if (auto value = rowValue(*row, nullptr))
            settings.setValue(qs(row->slot.name), qs(toString(*value)));
        if (row->readBack)
            settings.setValue(qs(row->slot.name) + QStringLiteral("@readback"), row->readBack->isChecked());
    }
    settings.setValue(QStringLiteral("@global"), m_global->text());
    settings.setValue(QStringLiteral("@local"), m_local->text());
    settings.setValue(QStringLiteral("@offset"), m_offset->text());
    settings.setValue(QStringLiteral("@repeat"), m_repeat->value());
}

void ArgumentsPanel::restoreValues()
{
    QSettings settings;
    settings.beginGroup(settingsGroup(currentKernel()));
    if (settings.childKeys().isEmpty())
        return;
    for (auto &row : m_rowState) {
        const QString spec = settings.value(qs(row->slot.name)).toString();
        if (!spec.isEmpty())
            applySpec(spec);
        const QVariant rb = settings.value(qs(row->slot.name) + QStringLiteral("@readback"));
        if (row->readBack && rb.isValid())
            row->readBack->setChecked(rb.toBool());
    }
    m_global->setText(settings.value(QStringLiteral("@global"), m_global->text()).toString());
    m_local->setText(settings.value(QStringLiteral("@local")).toString());
    m_offset->setText(settings.value(QStringLiteral("@offset")).toString());
    m_repeat->setValue(settings.value(QStringLiteral("@repeat"), 1).toInt());
}

} // namespace clscope::ui
