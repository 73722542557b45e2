#pragma once

class QString;
class QWidget;

namespace Gui {

// Help menu entries. None blocks: each dialog is opened window-modal and deletes itself.

// About Headstart: version, licence, and the versions of Qt (built with and running), spdlog
// and SQLite it uses.
void showAboutDialog(QWidget *parent);

// Keyboard Shortcuts: every action of `window` that has a key, read from the actions
// themselves (so the list cannot drift from them), with a search field over names and keys.
void showShortcutsDialog(QWidget *window);

// The user guide: the installed copy (<prefix>/share/doc/headstart/user-guide.md) opened by the
// desktop, else the one in the source tree for a build run where it was built. Returns the file
// it asked the desktop to open; empty (after saying so) when there is none.
QString openUserGuide(QWidget *parent);

} // namespace Gui
