#include "workspace/settings/appsettings.h"
#include "workspace/settings/appsettingsvalues.h"

#include "workspace/settings/assistantsettings.h"
#include "workspace/settings/librarysettings.h"
#include "workspace/settings/networksettings.h"

#include "llm/modelcatalog.h"

#include <QDate>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QMetaType>
#include <QRegularExpression>
#include <QSettings>
#include <QVariant>

#include <algorithm>
#include <cmath>
#include <utility>

namespace Gui {

using namespace SettingsValues;

namespace {

using Prefetch::Settings;
using Kind = PrefetchParameter::Kind;

// Settings file layout. Keys of this class only; the app may keep others in the same file.
const QString VersionKey = QStringLiteral("version");
const QString ProviderIdKey = QStringLiteral("provider/id");
const QString ProvidersGroup = QStringLiteral("providers");
const QString BaseUrlKey = QStringLiteral("baseUrl");
const QString ModelKey = QStringLiteral("model");
const QString FastModelKey = QStringLiteral("fastModel");
const QString HeadersKey = QStringLiteral("extraHeaders");
const QString ConcurrencyKey = QStringLiteral("concurrencyLimit");
const QString ConsentKey = QStringLiteral("prefetchConsent");
const QString InsecureHttpKey = QStringLiteral("allowInsecureHttp");
const QString ThinkingKey = QStringLiteral("thinkingBudgetTokens");
const QString CacheHourKey = QStringLiteral("cacheForAnHour");
// By PriceField, inside a provider's group.
const QString PriceKeys[] = {QStringLiteral("prices/input"), QStringLiteral("prices/cacheWrite"),
                             QStringLiteral("prices/cacheRead"), QStringLiteral("prices/output")};
// By TimeoutField, inside a provider's group; whole seconds.
const QString TimeoutKeys[] = {QStringLiteral("timeouts/connectSeconds"), QStringLiteral("timeouts/firstByteSeconds"),
                               QStringLiteral("timeouts/idleSeconds")};
const QString LanguageKey = QStringLiteral("ui/language");
const QString TranslateKey = QStringLiteral("translate/targetLanguage");
const QString FirstRunKey = QStringLiteral("general/firstRun");
const QString LogDetailKey = QStringLiteral("log/detail");
const QString ColorSchemeKey = QStringLiteral("appearance/colorScheme");
const QString TextSizeKey = QStringLiteral("appearance/textSizePercent");
const QString RecentFilesKey = QStringLiteral("recentFiles");
constexpr int FileVersion = 2; // 2: user endpoints are listed (UserEndpoints)
constexpr qsizetype MaxTranslateTargetLength = 100;

// How a LogDetail is spelt in the settings file.
constexpr std::pair<LogDetail, const char *> LogDetailNames[] = {
    {LogDetail::WarningsOnly, "warnings"}, {LogDetail::Normal, "normal"}, {LogDetail::Detailed, "detailed"}};

const char *logDetailName(LogDetail detail)
{
    for (const auto &[d, name] : LogDetailNames) {
        if (d == detail)
            return name;
    }
    return "normal";
}

std::optional<LogDetail> logDetailNamed(const QString &name)
{
    for (const auto &[d, n] : LogDetailNames) {
        if (name == QLatin1String(n))
            return d;
    }
    return std::nullopt;
}

// How a ColorScheme is spelt in the settings file ("system" is the default and not written).
constexpr std::pair<ColorScheme, const char *> ColorSchemeNames[] = {
    {ColorScheme::System, "system"}, {ColorScheme::Light, "light"}, {ColorScheme::Dark, "dark"}};


const PrefetchParameter &parameter(const char *key)
{
    for (const PrefetchParameter &p : AppSettings::prefetchParameters()) {
        if (qstrcmp(p.key, key) == 0)
            return p;
    }
    Q_UNREACHABLE();
}

QString trName(const char *text)
{
    return QCoreApplication::translate("Gui::AppSettings", text);
}

std::optional<bool> parseBool(const QVariant &value)
{
    if (value.typeId() == QMetaType::Bool)
        return value.toBool();
    if (value.typeId() != QMetaType::QString)
        return std::nullopt;
    const QString text = value.toString().trimmed().toLower();
    if (text == QLatin1String("true") || text == QLatin1String("1") || text == QLatin1String("yes")
        || text == QLatin1String("on"))
        return true;
    if (text == QLatin1String("false") || text == QLatin1String("0") || text == QLatin1String("no")
        || text == QLatin1String("off"))
        return false;
    return std::nullopt;
}

std::optional<double> parseNumber(const QVariant &value)
{
    double number = 0;
    switch (value.typeId()) {
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
    case QMetaType::Double:
    case QMetaType::Float:
        number = value.toDouble();
        break;
    case QMetaType::QString: {
        bool ok = false;
        number = value.toString().trimmed().toDouble(&ok); // C locale, as QSettings writes it
        if (!ok)
            return std::nullopt;
        break;
    }
    default:
        return std::nullopt;
    }
    if (!std::isfinite(number))
        return std::nullopt;
    return number;
}

// Shown in messages: a value as the file had it, cut short if someone pasted a novel there.
QString quoted(const QVariant &value)
{
    QString text = value.typeId() == QMetaType::QStringList ? value.toStringList().join(QLatin1String(", "))
                                                            : value.toString();
    if (text.size() > 40)
        text = text.left(40) + QChar(0x2026);
    return text;
}

class Loader
{
public:
    explicit Loader(QSettings &settings) : m_settings(settings) {}

    // `model`, or what its provider names in its place once it has retired (past its
    // retirement date in the model catalogue): the saved name would fail at the provider.
    QString current(const AppSettings &out, const QString &id, const QString &model, const QString &provider)
    {
        const Llm::ModelCapabilities known = Llm::ModelCatalog::find(Llm::ModelCatalog::familyProvider(out.profile(id)), model);
        if (!Llm::ModelCatalog::isRetired(known, QDate::currentDate()) || known.replacement.isEmpty())
            return model;
        problems << AppSettings::tr("%1 retired the model %2 on %3; Headstart uses %4, which %1 names in its place. "
                                    "Choose another in Settings, Providers.")
                        .arg(provider, model, QLocale().toString(QDate::fromString(known.retiresOn, Qt::ISODate),
                                                                  QLocale::ShortFormat),
                             known.replacement);
        return known.replacement;
    }

    void load(AppSettings &out)
    {
        loadPrefetch(out.prefetch);
        // Before the providers: their groups and provider/id may name an endpoint.
        const QVariant version = m_settings.value(VersionKey);
        UserEndpoints::LoadResult endpoints = UserEndpoints::load(m_settings, version.isValid() ? version.toInt() : 0);
        out.endpoints = endpoints.endpoints;
        problems << endpoints.problems;
        m_droppedEndpoints = endpoints.droppedIds;
        loadProviders(out);
        loadGeneral(out);
        out.proxy = loadProxySettings(m_settings, problems);
        out.libraryFolders = loadLibraryFolders(m_settings, problems);
        out.learned = LearnedRefusals::load(m_settings, problems);
        out.assistants = loadAssistantSettings(m_settings, problems);
    }

    QStringList problems;

private:
    void loadPrefetch(Settings &prefetch)
    {
        const Settings defaults;
        for (const PrefetchParameter &p : AppSettings::prefetchParameters()) {
            const QString key = QLatin1String(p.key);
            if (!m_settings.contains(key))
                continue;
            const QVariant raw = m_settings.value(key);
            const QString name = trName(p.name);
            const QString fallback = AppSettings::formatValue(p, p.get(defaults));
            if (p.kind == Kind::Bool) {
                if (const auto b = parseBool(raw))
                    p.set(prefetch, *b ? 1 : 0);
                else
                    problems << AppSettings::tr("The on/off value of %1 in the settings file was neither true nor "
                                                "false; using %2.")
                                    .arg(name, fallback);
                continue;
            }
            const auto number = parseNumber(raw);
            if (!number) {
                problems << AppSettings::tr("The %1 in the settings file was not a number; using %2.")
                                .arg(name, fallback);
            } else if (p.kind == Kind::Integer && std::trunc(*number) != *number) {
                problems << AppSettings::tr("The %1 in the settings file was not a whole number; using %2.")
                                .arg(name, fallback);
            } else if (*number < p.min || *number > p.max) {
                problems << AppSettings::tr("The %1 in the settings file (%2) was outside %3 to %4; using %5.")
                                .arg(name, quoted(raw), AppSettings::formatValue(p, p.min),
                                     AppSettings::formatValue(p, p.max), fallback);
            } else {
                p.set(prefetch, *number);
            }
        }

        // Rules between two values: the prefetch lane is at most the foreground lane, and a
        // paused strategy resumes below its ceiling, not above it.
        if (prefetch.prefetchInFlight > prefetch.foregroundInFlight) {
            const PrefetchParameter &p = parameter("prefetch/prefetchInFlight");
            const int fixed = std::min(defaults.prefetchInFlight, prefetch.foregroundInFlight);
            problems << AppSettings::tr("The %1 in the settings file (%2) was larger than the %3 (%4); using %5.")
                            .arg(trName(p.name), AppSettings::formatValue(p, prefetch.prefetchInFlight),
                                 trName(parameter("prefetch/foregroundInFlight").name),
                                 AppSettings::formatValue(p, prefetch.foregroundInFlight),
                                 AppSettings::formatValue(p, fixed));
            prefetch.prefetchInFlight = fixed;
        }
        if (prefetch.extraCostResume > prefetch.extraCostCeiling) {
            const PrefetchParameter &p = parameter("prefetch/alarms/extraCostResume");
            const double fixed = std::min(defaults.extraCostResume, prefetch.extraCostCeiling);
            problems << AppSettings::tr("The %1 in the settings file (%2) was larger than the %3 (%4); using %5.")
                            .arg(trName(p.name), AppSettings::formatValue(p, prefetch.extraCostResume),
                                 trName(parameter("prefetch/alarms/extraCostCeiling").name),
                                 AppSettings::formatValue(p, prefetch.extraCostCeiling),
                                 AppSettings::formatValue(p, fixed));
            prefetch.extraCostResume = fixed;
        }
    }

    void loadProviders(AppSettings &out)
    {
        if (m_settings.contains(ProviderIdKey)) {
            const QVariant raw = m_settings.value(ProviderIdKey);
            const QString id = raw.typeId() == QMetaType::QString ? raw.toString().trimmed() : QString();
            if (out.knowsProvider(id)) {
                out.providerId = id;
            } else {
                problems << AppSettings::tr("The provider \"%1\" in the settings file is unknown; using %2.")
                                .arg(quoted(raw), out.profile(out.providerId).displayName);
            }
        }

        m_settings.beginGroup(ProvidersGroup);
        const QStringList ids = m_settings.childGroups();
        m_settings.endGroup();
        for (const QString &id : ids) {
            if (!out.knowsProvider(id)) {
                if (m_droppedEndpoints.contains(id))
                    continue; // its endpoint was dropped with a problem already
                problems << AppSettings::tr("The settings file has settings for an unknown provider \"%1\"; "
                                            "they were ignored.")
                                .arg(id);
                continue;
            }
            m_settings.beginGroup(ProvidersGroup + QLatin1Char('/') + id);
            loadProvider(out, id);
            m_settings.endGroup();
        }
    }

    void loadProvider(AppSettings &out, const QString &id)
    {
        const Llm::ProviderProfile defaults = out.baseProfile(id);
        const QString provider = defaults.displayName;
        const QString defaultUrl = defaults.baseUrl.isEmpty() ? AppSettings::tr("none")
                                                              : defaults.baseUrl.toString();

        if (m_settings.contains(BaseUrlKey)) {
            const QVariant raw = m_settings.value(BaseUrlKey);
            const QString text = raw.typeId() == QMetaType::QString ? raw.toString().trimmed() : QString();
            if (defaults.isLocalDemo) {
                problems << AppSettings::tr("Headstart chooses the address of %1 itself; the base URL in the "
                                            "settings file was ignored.")
                                .arg(provider);
            } else if (text.isEmpty() && raw.typeId() == QMetaType::QString) {
                if (!defaults.baseUrl.isEmpty())
                    problems << AppSettings::tr("The base URL of %1 in the settings file was empty; using %2.")
                                    .arg(provider, defaultUrl);
            } else if (const auto url = AppSettings::parseBaseUrl(text)) {
                out.setBaseUrl(id, url);
            } else {
                problems << AppSettings::tr("The base URL of %1 in the settings file (%2) is not an http:// or "
                                            "https:// address; using %3.")
                                .arg(provider, quoted(raw), defaultUrl);
            }
        }

        if (m_settings.contains(ModelKey)) {
            const QVariant raw = m_settings.value(ModelKey);
            const QString model = raw.typeId() == QMetaType::QString ? raw.toString().trimmed() : QString();
            const QString defaultModel = defaults.model.isEmpty() ? AppSettings::tr("none") : defaults.model;
            if (model.isEmpty() && raw.typeId() == QMetaType::QString && defaults.model.isEmpty()) {
                // The custom provider has no default model: empty is its default.
            } else if (model.isEmpty() || model.size() > Limits::MaxModelLength) {
                problems << AppSettings::tr("The model of %1 in the settings file (%2) is not a model name; "
                                            "using %3.")
                                .arg(provider, quoted(raw), defaultModel);
            } else {
                out.setModel(id, current(out, id, model, provider));
            }
        }

        if (m_settings.contains(FastModelKey)) {
            const QVariant raw = m_settings.value(FastModelKey);
            const QString model = raw.typeId() == QMetaType::QString ? raw.toString().trimmed() : QString();
            if (model.isEmpty() || model.size() > Limits::MaxModelLength) {
                problems << AppSettings::tr("The fast model of %1 in the settings file (%2) is not a model name; "
                                            "using %3.")
                                .arg(provider, quoted(raw),
                                     defaults.fastModel.isEmpty() ? AppSettings::tr("none") : defaults.fastModel);
            } else {
                out.setFastModel(id, current(out, id, model, provider));
            }
        }

        if (m_settings.contains(HeadersKey)) {
            const QVariant raw = m_settings.value(HeadersKey);
            auto headers = raw.typeId() == QMetaType::QString
                ? AppSettings::parseHeaders(raw.toString())
                : std::expected<HeaderList, QString>(std::unexpected(AppSettings::tr("not text")));
            if (headers)
                out.setExtraHeaders(id, *headers);
            else
                problems << AppSettings::tr("The extra headers of %1 in the settings file were ignored: %2")
                                .arg(provider, headers.error());
        }

        if (m_settings.contains(ConcurrencyKey)) {
            const QVariant raw = m_settings.value(ConcurrencyKey);
            const auto number = parseNumber(raw);
            if (number && std::trunc(*number) == *number && *number >= Limits::MinConcurrency
                && *number <= Limits::MaxConcurrency) {
                out.setConcurrencyLimit(id, static_cast<int>(*number));
            } else {
                problems << AppSettings::tr("The concurrency limit of %1 in the settings file (%2) is not a whole "
                                            "number from %3 to %4; using %5.")
                                .arg(provider, quoted(raw))
                                .arg(Limits::MinConcurrency)
                                .arg(Limits::MaxConcurrency)
                                .arg(defaults.concurrencyLimit);
            }
        }

        if (m_settings.contains(ThinkingKey)) {
            const QVariant raw = m_settings.value(ThinkingKey);
            const auto number = parseNumber(raw);
            if (defaults.format != Llm::ApiFormat::AnthropicMessages) {
                problems << AppSettings::tr("%1 has no extended thinking; the thinking budget in the settings "
                                            "file was ignored.")
                                .arg(provider);
            } else if (number && isThinkingBudget(*number)) {
                out.setThinkingBudget(id, static_cast<int>(*number));
            } else {
                problems << AppSettings::tr("The thinking budget of %1 in the settings file (%2) is not 0 (off) "
                                            "or a whole number of tokens from %3 to %4; thinking stays off.")
                                .arg(provider, quoted(raw))
                                .arg(Limits::MinThinkingBudgetTokens)
                                .arg(Limits::MaxThinkingBudgetTokens);
            }
        }

        if (m_settings.contains(CacheHourKey)) {
            const QVariant raw = m_settings.value(CacheHourKey);
            const QString text = raw.toString().trimmed().toLower();
            const bool valid = text == QLatin1String("true") || text == QLatin1String("false");
            if (defaults.format != Llm::ApiFormat::AnthropicMessages) {
                problems << AppSettings::tr("%1 has no choice of cache lifetime; the setting in the settings file "
                                            "was ignored.")
                                .arg(provider);
            } else if (valid) {
                out.setLongCacheLifetime(id, text == QLatin1String("true"));
            } else {
                problems << AppSettings::tr("The cache lifetime of %1 in the settings file (%2) is not true (an "
                                            "hour) or false (five minutes); it stays five minutes.")
                                .arg(provider, quoted(raw));
            }
        }

        if (m_settings.contains(ConsentKey)) {
            const QVariant raw = m_settings.value(ConsentKey);
            if (const auto consent = parseBool(raw))
                out.setPrefetchConsent(id, *consent);
            else
                problems << AppSettings::tr("The prefetch consent for %1 in the settings file was neither true "
                                            "nor false; hover and debounce prefetch stay off for it.")
                                .arg(provider);
        }

        if (m_settings.contains(InsecureHttpKey)) {
            const QVariant raw = m_settings.value(InsecureHttpKey);
            if (const auto allow = parseBool(raw))
                out.setAllowInsecureHttp(id, *allow);
            else
                problems << AppSettings::tr("Whether %1 may use plain http:// was neither true nor false in the "
                                            "settings file; it may not.")
                                .arg(provider);
        }

        for (TimeoutField field : TimeoutFields) {
            const QString &key = TimeoutKeys[indexOf(field)];
            if (!m_settings.contains(key))
                continue;
            const QVariant raw = m_settings.value(key);
            if (const auto number = parseNumber(raw); number && isTimeout(field, *number)) {
                out.setTimeout(id, field, static_cast<int>(*number));
            } else {
                problems << AppSettings::tr("The %1 timeout of %2 in the settings file (%3) is not a whole number "
                                            "of seconds from %4 to %5; using %6 s.")
                                .arg(AppSettings::timeoutFieldName(field), provider, quoted(raw))
                                .arg(Limits::MinTimeoutSeconds[indexOf(field)])
                                .arg(Limits::MaxTimeoutSeconds[indexOf(field)])
                                .arg(timeoutSecondsOf(defaults.timeouts, field));
            }
        }

        for (PriceField field : PriceFields) {
            const QString &key = PriceKeys[indexOf(field)];
            if (!m_settings.contains(key))
                continue;
            const QVariant raw = m_settings.value(key);
            if (const auto number = parseNumber(raw); number && isPrice(*number)) {
                out.setPrice(id, field, *number);
            } else {
                problems << AppSettings::tr("The %1 price of %2 in the settings file (%3) is not a price per "
                                            "million tokens from 0 to %4; using %5.")
                                .arg(AppSettings::priceFieldName(field), provider, quoted(raw),
                                     QLocale().toString(Limits::MaxPricePerMillion, 'f', 0),
                                     AppSettings::formatPrice(priceOf(defaults.prices, field),
                                                              defaults.prices.currency));
            }
        }
    }

    void loadGeneral(AppSettings &out)
    {
        if (m_settings.contains(LanguageKey)) {
            const QVariant raw = m_settings.value(LanguageKey);
            const QString code = raw.typeId() == QMetaType::QString ? raw.toString().trimmed() : QStringLiteral("?");
            bool known = false;
            for (const auto &[c, name] : AppSettings::uiLanguages())
                known = known || c == code;
            if (known)
                out.uiLanguage = code;
            else
                problems << AppSettings::tr("The user interface language \"%1\" in the settings file is not "
                                            "available; using the system's language.")
                                .arg(quoted(raw));
        }
        if (m_settings.contains(TranslateKey)) {
            const QVariant raw = m_settings.value(TranslateKey);
            const QString target = raw.typeId() == QMetaType::QString ? raw.toString().trimmed() : QString();
            if (!target.isEmpty() && target.size() <= MaxTranslateTargetLength)
                out.translateTarget = target;
            else
                problems << AppSettings::tr("The target language of Translate in the settings file (%1) is not a "
                                            "language name; Translate writes the other of English and Chinese.")
                                .arg(quoted(raw));
        }
        if (m_settings.contains(TextSizeKey)) {
            const QVariant raw = m_settings.value(TextSizeKey);
            bool ok = false;
            const int percent = raw.toString().trimmed().toInt(&ok);
            if (ok && percent >= AppSettings::MinTextSizePercent && percent <= AppSettings::MaxTextSizePercent)
                out.textSizePercent = percent;
            else
                problems << AppSettings::tr("The text size in the settings file (%1) is not a percentage from %2 to "
                                            "%3; using the desktop's size.")
                                .arg(quoted(raw))
                                .arg(AppSettings::MinTextSizePercent)
                                .arg(AppSettings::MaxTextSizePercent);
        }
        if (m_settings.contains(ColorSchemeKey)) {
            const QVariant raw = m_settings.value(ColorSchemeKey);
            const QString name = raw.typeId() == QMetaType::QString ? raw.toString().trimmed() : QString();
            const auto *found = std::find_if(std::begin(ColorSchemeNames), std::end(ColorSchemeNames),
                                             [&name](const auto &entry) { return name == QLatin1String(entry.second); });
            if (found != std::end(ColorSchemeNames))
                out.colorScheme = found->first;
            else
                problems << AppSettings::tr("The colour scheme in the settings file (%1) is not one of \"system\", "
                                            "\"light\" or \"dark\"; following the desktop.")
                                .arg(quoted(raw));
        }
        if (m_settings.contains(LogDetailKey)) {
            const QVariant raw = m_settings.value(LogDetailKey);
            const QString name = raw.typeId() == QMetaType::QString ? raw.toString().trimmed() : QString();
            if (const auto detail = logDetailNamed(name))
                out.logDetail = *detail;
            else
                problems << AppSettings::tr("The log detail in the settings file (%1) is not one of \"warnings\", "
                                            "\"normal\" or \"detailed\"; using \"normal\".")
                                .arg(quoted(raw));
        }
        // QSettings writes a section named "general" as [%General] and reads that back as
        // "General/...": on a file read again from disk the key has the other case.
        for (const QString &key : {FirstRunKey, QStringLiteral("General/firstRun")}) {
            if (!m_settings.contains(key))
                continue;
            // A bad flag is not worth a message: the worst outcome is the welcome shown again.
            if (const auto firstRun = parseBool(m_settings.value(key)))
                out.firstRun = *firstRun;
            break;
        }
    }

    QSettings &m_settings;
    QStringList m_droppedEndpoints;
};

} // namespace

bool operator==(const AppSettings &a, const AppSettings &b)
{
    return a.providerId == b.providerId && a.providers == b.providers && a.endpoints == b.endpoints
        && AppSettings::samePrefetch(a.prefetch, b.prefetch) && a.uiLanguage == b.uiLanguage
        && a.translateTarget == b.translateTarget && a.firstRun == b.firstRun && a.logDetail == b.logDetail
        && a.textSizePercent == b.textSizePercent && a.colorScheme == b.colorScheme && a.proxy == b.proxy && a.libraryFolders == b.libraryFolders
        && a.assistants == b.assistants && a.learned == b.learned;
}

QList<QPair<LogDetail, QString>> AppSettings::logDetails()
{
    return {{LogDetail::Normal, tr("Normal")},
            {LogDetail::Detailed, tr("Detailed (for bug reports)")},
            {LogDetail::WarningsOnly, tr("Warnings and errors only")}};
}

QList<QPair<ColorScheme, QString>> AppSettings::colorSchemes()
{
    return {{ColorScheme::System, tr("As the desktop")}, {ColorScheme::Light, tr("Light")},
            {ColorScheme::Dark, tr("Dark")}};
}

QList<QPair<QString, QString>> AppSettings::uiLanguages()
{
    // Each language is named in itself, so it can be found whatever the current language is.
    return {{QString(), tr("System default")},
            {QStringLiteral("en"), QStringLiteral("English")},
            {QStringLiteral("zh_CN"), QStringLiteral(u"简体中文")}};
}

AppSettings::LoadResult AppSettings::load(QSettings &settings)
{
    LoadResult result;
    // Sections are parsed lazily, and a line QSettings cannot read only sets FormatError once
    // its section is parsed: reading every key first makes status() tell the whole truth.
    const QStringList keys = settings.allKeys();
    const QString path = QFileInfo(settings.fileName()).filePath();
    if (settings.status() == QSettings::AccessError) {
        result.problems << tr("The settings file %1 could not be opened; Headstart uses the default settings.")
                               .arg(path);
        return result;
    }
    // Read from the file itself as well as asked of QSettings: a second QSettings on a file
    // this process has parsed before shares that parse and no longer reports its FormatError.
    const QStringList lines = unreadableSettingsLines(path);
    if (settings.status() == QSettings::FormatError || !lines.isEmpty()) {
        // QSettings skips the lines it cannot parse and keeps every other one, so the values
        // that still read are loaded below like any other. It writes over the file at the next
        // save, so the user's bytes are copied first, each damage to its own numbered copy.
        const QString backup = keepDamagedCopy(path);
        result.damaged = true;
        const QString which = lines.isEmpty() ? tr("some lines") : lines.join(QLatin1String(", "));
        if (!backup.isEmpty())
            result.problems << tr("Part of the settings file %1 could not be read (%2) and was ignored; every other "
                                  "value was kept. The file as it was is kept as %3.")
                                   .arg(path, which, backup);
        else
            result.problems << tr("Part of the settings file %1 could not be read (%2) and was ignored; every other "
                                  "value was kept.")
                                   .arg(path, which);
    }
    if (keys.isEmpty())
        return result;

    Loader loader(settings);
    loader.load(result.settings);
    result.problems << loader.problems;
    // The provider's line itself can be the damaged one: it must not quietly become the local
    // engine while settings for another provider are still there.
    if (result.damaged && !settings.contains(ProviderIdKey)) {
        settings.beginGroup(ProvidersGroup);
        const bool configured = !settings.childGroups().isEmpty();
        settings.endGroup();
        if (configured)
            result.problems << tr("Which provider you chose could not be read from the settings file; Headstart uses "
                                  "%1 until you choose one in Settings, Providers.")
                                   .arg(result.settings.selectedProfile().displayName);
    }
    return result;
}

QString AppSettings::keepDamagedCopy(const QString &path)
{
    if (path.isEmpty() || !QFileInfo::exists(path))
        return {};
    const auto copyName = [&path](int n) { return path + QStringLiteral(".damaged-%1").arg(n); };
    const QFileInfo info(path);
    const QString prefix = info.fileName() + QStringLiteral(".damaged-");
    QList<int> numbers;
    for (const QString &name : info.dir().entryList({prefix + u'*'}, QDir::Files | QDir::Hidden)) {
        bool ok = false;
        if (const int n = name.mid(prefix.size()).toInt(&ok); ok && n > 0)
            numbers << n;
    }
    std::sort(numbers.begin(), numbers.end());
    const int newest = numbers.isEmpty() ? 0 : numbers.last();
    const auto contents = [](const QString &file) {
        QFile f(file);
        return f.open(QIODevice::ReadOnly) ? std::optional<QByteArray>(f.readAll()) : std::nullopt;
    };
    // The same damage found again (the file was not written since): that copy is the one.
    if (newest > 0 && contents(copyName(newest)) == contents(path))
        return copyName(newest);
    const QString backup = copyName(newest + 1);
    if (!QFile::copy(path, backup))
        return {};
    // The copy holds what the settings file holds; it is as private as that file.
    QFile::setPermissions(backup, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    // Older damage is older versions of the same file: a few are enough to find a value in.
    numbers << newest + 1;
    for (qsizetype i = 0; i + KeptDamagedCopies < numbers.size(); ++i)
        QFile::remove(copyName(numbers[i]));
    return backup;
}

QStringList AppSettings::unreadableSettingsLines(const QString &path)
{
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly))
        return {};
    // The lines QSettings' INI reader skips: not blank, not a comment, not a [section] and
    // without '='. Named by number and a short quote, for the user to find them.
    QStringList out;
    int number = 0;
    bool continued = false; // the line before ended in a backslash: this one carries its value on
    while (!file.atEnd()) {
        ++number;
        const QByteArray line = file.readLine().trimmed();
        if (std::exchange(continued, line.endsWith('\\')))
            continue;
        if (line.isEmpty() || line.startsWith(';') || line.startsWith('#'))
            continue;
        if ((line.startsWith('[') && line.endsWith(']')) || (!line.startsWith('[') && line.contains('=')))
            continue;
        QString shown = QString::fromUtf8(line);
        shown.removeIf([](QChar c) { return !c.isPrint(); });
        if (shown.size() > 40)
            shown = shown.left(40) + QChar(0x2026);
        out << (shown.isEmpty() ? tr("line %1").arg(number) : tr("line %1 \"%2\"").arg(number).arg(shown));
        if (out.size() == 5) {
            out << tr("more");
            break;
        }
    }
    return out;
}

QStringList AppSettings::recentFiles(QSettings &settings)
{
    const QVariant value = settings.value(RecentFilesKey);
    // An INI file gives a list of one as a plain string.
    const QVariantList entries = value.typeId() == QMetaType::QString ? QVariantList{value} : value.toList();
    QStringList out;
    for (const QVariant &entry : entries) {
        const QString path = entry.typeId() == QMetaType::QString ? entry.toString() : QString();
        if (!path.isEmpty() && QDir::isAbsolutePath(path) && !out.contains(path))
            out << path;
        if (out.size() == MaxRecentFiles)
            break;
    }
    return out;
}

void AppSettings::addRecentFile(QSettings &settings, const QString &path)
{
    QStringList recent = recentFiles(settings);
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > MaxRecentFiles)
        recent.removeLast();
    settings.setValue(RecentFilesKey, recent);
}

void AppSettings::save(QSettings &settings) const
{
    settings.setValue(VersionKey, FileVersion);
    settings.setValue(ProviderIdKey, providerId);

    // Groups of providers this version does not know would be reported at every start.
    settings.beginGroup(ProvidersGroup);
    const QStringList stored = settings.childGroups();
    settings.endGroup();
    for (const QString &id : stored) {
        if (!knowsProvider(id)) // and a removed endpoint's
            settings.remove(ProvidersGroup + QLatin1Char('/') + id);
    }
    endpoints.save(settings);

    for (const Llm::ProviderProfile &known : providerProfiles()) {
        const ProviderOverride o = providers.value(known.id);
        settings.beginGroup(ProvidersGroup + QLatin1Char('/') + known.id);
        auto put = [&settings](const QString &key, bool present, const QVariant &value) {
            if (present)
                settings.setValue(key, value);
            else
                settings.remove(key);
        };
        put(BaseUrlKey, o.baseUrl.has_value(), o.baseUrl.value_or(QUrl()).toString());
        put(ModelKey, o.model.has_value(), o.model.value_or(QString()));
        put(FastModelKey, o.fastModel.has_value(), o.fastModel.value_or(QString()));
        put(HeadersKey, o.extraHeaders.has_value(), formatHeaders(o.extraHeaders.value_or(HeaderList())));
        put(ConcurrencyKey, o.concurrencyLimit.has_value(), o.concurrencyLimit.value_or(0));
        put(ThinkingKey, o.thinkingBudgetTokens.has_value(), o.thinkingBudgetTokens.value_or(0));
        put(CacheHourKey, o.longCacheLifetime.has_value(), o.longCacheLifetime.value_or(false));
        put(ConsentKey, o.prefetchConsent.has_value(), o.prefetchConsent.value_or(false));
        put(InsecureHttpKey, o.allowInsecureHttp, true);
        for (PriceField field : PriceFields) {
            const auto &price = o.prices[size_t(indexOf(field))];
            put(PriceKeys[indexOf(field)], price.has_value(), price.value_or(0));
        }
        for (TimeoutField field : TimeoutFields) {
            const auto &seconds = o.timeouts[indexOf(field)];
            put(TimeoutKeys[indexOf(field)], seconds.has_value(), seconds.value_or(0));
        }
        settings.endGroup();
    }

    const Settings defaults;
    for (const PrefetchParameter &p : AppSettings::prefetchParameters()) {
        const QString key = QLatin1String(p.key);
        const double value = p.get(prefetch);
        if (value == p.get(defaults))
            settings.remove(key);
        else if (p.kind == Kind::Bool)
            settings.setValue(key, value != 0);
        else if (p.kind == Kind::Integer)
            settings.setValue(key, static_cast<qint64>(value));
        else
            settings.setValue(key, value);
    }

    if (uiLanguage.isEmpty())
        settings.remove(LanguageKey);
    else
        settings.setValue(LanguageKey, uiLanguage);
    if (translateTarget == AppSettings().translateTarget)
        settings.remove(TranslateKey);
    else
        settings.setValue(TranslateKey, translateTarget);
    if (textSizePercent == 100)
        settings.remove(TextSizeKey);
    else
        settings.setValue(TextSizeKey, textSizePercent);
    if (colorScheme == ColorScheme::System) {
        settings.remove(ColorSchemeKey);
    } else {
        for (const auto &[scheme, name] : ColorSchemeNames) {
            if (scheme == colorScheme)
                settings.setValue(ColorSchemeKey, QLatin1String(name));
        }
    }
    if (logDetail == LogDetail::Normal)
        settings.remove(LogDetailKey);
    else
        settings.setValue(LogDetailKey, QLatin1String(logDetailName(logDetail)));
    saveProxySettings(settings, proxy);
    saveLibraryFolders(settings, libraryFolders);
    learned.save(settings);
    saveAssistantSettings(settings, assistants);
    settings.setValue(FirstRunKey, firstRun);
    settings.sync();
}

} // namespace Gui
