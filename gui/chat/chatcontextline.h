#pragma once

#include "gui/widgets/elidedlabel.h"

namespace Gui {

class ChatSession;

// The line under the chat's header that says what goes with each message: the open document
// and its size, the library's passages, or nothing. One line that gives way in a narrow dock
// (the whole sentence in its tooltip); what must be read in full wraps instead: a document over
// the model's limit (with what to do) and a conversation that began about another document
// (with a link, "open", to open it: linkActivated).
class ChatContextLine : public ElidedLabel
{
    Q_OBJECT

public:
    explicit ChatContextLine(QWidget *parent = nullptr);

    // Says what goes with `session`'s next message.
    void showContextOf(const ChatSession &session);
};

} // namespace Gui
