// `clscope --benchmark-timeline N|FILE.clscope`: paints a timeline of N synthetic commands, or of a capture
// file read as the GUI reads it, offscreen at several zoom levels and prints the timings as one JSON object.
#pragma once

class QString;

// Needs a QApplication (fonts; a capture also fills a timeline panel). `what` is a positive number of
// synthetic events or the path of a capture file. Returns the process exit status: 0, 1 when the capture
// cannot be read, or 2 for a bad value.
int runTimelineBenchmark(const QString &what);
