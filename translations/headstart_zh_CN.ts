<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>App::Application</name>
    <message>
        <location filename="../app/application.cpp" line="29"/>
        <source>Unknown provider &quot;%1&quot;; using the local demo engine.</source>
        <translation>未知的服务商“%1”；改用本地演示引擎。</translation>
    </message>
    <message>
        <location filename="../app/application.cpp" line="37"/>
        <source>%1 needs an API key: set the environment variable %2. Using the local demo engine meanwhile.</source>
        <translation>%1 需要 API 密钥：请设置环境变量 %2。暂时改用本地演示引擎。</translation>
    </message>
    <message>
        <location filename="../app/application.cpp" line="60"/>
        <source>Unknown latency profile &quot;%1&quot;; using &quot;hosted&quot;.</source>
        <translation>未知的延迟配置“%1”；改用“hosted”。</translation>
    </message>
    <message>
        <location filename="../app/application.cpp" line="66"/>
        <location filename="../app/application.cpp" line="91"/>
        <source>Headstart</source>
        <translation>Headstart</translation>
    </message>
    <message>
        <location filename="../app/application.cpp" line="67"/>
        <source>The local demo engine could not start: %1</source>
        <translation>本地演示引擎无法启动：%1</translation>
    </message>
</context>
<context>
    <name>Llm::Error</name>
    <message>
        <location filename="../llm/error.cpp" line="90"/>
        <source>the provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="162"/>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="164"/>
        <source>%1 rejected the API key (HTTP %2). Check the key for %1 in Settings, Providers.</source>
        <translation>%1 拒绝了 API 密钥（HTTP %2）。请在“设置 › 服务商”中检查 %1 的密钥。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="168"/>
        <source>%1 does not know the requested model (HTTP %2). Check the model name in Settings, Providers.</source>
        <translation>%1 不认识所请求的模型（HTTP %2）。请在“设置 › 服务商”中检查模型名称。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="174"/>
        <source>%1 is limiting the request rate. Try again in %2 s.</source>
        <translation>%1 正在限制请求频率。请在 %2 秒后重试。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="176"/>
        <source>%1 is limiting the request rate. Wait a moment and try again.</source>
        <translation>%1 正在限制请求频率。请稍候再试。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="179"/>
        <source>The prompt is too long for the model at %1. Shorten the document or the selection, or choose a model with a larger context window.</source>
        <translation>提示词超出了 %1 上该模型的上下文长度。请缩短文档或选区，或选择上下文窗口更大的模型。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="184"/>
        <source>%1 rejected the request (HTTP %2).</source>
        <translation>%1 拒绝了请求（HTTP %2）。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="187"/>
        <source>%1 had a server error (HTTP %2). Try again; if it keeps failing, check the provider&apos;s status page.</source>
        <translation>%1 服务器出错（HTTP %2）。请重试；如果持续失败，请查看服务商的状态页面。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="192"/>
        <source>Cannot reach %1. Check the network connection and the provider&apos;s base URL in Settings, Providers.</source>
        <translation>无法连接 %1。请检查网络连接，以及“设置 › 服务商”中的基础 URL。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="197"/>
        <source>The secure connection to %1 failed. Check the base URL and the system clock.</source>
        <translation>与 %1 的安全连接失败。请检查基础 URL 和系统时间。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="201"/>
        <source>%1 did not answer in time. Try again; a long document can need a longer timeout.</source>
        <translation>%1 未能及时响应。请重试；长文档可能需要更长的超时时间。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="206"/>
        <source>The connection to %1 broke before the answer was complete. The text so far is kept.</source>
        <translation>回答完成之前与 %1 的连接中断了。已保留目前收到的文本。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="211"/>
        <source>%1 sent a response Headstart cannot read. The text so far is kept.</source>
        <translation>%1 返回了 Headstart 无法解析的响应。已保留目前收到的文本。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="214"/>
        <source>%1 reported an error while answering. The text so far is kept.</source>
        <translation>%1 在回答过程中报告了错误。已保留目前收到的文本。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="217"/>
        <source>This request cannot be sent to %1.</source>
        <translation>无法向 %1 发送此请求。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="221"/>
        <source>Details: %1</source>
        <translation>详情：%1</translation>
    </message>
</context>
<context>
    <name>Llm::LlmStream</name>
    <message>
        <location filename="../llm/llmstream.cpp" line="95"/>
        <source>The base URL is not set or not an http(s) URL.</source>
        <translation>基础 URL 未设置，或不是 http(s) 地址。</translation>
    </message>
    <message>
        <location filename="../llm/llmstream.cpp" line="312"/>
        <source>The server answered with %1 instead of an event stream.</source>
        <translation>服务器返回了 %1，而不是事件流。</translation>
    </message>
</context>
<context>
    <name>Llm::ProviderProfile</name>
    <message>
        <location filename="../llm/providerprofile.cpp" line="27"/>
        <source>Local demo engine (offline, not a language model)</source>
        <translation>本地演示引擎（离线，并非语言模型）</translation>
    </message>
    <message>
        <location filename="../llm/providerprofile.cpp" line="94"/>
        <source>Custom (OpenAI-compatible)</source>
        <translation>自定义（兼容 OpenAI）</translation>
    </message>
</context>
<context>
    <name>Prefetch::Metrics</name>
    <message>
        <location filename="../prefetch/metrics.cpp" line="280"/>
        <source>Context warm-up</source>
        <translation>上下文预热</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="281"/>
        <source>Hover prefetch</source>
        <translation>悬停预取</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="282"/>
        <source>Typing prefetch</source>
        <translation>输入预取</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="283"/>
        <source>Workflow prefetch</source>
        <translation>流程预取</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="284"/>
        <location filename="../prefetch/metrics.cpp" line="286"/>
        <source>No prefetch</source>
        <translation>无预取</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="297"/>
        <source>%1 %</source>
        <comment>a percentage</comment>
        <translation>%1%</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="316"/>
        <source>%1 alarm: hit rate %2 is below %3 after %4 attempts.</source>
        <translation>%1 告警：%4 次尝试后命中率为 %2，低于 %3。</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="334"/>
        <source>%1 paused: %2 tokens were wasted and none used yet; it resumes when extra cost is below %3.</source>
        <translation>%1 已暂停：已浪费 %2 个词元，尚未用上任何词元；额外开销低于 %3 时恢复。</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="340"/>
        <source>%1 paused: extra cost %2 is above %3; it resumes below %4.</source>
        <translation>%1 已暂停：额外开销 %2 高于 %3；低于 %4 时恢复。</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="353"/>
        <source>%1: hit rate %2 is back at or above %3.</source>
        <translation>%1：命中率 %2 已回到 %3 或以上。</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="360"/>
        <source>%1 resumed: extra cost %2 is below %3.</source>
        <translation>%1 已恢复：额外开销 %2 低于 %3。</translation>
    </message>
</context>
<context>
    <name>Prefetch::WarmupStrategy</name>
    <message>
        <location filename="../prefetch/warmupstrategy.cpp" line="86"/>
        <source>Warm-up is switched off.</source>
        <translation>预热已关闭。</translation>
    </message>
    <message>
        <location filename="../prefetch/warmupstrategy.cpp" line="91"/>
        <source>The document (about %1 tokens) is below the %2 tokens %3 caches.</source>
        <translation>文档（约 %1 个词元）低于 %3 缓存所需的 %2 个词元。</translation>
    </message>
    <message>
        <location filename="../prefetch/warmupstrategy.cpp" line="110"/>
        <source>The prefetch budget or lane refused the warm-up.</source>
        <translation>预取预算或通道拒绝了这次预热。</translation>
    </message>
</context>
<context>
    <name>Ui::AnswerPane</name>
    <message>
        <location filename="../ui/answerpane.cpp" line="25"/>
        <source>The answer appears here.</source>
        <translation>回答将显示在这里。</translation>
    </message>
    <message>
        <location filename="../ui/answerpane.cpp" line="26"/>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <location filename="../ui/answerpane.cpp" line="27"/>
        <source>Answer status</source>
        <translation>回答状态</translation>
    </message>
    <message>
        <location filename="../ui/answerpane.cpp" line="51"/>
        <source>Waiting for the first token from %1…</source>
        <translation>正在等待 %1 的第一个词元…</translation>
    </message>
    <message>
        <location filename="../ui/answerpane.cpp" line="95"/>
        <source>Streaming from %1… first token after %2 ms</source>
        <translation>正在从 %1 接收… 首个词元用时 %2 毫秒</translation>
    </message>
    <message>
        <location filename="../ui/answerpane.cpp" line="104"/>
        <source>Done. First token after %1 ms</source>
        <translation>完成。首个词元用时 %1 毫秒</translation>
    </message>
    <message>
        <location filename="../ui/answerpane.cpp" line="106"/>
        <source> (prefetched)</source>
        <translation>（已预取）</translation>
    </message>
    <message>
        <location filename="../ui/answerpane.cpp" line="111"/>
        <source>, %1 tokens/s</source>
        <translation>，每秒 %1 个词元</translation>
    </message>
    <message>
        <location filename="../ui/answerpane.cpp" line="115"/>
        <source>, %1 prompt tokens (%2 from cache)</source>
        <translation>，提示词 %1 个词元（其中 %2 个来自缓存）</translation>
    </message>
    <message>
        <location filename="../ui/answerpane.cpp" line="121"/>
        <source>(stopped at the token limit)</source>
        <translation>（已达到词元上限）</translation>
    </message>
    <message>
        <location filename="../ui/answerpane.cpp" line="122"/>
        <source>%1.</source>
        <comment>ends the status sentence</comment>
        <translation>%1。</translation>
    </message>
    <message>
        <location filename="../ui/answerpane.cpp" line="130"/>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
</context>
<context>
    <name>Ui::MainWindow</name>
    <message>
        <location filename="../ui/mainwindow.cpp" line="51"/>
        <source>Headstart</source>
        <translation>Headstart</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="52"/>
        <source>Write here, or open a document with Ctrl+O.</source>
        <translation>在这里写作，或按 Ctrl+O 打开文档。</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="53"/>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="61"/>
        <source>Summarize the document</source>
        <translation>总结文档</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="65"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="159"/>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="163"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="168"/>
        <source>&amp;Summarize</source>
        <translation>总结(&amp;S)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="170"/>
        <source>Summarize the document (%1)</source>
        <translation>总结文档（%1）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="174"/>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="176"/>
        <source>Stop the answer (Esc)</source>
        <translation>停止回答（Esc）</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="179"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="183"/>
        <source>&amp;AI</source>
        <translation>AI(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="187"/>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="200"/>
        <source>The document is empty: write or open something to summarize.</source>
        <translation>文档为空：请先写点内容或打开一个文档再总结。</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="221"/>
        <source>Provider: %1 · Model: %2</source>
        <translation>服务商：%1 · 模型：%2</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="229"/>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="231"/>
        <source>Streaming</source>
        <translation>正在接收</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="233"/>
        <source>Waiting for the provider</source>
        <translation>正在等待服务商</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="238"/>
        <location filename="../ui/mainwindow.cpp" line="248"/>
        <location filename="../ui/mainwindow.cpp" line="256"/>
        <source>Open Document</source>
        <translation>打开文档</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="239"/>
        <source>Text documents (*.md *.markdown *.txt);;All files (*)</source>
        <translation>文本文档 (*.md *.markdown *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="249"/>
        <source>%1 is %2 MB; Headstart opens documents up to %3 MB.</source>
        <translation>%1 大小为 %2 MB；Headstart 只能打开不超过 %3 MB 的文档。</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="257"/>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <location filename="../ui/mainwindow.cpp" line="262"/>
        <source>%1 – Headstart</source>
        <translation>%1 – Headstart</translation>
    </message>
</context>
</TS>
