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

// The user guide: the installed copy (<prefix>/share/doc/headstart/user-guide.md), else the one
// in the source tree for a build run where it was built; empty when there is none. It is
// Markdown, which Headstart itself opens (Help → User Guide, in a tab).
QString userGuidePath();
// "The user guide is not installed.", as a message over `parent`.
void showGuideMissing(QWidget *parent);

} // namespace Gui
