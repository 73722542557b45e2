#pragma once

#include <QString>
#include <QStringView>

namespace Prefetch {

// Fast/slow routing in free chat: what kind of message a chat message is, decided locally and
// at once from its text, so that the debounce prefetch of a draft and the send of the same text
// choose the same model (the route is part of the request, and a prefetch on the other model
// would never be taken over). Small talk and simple factual questions go to the profile's fast
// model; everything else to the main one. Deterministic and pure; any thread.
enum class MessageKind {
    SmallTalk,      // a greeting, thanks, an acknowledgement: "hi", "thanks!", "好的"
    SimpleQuestion, // one short factual question: "What is the capital of France?", "珠穆朗玛峰有多高"
    Other,          // anything asking for reasoning, writing, code, or longer than a line
};

// Rules (docs/prefetch.md, "Fast/slow routing"): one line of at most 12 words (English) or 24
// CJK characters; no word asking for work (explain, why, write, code, compare, 解释, 为什么, …);
// then a known small-talk opening, or a factual question form (what is, who wrote, how many, …,
// 是什么, 是谁, 多少, …). When in doubt: Other, the main model.
MessageKind messageKind(QStringView text);

// Whether a message of `kind` goes to the fast model.
inline bool routesToFastModel(MessageKind kind)
{
    return kind != MessageKind::Other;
}

// "small-talk", "simple-question", "other": logs and the benchmark.
const char *messageKindId(MessageKind kind);

} // namespace Prefetch
