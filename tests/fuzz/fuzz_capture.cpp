// Fuzzes the capture reader: any file given to capture-info, replay, export or opened in the GUI must end in
// records (with their problems named) or CaptureError, nothing else. The input is the capture file itself
// (an SQLite database; the seeds are small real captures, so mutations land in rows, pages and headers).
// Every reader call is made, every launch read, and what needs no device is done with it: the summary
// printed and as JSON (which must parse), the replay plan (replayBlocker) of each launch and of them all.
#include "clscope/capture.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

namespace {

void check(bool ok)
{
    if (!ok)
        std::abort();
}

// One file per process, rewritten for each input (in /dev/shm where there is one: no disk in the loop); the
// -wal and -shm a WAL-mode input makes SQLite create are removed too, so that no input sees what the one
// before left.
const std::string &capturePath()
{
    static const std::string path = std::string(::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") +
                                    "/fuzz_capture-" + std::to_string(::getpid()) + ".clscope";
    return path;
}

void removeFiles()
{
    for (const char *suffix : {"", "-wal", "-shm", "-journal"})
        std::remove((capturePath() + suffix).c_str());
}

void readEverything(const std::string &path)
{
    using namespace clscope;
    const CaptureReader reader(path);
    const CaptureSummary summary = reader.summary();
    std::ostringstream text;
    printSummary(text, summary);
    const nlohmann::json json = nlohmann::json::parse(summaryJson(summary)); // throws when invalid
    check(json.is_object());
    const std::vector<CommandRecord> records = reader.commandRecords();
    reader.memorySeries();
    reader.progress();
    reader.buffers();
    reader.memoryByContext();
    reader.programs();
    reader.apiTotals();
    reader.apiCallRecords(64);
    reader.launchPrograms();
    std::vector<std::int64_t> indices = reader.launchesWithContents();
    const std::int64_t count = reader.launchCount();
    for (std::int64_t i = 0; i < count && i < 16; ++i)
        indices.push_back(i);
    std::vector<CapturedLaunch> launches;
    for (const std::int64_t i : indices) {
        if (launches.size() >= 32)
            break;
        try {
            launches.push_back(reader.launch(i));
        } catch (const CaptureError &) {
            continue; // no such launch
        }
        const CapturedLaunch &l = launches.back();
        const std::string blocker = replayBlocker(l);
        // A launch that failed a check is never replayable; one that passed has sizes replay can use.
        check(l.problem.empty() || blocker == l.problem);
        if (l.problem.empty()) {
            check(l.dims >= 1 && l.dims <= 3 && l.global.size() == std::size_t(l.dims));
            check(l.offset.size() == l.global.size() &&
                  (l.local.empty() || l.local.size() == l.global.size()));
            for (std::size_t d = 0; d < l.global.size(); ++d)
                check(l.global[d] >= 1 && (l.local.empty() || l.local[d] >= 1));
            for (std::size_t a = 0; a < l.args.size(); ++a) {
                const CapturedArg &arg = l.args[a];
                check(arg.index == a);
                if (arg.kind == "mem" && arg.hasBefore)
                    check(arg.before.size() == arg.memSize);
                if (arg.kind == "mem" && arg.hasAfter)
                    check(arg.after.size() == arg.memSize);
            }
        }
    }
    replayBlocker(launches);
    // Following the file (the window's live views) gives what a read of it gives; following it "renamed" to
    // itself reads on from where the reader was (a damaged B-tree may show rows again: no check of what).
    CaptureReader follower(path);
    const CaptureUpdate first = follower.update(64);
    check(first.commands.size() == records.size());
    check(first.apiCalls.size() <= 64 && first.late.empty() && first.clockShifts.empty());
    follower.followRename(path);
    follower.update(64);
    for (const std::int64_t absent : {std::int64_t(-1), INT64_MAX}) {
        try {
            reader.launch(absent);
        } catch (const CaptureError &) {
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    removeFiles();
    {
        std::FILE *f = std::fopen(capturePath().c_str(), "wb");
        check(f != nullptr);
        check(size == 0 || std::fwrite(data, 1, size, f) == size);
        check(std::fclose(f) == 0);
    }
    try {
        readEverything(capturePath());
    } catch (const clscope::CaptureError &) {
        // A file that is not a capture, or one SQLite finds corrupt: said, with the file's name.
    }
    removeFiles();
    return 0;
}
