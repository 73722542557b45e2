#include "replaycommand.h"

#include "llm/sseparser.h"
#include "llm/streamdecoder.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <unistd.h>

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

// How a replay ended, for the exit code.
struct Outcome {
    QJsonArray errors;          // malformed, in-stream errors, parser and read errors
    bool printedErrors = false; // `errors` is part of the JSON already; else it goes to stderr
    bool complete = false;      // the end marker (or, raw, a stream not cut inside an event)
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

void write(const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
}

// Reads the transcript in `chunk`-byte reads (0: 64 KiB), as a socket would, and hands each SSE
// event to `onEvent` as soon as the parser completes it: neither the file nor its events are
// ever held whole, so memory stays bounded by the parser's caps whatever the file's size.
// Returns the errno of a failed read, 0 when the file was read to its end.
template <typename OnEvent>
int parseFile(QFile &file, Llm::SseParser &parser, qsizetype chunk, bool &unterminatedTail, OnEvent onEvent)
{
    // A --chunk larger than any read a socket makes is capped: the result is the same for
    // every split, and a buffer of the size asked for could be anything up to 2^63.
    QByteArray buffer(chunk > 0 ? qMin<qsizetype>(chunk, 16 * 1024 * 1024) : 64 * 1024, Qt::Uninitialized);
    QList<Llm::SseEvent> events;
    int readError = 0;
    while (!parser.hasError()) {
        // read(2) rather than QFile::read, which waits for a full buffer: a transcript still being
        // written (a pipe, a capture in progress) is decoded as its bytes arrive.
        qint64 n;
        do
            n = ::read(file.handle(), buffer.data(), size_t(buffer.size()));
        while (n < 0 && errno == EINTR);
        if (n < 0)
            readError = errno;
        if (n <= 0)
            break;
        events.clear();
        parser.feed(QByteArrayView(buffer.constData(), qsizetype(n)), events);
        for (const Llm::SseEvent &event : std::as_const(events))
            onEvent(event);
        // Whoever reads the output (a pipe, a tail -f of a live capture) sees each read's events
        // when they are decoded, not when stdio's buffer happens to fill.
        if (!events.isEmpty())
            std::fflush(stdout);
    }
    unterminatedTail = !parser.hasError() && parser.finish();
    return readError;
}

QByteArray toJson(const QJsonObject &object, bool compact)
{
    QByteArray json = QJsonDocument(object).toJson(compact ? QJsonDocument::Compact : QJsonDocument::Indented);
    if (!compact)
        json.chop(1); // the final newline: the caller places separators
    return json;
}

// `--format sse`: each event is printed as it is parsed. Plain: the array of events; --state:
// an object with the array first and the parser's end state after it.
Outcome replaySse(QFile &file, qsizetype chunk, bool withState, bool compact)
{
    Llm::SseParser parser;
    bool tail = false;
    qint64 count = 0;
    write(withState ? QByteArray(compact ? "{\"events\":[" : "{\n\"events\": [\n") : QByteArray("["));
    const int readError = parseFile(file, parser, chunk, tail, [&](const Llm::SseEvent &event) {
        if (count++ > 0)
            write(compact ? "," : ",\n");
        write(toJson(
            QJsonObject{
                // An event without `event:` is dispatched with the type "message".
                {QStringLiteral("event"),
                 event.type.isEmpty() ? QStringLiteral("message") : QString::fromUtf8(event.type)},
                {QStringLiteral("data"), QString::fromUtf8(event.data)},
                {QStringLiteral("id"), QString::fromUtf8(event.id)},
            },
            compact));
    });

    Outcome outcome;
    if (readError)
        outcome.errors.append(QStringLiteral("cannot read to the end: ")
                              + QString::fromLocal8Bit(std::strerror(readError)));
    if (parser.hasError())
        outcome.errors.append(QStringLiteral("event stream: ") + QString::fromUtf8(parser.errorString()));
    // A raw event stream has no end marker; one cut inside an event is the sign of truncation.
    outcome.complete = !tail && outcome.errors.isEmpty();
    write(compact || count == 0 ? "]" : "\n]");
    if (withState) {
        const std::optional<int> retry = parser.retryMs();
        // The rest of the object, written after the array: `{...}` without its opening brace.
        QByteArray rest = toJson(
            QJsonObject{
                {QStringLiteral("last_event_id"), QString::fromUtf8(parser.lastEventId())},
                {QStringLiteral("retry_ms"), retry ? QJsonValue(*retry) : QJsonValue(QJsonValue::Null)},
                {QStringLiteral("unterminated_tail"), tail},
                {QStringLiteral("errors"), outcome.errors},
            },
            compact);
        write("," + rest.sliced(1));
        outcome.printedErrors = true;
    }
    write("\n");
    return outcome;
}

// The answer accumulated as the events are decoded: only what is printed (text, reasoning, tool
// arguments per choice) is kept, never the events themselves.
Outcome replayDecoded(Llm::ApiFormat format, QFile &file, qsizetype chunk, bool compact)
{
    Llm::SseParser parser;
    bool tail = false;
    const auto decoder = Llm::StreamDecoder::create(format);

    Outcome outcome;
    QJsonArray &errors = outcome.errors;
    QMap<int, Choice> choices;
    std::optional<Llm::Usage> usage;
    QList<Llm::StreamEvent> decoded;
    qint64 eventCount = 0;
    const int readError = parseFile(file, parser, chunk, tail, [&](const Llm::SseEvent &event) {
        ++eventCount;
        decoded.clear();
        decoder->decode(event, decoded);
        for (const Llm::StreamEvent &e : std::as_const(decoded)) {
            Choice &choice = choices[e.choice];
            switch (e.type) {
            case Llm::StreamEvent::Type::TextDelta: choice.text += e.text; break;
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
            case Llm::StreamEvent::Type::Usage: usage = e.usage; break;
            case Llm::StreamEvent::Type::Finish: choice.finishReason = e.text; break;
            case Llm::StreamEvent::Type::Error:
                errors.append(QStringLiteral("provider error: ")
                              + (e.errorType.isEmpty() ? QString() : e.errorType + QStringLiteral(": ")) + e.text);
                break;
            }
        }
    });
    if (readError)
        errors.append(QStringLiteral("cannot read to the end: ") + QString::fromLocal8Bit(std::strerror(readError)));
    if (!decoder->malformedReason().isEmpty())
        errors.append(QStringLiteral("malformed stream: ") + decoder->malformedReason());
    if (parser.hasError())
        errors.append(QStringLiteral("event stream: ") + QString::fromUtf8(parser.errorString()));
    outcome.complete = decoder->isComplete();

    const Choice first = choices.value(0);
    QJsonObject result{
        {QStringLiteral("text"), first.text},
        {QStringLiteral("reasoning"), optionalString(first.reasoning)},
        {QStringLiteral("refusal"), optionalString(first.refusal)},
        {QStringLiteral("finish_reason"), optionalString(first.finishReason)},
        {QStringLiteral("tool_calls"), toolCallsJson(first)},
        {QStringLiteral("usage"), usage ? QJsonValue(QJsonObject{
                                      {QStringLiteral("input"), count(usage->inputTokens)},
                                      {QStringLiteral("output"), count(usage->outputTokens)},
                                      {QStringLiteral("cache_read"), count(usage->cacheReadTokens)},
                                      {QStringLiteral("cache_write"), count(usage->cacheWriteTokens)},
                                      {QStringLiteral("reasoning"), count(usage->reasoningTokens)},
                                  })
                                        : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("errors"), errors},
        {QStringLiteral("events"), eventCount},
        {QStringLiteral("complete"), outcome.complete},
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
    write(toJson(result, compact) + '\n');
    outcome.printedErrors = true;
    return outcome;
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
    const QCommandLineOption chunkOption(QStringLiteral("chunk"), QStringLiteral("Feed the parser N bytes at a time."),
                                         QStringLiteral("N"));
    const QCommandLineOption compactOption(QStringLiteral("compact"), QStringLiteral("Print the JSON on one line."));
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
    const bool compact = cli.isSet(compactOption);
    Outcome outcome;
    switch (format) {
    case ReplayFormat::Sse: outcome = replaySse(file, chunk, cli.isSet(stateOption), compact); break;
    case ReplayFormat::OpenAi: outcome = replayDecoded(Llm::ApiFormat::OpenAiChat, file, chunk, compact); break;
    case ReplayFormat::Anthropic:
        outcome = replayDecoded(Llm::ApiFormat::AnthropicMessages, file, chunk, compact);
        break;
    }
    std::fflush(stdout);

    // Plain `--format sse` prints just the event array; its errors go to stderr.
    if (!outcome.printedErrors) {
        for (const QJsonValue &error : std::as_const(outcome.errors))
            fail(error.toString());
    }
    if (!outcome.errors.isEmpty())
        return 1;
    if (!outcome.complete) {
        fail(format == ReplayFormat::Sse
                 ? QStringLiteral("incomplete stream: it ends inside an event")
                 : QStringLiteral("incomplete stream: it ends before the provider's end marker"));
        return 3;
    }
    return 0;
}

} // namespace Cli
