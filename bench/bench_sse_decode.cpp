// SSE parse + decode throughput on large synthetic transcripts in each provider's format.
// Prints MB/s and ns per event (median of several runs) for the parser alone and for
// parser + decoder, fed in 16 KiB reads as a socket would deliver them.
#include "llm/sseparser.h"
#include "llm/streamdecoder.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

constexpr qsizetype ReadSize = 16 * 1024;

// Words of mixed length and some Chinese, as real answers have.
const char *const Words[] = {"the",     " prompt",  " cache",   " holds",     " 文档",           "的",      " system",
                             " prefix", ",",        " and",     " streaming", " tokens",         " arrive", ".",
                             " 我们",   " latency", " matters", "\\n",        " \\\"quoted\\\"", " first"};

QByteArray openAiTranscript(int events)
{
    QByteArray out;
    out.reserve(qsizetype(events) * 200);
    for (int i = 0; i < events; ++i) {
        out += "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1730000000,"
               "\"model\":\"bench\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"";
        out += Words[i % std::size(Words)];
        out += "\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n";
    }
    out += "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1730000000,"
           "\"model\":\"bench\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
           "data: [DONE]\n\n";
    return out;
}

QByteArray anthropicTranscript(int events)
{
    QByteArray out;
    out.reserve(qsizetype(events) * 150);
    out +=
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_bench\",\"type\":\"message\","
        "\"role\":\"assistant\",\"content\":[],\"model\":\"bench\",\"usage\":{\"input_tokens\":10,\"output_tokens\":1}}}\n\n"
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n";
    for (int i = 0; i < events; ++i) {
        out +=
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"";
        out += Words[i % std::size(Words)];
        out += "\"}}\n\n";
    }
    out +=
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":5}}\n\n"
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    return out;
}

struct Result {
    double seconds;
    qint64 sseEvents;
    qint64 decodedEvents;
};

Result run(const QByteArray &transcript, Llm::ApiFormat format, bool decode)
{
    QElapsedTimer timer;
    timer.start();
    Llm::SseParser parser;
    auto decoder = Llm::StreamDecoder::create(format);
    QList<Llm::SseEvent> events;
    QList<Llm::StreamEvent> decoded;
    qint64 sseCount = 0;
    qint64 decodedCount = 0;
    for (qsizetype pos = 0; pos < transcript.size(); pos += ReadSize) {
        events.clear();
        parser.feed(QByteArrayView(transcript).sliced(pos, std::min(ReadSize, transcript.size() - pos)), events);
        sseCount += events.size();
        if (decode) {
            for (const Llm::SseEvent &e : std::as_const(events)) {
                decoded.clear();
                decoder->decode(e, decoded);
                decodedCount += decoded.size();
            }
        }
    }
    parser.finish();
    if (decode && !decoder->isComplete())
        std::fprintf(stderr, "warning: decoder did not see the end of the stream\n");
    return {double(timer.nsecsElapsed()) / 1e9, sseCount, decodedCount};
}

void report(const char *name, const QByteArray &transcript, Llm::ApiFormat format, bool decode, int runs)
{
    std::vector<double> seconds;
    Result last{};
    run(transcript, format, decode); // warm caches and allocator
    for (int i = 0; i < runs; ++i) {
        last = run(transcript, format, decode);
        seconds.push_back(last.seconds);
    }
    std::sort(seconds.begin(), seconds.end());
    const double median = seconds[seconds.size() / 2];
    const double mb = double(transcript.size()) / (1024.0 * 1024.0);
    std::printf("%-34s %8.1f MB  %9lld events  %8.1f MB/s  %7.1f ns/event  (median of %d)\n", name, mb,
                static_cast<long long>(last.sseEvents), mb / median, median * 1e9 / double(last.sseEvents), runs);
}

} // namespace

int main(int argc, char **argv)
{
    const int events = argc > 1 ? std::atoi(argv[1]) : 400'000;
    const int runs = argc > 2 ? std::atoi(argv[2]) : 7;
    const QByteArray openai = openAiTranscript(events);
    const QByteArray anthropic = anthropicTranscript(events);
    std::printf("SSE parse + decode, %d-byte reads\n", int(ReadSize));
    report("openai: parse only", openai, Llm::ApiFormat::OpenAiChat, false, runs);
    report("openai: parse + decode", openai, Llm::ApiFormat::OpenAiChat, true, runs);
    report("anthropic: parse only", anthropic, Llm::ApiFormat::AnthropicMessages, false, runs);
    report("anthropic: parse + decode", anthropic, Llm::ApiFormat::AnthropicMessages, true, runs);
    return 0;
}
