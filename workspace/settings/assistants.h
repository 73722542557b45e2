#pragma once

#include "prefetch/prompts/prompttemplate.h"

#include <QCoreApplication>
#include <QList>
#include <QMap>
#include <QString>

#include <optional>

namespace Gui {

// An assistant: a named system-prompt preset with its own sampling parameters, chosen per
// conversation (issue 14). Its system text joins the chat's static system prompt, so it is part
// of the cached prefix; its temperature and answer length go with every request of the
// conversation, prefetches included.
struct Assistant {
    // Stable across renames: what a conversation stores. Built-ins have fixed ids ("general",
    // "editor", ...), the user's are "custom-" and a random hex string.
    QString id;
    QString name;
    // Joins the chat's system prompt after a blank line; empty adds nothing (General).
    QString systemPrompt;
    std::optional<double> temperature; // nullopt: the provider's default
    std::optional<int> maxTokens;      // nullopt: the chat's default answer length
    bool builtin = false;

    // The chat's default parameters with this assistant's temperature and answer length.
    Prefetch::GenerationParams params() const;
    friend bool operator==(const Assistant &, const Assistant &) = default;
};

// What the user changed about one built-in assistant. An unset field takes the built-in value,
// which is translated: a name or prompt the user never touched follows the UI language.
struct AssistantOverride {
    std::optional<QString> name;
    std::optional<QString> systemPrompt;
    // The outer optional is "changed", the inner one the value: a built-in with a temperature
    // may be switched to the provider's default (an inner nullopt), and that must be kept.
    std::optional<std::optional<double>> temperature;
    std::optional<std::optional<int>> maxTokens;

    bool isEmpty() const { return !name && !systemPrompt && !temperature && !maxTokens; }
    friend bool operator==(const AssistantOverride &, const AssistantOverride &) = default;
};

// The assistants part of AppSettings: changes to the built-ins and the user's own, as a value.
// The list users see is list(): built-ins first, in a fixed order, then the user's in the order
// they were added. GUI thread (the built-ins are translated).
class AssistantSettings
{
    Q_DECLARE_TR_FUNCTIONS(Gui::AssistantSettings)

public:
    static inline const QString GeneralId = QStringLiteral("general");
    static constexpr double MinTemperature = 0;
    static constexpr double MaxTemperature = 2;
    static constexpr int MinMaxTokens = 16;
    static constexpr int MaxMaxTokens = 128'000;
    static constexpr qsizetype MaxNameLength = 80;
    static constexpr qsizetype MaxPromptLength = 20'000;
    static constexpr qsizetype MaxCustom = 100;

    QMap<QString, AssistantOverride> overrides; // by built-in id; never empty overrides
    QList<Assistant> custom;                    // builtin == false, unique ids

    // The built-ins as shipped, translated: General (adds nothing: the chat as it always was),
    // Writing editor, Translator, Code reviewer, Concise.
    static QList<Assistant> builtins();
    static bool isBuiltinId(const QString &id);
    // Ids of the user's assistants: "custom-" and 1 to 40 lower-case letters, digits or '-'.
    static bool isCustomId(const QString &id);

    QList<Assistant> list() const;
    // The assistant `id`; General for an unknown id (one removed, one from another machine's
    // export), so a conversation always has one.
    Assistant find(const QString &id) const;
    bool contains(const QString &id) const;

    // Stores `assistant` (found by its id): a built-in as the difference from its shipped
    // values, a user's one as it is. A name is trimmed and cut to MaxNameLength (an empty one
    // keeps the old name), a prompt to MaxPromptLength; a temperature or length out of range is
    // no temperature or length. Unknown ids are ignored.
    void update(const Assistant &assistant);
    // A new user assistant named `name` (empty: "New assistant"), without instructions; its id,
    // or empty when there are MaxCustom already.
    QString add(const QString &name);
    // The user's assistant `id` is gone; built-ins cannot be removed (see restore()).
    bool remove(const QString &id);
    // The built-in `id` as shipped again.
    void restore(const QString &id);
    bool isModified(const QString &id) const { return overrides.contains(id); }

    friend bool operator==(const AssistantSettings &, const AssistantSettings &) = default;
};

} // namespace Gui
