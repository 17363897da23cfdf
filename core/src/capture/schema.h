// The capture file's schema (version kCaptureSchemaVersion), documented in docs/capture-format.md.
#pragma once

namespace clscope::capture {

inline constexpr const char *kSchemaSql = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE processes(id INTEGER PRIMARY KEY, pid INTEGER, layer TEXT, started_ns INTEGER, ended_ns INTEGER);
CREATE TABLE api_names(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE api_calls(id INTEGER PRIMARY KEY, process INTEGER, api INTEGER, thread INTEGER,
  start_ns INTEGER, duration_ns INTEGER, result INTEGER);
CREATE TABLE devices(id INTEGER PRIMARY KEY, process INTEGER, handle INTEGER, platform_handle INTEGER,
  platform_name TEXT, name TEXT, version TEXT, type INTEGER, vendor TEXT);
CREATE TABLE contexts(id INTEGER PRIMARY KEY, process INTEGER, handle INTEGER, devices TEXT, properties TEXT,
  created_ns INTEGER, released_ns INTEGER);
CREATE TABLE queues(id INTEGER PRIMARY KEY, process INTEGER, handle INTEGER, context INTEGER, device INTEGER,
  properties INTEGER, profiling_added INTEGER, created_ns INTEGER, released_ns INTEGER);
CREATE TABLE mem_objects(id INTEGER PRIMARY KEY, process INTEGER, handle INTEGER, context INTEGER, kind TEXT,
  flags INTEGER, size INTEGER, host_ptr INTEGER, parent INTEGER, origin INTEGER, image_type INTEGER,
  width INTEGER, height INTEGER, depth INTEGER, array_size INTEGER, channel_order INTEGER,
  channel_type INTEGER, created_ns INTEGER, released_ns INTEGER);
CREATE TABLE samplers(id INTEGER PRIMARY KEY, process INTEGER, handle INTEGER, context INTEGER,
  normalized INTEGER, addressing INTEGER, filter INTEGER, released_ns INTEGER);
CREATE TABLE programs(id INTEGER PRIMARY KEY, process INTEGER, handle INTEGER, context INTEGER, kind TEXT,
  created_ns INTEGER, released_ns INTEGER);
CREATE TABLE program_sources(program INTEGER, idx INTEGER, device INTEGER, data BLOB,
  PRIMARY KEY(program, idx));
CREATE TABLE builds(id INTEGER PRIMARY KEY, program INTEGER, op TEXT, options TEXT, result INTEGER,
  start_ns INTEGER, duration_ns INTEGER, inputs TEXT);
CREATE TABLE build_logs(build INTEGER, device INTEGER, status INTEGER, log TEXT);
CREATE TABLE kernels(id INTEGER PRIMARY KEY, process INTEGER, handle INTEGER, program INTEGER, name TEXT,
  num_args INTEGER, created_ns INTEGER, released_ns INTEGER);
CREATE TABLE commands(id INTEGER PRIMARY KEY, process INTEGER, seq INTEGER, launch INTEGER, type INTEGER,
  type_name TEXT, queue INTEGER, kernel INTEGER, dims INTEGER,
  global_x INTEGER, global_y INTEGER, global_z INTEGER, local_x INTEGER, local_y INTEGER, local_z INTEGER,
  offset_x INTEGER, offset_y INTEGER, offset_z INTEGER, local_given INTEGER, bytes INTEGER,
  mem INTEGER, mem2 INTEGER, wait_count INTEGER, blocking INTEGER, own_event INTEGER, thread INTEGER,
  host_start_ns INTEGER, host_duration_ns INTEGER, result INTEGER, status INTEGER,
  queued_ns INTEGER, submit_ns INTEGER, start_ns INTEGER, end_ns INTEGER);
CREATE UNIQUE INDEX commands_launch ON commands(launch) WHERE launch IS NOT NULL;
CREATE TABLE launch_args(launch INTEGER, idx INTEGER, kind TEXT, size INTEGER, value BLOB, mem INTEGER,
  PRIMARY KEY(launch, idx));
CREATE TABLE contents(launch INTEGER, idx INTEGER, phase TEXT, mem INTEGER, state TEXT, data BLOB,
  PRIMARY KEY(launch, idx, phase));
-- Written by the recorder when the capture ends (absent after a crash of the recorder: readers then scan
-- commands): per command type and kernel, what capture-info sums, so a summary of millions of commands
-- reads a few rows.
CREATE TABLE command_totals(type INTEGER, kernel INTEGER, launches INTEGER, count INTEGER, failed INTEGER,
  bytes INTEGER, device_ns INTEGER, timed INTEGER, PRIMARY KEY(type, kernel));
CREATE TABLE drops(id INTEGER PRIMARY KEY, process INTEGER, records INTEGER, bytes INTEGER, at_ns INTEGER);
-- Device time to host time, per queue: the enqueue call whose host bracket is the narrowest pins
-- CL_PROFILING_COMMAND_QUEUED to the middle of that bracket.
CREATE VIEW queue_clock AS
  SELECT queue, host_start_ns + host_duration_ns / 2 - queued_ns AS offset_ns, host_duration_ns / 2 AS uncertainty_ns
  FROM (SELECT queue, host_start_ns, host_duration_ns, queued_ns,
               ROW_NUMBER() OVER (PARTITION BY queue ORDER BY host_duration_ns, id) AS r
        FROM commands WHERE queued_ns > 0)
  WHERE r = 1;
CREATE VIEW commands_host AS
  SELECT c.*,
         CASE WHEN c.queued_ns > 0 THEN c.queued_ns + IFNULL(k.offset_ns, 0) END AS host_queued_ns,
         CASE WHEN c.submit_ns > 0 THEN c.submit_ns + IFNULL(k.offset_ns, 0) END AS host_submit_ns,
         CASE WHEN c.start_ns > 0 THEN c.start_ns + IFNULL(k.offset_ns, 0) END AS host_begin_ns,
         CASE WHEN c.end_ns > 0 THEN c.end_ns + IFNULL(k.offset_ns, 0) END AS host_end_ns
  FROM commands c LEFT JOIN queue_clock k ON k.queue = c.queue;
)sql";

} // namespace clscope::capture
