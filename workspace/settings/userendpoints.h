#pragma once

#include "llm/providerprofile.h"

#include <QCoreApplication>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <expected>

class QSettings;

namespace Gui {

// The built-in providers the app offers, in the order users see them: Llm::builtinProfiles()
// without its "custom", which the app keeps as the first user endpoint (UserEndpoints::FirstId).
QList<Llm::ProviderProfile> builtinProviders();
bool isBuiltinProvider(const QString &id);

// A server the user added in Settings that speaks OpenAI's chat completions or Anthropic's
// messages (vLLM, OpenRouter, LM Studio, a company gateway). The id is made once and never
// changes: the keys stored under it in the SecretStore and its fields in AppSettings::providers
// stay attached through a rename. The name is what users see, and theirs to change.
struct UserEndpoint {
    QString id;
    QString name;
    Llm::ApiFormat format = Llm::ApiFormat::OpenAiChat;

    // Before the user's changes: nothing is known about the server (no model, no prices), the
    // key comes from HEADSTART_API_KEY when none is stored, and it may take requests without one.
    Llm::ProviderProfile profile() const;

    friend bool operator==(const UserEndpoint &, const UserEndpoint &) = default;
};

// The user's endpoints, a value kept in AppSettings: sorted by name, every name trimmed,
// non-empty and unique (ignoring case) among the endpoints and the built-in providers, every id
// unique and none a built-in's. GUI thread (translations), otherwise a plain value.
class UserEndpoints
{
    Q_DECLARE_TR_FUNCTIONS(Gui::UserEndpoints)

public:
    // The endpoint every installation starts with. Earlier versions had one "custom" built-in
    // provider; it is kept as the first user endpoint under the same id rather than migrated to a
    // new one, so that a settings file with providers/custom/... loads unchanged and the keys the
    // keychain holds for "custom" stay with it. It can be renamed and removed like any other.
    static inline const QString FirstId = QStringLiteral("custom");
    static QString firstName(); // "Custom (OpenAI-compatible)", in the user's language
    static constexpr qsizetype MaxNameLength = 60;

    // The first endpoint only, as on a new installation.
    UserEndpoints();
    static UserEndpoints none();

    const QList<UserEndpoint> &list() const { return m_list; }
    bool isEmpty() const { return m_list.isEmpty(); }
    // Null when `id` is not a user endpoint's.
    const UserEndpoint *find(const QString &id) const;
    bool contains(const QString &id) const { return find(id) != nullptr; }

    // `name` trimmed, or why it cannot name an endpoint (empty, too long, a control character,
    // taken by another provider). The endpoint `renaming` may keep its own name.
    std::expected<QString, QString> checkName(const QString &name, const QString &renaming = {}) const;
    // The new endpoint's id ("custom-" and a short random suffix, never one in use), or why not.
    std::expected<QString, QString> add(const QString &name, Llm::ApiFormat format);
    std::expected<void, QString> rename(const QString &id, const QString &name);
    // False when `id` is not a user endpoint's. Its overrides and keys are the caller's to drop.
    bool remove(const QString &id);

    // Reads the "endpoints" group. An entry whose id is malformed or a built-in's is dropped; a bad
    // or taken name and an unknown format are reset; each with one sentence in `problems`.
    // `fileVersion` 1 (or none) is a file from before endpoints: it has the first endpoint.
    struct LoadResult;
    static LoadResult load(QSettings &settings, int fileVersion);
    // Replaces the "endpoints" group with these; leaves every other key alone.
    void save(QSettings &settings) const;

    // How a format is offered, in the order of the Add dialog.
    static QList<QPair<Llm::ApiFormat, QString>> formats();
    static QString formatName(Llm::ApiFormat format);

    friend bool operator==(const UserEndpoints &, const UserEndpoints &) = default;

private:
    void sort();

    QList<UserEndpoint> m_list;
};

struct UserEndpoints::LoadResult {
    UserEndpoints endpoints;
    QStringList problems;
    QStringList droppedIds; // their providers/<id> settings go with them, without a second problem
};

} // namespace Gui
