#include "replaychat.h"

#include "workspace/chat/chatsession.h"
#include "workspace/chat/followups.h"
#include "workspace/conversations/attachments.h"

#include "llm/clock.h"

#include <QDir>
#include <QFile>
#include <QTimer>

#include <cmath>

namespace Bench {

ReplayChat::ReplayChat(Gui::ChatSession *chat, const Trace *trace, Options options, Sender sender, Problem problem,
                       QObject *parent)
    : QObject(parent)
    , m_chat(chat)
    , m_trace(trace)
    , m_options(options)
    , m_sender(std::move(sender))
    , m_problem(std::move(problem))
{
}

void ReplayChat::play(const TraceEvent &event, qsizetype next, qint64 nowNs)
{
    const QString &name = event.event;
    const QJsonObject &f = event.fields;
    if (name == u"chat_open") {
        const QString id = f.value(QStringLiteral("conversation")).toString();
        const QString mode = f.value(QStringLiteral("mode")).toString();
        if (mode == u"library" && !m_chat->library())
            return m_problem(event, QStringLiteral("a library conversation with no library open"));
        const qint64 stored = m_conversations.value(id);
        if (stored) {
            m_chat->openConversation(stored);
        } else {
            // As the dock's New Conversation, in the mode the user then picks.
            m_chat->newConversation();
            m_chat->setMode(mode == u"document"  ? Gui::ConversationMode::Document
                            : mode == u"library" ? Gui::ConversationMode::Library
                                                 : Gui::ConversationMode::FreeChat);
            m_conversations.insert(id, m_chat->conversationId());
        }
        // The assistant picked in the dock's box. A new conversation without one is General:
        // ChatSession would give it the last one chosen, which it keeps in the settings that
        // every run of the process (and the runs before) share.
        if (f.contains(QStringLiteral("assistant"))) {
            // The replay has the app's built-in assistants, not a user's own.
            const QString assistant = f.value(QStringLiteral("assistant")).toString();
            if (!Gui::AssistantSettings::isBuiltinId(assistant))
                m_problem(event,
                          QStringLiteral("no built-in assistant \"%1\": the conversation has General").arg(assistant));
            m_chat->setAssistant(assistant);
        } else if (!stored) {
            m_chat->setAssistant(Gui::AssistantSettings::GeneralId);
        }
        m_conversation = id;
        m_draft.clear();
        m_composing = false;
        m_completionSeen.clear();
        m_chat->draftChanged(m_draft);
    } else if (name == u"type") {
        if (m_conversation.isEmpty())
            return m_problem(event, QStringLiteral("typing with no conversation open"));
        if (m_sentEarly || clickOffered(event, next, nowNs))
            return; // sent with a click or a completion: these keys are never typed
        if (!m_completionSeen.isEmpty())
            return takeCompletion();
        // Where the key went: at the end (typing on, Backspace, a paste there), or inside the
        // text (an insertion in the middle), as QTextCursor::atEnd() tells the dock.
        const QString text = f.value(QStringLiteral("text")).toString();
        const bool atEnd = text.startsWith(m_draft) || m_draft.startsWith(text);
        m_draft = text;
        m_chat->draftChanged(m_draft, atEnd);
        // A commit ends the composition, after its text is in (ChatInput's order).
        if (std::exchange(m_composing, false))
            m_chat->compositionChanged({});
        if (atEnd)
            noteCompletion(next); // the dock completes at the end of the draft only
        else
            m_completionSeen.clear();
    } else if (name == u"compose") {
        if (m_conversation.isEmpty())
            return m_problem(event, QStringLiteral("composing with no conversation open"));
        if (m_options.noComposition || m_sentEarly || clickOffered(event, next, nowNs))
            return;
        if (!m_completionSeen.isEmpty())
            return takeCompletion();
        const QString preedit = f.value(QStringLiteral("text")).toString();
        m_composing = !preedit.isEmpty();
        m_chat->compositionChanged(preedit);
    } else if (name == u"send") {
        m_completionSeen.clear();
        if (std::exchange(m_sentEarly, false))
            return;
        m_sender(event, nowNs, SentBy::Enter);
    }
}

ReplayChat::Ahead ReplayChat::ahead(qsizetype from) const
{
    Ahead out;
    qint64 lastKeyMs = -1;
    for (qsizetype i = from; i < m_trace->events.size(); ++i) {
        const TraceEvent &e = m_trace->events.at(i);
        if (e.event == u"type") {
            out.message = e.fields.value(QStringLiteral("text")).toString();
            lastKeyMs = e.t;
        } else if (e.event == u"compose") {
            lastKeyMs = e.t;
        } else if (e.event == u"send") {
            out.sendLine = i;
            out.enterDelayMs = lastKeyMs < 0 ? 0 : e.t - lastKeyMs;
            return out;
        } else if (e.event != u"modifiers" && e.event != u"pointer") {
            return {}; // a file attached, another conversation: not one message typed and sent
        }
    }
    return {};
}

bool ReplayChat::clickOffered(const TraceEvent &event, qsizetype next, qint64 nowNs)
{
    if (!m_draft.isEmpty() || m_composing)
        return false; // not the message's first key
    const QStringList offered = m_chat->followUps();
    if (offered.isEmpty())
        return false;
    const Ahead coming = ahead(next - 1);
    const auto it = std::find_if(offered.begin(), offered.end(), [&coming](const QString &text) {
        return Gui::FollowUps::isSame(text, coming.message);
    });
    if (coming.message.isEmpty() || it == offered.end())
        return false;
    // As ChatDock::sendFollowUp(): the input takes the text, then it is sent.
    m_draft = *it;
    m_chat->draftChanged(m_draft);
    m_sentEarly = true;
    m_sender(event, nowNs, SentBy::Suggestion);
    return true;
}

void ReplayChat::noteCompletion(qsizetype next)
{
    m_completionSeen.clear();
    const Gui::DraftCompletion completion = m_chat->completionOf(m_draft);
    if (!completion.wholeMessage)
        return;
    const Ahead coming = ahead(next - 1);
    const QString whole = m_draft + completion.rest;
    // Taken when it is the message to come, and more keys were still to be typed for it.
    if (coming.message.isEmpty() || Gui::FollowUps::isSame(m_draft, coming.message)
        || !Gui::FollowUps::isSame(whole, coming.message))
        return;
    m_completionSeen = whole;
    m_completionEnterMs = coming.enterDelayMs;
    m_completionSendLine = coming.sendLine;
}

void ReplayChat::takeCompletion()
{
    // Tab, as ChatInput accepts it: the text goes in, then the session hears it was accepted.
    m_draft = std::exchange(m_completionSeen, QString());
    m_chat->draftChanged(m_draft);
    if (std::exchange(m_composing, false))
        m_chat->compositionChanged({});
    m_chat->completionAccepted(m_draft, true);
    m_sentEarly = true;
    const TraceEvent send = m_trace->events.at(m_completionSendLine);
    const qint64 delayMs = std::llround(double(m_completionEnterMs) / m_options.speed);
    QTimer::singleShot(std::chrono::milliseconds(delayMs), Qt::PreciseTimer, this,
                       [this, send] { m_sender(send, Llm::monotonicNowNs(), SentBy::Completion); });
}

bool ReplayChat::send(const TraceEvent &event, qint64 nowNs)
{
    if (m_conversation.isEmpty() || m_draft.trimmed().isEmpty()) {
        m_problem(event, QStringLiteral("nothing to send"));
        return false;
    }
    // The user stops the answer still streaming before sending (Esc, then Enter): the
    // session refuses a send while one streams.
    if (m_chat->isAnswering())
        m_chat->stop();
    const QString conversation = m_conversation;
    const auto sent = m_chat->send(std::exchange(m_draft, QString()), nowNs);
    m_chat->draftChanged(m_draft); // the dock clears its input once sent
    if (sent != Gui::ChatSession::SendResult::Sent || !m_chat->currentAnswer()) {
        m_problem(event, QStringLiteral("the chat did not send (result %1)").arg(int(sent)));
        return false;
    }
    if (!m_conversations.value(conversation))
        m_conversations.insert(conversation, m_chat->conversationId());
    return true;
}

void ReplayChat::attach(const TraceEvent &event, const QString &folder)
{
    if (m_conversation.isEmpty())
        return m_problem(event, QStringLiteral("attaching with no conversation open"));
    // As ChatDockAttachments: nothing is attached while a sent message waits for the document.
    if (m_chat->isPreparing())
        return m_problem(event, QStringLiteral("attaching while a sent message waits for the document"));
    // The file the user picks, in a folder of the run's own (one per line: a name may come again
    // with other text), then read, checked and added by the function the dock calls, so the
    // attachment is the one the app would make of that file.
    const QByteArray bytes = event.fields.value(QStringLiteral("text")).toString().toUtf8();
    QFile file(QDir(folder).filePath(event.fields.value(QStringLiteral("name")).toString()));
    if (!QDir().mkpath(folder) || !file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return m_problem(event, QStringLiteral("the file could not be written: %1").arg(file.errorString()));
    file.close();
    const auto attached = Gui::withAttachments(m_chat->attachments(), {file.fileName()});
    if (!attached)
        return m_problem(event, attached.error());
    if (!m_chat->setAttachments(*attached))
        m_problem(event, QStringLiteral("the chat refused the attachment"));
}

} // namespace Bench
