#pragma once

#include "textgenerator.h"

#include <QList>

namespace LocalProvider {

struct ChatRequest;

// The answer of each of the request's choices, cut to its max_tokens. A fresh request gets its
// seeded text. A continuation whose prefill is a prefix of the answer the request without it
// gets (byte for byte, possibly ending inside a token) gets the rest of that answer, its first
// token being the rest of the token the prefill ends in: prefill + continuation is the fresh
// answer, whatever max_tokens the request that produced the prefill had. Any other prefill is
// followed by text seeded by the whole prompt, prefill included. max_tokens and `truncated`
// count the continuation's own tokens.
QList<TextGenerator::Answer> answersFor(const ChatRequest &request);

// What a reasoning model thinks before the answer of choice 0: `tokens` tokens of the prompt's
// own words, seeded apart from the answer (so the answer is the same with or without them).
QStringList reasoningFor(const ChatRequest &request, int tokens);
// The model thinks before it answers (headstart-local-reasoner); a continuation does not: its
// beginning was thought of already.
bool thinksFirst(const ChatRequest &request);

} // namespace LocalProvider
