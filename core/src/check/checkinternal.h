// Private to core/src/check: what the merge of reports (oclgrindlog.cpp) borrows from the naming of
// buffers (bufferaccess.cpp).
#pragma once

#include "clscope/check.h"

#include <string>

namespace clscope::detail {

// The message of a diagnostic with an access: "write 4 bytes one past the end of c (1024 x float) at index
// 1024, by work-item 1020, and 3 more work-items" (the count from its occurrences).
std::string accessMessage(const CheckDiagnostic &d);

// An invalid read or write: its message names the first work-item and counts the others.
bool isAccess(const CheckDiagnostic &d);

// ", by work-item 1020, and 3 more work-items" (each part only when known).
std::string workItemsText(const CheckDiagnostic &d);

// True when a's first work-item comes before b's (z, then y, then x); one without a work-item comes last.
bool lowerWorkItem(const CheckDiagnostic &a, const CheckDiagnostic &b);

} // namespace clscope::detail
