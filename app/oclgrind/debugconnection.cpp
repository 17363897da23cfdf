// The debugger plugin's socket, ids and breakpoint conditions (debugconnection.h).
#include "debugconnection.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace clscope::debugplugin {
namespace {
constexpr std::size_t kMaxLine = 1 << 20; // a controller's request longer than this is refused
} // namespace

using nlohmann::json;

Connection::~Connection()
{
    ::close(m_fd);
}

void Connection::send(const nlohmann::json &message)
{
    if (!m_open)
        return;
    const std::string text = message.dump(-1, ' ', false, json::error_handler_t::replace) + '\n';
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::send(m_fd, text.data() + done, text.size() - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            m_open = false;
            return;
        }
        done += std::size_t(n);
    }
}

std::optional<nlohmann::json> Connection::receive()
{
    for (;;) {
        if (const auto line = takeLine())
            return line;
        if (!m_open || !fill(-1))
            return std::nullopt;
    }
}

std::optional<nlohmann::json> Connection::poll()
{
    if (const auto line = takeLine())
        return line;
    if (m_open && fill(0))
        return takeLine();
    return std::nullopt;
}

std::optional<nlohmann::json> Connection::takeLine()
{
    for (;;) {
        const std::size_t end = m_buffer.find('\n');
        if (end == std::string::npos) {
            if (m_buffer.size() > kMaxLine)
                m_open = false;
            return std::nullopt;
        }
        const std::string line = m_buffer.substr(0, end);
        m_buffer.erase(0, end + 1);
        json parsed = json::parse(line, nullptr, false);
        if (!parsed.is_discarded() && parsed.is_object())
            return parsed;
        send({{"reply", "error"}, {"error", "not a JSON object"}});
    }
}

bool Connection::fill(int timeout)
{
    pollfd p{m_fd, POLLIN, 0};
    int ready = 0;
    do {
        ready = ::poll(&p, 1, timeout);
    } while (ready < 0 && errno == EINTR);
    if (ready <= 0)
        return false;
    char chunk[65536];
    ssize_t n = 0;
    do {
        n = ::recv(m_fd, chunk, sizeof chunk, 0);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) {
        m_open = false;
        return false;
    }
    m_buffer.append(chunk, std::size_t(n));
    return true;
}

json jsonOf(const Id &id)
{
    return json::array({id[0], id[1], id[2]});
}

std::optional<Id> idFrom(const json &value)
{
    if (!value.is_array() || value.empty() || value.size() > 3)
        return std::nullopt;
    Id id{0, 0, 0};
    for (std::size_t i = 0; i < value.size(); ++i) {
        if (!value[i].is_number_unsigned())
            return std::nullopt;
        id[i] = value[i].get<std::size_t>();
    }
    return id;
}

bool compare(double a, const std::string &op, double b)
{
    if (op == "==")
        return a == b;
    if (op == "!=")
        return a != b;
    if (op == "<")
        return a < b;
    if (op == "<=")
        return a <= b;
    if (op == ">")
        return a > b;
    if (op == ">=")
        return a >= b;
    return false;
}

// "i == 3", "sum>0.5": nothing when the text is not of that form.
std::optional<Breakpoint> parseCondition(const std::string &text, std::string &why)
{
    static const char *const ops[] = {"==", "!=", "<=", ">=", "<", ">"};
    for (const char *op : ops) {
        const std::size_t at = text.find(op);
        if (at == std::string::npos)
            continue;
        Breakpoint b;
        b.variable = text.substr(0, at);
        b.op = op;
        const std::string number = text.substr(at + std::strlen(op));
        while (!b.variable.empty() && b.variable.back() == ' ')
            b.variable.pop_back();
        while (!b.variable.empty() && b.variable.front() == ' ')
            b.variable.erase(0, 1);
        char *end = nullptr;
        b.value = std::strtod(number.c_str(), &end);
        while (end && *end == ' ')
            ++end;
        if (b.variable.empty() || end == number.c_str() || (end && *end != '\0')) {
            why = "a condition is VARIABLE OP NUMBER (OP one of == != < <= > >=): " + text;
            return std::nullopt;
        }
        return b;
    }
    why = "a condition is VARIABLE OP NUMBER (OP one of == != < <= > >=): " + text;
    return std::nullopt;
}

} // namespace clscope::debugplugin
