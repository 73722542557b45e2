#include "support/localproviderwire.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace TestSupport::Wire {

QList<SseEvent> parseSse(const QByteArray &bytes, qsizetype *consumed)
{
    QList<SseEvent> events;
    qsizetype pos = 0;
    for (qsizetype end; (end = bytes.indexOf("\n\n", pos)) >= 0; pos = end + 2) {
        SseEvent e;
        for (const QByteArray &line : bytes.mid(pos, end - pos).split('\n')) {
            if (line.startsWith("event: "))
                e.event = line.mid(7);
            else if (line.startsWith("data: "))
                e.data += line.mid(6);
        }
        events.append(e);
    }
    if (consumed)
        *consumed = pos;
    return events;
}

QJsonObject json(const QByteArray &bytes)
{
    return QJsonDocument::fromJson(bytes).object();
}

QString contentOf(const SseEvent &e, int *choice)
{
    const QJsonObject o = json(e.data);
    if (e.event == "content_block_delta")
        return o[u"delta"][u"text"].toString();
    const QJsonArray choices = o[u"choices"].toArray();
    if (choices.isEmpty() || !choices[0][u"delta"].toObject().contains(u"content"))
        return {};
    const QString text = choices[0][u"delta"][u"content"].toString();
    if (choice)
        *choice = choices[0][u"index"].toInt();
    return text.isEmpty() ? QString() : text;
}

QByteArray chatBody(const QString &user, const QJsonObject &extra, const QString &system)
{
    QJsonArray messages;
    if (!system.isEmpty())
        messages.append(QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, system}});
    messages.append(QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, user}});
    QJsonObject o{{u"model"_s, u"headstart-local"_s}, {u"messages"_s, messages}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        o.insert(it.key(), it.value());
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QByteArray streamBody(const QString &user, QJsonObject extra)
{
    extra.insert(u"stream"_s, true);
    return chatBody(user, extra);
}

QByteArray messagesBody(const QJsonValue &system, const QString &user, QJsonObject extra)
{
    QJsonObject o{{u"model"_s, u"headstart-local"_s},
                  {u"max_tokens"_s, 64},
                  {u"messages"_s, QJsonArray{QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, user}}}}};
    if (!system.isUndefined())
        o.insert(u"system"_s, system);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        o.insert(it.key(), it.value());
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QString document(const QString &tag, int words)
{
    static const QStringList vocabulary{u"river"_s,  u"stone"_s,  u"light"_s,  u"north"_s, u"garden"_s,
                                        u"window"_s, u"paper"_s,  u"bridge"_s, u"cloud"_s, u"market"_s,
                                        u"winter"_s, u"signal"_s, u"harbor"_s};
    QString text = tag + u". "_s;
    for (int i = 0; i < words; ++i) {
        text += vocabulary[(i * 7 + i / 13) % vocabulary.size()];
        text += i % 11 == 10 ? u". "_s : u" "_s;
    }
    return text;
}

QJsonObject cached(const QString &text)
{
    return QJsonObject{{u"type"_s, u"text"_s},
                       {u"text"_s, text},
                       {u"cache_control"_s, QJsonObject{{u"type"_s, u"ephemeral"_s}}}};
}

QString textOf(const Reply &r, int index)
{
    if (!r.body.startsWith("data:") && !r.body.startsWith("event:")) {
        const QJsonObject o = r.object();
        if (o.contains(u"choices"))
            return o[u"choices"][index][u"message"][u"content"].toString();
        return o[u"content"][0][u"text"].toString();
    }
    QString text;
    for (const SseEvent &e : r.events()) {
        int choice = 0;
        const QString piece = contentOf(e, &choice);
        if (choice == index)
            text += piece;
    }
    return text;
}

QJsonObject usageChunk(const Reply &r)
{
    for (const SseEvent &e : r.events()) {
        const QJsonObject o = json(e.data);
        if (o.contains(u"usage") && o[u"choices"].toArray().isEmpty())
            return o[u"usage"].toObject();
    }
    return {};
}

int countHan(const QString &text)
{
    int n = 0;
    for (QChar c : text)
        n += c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF;
    return n;
}

Answer answerOf(const Reply &r)
{
    Answer a;
    a.text = textOf(r);
    const auto readUsage = [&a](const QJsonObject &u) {
        if (u.contains(u"prompt_tokens")) {
            a.promptTokens = u[u"prompt_tokens"].toInt();
            a.cachedTokens = u[u"prompt_tokens_details"][u"cached_tokens"].toInt();
            a.completionTokens = u[u"completion_tokens"].toInt();
        } else if (u.contains(u"input_tokens")) {
            a.cachedTokens = u[u"cache_read_input_tokens"].toInt();
            a.promptTokens = u[u"input_tokens"].toInt() + a.cachedTokens + u[u"cache_creation_input_tokens"].toInt();
        }
        if (u.contains(u"output_tokens"))
            a.completionTokens = u[u"output_tokens"].toInt();
    };
    if (!r.body.startsWith("data:") && !r.body.startsWith("event:")) {
        const QJsonObject o = r.object();
        a.finish = o.contains(u"choices") ? o[u"choices"][0][u"finish_reason"].toString()
                                          : o[u"stop_reason"].toString();
        readUsage(o[u"usage"].toObject());
        if (!a.text.isEmpty())
            a.deltas << a.text;
        return a;
    }
    for (const SseEvent &e : r.events()) {
        const QString piece = contentOf(e);
        if (!piece.isNull())
            a.deltas << piece;
        const QJsonObject o = json(e.data);
        if (e.event == "message_start") {
            readUsage(o[u"message"][u"usage"].toObject());
        } else if (e.event == "message_delta") {
            a.finish = o[u"delta"][u"stop_reason"].toString();
            readUsage(o[u"usage"].toObject());
        } else if (o[u"choices"].toArray().size() == 1 && o[u"choices"][0][u"finish_reason"].isString()) {
            a.finish = o[u"choices"][0][u"finish_reason"].toString();
        } else if (o[u"usage"].isObject()) {
            readUsage(o[u"usage"].toObject());
        }
    }
    return a;
}

QString pathFor(Form form)
{
    return form == Form::Anthropic ? u"v1/messages"_s : u"v1/chat/completions"_s;
}

QByteArray continuationBody(Form form, const QString &system, const QString &user, const QString &prefill, bool stream,
                            int maxTokens)
{
    QJsonArray messages;
    if (form != Form::Anthropic)
        messages.append(QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, system}});
    messages.append(QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, user}});
    QJsonObject o{{u"model"_s, u"headstart-local"_s}, {u"stream"_s, stream}};
    if (form == Form::Anthropic) {
        o.insert(u"system"_s, system);
        o.insert(u"max_tokens"_s, maxTokens > 0 ? maxTokens : 1000);
    } else {
        if (maxTokens > 0)
            o.insert(u"max_tokens"_s, maxTokens);
        if (stream)
            o.insert(u"stream_options"_s, QJsonObject{{u"include_usage"_s, true}});
    }
    if (!prefill.isNull()) {
        QJsonObject last{{u"role"_s, u"assistant"_s}, {u"content"_s, prefill}};
        if (form == Form::Prefix)
            last.insert(u"prefix"_s, true);
        else if (form == Form::Partial)
            last.insert(u"partial"_s, true);
        if (form == Form::ContinueFinalMessage) {
            o.insert(u"continue_final_message"_s, true);
            o.insert(u"add_generation_prompt"_s, false);
        }
        messages.append(last);
    }
    o.insert(u"messages"_s, messages);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace TestSupport::Wire
