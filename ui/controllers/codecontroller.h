// The generated code of builds, fetched off the GUI thread: the binaries are read on the worker of the
// build's device, and llvm-dis or spirv-dis run there as child processes (disassemble.h). Every request is
// answered (a newer one does not drop an older one: a dialog may ask for several builds at once), while
// the controller lives.
#pragma once

#include "clscope/build.h"
#include "clscope/disassemble.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace clscope::ui {

class DeviceWorkers;

using GeneratedCodeList = std::vector<clscope::GeneratedCode>;

class CodeController : public QObject
{
    Q_OBJECT
public:
    explicit CodeController(std::shared_ptr<DeviceWorkers> workers, QObject *parent = nullptr);

    // Asks for the code of every device of a successful build; codeReady(key, ...) or codeFailed(key, ...)
    // follows. Returns false (and asks nothing) for a failed build.
    bool request(const QString &key, const BuildResult &build);
    int pending() const { return m_pending; }

signals:
    void codeReady(const QString &key, const clscope::ui::GeneratedCodeList &code);
    void codeFailed(const QString &key, const QString &message);

private:
    std::shared_ptr<DeviceWorkers> m_workers;
    quint64 m_requests = 0;
    int m_pending = 0;
};

} // namespace clscope::ui

Q_DECLARE_METATYPE(clscope::ui::GeneratedCodeList)
