// The debugger's session with its child (docs/debug-protocol.md): a clscope-cli that runs the launch on
// Oclgrind with CLScope's plugin, and the local socket the plugin connects to. It frames the plugin's lines,
// skips the kernels that are not the debugged one, matches each reply to the request it answers, and says
// why the child ended. Everything is asynchronous (QProcess and QLocalSocket signals, never a wait). What the
// messages mean to the user (the Debugger panel, the editor's markers) is DebugCoordinator's.
#pragma once

#include "clscope/debug.h"

#include <QObject>
#include <QProcess>
#include <QStringList>

#include <deque>
#include <memory>
#include <string>

class QLocalServer;
class QLocalSocket;

namespace clscope::ui {

class DebugConnection : public QObject
{
    Q_OBJECT
public:
    explicit DebugConnection(QObject *parent = nullptr);
    ~DebugConnection() override; // kills a child still running

    // The clscope-cli that runs the launch (beside the GUI's executable by default).
    void setCliPath(const QString &path) { m_cli = path; }

    // Makes the session (its socket path, the child's environment with the plugin) and listens on its
    // socket for a child of clscope-cli with args that debugs kernel (mainFile names the debugged source in
    // its messages); false with *why when it cannot. launch() then starts the child.
    bool listen(const QStringList &args, const QString &kernel, const QString &mainFile, QString *why);
    void launch();

    // Sends a request; expectedReply names the reply it is due (replies come in order).
    void send(const std::string &request, const char *expectedReply = nullptr);
    // Ends the child (SIGTERM, then SIGKILL); finished() follows, without an error of its own.
    void stop();
    // Ends the child with error as the reason.
    void fail(const QString &error);

    bool isActive() const { return m_process != nullptr; }
    bool isStopping() const { return m_stopping; }
    // The debugged kernel's launch began under the debugger (the plugin announced it).
    bool isDebugging() const { return m_debugging; }
    // A request's reply has not come yet.
    bool isReplyDue() const;
    QStringList arguments() const { return m_args; }

signals:
    void
    kernelStarted(const clscope::DebugKernel &kernel); // the debugged kernel's launch, first line not yet run
    void kernelEnded();
    void progress(quint64 groupsStarted, quint64 groups);
    void stopped(const clscope::DebugStop &stop);
    // A reply to the request that expected `due` ("variables", "stack", "select"…).
    void replied(const std::string &due, const clscope::DebugMessage &reply);
    void stopping();
    // The child is gone: error says why when the session ended early, stopped whether stop() ended it.
    void finished(const QString &error, bool stopped);

private:
    void onReadyRead();
    void handle(const DebugMessage &message);
    void end(const QString &error);

    QString m_cli;
    QStringList m_args;
    QString m_kernel;
    std::string m_mainFile;
    std::unique_ptr<DebugSession> m_session;
    QLocalServer *m_server = nullptr;
    QLocalSocket *m_socket = nullptr;
    QProcess *m_process = nullptr;
    QByteArray m_buffer;
    QByteArray m_err;
    std::deque<std::string> m_expected; // replies due, in order
    bool m_helloSeen = false;
    bool m_debugging = false;
    bool m_stopping = false;
    QString m_error; // why the session ended early
};

} // namespace clscope::ui
