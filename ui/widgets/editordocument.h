// What EditorTabs keeps about the document in one tab, besides its editor's text.
#pragma once

#include <QString>

namespace clscope::ui {

struct EditorDocument
{
    QString path; // canonical where the file exists; empty when untitled
    QString untitledName;
    QString autosaveId;
    quint64 edits = 0;
    quint64 autosavedEdits = 0;
    bool utf8Bom = false; // the file starts with a byte order mark: kept on save
    QString buildOptions;
};

} // namespace clscope::ui
