#pragma once

#include "workspace/settings/assistants.h"
#include "workspace/settings/learnedrefusals.h"
#include "workspace/settings/userendpoints.h"

#include "llm/providerprofile.h"
#include "llm/proxy.h"
#include "prefetch/settings.h"
#include "prefetch/speculationplan.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <algorithm>
#include <array>
#include <expected>
#include <optional>
#include <span>

class QSettings;

namespace Gui {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

// The four figures of a price table (Llm::Prices), each per million tokens.
enum class PriceField { Input, CacheWrite, CacheRead, Output };
inline constexpr PriceField PriceFields[] = {PriceField::Input, PriceField::CacheWrite, PriceField::CacheRead,
                                             PriceField::Output};
double priceOf(const Llm::Prices &prices, PriceField field);
void setPriceOf(Llm::Prices &prices, PriceField field, double perMillion);

// The three stages of Llm::Timeouts, each set in whole seconds.
enum class TimeoutField { Connect, FirstByte, Idle };
inline constexpr TimeoutField TimeoutFields[] = {TimeoutField::Connect, TimeoutField::FirstByte, TimeoutField::Idle};
int timeoutSecondsOf(const Llm::Timeouts &timeouts, TimeoutField field);
void setTimeoutSecondsOf(Llm::Timeouts &timeouts, TimeoutField field, int seconds);

// What the user changed about one built-in provider. An unset field takes the built-in default,
// so a better default in a later release reaches everyone who never touched that field.
struct ProviderOverride {
    std::optional<QUrl> baseUrl;
    std::optional<QString> model;
    // The provider's quick model (Llm::ProviderProfile::fastModel). One the built-in profile
    // does not name is priced as the main model: its prices are not known.
    std::optional<QString> fastModel;
    std::optional<HeaderList> extraHeaders;
    std::optional<int> concurrencyLimit;
    // Anthropic extended thinking budget in tokens (Llm::EncodeOptions); 0 is off.
    std::optional<int> thinkingBudgetTokens;
    // Anthropic: prompt-cache entries live an hour instead of five minutes ("ttl":"1h").
    std::optional<bool> longCacheLifetime;
    // By PriceField: what the user pays where it is not the built-in price (another model, an
    // account billed otherwise). Each figure on its own, so a corrected default still reaches
    // the figures the user never touched.
    std::array<std::optional<double>, 4> prices{};
    // By TimeoutField, in seconds; each on its own like the prices.
    std::array<std::optional<int>, 3> timeouts{};
    // The user's answer to whether hover, debounce and the early signals may send this provider
    // text they have not sent yet (the document under a resting pointer, a draft during a typing
    // pause): true allowed, false "Not now"; none yet, and the main window asks once.
    std::optional<bool> prefetchConsent;
    // The user accepts plain http:// to a host that is not this machine (Llm::ProviderProfile).
    bool allowInsecureHttp = false;

    bool isEmpty() const
    {
        return !baseUrl && !model && !fastModel && !extraHeaders && !concurrencyLimit && !thinkingBudgetTokens && !longCacheLifetime && !prefetchConsent.has_value() && !allowInsecureHttp
            && std::all_of(prices.begin(), prices.end(), [](const auto &p) { return !p; })
            && std::all_of(timeouts.begin(), timeouts.end(), [](const auto &t) { return !t; });
    }
    friend bool operator==(const ProviderOverride &, const ProviderOverride &) = default;
};

// One tunable of Prefetch::Settings: its settings key, how users see it and its valid range.
// The table of them drives loading, saving, comparing and the dialog's Prefetch page, so a
// parameter cannot be persisted without being validated and shown, or the other way round.
struct PrefetchParameter {
    enum class Kind { Bool, Integer, Real };
    // How the value is shown; durations are stored in milliseconds whatever they show in.
    enum class Unit { None, Milliseconds, Seconds, Minutes, Tokens, Characters, Requests, Samples, Ratio, Percent, Pixels,
                      Money /* the provider's currency */ };
    enum class Group { Warmup, Hover, Debounce, Workflow, Speculation, Trajectory, Selection, Keyboard, Reading, Habits,
                       Limits, Etiquette, Alarms, Metrics, Routing, Cache };

    const char *key;         // in the settings file, e.g. "prefetch/hover/delayMs"
    Group group;
    Kind kind;
    Unit unit;
    double min;              // in the stored unit (ms for durations, 0..1 for ratios)
    double max;
    const char *name;        // for messages, e.g. "hover delay" (QT_TRANSLATE_NOOP, context Gui::AppSettings)
    const char *label;       // the form label with its mnemonic, e.g. "&Delay:"
    const char *toolTip;     // may be empty
    double (*get)(const Prefetch::Settings &);
    void (*set)(Prefetch::Settings &, double);
};

// Limits shared by validation and the dialog's controls.
namespace Limits {
inline constexpr int MinConcurrency = 1;
inline constexpr int MaxConcurrency = 256;
// Anthropic's documented floor for a thinking budget, and a ceiling past every model's output
// limit (a larger figure is a typing slip).
inline constexpr int MinThinkingBudgetTokens = 1024;
inline constexpr int MaxThinkingBudgetTokens = 128'000;
inline constexpr qsizetype MaxModelLength = 200;
// Per million tokens. The dearest published prices are a few hundred dollars; a figure beyond
// this is a typing slip or a price per token.
inline constexpr double MaxPricePerMillion = 10'000;
// Timeouts in seconds. A connection takes a second at most unless something is wrong; a first
// event can take many minutes (a long prefill on a busy GPU, a model that thinks first), but
// beyond an hour the request has almost surely been lost.
inline constexpr int MinTimeoutSeconds[] = {1, 5, 5};         // by TimeoutField
inline constexpr int MaxTimeoutSeconds[] = {300, 3600, 3600};
} // namespace Limits

// How much the log file records (Settings, General). Whatever the level, it never holds keys,
// prompts, documents or answers; Detailed adds request sizes and timings, for bug reports.
enum class LogDetail { WarningsOnly, Normal, Detailed };

// Light or dark: the desktop's preference (the XDG portal's color-scheme), or one chosen.
enum class ColorScheme { System, Light, Dark };

// Everything Headstart persists, as a value. API keys are not here: they live in a SecretStore.
// GUI thread (translations), but otherwise a plain value copied freely.
class AppSettings
{
    Q_DECLARE_TR_FUNCTIONS(Gui::AppSettings)

public:
    struct LoadResult;

    QString providerId = QStringLiteral("local");   // the provider in use
    QMap<QString, ProviderOverride> providers;      // by id; only built-ins' (builtinProviders()) and endpoints'
    // The OpenAI- and Anthropic-compatible servers the user added; their fields are in `providers`.
    UserEndpoints endpoints;
    Prefetch::Settings prefetch;                    // as the user set it, before consent gating
    QString uiLanguage;                             // "" = the system's, "en", "zh_CN"; read at start
    // The language Translate writes, in English; "" (the default) is automatic: the other of
    // English and Chinese, by the text (Prefetch::automaticTranslateTarget()).
    QString translateTarget;
    bool firstRun = true;                           // the app has not finished its first start yet
    LogDetail logDetail = LogDetail::Normal;        // applied at once; --verbose overrides it for a run
    // The size of the text everywhere, in percent of the desktop's font: for eyes and screens
    // the desktop setting does not suit. Applied at once.
    int textSizePercent = 100;
    static constexpr int MinTextSizePercent = 75;
    static constexpr int MaxTextSizePercent = 200;
    ColorScheme colorScheme = ColorScheme::System; // applied at once, and when the desktop's changes
    // How model traffic reaches the providers (Settings, Network). Its password is always empty
    // here: it lives in the SecretStore, and the app adds it to what the network manager uses.
    Llm::ProxySettings proxy;
    // The folders of the knowledge base (Settings, Library), absolute, in the order added.
    QStringList libraryFolders;
    // What providers refused that the model catalogue did not foresee, per base URL and model.
    LearnedRefusals learned;
    // The chat's assistants (Settings, Assistants): changes to the built-ins and the user's own.
    AssistantSettings assistants;

    // Reads and validates every key, value by value. A bad value (wrong type, out of range,
    // unknown provider) is reset to its default with one user-readable problem each. Lines
    // QSettings cannot parse are skipped with one problem naming them, every value that still
    // reads is kept, and the file as it was is copied to "<file>.damaged-N" (a new N for new
    // damage; the last KeptDamagedCopies are kept). Never fails.
    static LoadResult load(QSettings &settings);
    // Copies `path` to "<path>.damaged-N", owner-only, and returns that name; empty when it
    // cannot. A copy of the same bytes is not made twice (the newest copy is returned), and of
    // the numbered copies only the newest KeptDamagedCopies stay.
    static QString keepDamagedCopy(const QString &path);
    static constexpr int KeptDamagedCopies = 3;
    // The lines of the INI file `path` that QSettings skips, as "line N "text"" for messages.
    static QStringList unreadableSettingsLines(const QString &path);
    // Writes every key this class owns and removes those equal to their default; leaves other
    // keys of `settings` alone. Syncs; the caller may check settings.status().
    void save(QSettings &settings) const;

    // The files opened last, newest first, at most MaxRecentFiles absolute paths. Kept apart
    // from the value above: the window adds to it whenever a file is opened, the dialog never
    // touches it. A damaged entry is dropped, never reported.
    static constexpr qsizetype MaxRecentFiles = 10;
    static QStringList recentFiles(QSettings &settings);
    static void addRecentFile(QSettings &settings, const QString &path);

    // The provider `id` (a built-in or a user endpoint) with the user's changes, without keys. An
    // unknown id (a removed endpoint) gives the local demo engine's. The local engine's base URL stays empty: only the app knows its port.
    // A provider counts as cloud when it is one, or when its URL leaves this machine.
    Llm::ProviderProfile profile(const QString &id) const;
    Llm::ProviderProfile selectedProfile() const { return profile(providerId); }
    // The provider `id` before the user's changes; an empty-id profile when there is none.
    Llm::ProviderProfile baseProfile(const QString &id) const;
    bool knowsProvider(const QString &id) const { return !baseProfile(id).id.isEmpty(); }
    // Every provider with the user's changes, as users see them listed: built-ins, then endpoints.
    QList<Llm::ProviderProfile> providerProfiles() const;
    // The id of the provider `idOrName` means (--provider): an id, else a name (ignoring case)
    // that exactly one provider has; or a message saying which are known.
    std::expected<QString, QString> findProvider(const QString &idOrName) const;
    // Drops the endpoint and its fields; the provider in use becomes the local engine when it was
    // this one. Its keys are the caller's to remove from the SecretStore. False: not an endpoint.
    bool removeEndpoint(const QString &id);

    // The settings the engine gets while `providerId` is in use. Hover and debounce prefetch
    // send text the user has not committed to (the document under a resting pointer, an unsent
    // draft), so they are off for a cloud provider without consent. Warm-up is not gated: it
    // sends the document the user opened in order to work on it with that provider, the same
    // prefix every action sends, and has its own switch and its own sentence in the dialog.
    // Workflow prefetch is not gated either: it sends form data of a step the user completed.
    Prefetch::Settings effectivePrefetch(const QString &providerId) const;
    // True when `profile` needs consent before hover and debounce may send it anything.
    static bool needsPrefetchConsent(const Llm::ProviderProfile &profile);
    bool hasPrefetchConsent(const QString &providerId) const;
    // The user has answered for this provider, either way (the consent bar or the checkbox).
    bool hasConsentAnswer(const QString &providerId) const;
    // The three above in one: not needed, given, declined (Not now), or not answered yet.
    Prefetch::Consent prefetchConsent(const QString &providerId) const;

    // Setters keep `providers` minimal: a value equal to the default (baseProfile()) clears the
    // override, an empty override is dropped. Unknown ids are ignored.
    void setBaseUrl(const QString &id, const std::optional<QUrl> &url);
    void setModel(const QString &id, const std::optional<QString> &model);
    // Keeps what provider `id` refused for `model` (its profile's base URL) for the next start.
    void learnRefusal(const QString &id, const QString &model, Llm::RefusedFeature feature);
    void setFastModel(const QString &id, const std::optional<QString> &model);
    void setExtraHeaders(const QString &id, const std::optional<HeaderList> &headers);
    void setConcurrencyLimit(const QString &id, const std::optional<int> &limit);
    // 0 turns thinking off; only Anthropic-format profiles take it (others ignore the call).
    void setThinkingBudget(const QString &id, const std::optional<int> &budgetTokens);
    // Anthropic profiles only: cache entries for an hour (their writes cost 2 × input, not 1.25 ×).
    void setLongCacheLifetime(const QString &id, const std::optional<bool> &on);
    void setPrefetchConsent(const QString &id, bool consent);
    void setAllowInsecureHttp(const QString &id, bool allow);
    // A price that is negative, not finite or above Limits::MaxPricePerMillion is no price: the
    // figure goes back to the built-in one, as nullopt does.
    void setPrice(const QString &id, PriceField field, std::optional<double> perMillion);
    void setPrices(const QString &id, const Llm::Prices &prices);
    // Outside Limits::Min/MaxTimeoutSeconds, or nullopt: the built-in timeout.
    void setTimeout(const QString &id, TimeoutField field, std::optional<int> seconds);
    // "connect", "first byte", "idle": for messages.
    static QString timeoutFieldName(TimeoutField field);

    // An http(s) URL with a host, or nothing.
    static std::optional<QUrl> parseBaseUrl(const QString &text);
    // "Name: value" per line, blank lines skipped; the error names the first bad line.
    static std::expected<HeaderList, QString> parseHeaders(const QString &text);
    static QString formatHeaders(const HeaderList &headers);
    // A value of `parameter` as users read it: "150 ms", "30 s", "72 %", "Unlimited".
    static QString formatValue(const PrefetchParameter &parameter, double value);
    // "$0.30 per million tokens", in the currency of `currency`.
    static QString formatPrice(double perMillion, const QString &currency);
    // "input", "cache write", "cache read", "output": for messages.
    static QString priceFieldName(PriceField field);

    static std::span<const PrefetchParameter> prefetchParameters();
    static bool samePrefetch(const Prefetch::Settings &a, const Prefetch::Settings &b);
    friend bool operator==(const AppSettings &a, const AppSettings &b);

    // The UI languages offered: code ("" = system) and the name shown, in its own language.
    static QList<QPair<QString, QString>> uiLanguages();
    // The log levels offered, with the name shown, in the order the dialog lists them.
    static QList<QPair<LogDetail, QString>> logDetails();
    // The colour schemes offered, with the name shown.
    static QList<QPair<ColorScheme, QString>> colorSchemes();
};

struct AppSettings::LoadResult {
    AppSettings settings;
    QStringList problems; // translated, one sentence each, for a message box or the log
    // Lines could not be read: the file should be written again (save()) once the problems
    // are shown, so that the next start does not find, and copy, the same damage.
    bool damaged = false;
};

} // namespace Gui

Q_DECLARE_METATYPE(Gui::AppSettings)
