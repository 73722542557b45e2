#pragma once

#include <QString>

class QWidget;

namespace Gui {

// Asks for a folder (a non-blocking file dialog on `parent`), writes what can still be read
// from the damaged conversation file `damagedFile` into it (ConversationSalvage) and says in
// a message box how many conversations were written, or why none. GUI thread.
void exportSalvagedConversations(QWidget *parent, const QString &damagedFile);

} // namespace Gui
