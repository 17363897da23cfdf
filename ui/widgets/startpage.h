// What the centre of the window shows while no kernel is open: the ways in (a sample, a new kernel from a
// template, a file, a recent file) and the three steps of the loop.
#pragma once

#include <QWidget>

class QVBoxLayout;

namespace clscope::ui {

class StartPage : public QWidget
{
    Q_OBJECT
public:
    explicit StartPage(const QStringList &samples, QWidget *parent = nullptr);

    void setRecentFiles(const QStringList &paths);

    // The text of a new kernel: a small kernel with its own clscope-run launch, so Ctrl+B then F5 works.
    static QString kernelTemplate();

signals:
    void sampleRequested(const QString &name);
    void newKernelRequested();
    void openFileRequested();
    void recentFileRequested(const QString &path);

private:
    QVBoxLayout *m_recent;
};

} // namespace clscope::ui
