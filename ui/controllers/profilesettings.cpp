// ProfileSettings: their defaults, their checks and their memory per program (QSettings).
#include "profilesettings.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

#include <algorithm>

namespace clscope::ui {

namespace {

QString settingsGroup(const QString &program)
{
    // Program paths hold slashes, which QSettings takes as groups: a hash names the entry.
    return QStringLiteral("profile/") +
           QString::fromLatin1(
               QCryptographicHash::hash(program.toUtf8(), QCryptographicHash::Sha1).toHex().left(16));
}

// The program's folder, unless it is a system one (python3, clpeak): then the home folder.
QString defaultFolder(const QString &program)
{
    const QString dir = QFileInfo(program).absolutePath();
    if (program.isEmpty() || !program.contains(u'/') || dir.startsWith(QStringLiteral("/usr/")) ||
        dir == QStringLiteral("/bin"))
        return QDir::homePath();
    return dir;
}

} // namespace

QString ProfileSettings::suggestedOutput() const
{
    // Named after the script an interpreter runs (demo.py), else the program; a new file per capture.
    QString name = QFileInfo(program).fileName();
    for (const QString &a : arguments) {
        if (!a.startsWith(u'-')) {
            if (QFileInfo(a).suffix().size() >= 2 && QFileInfo(a).suffix().size() <= 3)
                name = QFileInfo(a).completeBaseName();
            break;
        }
    }
    if (name.isEmpty())
        name = QStringLiteral("capture");
    const QString dir =
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/captures");
    return QDir(dir).filePath(
        QStringLiteral("%1-%2.clscope")
            .arg(name, QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-hhmmss"))));
}

bool ProfileSettings::isRemembered(const QString &program)
{
    QSettings settings;
    settings.beginGroup(settingsGroup(program));
    return !program.isEmpty() && settings.value(QStringLiteral("program")).toString() == program;
}

ProfileSettings ProfileSettings::remembered(const QString &program)
{
    ProfileSettings s;
    s.program = program;
    if (isRemembered(program)) {
        QSettings settings;
        settings.beginGroup(settingsGroup(program));
        s.arguments = settings.value(QStringLiteral("arguments")).toStringList();
        s.workingFolder = settings.value(QStringLiteral("folder")).toString();
        s.environment = settings.value(QStringLiteral("environment")).toStringList();
        s.contents = Contents(std::clamp(settings.value(QStringLiteral("contents")).toInt(), 0, 2));
        s.kernels = settings.value(QStringLiteral("kernels")).toStringList();
        s.budgetBytes = settings.value(QStringLiteral("budget"), s.budgetBytes).toULongLong();
        s.timestampEvery = settings.value(QStringLiteral("timestamps"), s.timestampEvery).toUInt();
    }
    if (s.workingFolder.isEmpty())
        s.workingFolder = defaultFolder(program);
    s.output = s.suggestedOutput();
    return s;
}

void ProfileSettings::remember() const
{
    QSettings settings;
    settings.beginGroup(settingsGroup(program));
    settings.setValue(QStringLiteral("program"), program);
    settings.setValue(QStringLiteral("arguments"), arguments);
    settings.setValue(QStringLiteral("folder"), workingFolder);
    settings.setValue(QStringLiteral("environment"), environment);
    settings.setValue(QStringLiteral("contents"), int(contents));
    settings.setValue(QStringLiteral("kernels"), kernels);
    settings.setValue(QStringLiteral("budget"), budgetBytes);
    settings.setValue(QStringLiteral("timestamps"), timestampEvery);
    settings.endGroup();
    settings.setValue(QStringLiteral("profile/last"), program);
}

QString ProfileSettings::problem() const
{
    if (program.trimmed().isEmpty())
        return QObject::tr("Choose the program to profile");
    if (!workingFolder.isEmpty() && !QFileInfo(workingFolder).isDir())
        return QObject::tr("The working folder %1 does not exist").arg(workingFolder);
    for (const QString &line : environment) {
        const int eq = line.indexOf(u'=');
        if (eq <= 0)
            return QObject::tr("Environment lines are KEY=VALUE, not \"%1\"").arg(line);
    }
    if (contents == Contents::Kernels && kernels.isEmpty())
        return QObject::tr("Name the kernels whose launches keep their contents");
    if (output.trimmed().isEmpty())
        return QObject::tr("Choose where the capture goes");
    return {};
}

} // namespace clscope::ui
