#include "replaycommand.h"

#include "llm/sseparser.h"
#include "llm/streamdecoder.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>

#include <cstdio>
#include <optional>

namespace Cli {

namespace {

enum class ReplayFormat { OpenAi, Anthropic, Sse };

struct ToolCall {
    QString id;
    QString name;
    QString arguments;
};

// What one choice of the answer accumulated. Reasoning, refusal and the finish reason stay
// absent (JSON null) unless the stream carried them; text is always a string.
struct Choice {
    QString text;
    std::optional<QString> reasoning;
    std::optional<QString> refusal;
    std::optional<QString> finishReason;
    QMap<int, ToolCall> toolCalls;
};

QJsonValue optionalString(const std::optional<QString> &s)
{
    return s ? QJsonValue(*s) : QJsonValue(QJsonValue::Null);
}

QJsonValue count(qint64 n)
{
    return n >= 0 ? QJsonValue(n) : QJsonValue(QJsonValue::Null);
}

QJsonArray toolCallsJson(const Choice &choice)
{
    QJsonArray calls;
    for (const ToolCall &call : choice.toolCalls) {
        calls.append(QJsonObject{
            {QStringLiteral("id"), call.id.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(call.id)},
            {QStringLiteral("name"), call.name.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(call.name)},
            {QStringLiteral("arguments"), call.arguments},
        });
    }
    return calls;
}

void fail(const QString &message)
{
    std::fprintf(stderr, "headstart-cli replay: %s\n", qPrintable(message));
}

// Feeds the transcript in `chunk`-byte reads (0: in one piece), as a socket would.
QList<Llm::SseEvent> parseAll(Llm::SseParser &parser, const QByteArray &bytes, qsizetype chunk,
                              bool &unterminatedTail)
{
    QList<Llm::SseEvent> events;
    const qsizetype step = chunk > 0 ? chunk : qMax<qsizetype>(bytes.size(), 1);
    for (qsizetype pos = 0; pos < bytes.size(); pos += step) {
        if (!parser.feed(QByteArrayView(bytes).sliced(pos, qMin(step, bytes.size() - pos)), events))
            break;
    }
    unterminatedTail = !parser.hasError() && parser.finish();
    return events;
}

QJsonObject replaySse(const QByteArray &bytes, qsizetype chunk, QJsonArray &errors)
{
    Llm::SseParser parser;
    bool tail = false;
    const QList<Llm::SseEvent> events = parseAll(parser, bytes, chunk, tail);
    if (parser.hasError())
        errors.append(QStringLiteral("event stream: ") + QString::fromUtf8(parser.errorString()));

    QJsonArray list;
    for (const Llm::SseEvent &event : events) {
        list.append(QJsonObject{
            // An event without `event:` is dispatched with the type "message".
            {QStringLiteral("event"),
             event.type.isEmpty() ? QStringLiteral("message") : QString::fromUtf8(event.type)},
            {QStringLiteral("data"), QString::fromUtf8(event.data)},
            {QStringLiteral("id"), QString::fromUtf8(event.id)},
        });
    }
    const std::optional<int> retry = parser.retryMs();
    return QJsonObject{
        {QStringLiteral("events"), list},
        {QStringLiteral("last_event_id"), QString::fromUtf8(parser.lastEventId())},
        {QStringLiteral("retry_ms"), retry ? QJsonValue(*retry) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("unterminated_tail"), tail},
        {QStringLiteral("errors"), errors},
    };
}

QJsonObject replayDecoded(Llm::ApiFormat format, const QByteArray &bytes, qsizetype chunk,
                          QJsonArray &errors)
{
    Llm::SseParser parser;
    bool tail = false;
    const QList<Llm::SseEvent> events = parseAll(parser, bytes, chunk, tail);
    const auto decoder = Llm::StreamDecoder::create(format);

    QMap<int, Choice> choices;
    std::optional<Llm::Usage> usage;
    QList<Llm::StreamEvent> decoded;
    for (const Llm::SseEvent &event : events) {
        decoded.clear();
        decoder->decode(event, decoded);
        for (const Llm::StreamEvent &e : std::as_const(decoded)) {
            Choice &choice = choices[e.choice];
            switch (e.type) {
            case Llm::StreamEvent::Type::TextDelta:
                choice.text += e.text;
                break;
            case Llm::StreamEvent::Type::ReasoningDelta:
                choice.reasoning = choice.reasoning.value_or(QString()) + e.text;
                break;
            case Llm::StreamEvent::Type::RefusalDelta:
                choice.refusal = choice.refusal.value_or(QString()) + e.text;
                break;
            case Llm::StreamEvent::Type::ToolCallDelta: {
                ToolCall &call = choice.toolCalls[e.toolIndex];
                if (!e.toolId.isEmpty())
                    call.id = e.toolId;
                call.name += e.toolName; // decoders pass each name fragment once
                call.arguments += e.text;
                break;
            }
            case Llm::StreamEvent::Type::Usage:
                usage = e.usage;
                break;
            case Llm::StreamEvent::Type::Finish:
                choice.finishReason = e.text;
                break;
            case Llm::StreamEvent::Type::Error:
                errors.append(QStringLiteral("provider error: ")
                              + (e.errorType.isEmpty() ? QString() : e.errorType + QStringLiteral(": "))
                              + e.text);
                break;
            }
        }
    }
    if (!decoder->malformedReason().isEmpty())
        errors.append(QStringLiteral("malformed stream: ") + decoder->malformedReason());
    if (parser.hasError())
        errors.append(QStringLiteral("event stream: ") + QString::fromUtf8(parser.errorString()));

    const Choice first = choices.value(0);
    QJsonObject result{
        {QStringLiteral("text"), first.text},
        {QStringLiteral("reasoning"), optionalString(first.reasoning)},
        {QStringLiteral("refusal"), optionalString(first.refusal)},
        {QStringLiteral("finish_reason"), optionalString(first.finishReason)},
        {QStringLiteral("tool_calls"), toolCallsJson(first)},
        {QStringLiteral("usage"),
         usage ? QJsonValue(QJsonObject{
                     {QStringLiteral("input"), count(usage->inputTokens)},
                     {QStringLiteral("output"), count(usage->outputTokens)},
                     {QStringLiteral("cache_read"), count(usage->cacheReadTokens)},
                     {QStringLiteral("cache_write"), count(usage->cacheWriteTokens)},
                     {QStringLiteral("reasoning"), count(usage->reasoningTokens)},
                 })
               : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("errors"), errors},
        {QStringLiteral("events"), qint64(events.size())},
        {QStringLiteral("complete"), decoder->isComplete()},
        {QStringLiteral("unterminated_tail"), tail},
    };
    if (choices.size() > 1) {
        QJsonArray list;
        for (auto it = choices.cbegin(); it != choices.cend(); ++it) {
            list.append(QJsonObject{
                {QStringLiteral("index"), it.key()},
                {QStringLiteral("text"), it->text},
                {QStringLiteral("reasoning"), optionalString(it->reasoning)},
                {QStringLiteral("finish_reason"), optionalString(it->finishReason)},
                {QStringLiteral("tool_calls"), toolCallsJson(*it)},
            });
        }
        result.insert(QStringLiteral("choices"), list);
    }
    return result;
}

} // namespace

int runReplay(const QStringList &arguments)
{
    QCommandLineParser cli;
    cli.setApplicationDescription(
        QStringLiteral("Decodes a recorded SSE response body and prints the result as JSON."));
    const QCommandLineOption formatOption(QStringLiteral("format"),
                                          QStringLiteral("openai, anthropic, or sse (raw events)."),
                                          QStringLiteral("format"));
    const QCommandLineOption chunkOption(QStringLiteral("chunk"),
                                         QStringLiteral("Feed the parser N bytes at a time."),
                                         QStringLiteral("N"));
    const QCommandLineOption compactOption(QStringLiteral("compact"),
                                           QStringLiteral("Print the JSON on one line."));
    const QCommandLineOption stateOption(QStringLiteral("state"),
                                         QStringLiteral("With --format sse: print an object with the events and "
                                                        "the parser's end state (last id, retry, tail, errors)."));
    const QCommandLineOption helpOption({QStringLiteral("h"), QStringLiteral("help")},
                                        QStringLiteral("Show this help."));
    cli.addOptions({formatOption, chunkOption, compactOption, stateOption, helpOption});
    cli.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The SSE transcript."));

    if (!cli.parse(QStringList{QStringLiteral("headstart-cli replay")} + arguments)) {
        fail(cli.errorText());
        return 2;
    }
    if (cli.isSet(helpOption)) {
        std::fputs(qPrintable(cli.helpText()), stdout);
        return 0;
    }

    const QString formatName = cli.value(formatOption);
    ReplayFormat format;
    if (formatName == QLatin1StringView("openai"))
        format = ReplayFormat::OpenAi;
    else if (formatName == QLatin1StringView("anthropic"))
        format = ReplayFormat::Anthropic;
    else if (formatName == QLatin1StringView("sse"))
        format = ReplayFormat::Sse;
    else {
        fail(formatName.isEmpty() ? QStringLiteral("--format openai|anthropic|sse is required")
                                  : QStringLiteral("unknown format '%1' (openai, anthropic or sse)").arg(formatName));
        return 2;
    }

    qsizetype chunk = 0;
    if (cli.isSet(chunkOption)) {
        bool ok = false;
        chunk = cli.value(chunkOption).toLongLong(&ok);
        if (!ok || chunk < 1) {
            fail(QStringLiteral("--chunk needs a positive number of bytes"));
            return 2;
        }
    }

    const QStringList files = cli.positionalArguments();
    if (files.size() != 1) {
        fail(files.isEmpty() ? QStringLiteral("no transcript file given")
                             : QStringLiteral("exactly one transcript file, please"));
        return 2;
    }
    QFile file(files.first());
    if (!file.open(QIODevice::ReadOnly)) {
        fail(QStringLiteral("cannot read %1: %2").arg(files.first(), file.errorString()));
        return 2;
    }
    const QByteArray bytes = file.readAll();

    QJsonArray errors;
    QJsonObject result;
    switch (format) {
    case ReplayFormat::Sse:
        result = replaySse(bytes, chunk, errors);
        break;
    case ReplayFormat::OpenAi:
        result = replayDecoded(Llm::ApiFormat::OpenAiChat, bytes, chunk, errors);
        break;
    case ReplayFormat::Anthropic:
        result = replayDecoded(Llm::ApiFormat::AnthropicMessages, bytes, chunk, errors);
        break;
    }

    // Plain `--format sse` prints just the event array; errors then go to stderr.
    const bool bareEvents = format == ReplayFormat::Sse && !cli.isSet(stateOption);
    if (bareEvents) {
        for (const QJsonValue &error : std::as_const(errors))
            fail(error.toString());
    }
    const QJsonDocument document = bareEvents ? QJsonDocument(result.value(QLatin1String("events")).toArray())
                                              : QJsonDocument(result);
    const QByteArray json = document.toJson(cli.isSet(compactOption) ? QJsonDocument::Compact
                                                                      : QJsonDocument::Indented);
    std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
    if (cli.isSet(compactOption))
        std::fputc('\n', stdout);
    std::fflush(stdout);
    return errors.isEmpty() ? 0 : 1;
}

} // namespace Cli
