// The arguments panel's NDRange: global size, local size, offset and repeat count, with the device's and
// the kernel's limits under them and the reason a run refused the range. Kept per kernel with the panel's
// values.
#pragma once

#include "clscope/build.h"
#include "clscope/deviceinfo.h"
#include "clscope/runner.h"

#include <QGroupBox>

#include <optional>

class QLabel;
class QLineEdit;
class QSettings;
class QSpinBox;

namespace clscope::ui {

class RangeEditor : public QGroupBox
{
    Q_OBJECT
public:
    explicit RangeEditor(QWidget *parent = nullptr);

    // The fields' texts, trimmed.
    QString global() const;
    QString local() const;
    QString offset() const;
    int repeat() const;
    void setRange(const QString &global, const QString &local, const QString &offset);
    void setLocalSize(const QString &local);
    void setRepeat(int repeat);
    // "global 1024, local 64, ×10": the range as the run history shows it.
    QString rangeText() const;
    // The range parsed, or nothing with the reason in *error.
    std::optional<NDRange> range(QString *error) const;
    // The limits of the device (none: no device) and the kernel (null: none).
    void showLimits(const std::optional<DeviceSnapshot> &device, const KernelInfo *kernel);
    // A run's error that names the local size, the offset or the global size: that field is marked, the
    // reason shown under the range. Returns the field, or null when the message names none.
    QWidget *markError(const QString &message);
    // The fields in a kernel's settings group, and back.
    void save(QSettings &settings) const;
    void restore(const QSettings &settings);

private:
    QLineEdit *m_global;
    QLineEdit *m_local;
    QLineEdit *m_offset;
    QSpinBox *m_repeat;
    QLabel *m_limits;
    QLabel *m_rangeError;
};

} // namespace clscope::ui
