#pragma once

#include "workspace/settings/assistants.h"
#include "workspace/settings/learnedrefusals.h"
#include "workspace/settings/provideroverrides.h"
#include "workspace/settings/userendpoints.h"

#include "llm/providerprofile.h"
#include "llm/proxy.h"
#include "prefetch/settings.h"
#include "prefetch/speculationplan.h"

#include <QCoreApplication>
#include <QList>
#include <QMetaType>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <expected>
#include <optional>

class QSettings;

namespace Gui {

// How much the log file records (Settings, General). Whatever the level, it never holds keys,
// prompts, documents or answers; Detailed adds request sizes and timings, for bug reports.
enum class LogDetail { WarningsOnly, Normal, Detailed };

// Light or dark: the desktop's preference (the XDG portal's color-scheme), or one chosen.
enum class ColorScheme { System, Light, Dark };

// Everything Headstart persists, as a value: the provider in use and the user's changes to every
// provider, the prefetch parameters, the general, network and library settings, the assistants.
// API keys are not here: they live in a SecretStore. The settings file reads and writes it
// (SettingsFile). GUI thread (translations), but otherwise a plain value copied freely.
class AppSettings
{
    Q_DECLARE_TR_FUNCTIONS(Gui::AppSettings)

public:
    QString providerId = QStringLiteral("local"); // the provider in use
    ProviderOverrides providers;                  // by id; only built-ins' (builtinProviders()) and endpoints'
    // The OpenAI- and Anthropic-compatible servers the user added; their fields are in `providers`.
    UserEndpoints endpoints;
    Prefetch::Settings prefetch; // as the user set it, before consent gating
    QString uiLanguage;          // "" = the system's, "en", "zh_CN"; read at start
    // The language Translate writes, in English; "" (the default) is automatic: the other of
    // English and Chinese, by the text (Prefetch::automaticTranslateTarget()).
    QString translateTarget;
    bool firstRun = true;                    // the app has not finished its first start yet
    LogDetail logDetail = LogDetail::Normal; // applied at once; --verbose overrides it for a run
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

    // SettingsFile::recentFiles() and addRecentFile(), for the callers that still name them here.
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

    // The user's changes to provider `id`, kept in `providers` (ProviderOverrides says what each
    // accepts). A value equal to the provider's own clears the change; unknown ids are ignored.
    void setBaseUrl(const QString &id, const std::optional<QUrl> &url);
    // Another model may take what the one before refused: its learned refusals are forgotten.
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
    void setPrice(const QString &id, PriceField field, std::optional<double> perMillion);
    void setPrices(const QString &id, const Llm::Prices &prices);
    void setTimeout(const QString &id, TimeoutField field, std::optional<int> seconds);

    friend bool operator==(const AppSettings &a, const AppSettings &b);

    // The UI languages offered: code ("" = system) and the name shown, in its own language.
    static QList<QPair<QString, QString>> uiLanguages();
    // The log levels offered, with the name shown, in the order the dialog lists them.
    static QList<QPair<LogDetail, QString>> logDetails();
    // The colour schemes offered, with the name shown.
    static QList<QPair<ColorScheme, QString>> colorSchemes();
};

} // namespace Gui

Q_DECLARE_METATYPE(Gui::AppSettings)
