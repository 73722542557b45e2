#include "streamdecoder.h"

#include "anthropicdecoder.h"
#include "openaidecoder.h"

namespace Llm {

std::unique_ptr<StreamDecoder> StreamDecoder::create(ApiFormat format)
{
    switch (format) {
    case ApiFormat::OpenAiChat: return std::make_unique<OpenAiDecoder>();
    case ApiFormat::AnthropicMessages: return std::make_unique<AnthropicDecoder>();
    }
    return nullptr;
}

} // namespace Llm
