// What the window keeps from one run to the next (QSettings): the editor's tabs with their build options, and
// the capture shown at quit (not one still being written). The dock layout keeps its own (DockLayout).
#pragma once

class QSettings;

namespace clscope::ui {

class CaptureCoordinator;
class EditorTabs;

namespace windowsession {

// Opens what was open at the last quit (a capture only if its file is still there).
void restore(EditorTabs &editors, CaptureCoordinator &captures);
// Asks to close the tabs (each unsaved one asks); false when the user cancelled: nothing is saved then.
// Otherwise the session goes to `settings`.
bool closeAndSave(EditorTabs &editors, const CaptureCoordinator &captures, QSettings &settings);

} // namespace windowsession
} // namespace clscope::ui
