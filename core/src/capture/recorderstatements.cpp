// The recorder's statements (recorderstatements.h).
#include "recorderstatements.h"

#include "clscope/capture.h"

#include "schema.h"

#include <string>

namespace clscope::capture {

namespace {

bool createSchema(Db &db)
{
    // The empty tables in one transaction and without syncing the disk (a crash of the machine
    // now loses nothing recorded); the program's records are committed with synchronous=NORMAL.
    db.exec("PRAGMA synchronous=OFF; PRAGMA journal_mode=WAL;");
    db.exec("BEGIN");
    db.exec(capture::kSchemaSql);
    db.exec(("PRAGMA user_version = " + std::to_string(kCaptureSchemaVersion)).c_str());
    db.exec("COMMIT");
    db.exec("PRAGMA synchronous=NORMAL;");
    return true;
}

} // namespace

RecorderStatements::RecorderStatements(Db &db)
    : schemaMade(createSchema(db))
    , insMeta(db, "INSERT OR REPLACE INTO meta VALUES(?,?)")
    , insProcess(db, "INSERT INTO processes(pid, layer, started_ns) VALUES(?,?,?)")
    , endProcess(db, "UPDATE processes SET ended_ns = ? WHERE id = ?")
    , insApiName(db, "INSERT OR REPLACE INTO api_names VALUES(?,?)")
    , insApiCall(db, "INSERT INTO api_calls(process, api, thread, start_ns, duration_ns, result) "
                     "VALUES(?,?,?,?,?,?)")
    , insDevice(db, "INSERT INTO devices(process, handle, platform_handle, platform_name, name, version, "
                    "type, vendor) VALUES(?,?,?,?,?,?,?,?)")
    , insContext(db, "INSERT INTO contexts(process, handle, devices, properties, created_ns) "
                     "VALUES(?,?,?,?,?)")
    , insQueue(db, "INSERT INTO queues(process, handle, context, device, properties, profiling_added, "
                   "created_ns) VALUES(?,?,?,?,?,?,?)")
    , insMem(db, "INSERT INTO mem_objects(process, handle, context, kind, flags, size, host_ptr, parent, "
                 "origin, image_type, width, height, depth, array_size, channel_order, channel_type, "
                 "created_ns) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
    , insSampler(db, "INSERT INTO samplers(process, handle, context, normalized, addressing, filter) "
                     "VALUES(?,?,?,?,?,?)")
    , insProgram(db, "INSERT INTO programs(process, handle, context, kind, created_ns) VALUES(?,?,?,?,?)")
    , insSource(db, "INSERT INTO program_sources VALUES(?,?,?,?)")
    , insBuild(db, "INSERT INTO builds(program, op, options, result, start_ns, duration_ns, inputs) "
                   "VALUES(?,?,?,?,?,?,?)")
    , insLog(db, "INSERT INTO build_logs VALUES(?,?,?,?)")
    , insKernel(db, "INSERT INTO kernels(process, handle, program, name, num_args, created_ns) "
                    "VALUES(?,?,?,?,?,?)")
    , insCommand(db, "INSERT INTO commands(process, seq, launch, type, type_name, queue, kernel, dims, "
                     "global_x, global_y, global_z, local_x, local_y, local_z, offset_x, offset_y, offset_z, "
                     "local_given, bytes, mem, mem2, wait_count, blocking, own_event, thread, host_start_ns, "
                     "host_duration_ns, result, status, queued_ns, submit_ns, start_ns, end_ns) "
                     "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
    , updTimes(db, "UPDATE commands SET status=?, queued_ns=?, submit_ns=?, start_ns=?, end_ns=? "
                   "WHERE id=?")
    , insArg(db, "INSERT OR REPLACE INTO launch_args VALUES(?,?,?,?,?,?)")
    , insContents(db, "INSERT OR REPLACE INTO contents VALUES(?,?,?,?,?,?)")
    , insDrops(db, "INSERT INTO drops(process, records, bytes, at_ns) VALUES(?,?,?,?)")
{}

} // namespace clscope::capture
