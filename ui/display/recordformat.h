// How the GUI shows what a command record holds: the palette that gives a kernel one colour everywhere
// (timeline, tables, panels) and the texts of durations, byte counts and command types.
#pragma once

#include "clscope/profile.h"

#include <QColor>
#include <QString>

#include <cstdint>

namespace clscope::ui {

// Palette entry of colourIndexFor() (timelinedata.h): fixed colours for command types, 16 for kernels.
QColor timelineColour(std::uint32_t colourIndex);
// "850 ns", "4.12 µs", "12.3 ms", "2.5 s": the unit that fits, three significant digits (trailing zeros
// dropped). Every time a person reads in the GUI (results, history, timeline) goes through this.
QString durationText(double ns);
// "4 KiB", "1.5 MiB".
QString bytesText(std::uint64_t bytes);
QString typeText(CommandRecord::Type type);

} // namespace clscope::ui
