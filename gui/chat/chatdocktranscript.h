#pragma once

#include "gui/answer/streamfollower.h"
#include "workspace/conversations/conversationrecords.h"

#include <QCoreApplication>
#include <QPointer>
#include <QString>

#include <functional>

namespace Prefetch {
class AnswerReader;
}

namespace Gui {

class AnswerWidget;
class ChatSession;
class ChatTranscript;

// The chat dock's transcript kept in step with its session: the open conversation's messages,
// and the answer being streamed followed into its widget (a StreamFollower, batched per frame)
// while its conversation is shown. With it go the response cache's mark, or a similar
// question's draft until the live text comes; the fast model's acknowledgement while the
// reasoning model thinks; the perceived latency; and, at the end, the usage, the error or
// "Stopped.". What the dock says about all this (its status line, its buttons) is the dock's.
//
// Its strings stay in the dock's translation context (Gui::ChatDock), where the catalogue has
// them. GUI thread; owned by the dock, made once its transcript exists.
class ChatDockTranscript
{
    Q_DECLARE_TR_FUNCTIONS(Gui::ChatDock)

public:
    // `draftReplaced()`: the live answer's first piece took the place of a draft shown for it.
    ChatDockTranscript(ChatSession *session, ChatTranscript *transcript, std::function<void()> draftReplaced);
    ~ChatDockTranscript();
    ChatDockTranscript(const ChatDockTranscript &) = delete;
    ChatDockTranscript &operator=(const ChatDockTranscript &) = delete;

    // Its firstPainted() and retrying(), for the dock to pass on; the live answer's widget has
    // been told by then.
    StreamFollower &follower() { return m_follower; }

    // The session's messages shown again, the live answer as far as it has come.
    void rebuild();
    // An exchange began: its answer (after its question, when that is not shown yet) is
    // followed into a new widget at the end.
    void start(Prefetch::AnswerReader *stream);
    // The exchange ended: everything that arrived is shown, and how it ended.
    void end(const QString &error, bool cancelled);
    // The fast model's line while the reasoning model thinks, on the live answer (or none).
    void showAcknowledgement();

private:
    // Citation links in `answer` (messages() index `index`) open the passages its question had.
    void followCitations(AnswerWidget *answer, qsizetype index);
    // The transcript learns the provider's main and fast model (answers of the fast one are marked).
    void updateModels();
    // The live answer marked as begun by the fast model, once `stream` has its opening.
    void showOpening(const Prefetch::AnswerReader *stream);
    // The response cache's mark on the live answer, and a draft's text in it while nothing live
    // has come (see ChatSession::currentCached).
    void showCached(AnswerWidget *answer, bool nothingLiveYet);
    // The live answer began: a draft it replaces goes.
    void dropDraft();

    ChatSession *m_session;
    ChatTranscript *m_transcript;
    std::function<void()> m_draftReplaced;
    // The answer being streamed: followed into its widget while its conversation is shown.
    StreamFollower m_follower;
    QPointer<AnswerWidget> m_liveWidget;
};

} // namespace Gui
