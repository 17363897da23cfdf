// CaptureReader::launch: one captured launch with everything replay needs, each value checked once here
// against the schema and against the other records (DESIGN.md: a capture file is input like any other).
// A launch that fails a check is still returned, with `problem` naming the table, row and field, so that
// the rest of the capture stays usable and replay, the export and the GUI say why this one cannot be used.
#include "clscope/capture.h"

#include "reader_impl.h"

#include <CL/cl.h>

#include <array>
#include <cstdint>
#include <string>

namespace clscope {

using namespace capture;

namespace {

// The first problem of a record is the one reported: later checks often follow from it.
struct Problem
{
    std::string text;
    void add(const std::string &what)
    {
        if (text.empty())
            text = what;
    }
};

bool knownArgKind(const std::string &kind)
{
    for (const char *k : {"value", "mem", "local", "svm", "sampler", "null", "unset"})
        if (kind == k)
            return true;
    return false;
}

// Reads and checks the launch's command row: its kernel, device and NDRange. False when there is none.
bool readCommand(const Db &db, CapturedLaunch &l, std::int64_t &program, Problem &problem)
{
    const std::string at = "launch " + std::to_string(l.index) + ": ";
    // A number column that holds no integer (NULL, text, a blob, a real) reads as NULL.
    std::string sql = "SELECT c.id, c.kernel, k.id, k.name, k.program, p.kind, dv.name";
    for (const char *column : {"c.dims", "c.global_x", "c.global_y", "c.global_z", "c.local_x", "c.local_y",
                               "c.local_z", "c.offset_x", "c.offset_y", "c.offset_z"})
        sql += std::string(", CASE WHEN typeof(") + column + ") = 'integer' THEN " + column + " END";
    sql += ", c.local_given FROM commands c LEFT JOIN kernels k ON k.id = c.kernel LEFT JOIN programs p ON "
           "p.id = k.program LEFT JOIN queues q ON q.id = c.queue LEFT JOIN devices dv ON dv.id = q.device "
           "WHERE c.launch = ? ORDER BY c.id LIMIT 1";
    Stmt c(db, sql.c_str());
    c.bind(1, l.index);
    if (!c.step())
        return false;
    const std::string row = at + "commands row " + std::to_string(c.i64(0));
    if (c.isNull(2))
        problem.add(row + ": kernel " + (c.isNull(1) ? std::string("NULL") : std::to_string(c.i64(1))) +
                    " names no row of kernels");
    l.kernel = c.text(3);
    program = c.isNull(4) ? 0 : c.i64(4);
    l.programKind = c.text(5);
    l.device = c.text(6);
    const std::int64_t dims = c.i64(7);
    if (c.isNull(7) || dims < 1 || dims > 3) {
        problem.add(row + ": dims " + (c.isNull(7) ? std::string("(not a number)") : std::to_string(dims)) +
                    " is not 1, 2 or 3");
        return true;
    }
    l.dims = int(dims);
    const bool localGiven = c.i64(17) != 0;
    static constexpr std::array<const char *, 3> kAxis = {"x", "y", "z"};
    // Every size is a number the program could have passed: global and local sizes of 1 or more, offsets
    // of 0 or more (SQLite's INTEGER is signed: a size_t past 2^63 was stored negative and is refused here).
    const auto size = [&](int col, const char *field, int i, std::int64_t least) -> std::size_t {
        const std::int64_t v = c.i64(col);
        if (c.isNull(col) || v < least) {
            problem.add(row + ": " + field + "_" + kAxis[std::size_t(i)] + " " +
                        (c.isNull(col) ? std::string("(not a number)") : std::to_string(v)) + " is not " +
                        (least ? "a size of 1 or more" : "an offset of 0 or more"));
            return least ? 1 : 0;
        }
        return std::size_t(v);
    };
    for (int i = 0; i < l.dims; ++i) {
        l.global.push_back(size(8 + i, "global", i, 1));
        if (localGiven)
            l.local.push_back(size(11 + i, "local", i, 1));
        l.offset.push_back(size(14 + i, "offset", i, 0));
    }
    return true;
}

// Checks what an argument names: its memory object (or sampler), the image's description, the contents'
// lengths against the object's size.
void checkArgument(const Db &db, const CapturedLaunch &l, CapturedArg &arg, bool memFound, bool memSizeValid,
                   Problem &problem)
{
    const std::string row =
        "launch " + std::to_string(l.index) + ": launch_args idx " + std::to_string(arg.index);
    if (arg.kind == "mem") {
        if (arg.mem == 0 || !memFound) {
            problem.add(row + ": mem " + std::to_string(arg.mem) + " names no row of mem_objects");
            return;
        }
        const std::string obj =
            "launch " + std::to_string(l.index) + ": mem_objects row " + std::to_string(arg.mem);
        if (!memSizeValid) {
            problem.add(obj + ": size is not a number of bytes of 0 or more");
            return;
        }
        if (arg.memKind == "image") {
            Stmt im(db, "SELECT image_type, width, height, depth, array_size FROM mem_objects WHERE id = ?");
            im.bind(1, arg.mem);
            if (im.step()) {
                const std::int64_t type = im.i64(0);
                if (type != 0 && (type < CL_MEM_OBJECT_IMAGE2D || type > CL_MEM_OBJECT_IMAGE1D_BUFFER))
                    problem.add(obj + ": image_type " + std::to_string(type) +
                                " is not a CL_MEM_OBJECT_IMAGE*");
                static constexpr std::array<const char *, 4> kFields = {"width", "height", "depth",
                                                                        "array_size"};
                for (int i = 0; i < 4; ++i)
                    if (im.i64(1 + i) < 0)
                        problem.add(obj + ": " + kFields[std::size_t(i)] + " " +
                                    std::to_string(im.i64(1 + i)) + " is negative");
            }
        }
        // A buffer's contents are the whole object: a shorter "before" would make the device write past
        // the host allocation it was copied from (PoCL's buffers are host memory).
        for (const bool before : {true, false}) {
            const bool has = before ? arg.hasBefore : arg.hasAfter;
            const std::vector<unsigned char> &data = before ? arg.before : arg.after;
            if (has && data.size() != arg.memSize)
                problem.add("launch " + std::to_string(l.index) + ": contents idx " +
                            std::to_string(arg.index) + " (" + (before ? "before" : "after") +
                            "): " + std::to_string(data.size()) + " bytes, but mem_objects row " +
                            std::to_string(arg.mem) + " has size " + std::to_string(arg.memSize));
        }
    } else if (arg.kind == "sampler") {
        Stmt s(db, "SELECT normalized, addressing, filter FROM samplers WHERE id = ?");
        s.bind(1, arg.mem);
        if (arg.mem == 0 || !s.step()) {
            problem.add(row + ": sampler " + std::to_string(arg.mem) + " names no row of samplers");
            return;
        }
        const std::string obj =
            "launch " + std::to_string(l.index) + ": samplers row " + std::to_string(arg.mem);
        if (s.i64(0) != 0 && s.i64(0) != 1)
            problem.add(obj + ": normalized " + std::to_string(s.i64(0)) + " is not 0 or 1");
        if (s.i64(1) < CL_ADDRESS_NONE || s.i64(1) > CL_ADDRESS_MIRRORED_REPEAT)
            problem.add(obj + ": addressing " + std::to_string(s.i64(1)) + " is not a CL_ADDRESS_* mode");
        if (s.i64(2) != CL_FILTER_NEAREST && s.i64(2) != CL_FILTER_LINEAR)
            problem.add(obj + ": filter " + std::to_string(s.i64(2)) + " is not a CL_FILTER_* mode");
    } else if (arg.kind == "value" && arg.value.size() != arg.size) {
        problem.add(row + ": size " + std::to_string(arg.size) + " differs from the " +
                    std::to_string(arg.value.size()) + " bytes of its value");
    } else if (arg.kind == "local" && arg.size == 0) {
        problem.add(row + ": a __local argument of 0 bytes");
    }
}

} // namespace

CapturedLaunch CaptureReader::launch(std::int64_t index) const
{
    const ReadSnapshot snapshot(d->db);
    const Db &db = d->db;
    CapturedLaunch l;
    l.index = index;
    Problem problem;
    std::int64_t program = 0;
    if (!readCommand(db, l, program, problem))
        throw CaptureError("the capture has no launch " + std::to_string(index) + " (it has " +
                           std::to_string(launchCount()) + ")");
    {
        Stmt s(db, "SELECT data FROM program_sources WHERE program = ? ORDER BY idx");
        s.bind(1, program);
        while (s.step()) {
            const std::vector<unsigned char> b = s.blob(0);
            l.sources.emplace_back(b.begin(), b.end());
        }
        Stmt o(db,
               "SELECT options FROM builds WHERE program = ? ORDER BY (result = 0) DESC, id DESC LIMIT 1");
        o.bind(1, program);
        if (o.step())
            l.options = o.text(0);
    }
    Stmt a(db, "SELECT a.idx, a.kind, a.size, a.value, a.mem, m.size, m.flags, m.kind, m.id IS NOT NULL, "
               "typeof(a.size), typeof(m.size), typeof(a.idx) FROM launch_args a LEFT JOIN mem_objects m ON "
               "m.id = a.mem WHERE a.launch = ? ORDER BY a.idx");
    a.bind(1, index);
    Stmt ct(db, "SELECT phase, state, data FROM contents WHERE launch = ? AND idx = ?");
    const std::string at = "launch " + std::to_string(index) + ": ";
    while (a.step()) {
        CapturedArg arg;
        const std::int64_t idx = a.i64(0);
        const std::string row = at + "launch_args idx " + a.text(0);
        // Arguments are numbered from 0 without gaps (the kernel's argument list).
        if (a.text(11) != "integer" || idx != std::int64_t(l.args.size())) {
            problem.add(row + ": expected idx " + std::to_string(l.args.size()) +
                        " (arguments are numbered from 0 without gaps)");
            break;
        }
        arg.index = std::uint32_t(idx);
        arg.kind = a.text(1);
        if (!knownArgKind(arg.kind))
            problem.add(row + ": kind '" + arg.kind + "' is not value, mem, local, svm, sampler or unset");
        if (a.text(9) != "integer" || a.i64(2) < 0)
            problem.add(row + ": size " + a.text(2) + " is not a number of bytes of 0 or more");
        arg.size = std::uint64_t(a.i64(2));
        arg.value = a.blob(3);
        arg.mem = a.isNull(4) ? 0 : a.i64(4);
        const bool memFound = a.i64(8) != 0;
        const bool memSizeValid = a.text(10) == "integer" && a.i64(5) >= 0;
        arg.memSize = memSizeValid ? std::uint64_t(a.i64(5)) : 0;
        arg.memFlags = std::uint64_t(a.i64(6));
        arg.memKind = a.text(7);
        ct.bind(1, index).bind(2, arg.index);
        while (ct.step()) {
            const std::string phase = ct.text(0);
            if (phase != "before" && phase != "after") {
                problem.add(at + "contents idx " + std::to_string(arg.index) + ": phase '" + phase +
                            "' is not before or after");
                continue;
            }
            const bool before = phase == "before";
            (before ? arg.hasBefore : arg.hasAfter) = ct.text(1) == "captured";
            (before ? arg.beforeState : arg.afterState) = ct.text(1);
            (before ? arg.before : arg.after) = ct.blob(2);
        }
        ct.reset();
        checkArgument(db, l, arg, memFound, memSizeValid, problem);
        l.args.push_back(std::move(arg));
    }
    l.problem = problem.text;
    return l;
}

} // namespace clscope
