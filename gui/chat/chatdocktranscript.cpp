#include "gui/chat/chatdocktranscript.h"

#include "gui/answer/markdownview.h"
#include "gui/chat/chattranscript.h"
#include "workspace/chat/chatsession.h"

#include "prefetch/engine.h"
#include "prefetch/stream/answerfetch.h"
#include "prefetch/stream/answerreader.h"

namespace Gui {

ChatDockTranscript::ChatDockTranscript(ChatSession *session, ChatTranscript *transcript,
                                       std::function<void()> draftReplaced)
    : m_session(session)
    , m_transcript(transcript)
    , m_draftReplaced(std::move(draftReplaced))
    , m_follower({[this](const QString &text) {
                      if (m_liveWidget) {
                          dropDraft();
                          m_liveWidget->setAcknowledgement({}); // the answer itself has begun
                          m_liveWidget->view()->appendText(text);
                      }
                  },
                  [this](const QString &reasoning) {
                      if (m_liveWidget) {
                          dropDraft();
                          m_liveWidget->view()->appendReasoning(reasoning);
                      }
                  },
                  transcript->viewport(),
                  [this] {
                      if (m_liveWidget)
                          m_liveWidget->view()->clear();
                  }})
{
    QObject::connect(&m_follower, &StreamFollower::firstPainted, &m_follower, [this](double perceivedMs) {
        const Prefetch::AnswerReader *stream = m_follower.stream();
        if (!m_liveWidget)
            return;
        m_liveWidget->setTiming(perceivedMs, stream && stream->isPrefetched(),
                                stream && stream->origin() == Prefetch::AnswerReader::Origin::Hit);
        showOpening(stream);
    });
    // The retry's wait shows on the answer; the dock says it too.
    QObject::connect(&m_follower, &StreamFollower::retrying, &m_follower, [this](const QString &status) {
        if (m_liveWidget)
            m_liveWidget->setStatus(status);
    });
}

ChatDockTranscript::~ChatDockTranscript()
{
    m_follower.release();
}

void ChatDockTranscript::rebuild()
{
    m_follower.flush(); // into the widget that is about to go; the new one gets the whole text below
    updateModels();
    m_liveWidget = m_transcript->setMessages(m_session->messages(), m_session->liveMessageIndex());
    const Prefetch::AnswerReader *stream = m_session->currentAnswer();
    if (!m_liveWidget || !stream)
        return;
    followCitations(m_liveWidget, m_session->liveMessageIndex());
    // Whatever arrived while another conversation was shown (or the draft, while nothing has).
    showCached(m_liveWidget, stream->text().isEmpty() && stream->reasoning().isEmpty());
    m_liveWidget->view()->appendReasoning(stream->reasoning());
    m_liveWidget->view()->appendText(stream->text());
    showAcknowledgement();
    showOpening(stream);
    if (m_follower.perceivedLatencyMs() >= 0)
        m_liveWidget->setTiming(m_follower.perceivedLatencyMs(), stream->isPrefetched(),
                                stream->origin() == Prefetch::AnswerReader::Origin::Hit);
}

void ChatDockTranscript::updateModels()
{
    const Prefetch::Engine *engine = m_session->engine();
    if (!engine)
        return;
    const Llm::ProviderProfile &profile = engine->profile();
    m_transcript->setModels(profile.model, profile.hasDistinctFastModel() ? profile.fastModel : QString());
}

void ChatDockTranscript::followCitations(AnswerWidget *answer, qsizetype index)
{
    m_transcript->followCitations(answer, m_session->citationsOf(index));
}

void ChatDockTranscript::start(Prefetch::AnswerReader *stream)
{
    const QList<StoredMessage> &messages = m_session->messages();
    // A regenerated answer follows its question, which is shown already.
    if (m_transcript->shownEnd() < messages.size() - 1) {
        const StoredMessage question = messages.size() >= 2 ? messages.at(messages.size() - 2) : StoredMessage();
        m_transcript->addUserMessage(question.content, {}, question.attachments);
    }
    m_liveWidget = m_transcript->addAnswer();
    updateModels();
    m_transcript->markModel(m_liveWidget, messages.constLast().usage.model);
    followCitations(m_liveWidget, messages.size() - 1);
    m_transcript->scrollToEnd();
    showCached(m_liveWidget, true);
    m_follower.follow(stream);
}

void ChatDockTranscript::showOpening(const Prefetch::AnswerReader *stream)
{
    // Marked as the fast model's from its first word (the fast opening).
    const Prefetch::AnswerFetch *answer = stream ? stream->answer() : nullptr;
    if (m_liveWidget && answer && !answer->openingModel().isEmpty())
        m_liveWidget->setOpening(answer->openingModel(), answer->request().request.model);
}

void ChatDockTranscript::showAcknowledgement()
{
    const qsizetype live = m_session->liveMessageIndex();
    if (m_liveWidget && live >= 0)
        m_liveWidget->setAcknowledgement(m_session->currentAcknowledgement(), m_session->acknowledgementModel(),
                                         m_session->messages().at(live).usage.model);
}

void ChatDockTranscript::showCached(AnswerWidget *answer, bool nothingLiveYet)
{
    // A draft the live answer has begun to replace is not shown again.
    const CachedAnswer cached = m_session->currentCached();
    if (cached == CachedAnswer::Draft && !nothingLiveYet)
        return;
    answer->setCached(cached);
    if (cached == CachedAnswer::Draft) {
        answer->view()->appendText(m_session->currentDraft());
    }
}

void ChatDockTranscript::dropDraft()
{
    // The live answer's first piece replaces the draft (a From the cache mark stays: its text is it).
    if (m_liveWidget->cached() != CachedAnswer::Draft)
        return;
    m_liveWidget->view()->clear();
    m_liveWidget->setCached(CachedAnswer::None);
    m_draftReplaced();
}

void ChatDockTranscript::end(const QString &error, bool cancelled)
{
    m_follower.flush();
    m_follower.release();
    if (AnswerWidget *widget = m_liveWidget) {
        widget->setAcknowledgement({}); // a bridge to the answer, which has ended
        widget->view()->finish();
        // The live widget shows the open conversation's last answer: the one that just ended.
        const QList<StoredMessage> &messages = m_session->messages();
        if (!messages.isEmpty() && messages.constLast().role == Llm::Role::Assistant)
            widget->setUsage(messages.constLast().usage);
        if (!error.isEmpty())
            widget->setError(error);
        else if (cancelled)
            widget->setStatus(tr("Stopped."));
    }
    m_liveWidget = nullptr;
}

} // namespace Gui
