// The SQLite wrappers of sqlite.h.
#include "sqlite.h"

#include <cstdio>

namespace clscope::capture {

void removeDatabase(const std::string &path)
{
    for (const char *suffix : {"", "-wal", "-shm"})
        std::remove((path + suffix).c_str());
}

Db::Db(const std::string &path, int flags)
    : m_path(path)
{
    if (sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr) != SQLITE_OK) {
        const std::string msg = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        sqlite3_close(m_db);
        m_db = nullptr;
        throw CaptureError("cannot open " + path + ": " + msg);
    }
    sqlite3_busy_timeout(m_db, 2000);
}

Db::~Db()
{
    sqlite3_close(m_db);
}

void Db::exec(const char *sql)
{
    char *err = nullptr;
    if (sqlite3_exec(m_db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
        const std::string msg = err ? err : "unknown error";
        sqlite3_free(err);
        throw CaptureError(m_path + ": " + msg);
    }
}

void Db::fail(std::string_view what) const
{
    throw CaptureError(m_path + ": " + std::string(what) + ": " + sqlite3_errmsg(m_db));
}

Stmt::Stmt(const Db &db, const char *sql)
    : m_db(db)
{
    if (sqlite3_prepare_v2(db.handle(), sql, -1, &m_stmt, nullptr) != SQLITE_OK)
        db.fail("cannot prepare a query (is this a CLScope capture?)");
}

Stmt::~Stmt()
{
    sqlite3_finalize(m_stmt);
}

Stmt &Stmt::bind(int i, std::int64_t v)
{
    sqlite3_bind_int64(m_stmt, i, v);
    return *this;
}

Stmt &Stmt::bind(int i, std::string_view text)
{
    sqlite3_bind_text64(m_stmt, i, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    return *this;
}

Stmt &Stmt::bindBlob(int i, std::string_view bytes)
{
    sqlite3_bind_blob64(m_stmt, i, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
    return *this;
}

Stmt &Stmt::bindNull(int i)
{
    sqlite3_bind_null(m_stmt, i);
    return *this;
}

bool Stmt::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    // Reset, so that the statement can be bound and run again after the error (a writer that met a full
    // disk finishes its file with the same statements).
    const std::string msg = sqlite3_errmsg(m_db.handle());
    sqlite3_reset(m_stmt);
    throw CaptureError(m_db.path() + ": query failed: " + msg);
}

void Stmt::run()
{
    while (step()) {
    }
    reset();
}

void Stmt::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

std::string Stmt::text(int col) const
{
    const auto *p = sqlite3_column_text(m_stmt, col);
    return p ? std::string(reinterpret_cast<const char *>(p), std::size_t(sqlite3_column_bytes(m_stmt, col)))
             : std::string();
}

std::string_view Stmt::view(int col) const
{
    const auto *p = sqlite3_column_text(m_stmt, col);
    return p ? std::string_view(reinterpret_cast<const char *>(p),
                                std::size_t(sqlite3_column_bytes(m_stmt, col)))
             : std::string_view();
}

std::vector<unsigned char> Stmt::blob(int col) const
{
    const auto *p = static_cast<const unsigned char *>(sqlite3_column_blob(m_stmt, col));
    const int n = sqlite3_column_bytes(m_stmt, col);
    return p ? std::vector<unsigned char>(p, p + n) : std::vector<unsigned char>();
}

} // namespace clscope::capture
