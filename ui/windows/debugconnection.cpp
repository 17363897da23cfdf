// Child clscope-cli on Oclgrind with the plugin <-> local socket: lines in, requests out.
#include "debugconnection.h"

#include "checkcoordinator.h"
#include "display/stdstring.h"

#include "clscope/lineprofile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <QProcessEnvironment>

#include <stdexcept>

namespace clscope::ui {

namespace {
constexpr qsizetype kMaxMessageBytes = 64 * 1024 * 1024; // a line longer than this is not the plugin's
constexpr qsizetype kMaxStderrBytes = 1024 * 1024;
} // namespace

DebugConnection::DebugConnection(QObject *parent)
    : QObject(parent)
    , m_cli(QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("clscope-cli")))
{
    setObjectName(QStringLiteral("debugConnection"));
}

DebugConnection::~DebugConnection()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(2000);
    }
}

bool DebugConnection::listen(const QStringList &args, const QString &kernel, const QString &mainFile,
                             QString *why)
{
    std::unique_ptr<DebugSession> session;
    try {
        // The plugin beside the clscope-cli that runs the launch (a build tree's app folder, or the
        // package's).
        const std::string plugin = findLineProfiler(QFileInfo(m_cli).absolutePath().toStdString());
        std::vector<std::string> environment;
        for (const QString &e : QProcessEnvironment::systemEnvironment().toStringList())
            environment.push_back(e.toStdString());
        session = std::make_unique<DebugSession>(environment, plugin);
    } catch (const std::exception &e) {
        *why = qs(e.what());
        return false;
    }
    auto *server = new QLocalServer(this);
    if (!server->listen(qs(session->socketPath().string()))) {
        *why = tr("cannot listen for the debugger: %1").arg(server->errorString());
        delete server;
        return false;
    }
    m_session = std::move(session);
    m_server = server;
    m_kernel = kernel;
    m_mainFile = mainFile.toStdString();
    m_buffer.clear();
    m_err.clear();
    m_expected.clear();
    m_helloSeen = m_debugging = m_stopping = false;
    m_error.clear();
    m_args = args;
    connect(m_server, &QLocalServer::newConnection, this, [this] {
        QLocalSocket *socket = m_server->nextPendingConnection();
        if (!socket || m_socket) {
            delete socket;
            return;
        }
        m_socket = socket;
        connect(m_socket, &QLocalSocket::readyRead, this, &DebugConnection::onReadyRead);
    });

    auto *process = new QProcess(this);
    m_process = process;
    QProcessEnvironment env;
    for (const std::string &e : m_session->environment()) {
        const QString entry = qs(e);
        const qsizetype eq = entry.indexOf(u'=');
        if (eq > 0)
            env.insert(entry.left(eq), entry.mid(eq + 1));
    }
    process->setProcessEnvironment(env);
    process->setStandardInputFile(QProcess::nullDevice());
    process->setStandardOutputFile(QProcess::nullDevice()); // the run's printout; the debugger shows its own
    connect(process, &QProcess::readyReadStandardError, this, [this, process] {
        m_err += process->readAllStandardError();
        if (m_err.size() > kMaxStderrBytes)
            m_err = m_err.right(kMaxStderrBytes / 2);
    });
    connect(process, &QProcess::finished, this, [this, process](int exitCode, QProcess::ExitStatus status) {
        if (m_process != process)
            return;
        m_err += process->readAllStandardError();
        if (m_socket)
            onReadyRead(); // what the plugin said last
        QString error = m_error;
        if (error.isEmpty() && !m_stopping) {
            if (status == QProcess::CrashExit)
                error = tr("the debugged launch ended by a signal");
            else if (!m_helloSeen)
                error = tr("the launch ended before the debugger could stop it: %1")
                            .arg(childStatusLine(m_err).isEmpty() ? tr("the plugin did not load")
                                                                  : childStatusLine(m_err));
            else if (!m_debugging)
                error = tr("the launch never ran %1 on Oclgrind: %2").arg(m_kernel, childStatusLine(m_err));
            else if (exitCode != 0 && !(m_args.value(0) == QLatin1String("replay") && exitCode == 1))
                error = tr("the launch failed: %1").arg(childStatusLine(m_err));
        }
        end(error);
    });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart && m_process == process)
            end(tr("cannot start %1: %2").arg(m_cli, process->errorString()));
    });
    return true;
}

void DebugConnection::launch()
{
    if (m_process)
        m_process->start(m_cli, m_args);
}

void DebugConnection::onReadyRead()
{
    if (!m_socket)
        return;
    m_buffer += m_socket->readAll();
    for (;;) {
        const qsizetype end = m_buffer.indexOf('\n');
        if (end < 0) {
            if (m_buffer.size() > kMaxMessageBytes)
                fail(tr("the debugger plugin sent a line longer than 64 MB"));
            return;
        }
        const QByteArray line = m_buffer.left(end);
        m_buffer.remove(0, end + 1);
        try {
            const DebugMessage m =
                parseDebugMessage(std::string_view(line.constData(), std::size_t(line.size())), m_mainFile);
            if (!m_helloSeen && m.kind != DebugMessage::Kind::Hello)
                throw std::runtime_error("the debugger plugin did not say hello first");
            handle(m);
        } catch (const std::exception &e) {
            m_buffer.clear();
            fail(qs(e.what()));
            return;
        }
    }
}

void DebugConnection::handle(const DebugMessage &m)
{
    switch (m.kind) {
    case DebugMessage::Kind::Hello:
        m_helloSeen = true;
        return;
    case DebugMessage::Kind::Kernel:
        // Only the first launch of the debugged kernel is debugged; the child runs the others through.
        if (m_debugging || qs(m.kernel.name) != m_kernel) {
            send(debugSimpleRequest("skip"));
            return;
        }
        m_debugging = true;
        emit kernelStarted(m.kernel);
        return;
    case DebugMessage::Kind::Progress:
        emit progress(m.groupsStarted, m.groups);
        return;
    case DebugMessage::Kind::Stopped:
        emit stopped(m.stop);
        return;
    case DebugMessage::Kind::KernelEnd:
        if (m_debugging && qs(m.kernel.name) == m_kernel)
            emit kernelEnded();
        return;
    case DebugMessage::Kind::Reply:
        break;
    }
    // A reply: the next one due.
    if (m_expected.empty())
        return;
    const std::string due = m_expected.front();
    m_expected.pop_front();
    emit replied(due, m);
}

void DebugConnection::send(const std::string &request, const char *expectedReply)
{
    if (!m_socket)
        return;
    if (expectedReply)
        m_expected.emplace_back(expectedReply);
    m_socket->write(request.data(), qint64(request.size()));
}

bool DebugConnection::isReplyDue() const
{
    return !m_expected.empty();
}

void DebugConnection::fail(const QString &error)
{
    m_error = error;
    stop();
}

void DebugConnection::stop()
{
    if (!m_process || m_stopping)
        return;
    m_stopping = true;
    emit stopping();
    terminateChild(m_process, this);
}

void DebugConnection::end(const QString &error)
{
    QProcess *process = m_process;
    m_process = nullptr;
    if (process)
        process->deleteLater();
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->deleteLater();
        m_socket = nullptr;
    }
    if (m_server) {
        m_server->close();
        m_server->deleteLater();
        m_server = nullptr;
    }
    m_session.reset();
    const bool stopped = m_stopping;
    m_stopping = false;
    emit finished(error, stopped);
}

} // namespace clscope::ui
