#pragma once

#include "replaychat.h"
#include "trace.h"

#include "localprovider/latencyprofile.h"
#include "prefetch/cache/cachedanswers.h"
#include "prefetch/metrics.h"
#include "prefetch/prompts/actionprompts.h"
#include "prefetch/prompts/prompttemplate.h"
#include "prefetch/strategy.h"
#include "prefetch/stream/answerreader.h"

#include "llm/pricing.h"
#include "localprovider/serverconfig.h"

#include <QHash>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QRectF>
#include <QSet>
#include <QTimer>
#include <QVariantMap>

#include <functional>
#include <memory>
#include <optional>

class QNetworkAccessManager;
class QTemporaryDir;

namespace Knowledge {
class Library;
class LibraryRetrieval;
} // namespace Knowledge
namespace LocalProvider {
class ServerThread;
}
namespace Gui {
class ChatSession;
class ConversationStore;
class Document;
class DocumentActions;
} // namespace Gui
namespace Prefetch {
class DebounceStrategy;
class Engine;
class HoverStrategy;
class RevealPacer;
class Speculator;
class Stack;
class WarmupStrategy;
class WorkflowStrategy;
} // namespace Prefetch

namespace Bench {

// Which strategies are on: none (what every other client gives), one alone, or all.
// Early: the signals before a hover (trajectory, selection, keyboard, reading, habits), together.
enum class Mode { Off, Warmup, Hover, Debounce, Workflow, Early, All };
const char *modeId(Mode mode);
std::optional<Mode> modeFromId(QStringView id);
inline constexpr Mode AllModes[] = {Mode::Off,      Mode::Warmup, Mode::Hover, Mode::Debounce,
                                    Mode::Workflow, Mode::Early,  Mode::All};

// A latency profile of the local provider plus what the benchmark does with documents.
struct Preset {
    QString name;
    LocalProvider::LatencyProfile latency;
    int documentTokens = 0; // > 0: every document of the trace has this size
    // A built-in provider the run imitates ("deepseek", "openai", "anthropic", "qwen"): the
    // engine talks to the local provider with that provider's own profile (its model's wire
    // format, continuation form, thinking form, cache minimum and prices: simulatedProfile());
    // empty: the local demo engine's profile.
    QString provider;
    // "hosted", "hosted-long-doc" (hosted, every document 20k tokens), "local-gpu", "instant",
    // and the providers' "deepseek", "openai", "anthropic", "qwen".
    static std::optional<Preset> byName(QStringView name);
    static QStringList names();
};

// The built-in profile of `provider` as the replay sends with it: its model's capabilities and
// prices (Llm::ModelCatalog), pointed at the local provider at `baseUrl` and naming the local
// provider's models (headstart-local and headstart-local-small for its fast model), whose
// requests are billed by purpose. `provider` empty: the local demo engine's profile.
Llm::ProviderProfile simulatedProfile(const QString &provider, const QUrl &baseUrl);

// The response cache: the app's default (on, near duplicates too), exact repeats only (the
// near-duplicate switch off), or off (Settings::cache.enabled false).
enum class CacheUse { On, ExactOnly, Off };
const char *cacheUseId(CacheUse use); // "on", "exact", "off"
std::optional<CacheUse> cacheUseFromId(QStringView id);

// What the response cache did for one activation. NotAsked: the cache is off, or a prefetch was
// taken over (the engine asks the cache only for an answer it would otherwise send).
enum class CacheLevel { NotAsked, Miss, Exact, NearServed, NearDraft };
const char *cacheLevelId(CacheLevel level);

// One user activation (click, Enter, Next) and how long the user waited for the first token.
struct Sample {
    QString kind;                                           // "action", "chat", "wizard"
    Prefetch::Strategy strategy = Prefetch::Strategy::None; // the strategy whose activation point it was
    // Activation → first token shown (through a RevealPacer, as the views show it). An answer
    // stopped or replaced before its first token counts with the time the user waited
    // (`stopped`); -1 only for one still waiting when the replay ended.
    double perceivedMs = -1;
    bool stopped = false;
    Prefetch::AnswerReader::Origin origin = Prefetch::AnswerReader::Origin::Fresh; // full hit, partial hit or fresh
    Prefetch::Strategy servedBy = Prefetch::Strategy::None;                        // whose prefetch it took over
    double stallMs = -1;          // the longest the shown text stood still in its first 3 s
    bool firstOnDocument = false; // the first answer about its document in the trace
    CacheLevel cache = CacheLevel::NotAsked;
    // NearDraft: activation → the cached draft on screen (perceivedMs stays the live answer's
    // first token, which still comes), and whether the live answer said something else.
    double draftMs = -1;
    bool draftReplaced = false;
    // A prefetch taken over: how long before the activation it was guessed, and its request
    // sent (the difference waited in the prefetch lane's queue, or for a warm-up); -1 otherwise.
    // On hosted a guess sent ~600 ms before the click is in by the click.
    double guessedBeforeMs = -1;
    double sentBeforeMs = -1;
    QString action; // a document action's id
    // A chat message sent by clicking a follow-up the chat offered (ReplayChat).
    bool suggestionClicked = false;
    // Sent with Enter after taking the chat's completion of the whole message (ReplayChat).
    bool completionTaken = false;
    qsizetype openingChars = 0; // of the answer's text, the fast model's (the fast opening)
    // The guesses live when it was asked for (strategy ids, warm-ups left out): for a fresh
    // answer, the wrong ones; empty for one nothing had guessed at all.
    QStringList guessesLive;
    // A prefetch taken over; a cached answer is not one (nothing was guessed or sent).
    bool prefetched() const
    {
        return origin == Prefetch::AnswerReader::Origin::Hit || origin == Prefetch::AnswerReader::Origin::PartialHit;
    }
};

// What the provider billed a run, by the X-Headstart-Purpose of its requests (a strategy's id,
// or "foreground"), and in money at the profile's prices.
struct Billing {
    LocalProvider::BilledTokens total;
    QMap<QString, LocalProvider::BilledTokens> byPurpose;
    Llm::Prices prices;
    double cost() const { return cost(total); }
    double cost(const LocalProvider::BilledTokens &tokens) const;
};

struct RunResult {
    QString trace;    // the trace's name: its kind, with "#seed" for a generated one
    QString kind;     // the trace kind (meta "name")
    qint64 seed = -1; // meta "seed"; -1 when the trace has none
    QString preset;
    QString variant;         // the settings that differ from the app's defaults; empty: none
    QString prefetchVariant; // the same without the response cache's setting
    Mode mode = Mode::Off;
    QList<Sample> samples;
    QMap<Prefetch::Strategy, Prefetch::StrategyStats> stats; // the engine's counters at the end
    // What the provider saw (its /stats).
    qint64 requests = 0, prefetchRequests = 0;
    qint64 promptTokens = 0, outputTokens = 0, cacheHitTokens = 0;
    Billing billing;
    // What the app itself estimated as it ran (Prefetch::BillEstimate, the figure its early
    // signals cut their guesses by): everything billed, and the user's answers priced as if
    // nothing had been sent early, over the whole run; set beside `billing` and the run with
    // prefetch off, it shows how far the estimate is from the bill.
    double appBilled = 0, appWithout = 0;
    bool appCutting = false; // over its bound at the end
    double wallSeconds = 0;
    double lateMs = 0;       // the most any trace event played after its time (timer jitter, a busy machine)
    QStringList problems;    // answers that failed, events that could not be played
    QStringList chatAnswers; // each chat answer's text as it ended, in the order they ended
    CacheUse cacheUse = CacheUse::On;
    Prefetch::CachedAnswers::Counters cache; // the engine's response-cache counters at the end
    // Each near-duplicate lookup's best candidate (the cache's decision log): why a reworded
    // question was or was not served. -1: no stored question shared a MinHash band with it.
    struct NearLookup {
        double similarity = -1, confidence = -1;
    };
    QList<NearLookup> nearLookups;
    // Every request the run's provider received, oldest first, when Replayer::setKeepRequests()
    // was on (tests compare them with the app's); empty otherwise.
    QList<LocalProvider::ReceivedRequest> received;
};

// Settings a run changes from the app's defaults (the benchmark's frontier); unset: the default.
struct Variant {
    std::optional<int> prefixTokens;
    std::optional<int> maxAnswers;
    bool warmPassages = false;     // Settings::Debounce::warmContext on (off by default)
    bool noShortFollowUps = false; // Settings::Debounce::shortFollowUps off (on by default)
    bool noSuggestions = false;    // Settings::Debounce::suggestFollowUps off (on by default)
    bool noCompletion = false;     // Settings::Debounce::completeDrafts off (on by default)
    // Settings::Routing::fastOpening on (off by default). Not a strategy: it changes what Enter
    // gets with prefetch off too.
    bool fastOpening = false;
    // Issue 40's "today's fixed policy": the early signals (a finished selection, modifiers held,
    // the pointer's heading, a document opened) guess their likeliest actions whatever their
    // chance (Settings::Speculation::wasteShare without bound), as before they learned what
    // they are for.
    bool fixedGuesses = false;
    // Speculator::setWeighTime(true) (off in the app): the selection's and the opening's guesses
    // weigh the time they save beyond the user's later signals.
    bool weighTime = false;
    // The early guesses not kept under the bill's bound (Prefetch::BillEstimate's bound out of
    // reach): the learned guesses as they were before the bound.
    bool noBillBound = false;
    // The replay's, not a setting: "compose" lines are not played, so the chat never hears of an
    // input method's pre-edit (as before issue 39).
    bool noComposition = false;
    CacheUse cache = CacheUse::On;
    QString name() const; // "N=16 answers=1 passages warmed cache off"; empty: the defaults
    // Something only a strategy reads: a run with prefetch off would be the defaults' run.
    bool changesStrategies() const
    {
        // (A completion taken sends earlier with prefetch off too, but the wait after Enter is the same.)
        return prefixTokens || maxAnswers || warmPassages || noShortFollowUps || noSuggestions || noCompletion
               || fixedGuesses || weighTime || noBillBound;
    }
};

// Plays one trace against a fresh local provider in one mode, driving the app's own workspace
// classes as the window does — Gui::DocumentActions for the action buttons (hover, press,
// click, the warm-up of the document in front) and Gui::ChatSession for the chat (typing,
// Enter), so every request is the app's, byte for byte — and the rest through the calls the app
// makes (wizard steps; the pointer's path, keyboard focus, modifiers and selections for the
// Speculator; Stop), with the app's settings, and shows every answer through a
// RevealPacer as the views do. Time can be compressed by `speed`: the trace's gaps, the
// provider's latencies and every strategy delay and TTL shrink by that factor (the hourly
// budget grows by it) and measured latencies are scaled back, so a run takes 1/speed of the
// trace's time. GUI thread.
class Replayer : public QObject
{
    Q_OBJECT

public:
    Replayer(Trace trace, Preset preset, Mode mode, double speed = 1.0, Variant variant = {},
             QObject *parent = nullptr);
    ~Replayer() override;

    // Starts its provider and plays the trace; finished() follows the last answer after `end`.
    // Returns an error when the provider cannot start or a library the trace opens cannot be
    // built (ReplayLibraries::prepare(), which the caller should have run before any run began).
    std::optional<QString> start();
    // Before start(): the run's provider keeps every request it receives, byte for byte, and
    // result().received has them (LocalProvider::ServerConfig::keepRequests; tests).
    void setKeepRequests(bool keep) { m_keepRequests = keep; }
    bool isFinished() const { return m_finished; }
    const RunResult &result() const { return m_result; }

signals:
    void finished();

private:
    // A trace's document: what the generator needs to grow it, and the app's own model of it.
    struct Document {
        QString language;
        quint64 seed = 1;
        int revision = 0;
        Gui::Document *model = nullptr; // a child of the replayer
    };

    void playDue();
    void play(const TraceEvent &event);
    void problem(const TraceEvent &event, const QString &what);
    void makeCurrent(const QString &docId);
    Gui::Document *currentModel() const;
    Prefetch::RenderedRequest actionRequest(Prefetch::DocumentAction action);
    // Sends what the chat's input holds (ReplayChat::send()) and follows its answer.
    void sendChat(const TraceEvent &event, qint64 nowNs, ReplayChat::SentBy how);
    QVariantMap wizardData(int step) const;
    std::optional<Prefetch::RenderedRequest> wizardRequest(int step, const QVariantMap &data);
    void wizardGenerate(int step, qint64 activatedNs);
    void wizardStepCompleted(int step);
    // Records the activation's sample; `onEnd` runs when the answer ends, finished, failed or
    // stopped, with the text it delivered.
    void track(Prefetch::AnswerReader *handle, const QString &kind, Prefetch::Strategy strategy,
               std::function<void(const QString &text)> onEnd = {});
    // The earlier signals (layout, pointer, focus, modifiers, selecting), for the Speculator.
    void playSignal(const TraceEvent &event);
    // The Speculator's context: the current document and selection (call after they change).
    void speculationContextChanged();
    bool isUsable(Prefetch::DocumentAction action) const; // its button is enabled
    void markFirstOnDocument(const QString &docId);
    QStringList liveGuesses() const;
    // Sample `index`'s cache level from the engine's counters before its activation; a near
    // draft is on screen now.
    void noteCache(qsizetype index, const Prefetch::CachedAnswers::Counters &before,
                   const Prefetch::ResponseCache::Lookup *draft, qint64 activatedNs);
    void checkDrained();
    void finish();
    qint64 scaled(qint64 ms) const;

    Trace m_trace;
    Preset m_preset;
    Mode m_mode;
    double m_speed;
    Variant m_variant;
    bool m_keepRequests = false;
    RunResult m_result;
    std::unique_ptr<LocalProvider::ServerThread> m_server;
    std::unique_ptr<QNetworkAccessManager> m_network;
    // The folder of the run's own response cache (never the user's data dir): made before the
    // stack, gone after it.
    std::unique_ptr<QTemporaryDir> m_cacheDir;
    // The engine stack as the app has it (Prefetch::Stack), and its parts the trace plays to.
    std::unique_ptr<Prefetch::Stack> m_stack;
    Prefetch::ResponseCache *m_cache = nullptr;
    Prefetch::Engine *m_engine = nullptr;
    Prefetch::HoverStrategy *m_hover = nullptr;
    Prefetch::DebounceStrategy *m_debounce = nullptr;
    Prefetch::WorkflowStrategy *m_workflow = nullptr;
    Prefetch::WarmupStrategy *m_warmup = nullptr;
    Prefetch::Speculator *m_speculator = nullptr;
    // The workspace the window would show: its conversations (in the run's own folder), chat
    // and document actions.
    std::unique_ptr<Gui::ConversationStore> m_store;
    std::unique_ptr<Gui::ChatSession> m_chat;
    std::unique_ptr<Gui::DocumentActions> m_actions;

    QTimer m_clock; // the next trace event
    qsizetype m_next = 0;
    qint64 m_startNs = 0;
    QTimer m_drain; // after `end`: the longest wait for answers still streaming
    int m_pending = 0;
    bool m_finished = false;

    QHash<QString, Document> m_documents;
    int m_untitled = 0;         // the last untitled document's number, as the tabs count them
    QSet<QString> m_askedAbout; // documents an answer was asked about
    QString m_currentDoc;
    QString m_selection;
    QHash<Prefetch::DocumentAction, QRectF> m_buttons; // the last layout's
    bool m_shortcutHeld = false;                       // Ctrl+Alt down
    bool m_shiftHeld = false;                          // a keyboard selection is not finished yet

    // The library the trace opened (ReplayLibraries, shared with other runs); the chat
    // retrieves from it as in the app.
    Knowledge::Library *m_library = nullptr;

    std::unique_ptr<ReplayChat> m_person; // at the chat's input

    bool m_wizardOpen = false;
    int m_wizardStep = 0;
    QVariantMap m_wizardForm;               // the topic page
    QHash<int, QString> m_wizardText;       // each generated step's text, with the user's edits
    QHash<int, QVariantMap> m_wizardSource; // the data each step's text was generated from
    std::optional<Prefetch::CompiledPrompt> m_wizardPrompt;
    QTimer m_wizardPause;
    QPointer<Prefetch::AnswerReader> m_wizardAnswer;
};

} // namespace Bench
