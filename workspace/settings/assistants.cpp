#include "workspace/settings/assistants.h"

#include <QRegularExpression>
#include <QUuid>

#include <algorithm>
#include <cmath>

namespace Gui {

namespace {

const QString CustomPrefix = QStringLiteral("custom-");

// Values the user sets are kept in range here, so that a request never carries one a provider
// refuses (the dialog's controls have the same bounds).
std::optional<double> validTemperature(std::optional<double> t)
{
    if (t && std::isfinite(*t) && *t >= AssistantSettings::MinTemperature && *t <= AssistantSettings::MaxTemperature)
        return t;
    return std::nullopt;
}

std::optional<int> validMaxTokens(std::optional<int> n)
{
    if (n && *n >= AssistantSettings::MinMaxTokens && *n <= AssistantSettings::MaxMaxTokens)
        return n;
    return std::nullopt;
}

} // namespace

Prefetch::GenerationParams Assistant::params() const
{
    Prefetch::GenerationParams p;
    if (maxTokens)
        p.maxTokens = *maxTokens;
    p.temperature = temperature;
    return p;
}

QList<Assistant> AssistantSettings::builtins()
{
    // Instructions for the model in the UI language: a Chinese-speaking user's conversations get
    // Chinese instructions. They are byte-stable while the language stays, which is what the
    // prompt cache needs.
    return {
        {GeneralId, tr("General"), {}, std::nullopt, std::nullopt, true},
        {QStringLiteral("editor"), tr("Writing editor"),
         tr("Act as an experienced writing editor. When the user shares text, improve its clarity, flow and "
            "grammar while keeping the author's voice and meaning, and name the most important changes briefly. "
            "When the user asks a question, answer it as an editor would."),
         0.4, std::nullopt, true},
        {QStringLiteral("translator"), tr("Translator"),
         tr("Act as a professional translator. Translate the text the user sends into English when it is in "
            "another language, and into Simplified Chinese when it is in English, unless the user names another "
            "language. Keep the meaning, tone and formatting, and answer with the translation only."),
         0.2, std::nullopt, true},
        {QStringLiteral("reviewer"), tr("Code reviewer"),
         tr("Act as a senior code reviewer. In the code the user shares, look for bugs, unclear names, missing "
            "error handling and security problems. List the findings most important first, each with a short "
            "fix, and do not rewrite the whole code unless asked."),
         0.2, std::nullopt, true},
        {QStringLiteral("concise"), tr("Concise"),
         tr("Answer as briefly as you can: one sentence or a short list, with no preamble and without repeating "
            "the question."),
         std::nullopt, 300, true},
    };
}

bool AssistantSettings::isBuiltinId(const QString &id)
{
    static const QStringList ids = [] {
        QStringList out;
        for (const Assistant &a : builtins())
            out << a.id;
        return out;
    }();
    return ids.contains(id);
}

bool AssistantSettings::isCustomId(const QString &id)
{
    static const QRegularExpression pattern(QStringLiteral("^custom-[a-z0-9-]{1,40}$"));
    return pattern.match(id).hasMatch();
}

QList<Assistant> AssistantSettings::list() const
{
    QList<Assistant> out = builtins();
    for (Assistant &a : out) {
        const auto it = overrides.constFind(a.id);
        if (it == overrides.cend())
            continue;
        if (it->name)
            a.name = *it->name;
        if (it->systemPrompt)
            a.systemPrompt = *it->systemPrompt;
        if (it->temperature)
            a.temperature = *it->temperature;
        if (it->maxTokens)
            a.maxTokens = *it->maxTokens;
    }
    out += custom;
    return out;
}

Assistant AssistantSettings::find(const QString &id) const
{
    const QList<Assistant> all = list();
    const auto it = std::find_if(all.cbegin(), all.cend(), [&id](const Assistant &a) { return a.id == id; });
    return it != all.cend() ? *it : all.constFirst();
}

bool AssistantSettings::contains(const QString &id) const
{
    return isBuiltinId(id)
           || std::any_of(custom.cbegin(), custom.cend(), [&id](const Assistant &a) { return a.id == id; });
}

void AssistantSettings::update(const Assistant &edited)
{
    Assistant a = edited;
    a.name = a.name.trimmed().left(MaxNameLength);
    a.systemPrompt = a.systemPrompt.left(MaxPromptLength);
    a.temperature = validTemperature(a.temperature);
    a.maxTokens = validMaxTokens(a.maxTokens);
    if (isBuiltinId(a.id)) {
        const QList<Assistant> shipped = builtins();
        const Assistant base = *std::find_if(shipped.cbegin(), shipped.cend(),
                                             [&a](const Assistant &b) { return b.id == a.id; });
        const Assistant current = find(a.id);
        if (a.name.isEmpty())
            a.name = current.name;
        // Only what differs from the shipped assistant is kept: a better built-in prompt in a
        // later release reaches everyone who never changed it.
        AssistantOverride o;
        if (a.name != base.name)
            o.name = a.name;
        if (a.systemPrompt != base.systemPrompt)
            o.systemPrompt = a.systemPrompt;
        if (a.temperature != base.temperature)
            o.temperature = a.temperature;
        if (a.maxTokens != base.maxTokens)
            o.maxTokens = a.maxTokens;
        if (o.isEmpty())
            overrides.remove(a.id);
        else
            overrides.insert(a.id, o);
        return;
    }
    for (Assistant &c : custom) {
        if (c.id != a.id)
            continue;
        if (a.name.isEmpty())
            a.name = c.name;
        a.builtin = false;
        c = a;
        return;
    }
}

QString AssistantSettings::add(const QString &name)
{
    if (custom.size() >= MaxCustom)
        return {};
    Assistant a;
    a.id = CustomPrefix + QUuid::createUuid().toString(QUuid::Id128).left(16);
    a.name = name.trimmed().left(MaxNameLength);
    if (a.name.isEmpty())
        a.name = tr("New assistant");
    custom.append(a);
    return a.id;
}

bool AssistantSettings::remove(const QString &id)
{
    return custom.removeIf([&id](const Assistant &a) { return a.id == id; }) > 0;
}

void AssistantSettings::restore(const QString &id)
{
    overrides.remove(id);
}

} // namespace Gui
