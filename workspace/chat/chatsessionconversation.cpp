#include "workspace/chat/chatsession.h"

#include "workspace/settings/assistantsettings.h"
#include "workspace/documents/document.h"
#include "knowledge/libraryretrieval.h"

#include "prefetch/debouncestrategy.h"
#include "prefetch/engine.h"
#include "prefetch/answerreader.h"

#include <QRandomGenerator>
#include <QSettings>

#include <limits>

// ChatSession, the conversation as a whole and what is in it: opening, starting, removing and
// renaming conversations, their mode; and the changes to messages already there: regenerate the
// last answer, edit and resend a question (the conversation is cut there), delete a message.
// Prompts, sending and streaming are in chatsession.cpp.

namespace Gui {

namespace {

constexpr int TitleChars = 60;

QString titleFrom(const QString &message)
{
    QString line = message.section(u'\n', 0, 0, QString::SectionSkipEmpty).simplified();
    if (line.size() > TitleChars)
        line = line.left(TitleChars - 1).trimmed() + QChar(0x2026);
    return line;
}

} // namespace

// --- conversations -------------------------------------------------------------------------------

bool ChatSession::ensureConversation(const QString &firstMessage)
{
    if (!m_store)
        return false;
    const QString title = titleFrom(firstMessage);
    if (m_conversationId == 0) {
        auto id = m_store->create(title.isEmpty() ? tr("New conversation") : title,
                                  m_document ? m_document->filePath() : QString(), m_mode, assistant().id);
        if (!id)
            return false;
        m_conversationId = *id;
        m_title = title;
        m_conversationDocument = m_document ? m_document->filePath() : QString();
        emit conversationOpened(m_conversationId);
        return true;
    }
    // A conversation made with "New" is named after its first message.
    if (m_messages.isEmpty() && m_title == tr("New conversation") && !title.isEmpty() && m_store->rename(m_conversationId, title))
        m_title = title;
    return true;
}

bool ChatSession::openConversation(qint64 id)
{
    if (!m_store)
        return false;
    const auto info = m_store->conversation(id);
    if (!info) {
        emit errorOccurred(info.error());
        emit listChanged();
        return false;
    }
    auto messages = m_store->messages(id);
    if (!messages) {
        emit errorOccurred(messages.error());
        return false;
    }
    resetEdit();
    m_conversationId = id;
    m_title = info->title;
    m_conversationDocument = info->documentPath;
    const bool modeChange = m_mode != info->mode;
    m_mode = info->mode;
    m_assistantId = info->assistantId; // unknown or removed: assistant() is General
    m_messages = std::move(*messages);
    m_builderStale = true; // another history
    ensurePrompt();
    if (modeChange)
        emit modeChanged(m_mode);
    emit assistantChanged();
    emit conversationOpened(id);
    return true;
}

bool ChatSession::newConversation()
{
    if (m_messages.isEmpty() && (m_conversationId == 0 || m_title == tr("New conversation")))
        return true; // this one is still empty: use it
    if (!m_store)
        return false;
    QSettings settings;
    const auto id = m_store->create(tr("New conversation"), m_document ? m_document->filePath() : QString(),
                                    defaultMode(), m_assistants.find(lastAssistant(settings)).id);
    if (!id)
        return false; // the store reported it
    emit listChanged();
    return openConversation(*id);
}

void ChatSession::removeConversation(qint64 id)
{
    if (!m_store)
        return;
    if (m_exchange && m_exchange->conversationId == id)
        dropExchange(); // its answer has nowhere to go
    if (!m_store->remove(id))
        return;
    emit listChanged();
    if (id == m_conversationId)
        closeConversation();
}

bool ChatSession::clearHistory()
{
    if (!m_store || m_exchange)
        return false;
    // The cache first: should the store refuse (it says why), what it remembers still goes.
    if (m_engine) {
        if (Prefetch::ResponseCache *cache = m_engine->cachedAnswers().cache())
            cache->clear();
    }
    return m_store->removeAll().has_value(); // historyCleared closed the conversation
}

void ChatSession::dropExchange()
{
    if (m_exchange->stream) {
        disconnect(m_exchange->stream, nullptr, this, nullptr);
        m_exchange->stream->cancel();
        m_exchange->stream->deleteLater();
    }
    m_exchange.reset();
    m_checkpointTimer.stop();
    m_builderStale = true;
    emit exchangeEnded(MessageState::Partial, {}, true);
}

void ChatSession::closeConversation()
{
    resetEdit();
    m_conversationId = 0;
    m_title.clear();
    m_messages.clear();
    const auto remaining = m_store->conversations();
    if (remaining && !remaining->isEmpty() && openConversation(remaining->first().id))
        return;
    m_mode = defaultMode();
    {
        QSettings settings;
        m_assistantId = lastAssistant(settings);
    }
    m_promptKey.reset();
    ensurePrompt();
    emit modeChanged(m_mode);
    emit assistantChanged();
    emit conversationOpened(0);
}

void ChatSession::conversationRenamed(qint64 id, const QString &title)
{
    if (id == m_conversationId)
        m_title = title;
}

void ChatSession::setMode(ConversationMode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    if (m_conversationId && m_store)
        m_store->setMode(m_conversationId, mode);
    ensurePrompt();
    emit modeChanged(mode);
    emit contextChanged();
}

void ChatSession::setAssistants(const AssistantSettings &assistants)
{
    if (assistants == m_assistants)
        return;
    m_assistants = assistants;
    // An edited assistant changes the prompt (the key compares it); a removed one is General.
    ensurePrompt();
    emit assistantChanged();
}

void ChatSession::setAssistant(const QString &id)
{
    const QString resolved = m_assistants.find(id).id;
    {
        QSettings settings;
        setLastAssistant(settings, resolved);
    }
    if (resolved == m_assistantId)
        return;
    m_assistantId = resolved;
    if (m_conversationId && m_store)
        m_store->setAssistant(m_conversationId, resolved); // a failure is reported by the store
    ensurePrompt();
    emit assistantChanged();
}


// --- changing the messages -----------------------------------------------------------------------

bool ChatSession::canRegenerate() const
{
    const qsizetype n = m_messages.size();
    return m_engine && !m_exchange && !m_pendingSend && m_editIndex < 0 && n >= 2
        && m_messages.at(n - 1).role == Llm::Role::Assistant && m_messages.at(n - 2).role == Llm::Role::User;
}

ChatSession::SendResult ChatSession::regenerate(qint64 activatedNs, bool mainModel)
{
    if (!m_engine || !m_debounce)
        return SendResult::Unavailable;
    if (m_exchange || m_pendingSend)
        return SendResult::Busy;
    if (!canRegenerate())
        return SendResult::Empty; // no answer to ask for again
    m_pendingSend = PendingSend{{}, activatedNs, true, {}, mainModel};
    if (!ensurePrompt()) {
        emit preparingChanged(true); // the document compiles; promptReady dispatches it
        return SendResult::Preparing;
    }
    dispatchPending();
    return SendResult::Sent;
}

void ChatSession::dispatchRegenerate(qint64 activatedNs, bool mainModel)
{
    if (!canRegenerate())
        return; // changed while the document compiled (another conversation, a deletion)
    const qsizetype questionIndex = m_messages.size() - 2;
    // A similar question's answer served, asked for again: it did not answer this question.
    if (m_servedNear.answerId > 0 && m_messages.constLast().id == m_servedNear.answerId && m_engine)
        m_engine->cachedAnswers().rejectServed(m_servedNear.entryId);
    m_servedNear = {};
    // The old answer goes first: if the store keeps it (it said why), nothing is asked.
    if (!removeMessages(questionIndex + 1, m_messages.size()))
        return;
    // A new seed: the same request again would give the same text from a deterministic backend
    // (the local engine, a model at temperature 0 that honours seeds) and is what a cache keyed
    // on the request would answer. The seed follows the messages, so the prompt cache still hits.
    Prefetch::GenerationParams params = m_params; // the assistant's temperature and length
    params.seed = QRandomGenerator::global()->bounded(1, std::numeric_limits<int>::max());
    const StoredMessage &question = m_messages.at(questionIndex);
    const Prefetch::RenderedRequest request =
        renderMessage(history(questionIndex), question.content.trimmed(), question.attachments, params, mainModel);
    if (mainModel)
        m_engine->recorder().answerReasked();
    // Never through the debounce strategy or Engine::request(): both take over a live session
    // whose fingerprint matches, and the user asked for an answer other than the one there is.
    startExchange(m_engine->requestFresh(Prefetch::Strategy::None, request, activatedNs, this), nullptr, {},
                  request.request.model);
    acknowledge(m_messages.at(questionIndex).content.trimmed(), activatedNs); // `question` may have moved
}

bool ChatSession::beginEdit(qsizetype index)
{
    if (m_exchange || m_pendingSend || index < 0 || index >= m_messages.size()
        || m_messages.at(index).role != Llm::Role::User)
        return false;
    m_editIndex = index;
    m_builderStale = true; // a prefetch of the new text must be made with the history before it
    ensurePrompt();
    emit editChanged(index);
    return true;
}

void ChatSession::cancelEdit()
{
    if (m_editIndex < 0)
        return;
    resetEdit();
    ensurePrompt();
}

void ChatSession::resetEdit()
{
    if (std::exchange(m_editIndex, -1) < 0)
        return;
    m_builderStale = true;
    emit editChanged(-1);
}

bool ChatSession::deleteMessage(qsizetype index)
{
    if (index < 0 || index >= m_messages.size() || m_pendingSend || m_editIndex >= 0)
        return false;
    if (m_exchange && m_exchange->conversationId == m_conversationId)
        return false; // the live answer's place in messages() must hold still
    if (!removeMessages(index, index + 1))
        return false;
    m_builderStale = true; // the history lost it
    ensurePrompt();
    emit listChanged();
    return true;
}

bool ChatSession::removeMessages(qsizetype from, qsizetype to)
{
    Q_ASSERT(0 <= from && from <= to && to <= m_messages.size());
    QList<qint64> ids;
    for (qsizetype i = from; i < to; ++i) {
        if (m_messages.at(i).id > 0) // 0: never stored (the store had refused it)
            ids.append(m_messages.at(i).id);
    }
    if (!ids.isEmpty() && (!m_store || !m_store->removeMessages(m_conversationId, ids)))
        return false;
    m_messages.remove(from, to - from);
    emit messagesChanged();
    return true;
}

} // namespace Gui
