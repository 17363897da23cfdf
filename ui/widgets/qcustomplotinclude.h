// Include <qcustomplot.h> through this header. QCustomPlot 2.1 uses the `foreach` keyword in two
// template functions of its header, which CLScope's strict QT_NO_FOREACH build rejects; a range-for
// stand-in is defined for the length of the include only, so our own code still cannot use foreach.
#pragma once

#if defined(foreach)
#include <qcustomplot.h>
#else
#define foreach(variable, container) for (variable : container)
#include <qcustomplot.h>
#undef foreach
#endif
