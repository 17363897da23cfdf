// The device explorer panel: a filterable tree of platforms, devices and their parameters, with copy,
// JSON export, and a page that explains what to do when no OpenCL platform is installed.
#pragma once

#include "controllers/devicemanager.h"

#include <QWidget>

class QLineEdit;
class QStackedWidget;
class QTreeView;
class QLabel;

namespace clscope::ui {

class DeviceTreeModel;
class DeviceFilterProxy;
class NoticeBar;

class DeviceDock : public QWidget
{
    Q_OBJECT
public:
    explicit DeviceDock(DeviceManager *manager, QWidget *parent = nullptr);

    DeviceTreeModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }
    // Names the OpenCL drivers that were skipped (DeviceManager::skippedDrivers); hidden when none was.
    NoticeBar *driverNotice() const { return m_driverNotice; }
    // Which page shows: "loading", "tree", "empty".
    QString currentPage() const;

    // The selected rows as "name<TAB>value" lines (what Copy puts on the clipboard).
    QString selectionText() const;
    void copySelection();
    // Writes the whole snapshot as the CLI's JSON; returns an error message or empty.
    QString exportJson(const QString &path) const;

signals:
    void exportRequested();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitColumns();
    void showSnapshot(const SnapshotPtr &snapshot);
    void onCurrentDeviceChanged(DeviceKey key);
    void onActivated(const QModelIndex &proxyIndex);
    void chooseExportFile();

    DeviceManager *m_manager;
    DeviceTreeModel *m_model;
    DeviceFilterProxy *m_proxy;
    QStackedWidget *m_stack;
    QTreeView *m_view;
    QLineEdit *m_filter;
    QLabel *m_emptyLabel;
    NoticeBar *m_driverNotice;
    QWidget *m_loadingPage;
    QWidget *m_treePage;
    QWidget *m_emptyPage;
    int m_nameWidth = 240; // what the parameter names need
};

} // namespace clscope::ui
