#pragma once

#include <QString>

class QWidget;

namespace Gui {

// Help, Open Log Folder: creates `directory` (owner-only) if nothing was logged there yet and
// opens it in the file manager. Where none answers (no desktop, a minimal session), a message
// box on `parent` shows the path as text the user can select and copy. Never blocks. GUI thread.
void openLogFolder(QWidget *parent, const QString &directory);

} // namespace Gui
