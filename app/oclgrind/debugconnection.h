// The debugger plugin's side of the protocol (docs/debug-protocol.md) that needs nothing of Oclgrind: the
// socket to the controller (whole JSON lines each way), work-item ids as JSON, and the breakpoints with
// their conditions as the controller sends them.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <string>

namespace clscope::debugplugin {

using Id = std::array<std::size_t, 3>;

// The socket to the controller: whole lines out, whole lines in. A request longer than 1 MiB, or one that
// is not a JSON object, is refused.
class Connection
{
public:
    explicit Connection(int fd)
        : m_fd(fd)
    {}
    ~Connection();
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;

    bool open() const { return m_open; }
    void send(const nlohmann::json &message);
    // The next request, waiting for it; nothing when the controller has gone (or sent something too long).
    std::optional<nlohmann::json> receive();
    // A request already sent, without waiting.
    std::optional<nlohmann::json> poll();

private:
    std::optional<nlohmann::json> takeLine();
    // Reads what is there; timeout -1 waits. False when nothing came (closed, or nothing within timeout).
    bool fill(int timeout);

    int m_fd;
    bool m_open = true;
    std::string m_buffer;
};

nlohmann::json jsonOf(const Id &id);
// [x], [x, y] or [x, y, z] of unsigned numbers; nothing otherwise.
std::optional<Id> idFrom(const nlohmann::json &value);

struct Breakpoint
{
    std::string file; // "" matches any file
    unsigned line = 0;
    std::optional<Id> item;
    // VARIABLE OP NUMBER; empty: always
    std::string variable;
    std::string op;
    double value = 0;
    bool temporary = false; // run to cursor: removed when hit
};

// a OP b for OP one of == != < <= > >=.
bool compare(double a, const std::string &op, double b);
// "i == 3", "sum>0.5": nothing (and why) when the text is not of that form.
std::optional<Breakpoint> parseCondition(const std::string &text, std::string &why);

} // namespace clscope::debugplugin
