// Desktop integration files as installed: the .desktop entry passes desktop-file-validate, the AppStream
// metainfo passes appstreamcli validate --no-net and every screenshot it lists is a picture of the
// repository's docs/images, and the MIME type for .cl sources is the one the entry opens.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

namespace {
const QString kResources = QStringLiteral(CLSCOPE_SOURCE_DIR "/resources");
const QString kId = QStringLiteral("io.github.clscope.CLScope");

struct Tool
{
    int exitCode = -1;
    QString output;
};

Tool runTool(const QString &program, const QStringList &args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForFinished(60000))
        return {};
    return {p.exitCode(), QString::fromUtf8(p.readAll())};
}

QString readText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}
} // namespace

class TestDesktopFiles : public QObject
{
    Q_OBJECT
private slots:
    void desktopEntryValidates()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("desktop-file-validate")).isEmpty())
            QSKIP("desktop-file-validate is not installed (packaging/install-deps.sh installs it)");
        const Tool t = runTool(QStringLiteral("desktop-file-validate"),
                               {kResources + u'/' + kId + QStringLiteral(".desktop")});
        QVERIFY2(t.exitCode == 0 && t.output.trimmed().isEmpty(), qPrintable(t.output));
    }

    void metainfoValidatesWithScreenshots()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("appstreamcli")).isEmpty())
            QSKIP("appstreamcli is not installed (packaging/install-deps.sh installs it)");
        const QString metainfo = kResources + u'/' + kId + QStringLiteral(".metainfo.xml");
        const Tool t = runTool(QStringLiteral("appstreamcli"),
                               {QStringLiteral("validate"), QStringLiteral("--no-net"), metainfo});
        QVERIFY2(t.exitCode == 0, qPrintable(t.output));
        QVERIFY2(!t.output.contains(QLatin1String("E: ")) && !t.output.contains(QLatin1String("W: ")),
                 qPrintable(t.output));

        // Each screenshot is one of the user guide's pictures, which docs/make-screenshots.sh makes.
        const QString text = readText(metainfo);
        const QRegularExpression image(QStringLiteral("<image>[^<]*/(docs/images/[^<]+\\.png)</image>"));
        int count = 0;
        for (auto it = image.globalMatch(text); it.hasNext(); ++count) {
            const QString local = QStringLiteral(CLSCOPE_SOURCE_DIR "/") + it.next().captured(1);
            QVERIFY2(QFile::exists(local), qPrintable(local));
        }
        QVERIFY(count >= 1);
        QVERIFY(text.contains(QLatin1String("<screenshot type=\"default\">")));
    }

    void clSourcesOpenInCLScope()
    {
        const QString desktop = readText(kResources + u'/' + kId + QStringLiteral(".desktop"));
        const QString mime = readText(kResources + u'/' + kId + QStringLiteral(".mime.xml"));
        const QRegularExpression type(QStringLiteral("<mime-type type=\"([^\"]+)\""));
        const auto m = type.match(mime);
        QVERIFY(m.hasMatch());
        QVERIFY(mime.contains(QLatin1String("pattern=\"*.cl\"")));
        QVERIFY2(desktop.contains(QRegularExpression(QStringLiteral("^MimeType=.*") +
                                                         QRegularExpression::escape(m.captured(1)) + u';',
                                                     QRegularExpression::MultilineOption)),
                 qPrintable(desktop));
        QVERIFY(desktop.contains(
            QRegularExpression(QStringLiteral("^Exec=clscope %F$"), QRegularExpression::MultilineOption)));
    }

    // A capture made on a GPU box opens in CLScope from a file manager: its type is declared (a kind of
    // SQLite file, by the .clscope glob) and the desktop entry takes it.
    void capturesOpenInCLScope()
    {
        const QString desktop = readText(kResources + u'/' + kId + QStringLiteral(".desktop"));
        const QString mime = readText(kResources + u'/' + kId + QStringLiteral(".mime.xml"));
        const QRegularExpression type(
            QStringLiteral("<mime-type type=\"([^\"]+)\">(?:(?!</mime-type>).)*pattern=\"\\*\\.clscope\""),
            QRegularExpression::DotMatchesEverythingOption);
        const auto m = type.match(mime);
        QVERIFY2(m.hasMatch(), qPrintable(mime));
        QVERIFY2(desktop.contains(QRegularExpression(QStringLiteral("^MimeType=.*") +
                                                         QRegularExpression::escape(m.captured(1)) + u';',
                                                     QRegularExpression::MultilineOption)),
                 qPrintable(desktop));
    }
};

QTEST_GUILESS_MAIN(TestDesktopFiles)
#include "tst_desktopfiles.moc"
