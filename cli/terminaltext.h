#pragma once

#include <QString>
#include <QStringView>

namespace Cli {

// What a model's answer may put on the user's terminal: its text, without the control
// sequences a terminal would obey instead of showing. A hostile or confused server can send an
// OSC 0 (window title), an OSC 52 (write the clipboard), cursor movement or an 8-bit CSI; these
// are removed whole, also when a sequence is split across stream events. Line feeds and tabs
// stay; other C0 and C1 controls go. One instance per answer (it carries an unfinished
// sequence from one piece to the next).
class TerminalText
{
public:
    QString filter(QStringView piece);

private:
    enum class State { Text, Escape, Csi, String, StringEscape };
    State m_state = State::Text;
};

} // namespace Cli
