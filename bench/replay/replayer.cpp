// Replayer: playing a trace through the app's workspace (its settings are replaysettings.cpp, the
// wizard's steps replaywizard.cpp, the person at the chat input ReplayChat).
#include "replayer.h"

#include <limits>

#include "documents.h"
#include "replaylibraries.h"
#include "replaysettings.h"

#include "workspace/chat/chatsession.h"
#include "workspace/conversations/conversationstore.h"
#include "workspace/documents/document.h"
#include "workspace/documents/documentactions.h"

#include "knowledge/library.h"
#include "knowledge/libraryretrieval.h"

#include "llm/clock.h"
#include "localprovider/serverthread.h"
#include "prefetch/cache/responsecache.h"
#include "prefetch/engine.h"
#include "prefetch/prefetchsession.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/stack.h"
#include "prefetch/strategies/debouncestrategy.h"
#include "prefetch/strategies/hoverstrategy.h"
#include "prefetch/strategies/speculator.h"
#include "prefetch/strategies/warmupstrategy.h"
#include "prefetch/strategies/workflowstrategy.h"
#include "prefetch/stream/answerfetch.h"
#include "prefetch/stream/answerreader.h"
#include "prefetch/stream/revealpacer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>

namespace Bench {

namespace {

using std::chrono::milliseconds;

// How long the replay waits, after the trace's last event, for answers still streaming.
constexpr qint64 DrainMs = 60'000;

// The wizard's settle pause: a form or an edit untouched this long counts as done (the same
// figure as ui/newdocumentwizard.cpp).
constexpr qint64 SettleMs = 350;

} // namespace

Replayer::Replayer(Trace trace, Preset preset, Mode mode, double speed, Variant variant, QObject *parent)
    : QObject(parent)
    , m_trace(std::move(trace))
    , m_preset(std::move(preset))
    , m_mode(mode)
    , m_speed(speed > 0 ? speed : 1.0)
    , m_variant(std::move(variant))
{
    m_result.trace = m_trace.name;
    m_result.kind = m_trace.meta.value(QStringLiteral("name")).toString(m_trace.name);
    m_result.seed = m_trace.meta.value(QStringLiteral("seed")).toInteger(-1);
    m_result.preset = m_preset.name;
    m_result.variant = m_variant.name();
    m_result.mode = m_mode;
    m_result.cacheUse = m_variant.cache;
    Variant prefetchOnly = m_variant;
    prefetchOnly.cache = CacheUse::On;
    m_result.prefetchVariant = prefetchOnly.name();
    m_clock.setSingleShot(true);
    m_clock.setTimerType(Qt::PreciseTimer);
    connect(&m_clock, &QTimer::timeout, this, &Replayer::playDue);
    m_wizardPause.setSingleShot(true);
    m_wizardPause.setInterval(milliseconds(scaled(SettleMs)));
    // A pending settle is always the open step's: Next stops it.
    connect(&m_wizardPause, &QTimer::timeout, this, [this] { wizardStepCompleted(m_wizardStep); });
    m_drain.setSingleShot(true);
    connect(&m_drain, &QTimer::timeout, this, &Replayer::finish);
}

Replayer::~Replayer()
{
    // Answers go before the stack (its strategies, then its engine), the stack before the network
    // and server.
    m_clock.stop();
    m_wizardPause.stop();
    if (m_engine)
        m_engine->stopAll();
    m_person.reset();
    m_chat.reset();
    m_actions.reset();
    m_store.reset();
    qDeleteAll(findChildren<Prefetch::AnswerReader *>(Qt::FindDirectChildrenOnly));
    m_stack.reset();
    m_cacheDir.reset();
    m_network.reset();
    m_server.reset();
}

std::optional<QString> Replayer::start()
{
    if (auto error = ReplayLibraries::prepare(m_trace))
        return error;
    LocalProvider::ServerConfig config;
    config.profile = compress(m_preset.latency, m_speed);
    config.keepRequests = m_keepRequests;
    m_server = std::make_unique<LocalProvider::ServerThread>(config);
    if (!m_server->start())
        return QStringLiteral("the local provider did not start: %1").arg(m_server->errorString());

    m_network = std::make_unique<QNetworkAccessManager>();
    const Llm::ProviderProfile profile = simulatedProfile(m_preset.provider, m_server->apiUrl());
    m_result.billing.prices = profile.prices;
    // As the app: a cache file beside the conversations, given to the engine whether or not the
    // setting is on (the setting decides). Each run its own, empty: runs side by side never share
    // answers, and no run reads the user's.
    // In memory where the system has it: the cache writes on the GUI thread as the app's does,
    // and two hundred runs share this one; a disk's syncs would delay every run's events.
    const QString shm = QStringLiteral("/dev/shm");
    m_cacheDir = QFileInfo(shm).isDir() && QFileInfo(shm).isWritable()
                     ? std::make_unique<QTemporaryDir>(shm + QStringLiteral("/headstart-replay-XXXXXX"))
                     : std::make_unique<QTemporaryDir>();
    if (!m_cacheDir->isValid())
        return QStringLiteral("no temporary folder for the response cache: %1").arg(m_cacheDir->errorString());
    Prefetch::Stack::Options stackOptions;
    stackOptions.responseCachePath = m_cacheDir->filePath(QStringLiteral("responses.sqlite"));
    // A new user's habits: what they do is learnt during the trace, from the prior on.
    m_stack = std::make_unique<Prefetch::Stack>(m_network.get(), profile, settingsFor(m_mode, m_speed, m_variant),
                                                stackOptions);
    m_cache = m_stack->responseCache();
    if (!m_cache->isPersistent())
        return QStringLiteral("the response cache did not open: %1").arg(m_cache->error());
    m_engine = m_stack->engine();
    m_hover = m_stack->hover();
    m_debounce = m_stack->debounce();
    m_workflow = m_stack->workflow();
    m_warmup = m_stack->warmup();
    m_speculator = m_stack->speculator();
    m_speculator->setWeighTime(m_variant.weighTime);
    if (m_variant.noBillBound) // nothing sets the engine's settings again during a run
        m_engine->recorder().bill().setBound(std::numeric_limits<double>::infinity());
    // The window's workspace: the chat on a conversation store of the run's own, and the
    // document actions.
    m_store = std::make_unique<Gui::ConversationStore>(m_cacheDir->filePath(QStringLiteral("conversations.sqlite")));
    // The last assistant in memory: a run never writes the settings of the program that replays it.
    m_chat = std::make_unique<Gui::ChatSession>(m_engine, m_debounce, m_store.get(), Gui::AssistantMemory::inMemory());
    m_actions = std::make_unique<Gui::DocumentActions>(m_engine, m_hover, m_warmup);
    m_person = std::make_unique<ReplayChat>(
        m_chat.get(), &m_trace, ReplayChat::Options{m_variant.noComposition, m_speed},
        [this](const TraceEvent &event, qint64 nowNs, ReplayChat::SentBy how) { sendChat(event, nowNs, how); },
        [this](const TraceEvent &event, const QString &what) { problem(event, what); });

    m_startNs = Llm::monotonicNowNs();
    m_next = 0;
    playDue();
    return std::nullopt;
}

qint64 Replayer::scaled(qint64 ms) const
{
    return std::llround(double(ms) / m_speed);
}

void Replayer::playDue()
{
    // Each event plays at its own time from the start, so a late timer never drifts the rest.
    while (m_next < m_trace.events.size()) {
        const TraceEvent &event = m_trace.events.at(m_next);
        const qint64 dueNs = m_startNs + scaled(event.t) * 1'000'000;
        const qint64 nowNs = Llm::monotonicNowNs();
        if (dueNs > nowNs) {
            m_clock.start(int(std::max<qint64>(1, (dueNs - nowNs) / 1'000'000)));
            return;
        }
        ++m_next;
        m_result.lateMs = std::max(m_result.lateMs, double(nowNs - dueNs) / 1e6 * m_speed);
        play(event);
    }
}

void Replayer::problem(const TraceEvent &event, const QString &what)
{
    m_result.problems.append(QStringLiteral("%1:%2 (%3): %4").arg(m_trace.name).arg(event.line).arg(event.event, what));
}

void Replayer::play(const TraceEvent &event)
{
    const QString &name = event.event;
    const QJsonObject &f = event.fields;
    const qint64 nowNs = Llm::monotonicNowNs();

    if (name == u"open_document") {
        const QString id = f.value(QStringLiteral("doc")).toString();
        const int tokens = m_preset.documentTokens > 0 ? m_preset.documentTokens
                                                       : f.value(QStringLiteral("tokens")).toInt();
        Document &doc = m_documents[id];
        doc.language = f.value(QStringLiteral("language")).toString(QStringLiteral("en"));
        doc.seed = quint64(f.value(QStringLiteral("seed")).toInteger(1));
        ++doc.revision;
        if (!doc.model) {
            doc.model = new Gui::Document(this);
            doc.model->setUntitled(++m_untitled);
        }
        doc.model->setText(makeDocument(std::max(1, tokens), doc.seed, doc.language));
        makeCurrent(id);
    } else if (name == u"switch_document") {
        const QString id = f.value(QStringLiteral("doc")).toString();
        if (!m_documents.contains(id))
            return problem(event, QStringLiteral("no open document \"%1\"").arg(id));
        makeCurrent(id);
    } else if (name == u"close_document") {
        const QString id = f.value(QStringLiteral("doc")).toString();
        const Document doc = m_documents.take(id);
        if (doc.model) {
            m_actions->documentClosing(doc.model);
            if (m_currentDoc == id) {
                m_currentDoc.clear();
                m_selection.clear();
                m_chat->setDocument(nullptr);
                speculationContextChanged();
            }
            delete doc.model;
        }
    } else if (name == u"edit_document") {
        const QString id = f.value(QStringLiteral("doc")).toString();
        auto doc = m_documents.find(id);
        if (doc == m_documents.end())
            return problem(event, QStringLiteral("no open document \"%1\"").arg(id));
        // Writers add at the end; the app compiles the new revision and sends it from then on.
        doc->model->setText(doc->model->text() + QStringLiteral("\n\n")
                            + makeDocument(std::max(1, f.value(QStringLiteral("append_tokens")).toInt()),
                                           doc->seed + quint64(doc->revision) * 7919, doc->language));
        ++doc->revision;
        if (id == m_currentDoc) {
            m_chat->documentChanged();
            speculationContextChanged();
        }
    } else if (name == u"select") {
        const int index = f.value(QStringLiteral("paragraph")).toInt(-1);
        m_selection.clear();
        if (index >= 0 && m_documents.contains(m_currentDoc)) {
            const QStringList list = paragraphs(currentModel()->text());
            if (!list.isEmpty())
                m_selection = list.at(index % list.size());
        }
        speculationContextChanged();
        m_speculator->selectionChanged(!m_selection.isEmpty());
        // A drag ends with the mouse button's release, which is this line; Shift+arrows end
        // when Shift comes up (a `modifiers` line after it), as Gui::ActionSignals tells them.
        if (!m_shiftHeld)
            m_speculator->selectionFinished();
    } else if (name == u"hover_enter" || name == u"press" || name == u"hover_leave" || name == u"click") {
        const QString action = f.value(QStringLiteral("action")).toString();
        const auto parsed = Prefetch::documentActionFromId(action);
        if (!parsed)
            return problem(event, QStringLiteral("unknown action \"%1\"").arg(action));
        // The app disables the buttons it could not run: no document, or no selection for an
        // action on the selection. Hovering a disabled button does nothing.
        if (!isUsable(*parsed)) {
            if (name == u"click")
                problem(event, QStringLiteral("clicked \"%1\" with no document or selection").arg(action));
            return;
        }
        if (name == u"hover_enter") {
            m_actions->pointerEntered(*parsed, currentModel(), m_selection);
        } else if (name == u"press") {
            m_actions->pressed(*parsed, currentModel(), m_selection);
        } else if (name == u"hover_leave") {
            m_actions->pointerLeft(*parsed);
        } else {
            const Prefetch::CachedAnswers::Counters before = m_engine->cachedAnswers().counters();
            const QStringList live = liveGuesses();
            // As the window runs it: the answer before is cancelled, a guess taken over.
            m_actions->run(*parsed, currentModel(), m_selection, nowNs);
            // After the takeover: the other guesses of the moment are dropped, the habits learn.
            m_speculator->activated(*parsed);
            Prefetch::AnswerReader *handle = m_actions->current();
            if (!handle)
                return problem(event, QStringLiteral("\"%1\" did not start (its prompt is not ready)").arg(action));
            track(handle, QStringLiteral("action"), Prefetch::Strategy::Hover,
                  [this, handle, action = *parsed](const QString &) {
                      if (handle->isDone() && !handle->error())
                          m_speculator->answerEnded(action);
                  });
            noteCache(m_result.samples.size() - 1, before, nullptr, nowNs);
            m_result.samples.last().action = action;
            m_result.samples.last().guessesLive = live;
            markFirstOnDocument(m_currentDoc);
        }
    } else if (name == u"open_library") {
        m_library = ReplayLibraries::find(f.value(QStringLiteral("docs")).toInt(),
                                          quint64(f.value(QStringLiteral("seed")).toInteger()));
        if (!m_library)
            return problem(event, QStringLiteral("the library was not prepared"));
    } else if (name == u"chat_open" || name == u"type" || name == u"compose" || name == u"send") {
        if (name == u"chat_open")
            m_chat->setLibrary(m_library);
        m_person->play(event, m_next, nowNs);
    } else if (name == u"attach") {
        m_person->attach(event, m_cacheDir->filePath(QStringLiteral("attachments/%1").arg(event.line)));
    } else if (name == u"wizard_start") {
        m_workflow->reset();
        m_wizardOpen = true;
        m_wizardStep = Prefetch::WizardTopicStep;
        m_wizardForm.clear();
        m_wizardText.clear();
        m_wizardSource.clear();
    } else if (name == u"wizard_field") {
        if (!m_wizardOpen)
            return problem(event, QStringLiteral("no wizard open"));
        m_wizardForm = f.value(QStringLiteral("data")).toObject().toVariantMap();
        if (m_wizardStep == Prefetch::WizardTopicStep)
            m_wizardPause.start();
    } else if (name == u"wizard_edit") {
        const int step = f.value(QStringLiteral("step")).toInt();
        if (!m_wizardOpen || step != m_wizardStep)
            return problem(event, QStringLiteral("editing a step that is not open"));
        m_wizardText[step] += f.value(QStringLiteral("append")).toString();
        m_wizardPause.start();
    } else if (name == u"wizard_next") {
        const int step = f.value(QStringLiteral("step")).toInt();
        if (!m_wizardOpen || step < Prefetch::WizardOutlineStep || step > Prefetch::WizardTitleStep)
            return problem(event, QStringLiteral("no wizard step %1 to open").arg(step));
        m_wizardPause.stop(); // Next cancels a pending settle, as the wizard does
        m_wizardStep = step;
        wizardGenerate(step, nowNs);
    } else if (name == u"wizard_finish" || name == u"wizard_cancel") {
        m_wizardPause.stop();
        m_workflow->reset();
        if (m_wizardAnswer)
            m_wizardAnswer->cancel();
        m_wizardOpen = false;
    } else if (name == u"layout" || name == u"pointer" || name == u"focus" || name == u"modifiers"
               || name == u"selecting") {
        playSignal(event);
    } else if (name == u"stop") {
        // As the window's Stop: every answer and guess cancelled, and what the early signals
        // were about to guess (a selection settling, a document being read) not guessed either.
        m_engine->stopAll();
        m_speculator->stopped();
    } else if (name == u"end") {
        m_drain.start(int(scaled(DrainMs)));
        checkDrained();
    }
}

void Replayer::makeCurrent(const QString &docId)
{
    m_currentDoc = docId;
    m_selection.clear();
    // Opening a document or switching to its tab warms its prefix, and the chat follows it (as
    // MainWindow does on a tab change).
    m_actions->warmUp(currentModel());
    m_chat->setDocument(currentModel());
    speculationContextChanged();
    m_speculator->selectionChanged(false);
    m_speculator->documentOpened();
}

Gui::Document *Replayer::currentModel() const
{
    return m_documents.value(m_currentDoc).model;
}

bool Replayer::isUsable(Prefetch::DocumentAction action) const
{
    return Gui::DocumentActions::isUsable(action, currentModel(), !m_selection.isEmpty());
}

void Replayer::speculationContextChanged()
{
    if (!m_documents.contains(m_currentDoc)) {
        m_speculator->setContext({}, false);
    } else {
        m_speculator->setContext(
            [this](Prefetch::DocumentAction action) {
                return isUsable(action) ? actionRequest(action) : Prefetch::RenderedRequest();
            },
            !m_selection.isEmpty());
    }
    m_speculator->contextChanged();
}

void Replayer::playSignal(const TraceEvent &event)
{
    const QString &name = event.event;
    const QJsonObject &f = event.fields;
    const auto rect = [](const QJsonValue &value) {
        const QJsonArray a = value.toArray();
        return QRectF(a.at(0).toDouble(), a.at(1).toDouble(), a.at(2).toDouble(), a.at(3).toDouble());
    };
    if (name == u"layout") {
        m_buttons.clear();
        const QJsonObject buttons = f.value(QStringLiteral("buttons")).toObject();
        for (auto it = buttons.begin(); it != buttons.end(); ++it) {
            if (const auto action = Prefetch::documentActionFromId(it.key()))
                m_buttons.insert(*action, rect(it.value()));
        }
        m_speculator->setTargets(m_buttons);
    } else if (name == u"pointer") {
        // The trace's own clock: the predictor models the user's movement, which compressing
        // the replay does not speed up.
        m_speculator->pointerMoved(QPointF(f.value(QStringLiteral("x")).toDouble(),
                                           f.value(QStringLiteral("y")).toDouble()),
                                   event.t * 1'000'000);
    } else if (name == u"focus") {
        const auto action = Prefetch::documentActionFromId(f.value(QStringLiteral("target")).toString());
        if (action && isUsable(*action))
            m_speculator->focusEntered(*action);
        else
            m_speculator->focusLeft();
    } else if (name == u"modifiers") {
        const QJsonArray keys = f.value(QStringLiteral("keys")).toArray();
        const bool held = keys.contains(QStringLiteral("ctrl")) && keys.contains(QStringLiteral("alt"));
        const bool shift = keys.contains(QStringLiteral("shift"));
        if (m_shiftHeld && !shift)
            m_speculator->selectionFinished();
        m_shiftHeld = shift;
        if (held != m_shortcutHeld) {
            m_shortcutHeld = held;
            m_speculator->modifiersChanged(held);
        }
    } else if (name == u"selecting") {
        // A click or Shift+arrow in the text: the old selection is gone, the new one grows
        // until its `select`.
        m_selection.clear();
        speculationContextChanged();
        m_speculator->selectionChanged(false);
    }
}

Prefetch::RenderedRequest Replayer::actionRequest(Prefetch::DocumentAction action)
{
    return m_actions->request(action, currentModel(), m_selection);
}

void Replayer::sendChat(const TraceEvent &event, qint64 nowNs, ReplayChat::SentBy how)
{
    const bool aboutDocument = m_chat->mode() == Gui::ConversationMode::Document && currentModel();
    const Prefetch::CachedAnswers::Counters before = m_engine->cachedAnswers().counters();
    if (!m_person->send(event, nowNs))
        return;
    Prefetch::AnswerReader *handle = m_chat->currentAnswer();
    const qsizetype index = m_result.samples.size(); // track() appends it
    const bool draft = m_chat->currentCached() == Gui::CachedAnswer::Draft;
    const qint64 replacedBefore = m_engine->cachedAnswers().counters().draftsReplaced;
    track(handle, QStringLiteral("chat"), Prefetch::Strategy::Debounce,
          [this, handle, draft, replacedBefore, index](const QString &answer) {
              // The session settled the draft against the live answer it stood in for
              // (ChatSession, on the answer's end); a live answer stopped or failed says
              // nothing about the draft.
              if (draft && handle->isDone() && !handle->error())
                  m_result.samples[index].draftReplaced = m_engine->cachedAnswers().counters().draftsReplaced
                                                          > replacedBefore;
              m_result.chatAnswers.append(answer);
          });
    noteCache(index, before, nullptr, nowNs);
    m_result.samples[index].suggestionClicked = how == ReplayChat::SentBy::Suggestion;
    m_result.samples[index].completionTaken = how == ReplayChat::SentBy::Completion;
    if (draft) {
        m_result.samples[index].cache = CacheLevel::NearDraft;
        m_result.samples[index].draftMs = double(Llm::monotonicNowNs() - nowNs) / 1e6 * m_speed;
    }
    if (aboutDocument)
        markFirstOnDocument(m_currentDoc);
}

void Replayer::track(Prefetch::AnswerReader *handle, const QString &kind, Prefetch::Strategy strategy,
                     std::function<void(const QString &)> onEnd)
{
    const qsizetype index = m_result.samples.size();
    Sample sample;
    sample.kind = kind;
    sample.strategy = strategy;
    sample.origin = handle->origin();
    sample.servedBy = handle->isPrefetched() ? handle->strategy() : Prefetch::Strategy::None;
    if (handle->isPrefetched()) {
        const auto before = [this, handle](qint64 ns) {
            return ns < 0 ? -1.0 : double(handle->activatedNs() - ns) / 1e6 * m_speed;
        };
        sample.guessedBeforeMs = before(handle->guessedNs());
        sample.sentBeforeMs = before(handle->answer() ? handle->answer()->startedNs() : -1);
    }
    m_result.samples.append(sample);
    ++m_pending;
    // Shown as the views show it (Gui::StreamFollower): through a pacer, the first piece at once,
    // then at the provider's measured pace; shown is when the user sees the answer start.
    auto *pacer = new Prefetch::RevealPacer(handle);
    handle->setShownByConsumer();
    connect(pacer, &Prefetch::RevealPacer::revealed, handle, [handle](const QString &, bool first) {
        if (first)
            handle->markFirstShown();
    });
    pacer->follow(handle);
    connect(handle, &Prefetch::AnswerReader::firstContentShown, this,
            [this, index](double ms) { m_result.samples[index].perceivedMs = ms * m_speed; });
    auto ended = [this, handle, pacer, index, onEnd = std::move(onEnd)](const std::optional<Llm::Error> &error) {
        --m_pending;
        pacer->finish();
        Sample &s = m_result.samples[index];
        if (s.perceivedMs < 0) {
            // Stopped, replaced or failed before its first token: the user waited this long.
            s.stopped = true;
            s.perceivedMs = double(Llm::monotonicNowNs() - handle->activatedNs()) / 1e6 * m_speed;
        } else {
            s.stallMs = pacer->stallMs() * m_speed;
        }
        if (const Prefetch::AnswerFetch *answer = handle->answer())
            s.openingChars = answer->openingLength();
        if (error && error->code() != Llm::Error::Code::Cancelled)
            m_result.problems.append(QStringLiteral("%1 answer failed: %2").arg(s.kind, error->message()));
        if (onEnd)
            onEnd(handle->text());
        handle->deleteLater();
        checkDrained();
    };
    connect(handle, &Prefetch::AnswerReader::finished, this, [ended] { ended(std::nullopt); });
    connect(handle, &Prefetch::AnswerReader::failed, this, [ended](const Llm::Error &e) { ended(e); });
}

QStringList Replayer::liveGuesses() const
{
    QStringList out;
    for (const Prefetch::PrefetchSession *session : m_engine->liveSessions()) {
        if (session->strategy() != Prefetch::Strategy::Warmup)
            out.append(QLatin1StringView(Prefetch::strategyId(session->strategy())));
    }
    return out;
}

void Replayer::markFirstOnDocument(const QString &docId)
{
    if (m_result.samples.isEmpty())
        return;
    if (!m_askedAbout.contains(docId)) {
        m_askedAbout.insert(docId);
        m_result.samples.last().firstOnDocument = true;
    }
}

void Replayer::noteCache(qsizetype index, const Prefetch::CachedAnswers::Counters &before,
                         const Prefetch::ResponseCache::Lookup *draft, qint64 activatedNs)
{
    // The counters say which lookup answered: an exact hit, a near duplicate served, or neither
    // (an exact miss is counted even when the near lookup then serves or drafts).
    const Prefetch::CachedAnswers::Counters &now = m_engine->cachedAnswers().counters();
    Sample &s = m_result.samples[index];
    if (now.exactHits > before.exactHits)
        s.cache = CacheLevel::Exact;
    else if (now.nearServed > before.nearServed)
        s.cache = CacheLevel::NearServed;
    else if (draft && draft->decision == Prefetch::ResponseCache::Decision::Draft)
        s.cache = CacheLevel::NearDraft;
    else if (now.misses > before.misses)
        s.cache = CacheLevel::Miss;
    if (s.cache == CacheLevel::NearDraft)
        s.draftMs = double(Llm::monotonicNowNs() - activatedNs) / 1e6 * m_speed;
}

void Replayer::checkDrained()
{
    if (m_drain.isActive() && m_pending == 0)
        finish();
}

void Replayer::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    m_drain.stop();
    m_wizardPause.stop();
    m_engine->stopAll();
    m_result.wallSeconds = double(Llm::monotonicNowNs() - m_startNs) / 1e9;
    for (Prefetch::Strategy s : Prefetch::AllStrategies)
        m_result.stats.insert(s, m_engine->metrics().stats(s));
    const LocalProvider::Stats server = m_server->stats();
    m_result.billing.total = server.billed;
    m_result.billing.byPurpose = server.billedByPurpose;
    m_result.appBilled = m_engine->recorder().bill().totalBilled();
    m_result.appWithout = m_engine->recorder().bill().totalWithout();
    m_result.appCutting = m_engine->recorder().bill().isOver();
    m_result.promptTokens = server.promptTokens;
    m_result.outputTokens = server.tokensGenerated;
    m_result.cacheHitTokens = server.cacheHitTokens;
    m_result.requests = server.requestsServed;
    m_result.prefetchRequests = server.prefetchRequests;
    m_result.cache = m_engine->cachedAnswers().counters();
    if (m_keepRequests) {
        const LocalProvider::ReceivedRequests received = m_server->receivedRequests();
        m_result.received = received.requests;
        if (received.notKept > 0)
            m_result.problems.append(QStringLiteral("the provider kept %1 requests; %2 more were not kept")
                                         .arg(received.requests.size())
                                         .arg(received.notKept));
    }
    for (const Prefetch::ResponseCache::LogLine &line : m_cache->decisionLog()) {
        if (line.level != Prefetch::ResponseCache::Level::NearDuplicate)
            continue;
        RunResult::NearLookup near;
        if (!line.neighbours.isEmpty()) {
            near.similarity = line.neighbours.constFirst().similarity;
            near.confidence = line.neighbours.constFirst().confidence;
        }
        m_result.nearLookups.append(near);
    }
    emit finished();
}

} // namespace Bench
