// The CLScope main window: dockable panels whose layout persists, menus, and the status bar that names
// the current device.
#pragma once

#include "models/devicemanager.h"

#include <QMainWindow>

class QDockWidget;
class QLabel;

namespace clscope::ui {

class DeviceDock;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    DeviceManager *deviceManager() const { return m_devices; }
    DeviceDock *deviceDock() const { return m_deviceDock; }
    QLabel *deviceStatusLabel() const { return m_deviceLabel; }

    // Raises the dock whose object name or title matches (case-insensitive); false when none does.
    bool showDock(const QString &name);
    QStringList dockNames() const;

    // Saves the window as it looks now. Returns an error message, or empty on success.
    QString saveScreenshot(const QString &path);

    // Emitted once the first enumeration has been shown (what --screenshot waits for).
    bool isReady() const { return m_ready; }

signals:
    void ready();

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void createMenus();
    void onCurrentDeviceChanged(DeviceKey key);
    QDockWidget *addPanel(QWidget *panel, const QString &title, const QString &objectName, Qt::DockWidgetArea area);

    DeviceManager *m_devices;
    DeviceDock *m_deviceDock;
    QLabel *m_deviceLabel;
    QList<QDockWidget *> m_docks;
    bool m_ready = false;
    bool m_started = false;
};

} // namespace clscope::ui
