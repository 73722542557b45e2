#pragma once

#include "trace.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <functional>

namespace Gui {
class ChatSession;
}

namespace Bench {

// The person at the chat input, as a trace writes them: the conversation they open, what they
// type and compose in an input method, the files they attach, and how each message goes: with
// Enter, with a click on a follow-up the chat offers, or with Enter after taking a completion
// the chat shows. They drive the app's own Gui::ChatSession as the chat dock does; the replayer
// measures what is sent (Sender).
//
// Two assumptions (docs/benchmarks.md): a person who sees the very words they were about to
// type offered (a follow-up, at the message's first key) or completed (in grey, whole, at a key)
// takes them instead of typing them; a click sends at once, a completion is taken at the next key
// they would have typed (Tab instead of that key) and sent after their own pause before Enter.
// Word completions are not taken: the replay's users type every word.
class ReplayChat : public QObject
{
    Q_OBJECT

public:
    enum class SentBy { Enter, Suggestion, Completion };
    // Sends what the input holds (send()) and measures it; `nowNs` is the moment of the key or
    // click.
    using Sender = std::function<void(const TraceEvent &event, qint64 nowNs, SentBy how)>;
    using Problem = std::function<void(const TraceEvent &event, const QString &what)>;

    struct Options {
        bool noComposition = false; // "compose" lines are not played (Variant::noComposition)
        double speed = 1.0;         // the replay's time compression
    };

    ReplayChat(Gui::ChatSession *chat, const Trace *trace, Options options, Sender sender, Problem problem,
               QObject *parent = nullptr);

    // A chat line of the trace (chat_open, type, compose, send), played at `nowNs`; `next` is the
    // index of the line after it.
    void play(const TraceEvent &event, qsizetype next, qint64 nowNs);
    // An "attach" line: the file the user picks, written into `folder`, attached as the chat dock
    // attaches it.
    void attach(const TraceEvent &event, const QString &folder);

    // Sends the input's text as the dock does (an answer still streaming is stopped first, the
    // input is cleared once sent); false, with the problem reported, when there was nothing to
    // send or the chat refused.
    bool send(const TraceEvent &event, qint64 nowNs);

private:
    // What the trace goes on to do from line `from` to its next "send": the message sent (the
    // last "type" before it), and the pause between its last key and Enter; empty when something
    // else comes first (a file attached, another conversation).
    struct Ahead {
        QString message;
        qint64 enterDelayMs = 0;
        qsizetype sendLine = -1; // index of the "send"
    };
    Ahead ahead(qsizetype from) const;
    // At a message's first key: clicks the follow-up offered that is the message, and sends it.
    bool clickOffered(const TraceEvent &event, qsizetype next, qint64 nowNs);
    // After a key: notes a completion shown that is the whole message to come.
    void noteCompletion(qsizetype next);
    // At the key after one that showed it: takes the completion and sends after the Enter pause.
    void takeCompletion();

    Gui::ChatSession *m_chat;
    const Trace *m_trace;
    Options m_options;
    Sender m_sender;
    Problem m_problem;

    QHash<QString, qint64> m_conversations; // the trace's id → the store's; 0: not sent to yet
    QString m_conversation;
    QString m_draft;
    bool m_composing = false; // a "compose" line left an input method's pre-edit open
    bool m_sentEarly = false; // the message being "typed" went already (click, completion): skip its lines
    QString m_completionSeen; // the whole message a completion showed at the last key
    qint64 m_completionEnterMs = 0;
    qsizetype m_completionSendLine = -1;
};

} // namespace Bench
