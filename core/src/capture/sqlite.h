// A thin RAII layer over the SQLite C API for the capture file: a connection and prepared statements with
// positional binding. Errors throw CaptureError naming the file and SQLite's message.
#pragma once

#include "clscope/capture.h"

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clscope::capture {

// Deletes an SQLite file and the -wal and -shm beside it, where they are (a capture about to be replaced).
void removeDatabase(const std::string &path);

class Db
{
public:
    Db(const std::string &path, int flags);
    ~Db();
    Db(const Db &) = delete;
    Db &operator=(const Db &) = delete;

    sqlite3 *handle() const { return m_db; }
    // Trades connections (and paths) with another.
    void swap(Db &other) noexcept
    {
        std::swap(m_db, other.m_db);
        std::swap(m_path, other.m_path);
    }
    const std::string &path() const { return m_path; }
    void exec(const char *sql);
    [[noreturn]] void fail(std::string_view what) const;

private:
    sqlite3 *m_db = nullptr;
    std::string m_path;
};

class Stmt
{
public:
    Stmt(const Db &db, const char *sql);
    ~Stmt();
    Stmt(const Stmt &) = delete;
    Stmt &operator=(const Stmt &) = delete;

    Stmt &bind(int i, std::int64_t v);
    Stmt &bind(int i, std::uint64_t v) { return bind(i, static_cast<std::int64_t>(v)); }
    Stmt &bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
    Stmt &bind(int i, unsigned v) { return bind(i, static_cast<std::int64_t>(v)); }
    Stmt &bind(int i, std::string_view text);
    Stmt &bindBlob(int i, std::string_view bytes);
    Stmt &bindNull(int i);
    // True while a row is there; false when done. Throws on errors.
    bool step();
    // Runs to completion and resets for the next bindings.
    void run();
    void reset();

    std::int64_t i64(int col) const { return sqlite3_column_int64(m_stmt, col); }
    // A column read once for both its type and its value (a pass over millions of rows asks for both). The
    // value is SQLite's unprotected one: read it on the connection's thread, before the next step().
    struct Value
    {
        sqlite3_value *v;
        bool isNull() const { return sqlite3_value_type(v) == SQLITE_NULL; }
        std::int64_t i64() const { return sqlite3_value_int64(v); }
    };
    Value value(int col) const { return {sqlite3_column_value(m_stmt, col)}; }
    double f64(int col) const { return sqlite3_column_double(m_stmt, col); }
    bool isNull(int col) const { return sqlite3_column_type(m_stmt, col) == SQLITE_NULL; }
    std::string text(int col) const;
    // The text without a copy: valid until the next step() or reset().
    std::string_view view(int col) const;
    std::vector<unsigned char> blob(int col) const;

private:
    const Db &m_db;
    sqlite3_stmt *m_stmt = nullptr;
};

} // namespace clscope::capture
