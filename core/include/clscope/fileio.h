// Files read and written the safe way, for every file core and the CLI touch. Reading opens only regular
// files (a FIFO, /dev/zero, a socket or a folder is refused at once, and opening a FIFO never blocks) and
// compares the size with a limit before a byte is read. Writing checks every write, the flush and the
// fsync, and names the reason as the system does ("No space left on device").
#pragma once

#include "clscope/error.h"

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace clscope {

// "cannot read kernels/a.cl: not a regular file (a FIFO)", "cannot write out.json: No space left on device".
// A Failure: a command that reads its input file itself says when that is bad usage.
class FileError : public Error
{
public:
    FileError(const std::string &action, std::string path, std::string reason);
    const std::string &path() const { return m_path; }
    const std::string &reason() const { return m_reason; }

private:
    std::string m_path;
    std::string m_reason;
};

// Limits for the files core reads whole. Inputs that are streamed (pool traces) have none.
inline constexpr std::uint64_t kMaxSourceBytes = 64ull << 20;    // .cl sources and their headers
inline constexpr std::uint64_t kMaxDocumentBytes = 256ull << 20; // JSON documents, logs, SPIR-V
inline constexpr std::uint64_t kMaxCacheEntryBytes = 1ull << 30; // one cached program binary
inline constexpr std::uint64_t kMaxDataFileBytes = 16ull << 30;  // .npy arrays (device buffers are smaller)

// A regular file open for reading. Throws FileError when the path is missing, unreadable or not a
// regular file.
class RegularFile
{
public:
    explicit RegularFile(const std::filesystem::path &path);
    ~RegularFile();
    RegularFile(RegularFile &&other) noexcept;
    RegularFile &operator=(RegularFile &&) = delete;
    RegularFile(const RegularFile &) = delete;
    RegularFile &operator=(const RegularFile &) = delete;

    const std::string &path() const { return m_path; }
    std::uint64_t size() const { return m_size; } // when it was opened

    // The whole file; throws FileError before reading when it is larger than maxBytes, and when a read
    // fails or the file grows past maxBytes while it is read.
    std::string readAll(std::uint64_t maxBytes);
    // The next line without its '\n' (a last line without one counts); false at the end. Throws FileError
    // when a line is longer than maxLength, so a file without newlines cannot fill the memory.
    bool readLine(std::string &line, std::size_t maxLength);
    // Up to size bytes into data, from where the last read ended; 0 at the end. For a file read in pieces
    // (a hash of it); not to be mixed with readLine.
    std::size_t read(char *data, std::size_t size);
    // Up to maxBytes from offset (fewer at the end, none past it): the head of a file that tells its
    // kind, or what a log gained since it was last read.
    std::string readAt(std::uint64_t offset, std::size_t maxBytes);

private:
    std::size_t fill();

    std::string m_path;
    int m_fd = -1;
    std::uint64_t m_size = 0;
    std::string m_buffer; // readLine's bytes not yet returned
    std::size_t m_start = 0;
    bool m_eof = false;
};

// RegularFile(path).readAll(maxBytes).
std::string readRegularFile(const std::filesystem::path &path, std::uint64_t maxBytes);

// Why path cannot be read as a file, without opening it ("no such file", "not a regular file (a FIFO)",
// "Permission denied" for a folder on the way); empty for a regular file. For checks made before a read
// (an argument's file= checked when the arguments are bound); the read itself still goes through
// RegularFile.
std::string regularFileProblem(const std::filesystem::path &path);

// Replaces path's contents with bytes: every write, the fsync and the close checked. A regular file (or a
// new one) is written beside the target (".NAME.part-PID-N") and renamed over it once complete, so a
// failure leaves the old file as it was and no part behind; a FIFO or a device is written in place; a
// symbolic link's target is replaced. Throws FileError naming errno's text.
void writeWholeFile(const std::filesystem::path &path, std::string_view bytes);

// The system's text for an errno value ("No space left on device"); "unknown error" for 0.
std::string errnoText(int code);

} // namespace clscope
