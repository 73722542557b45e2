// The OpenAI-compatible stream decoder through the SSE parser; invariants in decoderfuzz.h.

#include "decoderfuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    return Fuzz::fuzzDecoder(Llm::ApiFormat::OpenAiChat, data, size);
}
