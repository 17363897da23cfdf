// `clscope --benchmark-timeline N`: paints a timeline of N synthetic commands offscreen at several zoom
// levels and prints the paint times as one JSON object.
#pragma once

// Needs a QGuiApplication (fonts). Returns the process exit status: 0, or 2 for a bad N.
int runTimelineBenchmark(int events);
