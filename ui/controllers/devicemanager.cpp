// Device enumeration on a DeviceWorker of its own; the GUI thread only receives the snapshot.
#include "devicemanager.h"

#include "clscope/devicespec.h"
#include "workers/deviceworker.h"

#include <QSettings>

namespace clscope::ui {

namespace {
const QString kPlatformKey = QStringLiteral("device/platformName");
const QString kDeviceKey = QStringLiteral("device/deviceName");
} // namespace

DeviceManager::DeviceManager(QObject *parent)
    : QObject(parent)
    , m_enumerator(std::make_unique<DeviceWorker>(QStringLiteral("devices")))
{
    setObjectName(QStringLiteral("deviceManager"));
    qRegisterMetaType<SnapshotPtr>();
    qRegisterMetaType<DeviceKey>();
}

// A driver that hangs in clGetPlatformIDs or clGetDeviceInfo delays the exit by the worker's bounded wait,
// then is left behind: the global thread pool this ran on before made ~QCoreApplication wait forever.
DeviceManager::~DeviceManager() = default;

void DeviceManager::refresh()
{
    m_busy = true;
    emit enumerationStarted();
    m_enumerator->submit<SnapshotPtr>(
        m_tag,
        [](const CancelToken &, const Progress &) -> SnapshotPtr {
            try {
                return std::make_shared<const SystemSnapshot>(takeSnapshot());
            } catch (const std::exception &e) {
                // A driver that throws through the C API must not take the app down.
                SystemSnapshot failed;
                failed.error = e.what();
                return std::make_shared<const SystemSnapshot>(std::move(failed));
            }
        },
        this, [this](SnapshotPtr snapshot) { onFinished(std::move(snapshot)); });
}

void DeviceManager::onFinished(SnapshotPtr snapshot)
{
    m_busy = false;
    m_snapshot = std::move(snapshot);
    emit devicesAvailable(m_snapshot);
    applyCurrent(restoreRemembered(), false);
}

DeviceKey DeviceManager::restoreRemembered() const
{
    if (!m_snapshot)
        return {};
    const std::vector<DeviceCandidate> candidates = deviceCandidates(*m_snapshot);
    auto keyOf = [&](const std::vector<size_t> &picked) {
        return picked.empty() ? DeviceKey{}
                              : DeviceKey{candidates[picked.front()].platformIndex,
                                          candidates[picked.front()].deviceIndex};
    };
    // CLSCOPE_DEVICE is an explicit choice for this run and wins over what was remembered.
    const std::string envSpec = effectiveDeviceSpec({});
    if (!envSpec.empty()) {
        try {
            if (DeviceKey k = keyOf(matchDeviceSpec(envSpec, candidates)); k.isValid())
                return k;
        } catch (const DeviceSpecError &) {
        }
    }
    const QSettings settings;
    const QString platformName = settings.value(kPlatformKey).toString();
    const QString deviceName = settings.value(kDeviceKey).toString();
    for (const auto &c : candidates) {
        if (!platformName.isEmpty() && QString::fromStdString(c.platformName) == platformName &&
            QString::fromStdString(c.deviceName) == deviceName)
            return {c.platformIndex, c.deviceIndex};
    }
    return keyOf(matchDeviceSpec({}, candidates));
}

const DeviceSnapshot *DeviceManager::deviceSnapshot(cl_device_id id) const
{
    if (!m_snapshot || !id)
        return nullptr;
    for (const auto &p : m_snapshot->platforms) {
        for (const auto &d : p.devices) {
            if (d.id == id)
                return &d;
        }
    }
    return nullptr;
}

const DeviceSnapshot *DeviceManager::currentDeviceSnapshot() const
{
    return m_snapshot ? m_snapshot->device(m_current.platform, m_current.device) : nullptr;
}

QStringList DeviceManager::skippedDrivers() const
{
    QStringList out;
    if (!m_snapshot)
        return out;
    for (const SkippedIcd &s : m_snapshot->skippedIcds) {
        QString line = QString::fromStdString(s.message);
        if (!line.isEmpty())
            line[0] = line[0].toUpper();
        out << line + u'.';
    }
    return out;
}

QString DeviceManager::currentDeviceName() const
{
    const DeviceSnapshot *d = currentDeviceSnapshot();
    return d ? QString::fromStdString(d->name()) : QString();
}

void DeviceManager::setCurrentDevice(DeviceKey key)
{
    applyCurrent(key, true);
}

void DeviceManager::applyCurrent(DeviceKey key, bool remember)
{
    if (m_snapshot && key.isValid() && m_snapshot->device(key.platform, key.device)) {
        if (!remember) {
            m_current = key;
            emit currentDeviceChanged(key);
            return;
        }
        QSettings settings;
        settings.setValue(kPlatformKey, QString::fromStdString(
                                            m_snapshot->platforms[static_cast<size_t>(key.platform)].name()));
        settings.setValue(kDeviceKey,
                          QString::fromStdString(m_snapshot->device(key.platform, key.device)->name()));
    } else {
        key = {};
    }
    m_current = key;
    emit currentDeviceChanged(key);
}

} // namespace clscope::ui
