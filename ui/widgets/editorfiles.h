// The files behind the editor's tabs: reading (only UTF-8 text within the size limit; SPIR-V and device
// binaries as program tabs, built-in kernels), atomic saves that keep a byte order mark, Save as / Save all,
// and files changed on disk behind the editor (a notice with Reload / Keep mine). A part of EditorTabs,
// whose public calls come here; indices are tab indices.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

class QByteArray;
class QMimeData;

namespace clscope::ui {

class EditorTabs;
class FileWatch;

class EditorFiles : public QObject
{
    Q_OBJECT
public:
    explicit EditorFiles(EditorTabs &tabs);

    bool openFile(const QString &path);
    // A sample kernel (compiled in under :/kernels) as an untitled copy named after it.
    bool openSample(const QString &name);
    // Local files in a drag that the editor can open (.cl, .h, .clh, .txt, and .clscope captures).
    static QStringList openableFiles(const QMimeData *mime);
    // Opens dropped files; returns the captures among them, which the window opens.
    QStringList openDropped(const QStringList &files);
    int openProgramFile(const QString &path);
    int openBuiltIns(const QString &names, const QString &deviceName);
    QString programKind(int index) const;
    QString programFile(int index) const;

    bool save(int index);
    bool saveAs(const QString &path, int index);
    bool saveAll();
    // Asks where to save a tab (the tabs' callback, else a file dialog); empty when cancelled.
    QString askSavePath(int index);

    // Watches the file of a tab's editor, whose text came from `contents`.
    void track(const QObject *editor, const QString &path, const QByteArray &contents);
    bool isChangedOnDisk(int index) const;
    bool reload(int index);
    void keepMine(int index);

private:
    bool readFile(const QString &path, QString *text, QByteArray *bytes = nullptr);
    bool writeFile(int index, const QString &path);
    void onChangedOnDisk(int index);

    EditorTabs &m_tabs;
    FileWatch *m_watch;
};

} // namespace clscope::ui
