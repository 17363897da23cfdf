// `clscope --benchmark-follow "PROGRAM ARGS"`: the CPU each live refresh of a profiled program's capture
// costs (the read on the worker, the Capture and Timeline panels on the GUI thread), against a load of the
// whole file; one JSON object on stdout.
#pragma once

class QString;

// Needs a QApplication. Returns the process exit status: 0, 1 when the program could not be profiled, 2 for
// an empty command line.
int runFollowBenchmark(const QString &commandLine);
