// A capture's kernels as the summary lists them (CaptureKernelTotal): by name and by their program's
// sources and build options, so that programs created again from the same text are one kernel and two
// programs of other texts that name a kernel alike are two, told apart by their first program's id.
#include "kernelgroups.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace clscope {

std::map<std::int64_t, std::int64_t> sameSourcePrograms(const std::vector<CapturedProgram> &programs)
{
    std::vector<const CapturedProgram *> byId;
    for (const CapturedProgram &p : programs)
        byId.push_back(&p);
    std::stable_sort(byId.begin(), byId.end(),
                     [](const CapturedProgram *a, const CapturedProgram *b) { return a->id < b->id; });
    // The options are part of the key: one source built with -DBLOCK=16 and with -DBLOCK=32 is two kernels.
    using Key = std::tuple<std::string, std::vector<std::string>, std::vector<std::string>>;
    std::map<Key, std::int64_t> first;
    std::map<std::int64_t, std::int64_t> out;
    for (const CapturedProgram *p : byId) {
        std::vector<std::string> options;
        for (const CapturedBuild &b : p->builds)
            options.push_back(b.options);
        out[p->id] = first.emplace(Key{p->kind, p->sources, std::move(options)}, p->id).first->second;
    }
    return out;
}

namespace capture {
namespace {

// The programs' kind, sources and build options (what sameSourcePrograms compares), and nothing else.
std::vector<CapturedProgram> programTexts(const Db &db, const std::set<std::int64_t> &ids)
{
    std::vector<CapturedProgram> out;
    Stmt kind(db, "SELECT kind FROM programs WHERE id = ?");
    Stmt sources(db, "SELECT data FROM program_sources WHERE program = ? ORDER BY idx");
    Stmt builds(db, "SELECT options FROM builds WHERE program = ? ORDER BY id");
    for (const std::int64_t id : ids) {
        CapturedProgram p;
        p.id = id;
        kind.bind(1, id);
        if (kind.step())
            p.kind = kind.text(0);
        kind.reset();
        sources.bind(1, id);
        while (sources.step()) {
            const std::vector<unsigned char> b = sources.blob(0);
            p.sources.emplace_back(b.begin(), b.end());
        }
        sources.reset();
        builds.bind(1, id);
        while (builds.step())
            p.builds.push_back({"", builds.text(0), 0, 0, {}});
        builds.reset();
        out.push_back(std::move(p));
    }
    return out;
}

} // namespace

std::vector<CaptureKernelTotal> groupKernelTotals(const Db &db,
                                                  const std::map<std::int64_t, CaptureKernelTotal> &byObject)
{
    std::map<std::int64_t, std::int64_t> programOfObject; // kernels.id -> programs.id
    {
        Stmt q(db, "SELECT id, IFNULL(program, 0) FROM kernels");
        while (q.step())
            programOfObject[q.i64(0)] = q.i64(1);
    }
    const auto programOf = [&](std::int64_t object) {
        const auto it = programOfObject.find(object);
        return it == programOfObject.end() ? std::int64_t(0) : it->second;
    };
    // Only programs that share a kernel name with another program are read and compared: a capture whose
    // names are all apart reads no source.
    std::map<std::string, std::set<std::int64_t>> programsNamed;
    for (const auto &[object, total] : byObject)
        programsNamed[total.name].insert(programOf(object));
    std::set<std::int64_t> compared;
    for (const auto &[name, programs] : programsNamed)
        if (programs.size() > 1)
            compared.insert(programs.begin(), programs.end());
    compared.erase(0);
    const std::map<std::int64_t, std::int64_t> same = sameSourcePrograms(programTexts(db, compared));
    const auto groupOf = [&](std::int64_t program) {
        const auto it = same.find(program);
        return it == same.end() ? program : it->second;
    };

    using Key = std::pair<std::string, std::int64_t>; // name, first program of its sources
    std::map<Key, CaptureKernelTotal> totals;
    std::map<std::int64_t, Key> keyOfObject;
    std::map<Key, std::vector<std::int64_t>> objectsOf;
    for (const auto &[object, k] : byObject) {
        const Key key{k.name, groupOf(programOf(object))};
        keyOfObject[object] = key;
        objectsOf[key].push_back(object);
        CaptureKernelTotal &t = totals[key];
        t.name = k.name;
        t.program = key.second;
        t.launches += k.launches;
        t.totalNs += k.totalNs;
        t.timed += k.timed;
    }
    std::map<std::string, int> groupsNamed;
    for (const auto &[key, t] : totals)
        ++groupsNamed[key.first];
    for (auto &[key, t] : totals)
        t.label =
            groupsNamed[key.first] > 1 ? t.name + " (program " + std::to_string(t.program) + ")" : t.name;

    // The launches with contents (few: the recorder keeps them for chosen launches), through the unique index
    // on commands.launch.
    Stmt contents(db, "SELECT DISTINCT ct.launch, c.kernel FROM contents ct JOIN commands c ON c.launch = "
                      "ct.launch WHERE ct.phase = 'before' AND ct.state = 'captured' ORDER BY ct.launch");
    while (contents.step()) {
        const auto key = keyOfObject.find(contents.i64(1));
        if (key != keyOfObject.end())
            totals[key->second].contentLaunches.push_back(contents.i64(0));
    }
    // Each kernel's first launch: the launch index in order, stopping at the first of its kernel objects.
    for (auto &[key, t] : totals) {
        std::string in;
        for (const std::int64_t object : objectsOf[key])
            in += (in.empty() ? "" : ",") + std::to_string(object);
        const std::string sql = "SELECT launch FROM commands WHERE launch IS NOT NULL AND kernel IN (" + in +
                                ") ORDER BY launch LIMIT 1";
        Stmt first(db, sql.c_str());
        if (first.step())
            t.firstLaunch = first.i64(0);
    }

    std::vector<CaptureKernelTotal> out;
    for (auto &[key, t] : totals)
        out.push_back(std::move(t));
    std::sort(out.begin(), out.end(), [](const CaptureKernelTotal &a, const CaptureKernelTotal &b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.label < b.label;
    });
    return out;
}

} // namespace capture
} // namespace clscope
