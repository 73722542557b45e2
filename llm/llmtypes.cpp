#include "llmtypes.h"

namespace Llm {

FinishReason finishReasonFrom(QStringView reason)
{
    if (reason.isEmpty())
        return FinishReason::None;
    if (reason == u"stop" || reason == u"end_turn" || reason == u"stop_sequence")
        return FinishReason::Stop;
    if (reason == u"length" || reason == u"max_tokens" || reason == u"model_context_window_exceeded")
        return FinishReason::Length;
    if (reason == u"content_filter" || reason == u"refusal")
        return FinishReason::ContentFilter;
    if (reason == u"tool_calls" || reason == u"function_call" || reason == u"tool_use")
        return FinishReason::ToolCalls;
    return FinishReason::Other;
}

} // namespace Llm
