<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>App::Application</name>
    <message>
        <location filename="../app/application.cpp" line="620"/>
        <source>Unknown latency profile &quot;%1&quot;; using &quot;hosted&quot;.</source>
        <translation>未知的延迟配置“%1”；改用“hosted”。</translation>
    </message>
    <message>
        <location filename="../app/application.cpp" line="373"/>
        <location filename="../app/application.cpp" line="377"/>
        <location filename="../app/application.cpp" line="741"/>
        <source>Headstart</source>
        <translation>Headstart</translation>
    </message>
    <message>
        <location filename="../app/application.cpp" line="370"/>
        <source>The local demo engine could not start: %1</source>
        <translation>本地演示引擎无法启动：%1</translation>
    </message>
    <message>
        <location filename="../app/application.cpp" line="412"/>
        <source>%1 needs an API key: add it in Settings, Providers.</source>
        <translation>%1 需要 API 密钥：请在“设置 › 服务商”中添加。</translation>
    </message>
    <message>
        <location filename="../app/application.cpp" line="504"/>
        <source>The new language takes effect when Headstart starts again.</source>
        <translation>新的语言将在 Headstart 下次启动时生效。</translation>
    </message>
    <message>
        <location filename="../app/application.cpp" line="528"/>
        <source>Could not read the proxy password: %1</source>
        <translation>无法读取代理密码：%1</translation>
    </message>
    <message>
        <location filename="../app/application.cpp" line="617"/>
        <source>%1 Using the one from the settings.</source>
        <translation>%1 改用设置中的服务商。</translation>
    </message>
    <message>
        <location filename="../app/application.cpp" line="708"/>
        <source>Answers are remembered for this session only: the response cache file could not be used.</source>
        <translation>回答只在本次运行中记住：响应缓存文件无法使用。</translation>
    </message>
    <message>
        <location filename="../app/application.cpp" line="737"/>
        <source>Welcome</source>
        <translation>欢迎</translation>
    </message>
</context>
<context>
    <name>App::KeychainSecretStore</name>
    <message>
        <location filename="../app/keychainsecretstore.cpp" line="102"/>
        <source>Checking the system keychain…</source>
        <translation>正在检查系统钥匙串…</translation>
    </message>
    <message>
        <location filename="../app/keychainsecretstore.cpp" line="105"/>
        <source>System keychain (macOS Keychain)</source>
        <translation>系统钥匙串（macOS 钥匙串）</translation>
    </message>
    <message>
        <location filename="../app/keychainsecretstore.cpp" line="107"/>
        <source>System keychain (Windows Credential Manager)</source>
        <translation>系统钥匙串（Windows 凭据管理器）</translation>
    </message>
    <message>
        <location filename="../app/keychainsecretstore.cpp" line="109"/>
        <source>System keychain (Secret Service)</source>
        <translation>系统钥匙串（Secret Service）</translation>
    </message>
    <message>
        <location filename="../app/keychainsecretstore.cpp" line="113"/>
        <source>Unencrypted file %1, readable only by you (no keychain service is running)</source>
        <translation>未加密的文件 %1，仅你本人可读（没有正在运行的钥匙串服务）</translation>
    </message>
    <message>
        <location filename="../app/keychainsecretstore.cpp" line="224"/>
        <source>Access to the system keychain was refused.</source>
        <translation>访问系统钥匙串被拒绝。</translation>
    </message>
    <message>
        <location filename="../app/keychainsecretstore.cpp" line="225"/>
        <source>The system keychain denied access: %1</source>
        <translation>系统钥匙串拒绝访问：%1</translation>
    </message>
    <message>
        <location filename="../app/keychainsecretstore.cpp" line="226"/>
        <source>The system keychain reported an error: %1</source>
        <translation>系统钥匙串报告错误：%1</translation>
    </message>
    <message>
        <location filename="../app/keychainsecretstore.cpp" line="237"/>
        <source>Cannot read the key file %1: %2</source>
        <translation>无法读取密钥文件 %1：%2</translation>
    </message>
    <message>
        <location filename="../app/keychainsecretstore.cpp" line="245"/>
        <source>The key file %1 is damaged; enter the keys again to replace it.</source>
        <translation>密钥文件 %1 已损坏；请重新输入密钥以替换它。</translation>
    </message>
    <message>
        <location filename="../app/keychainsecretstore.cpp" line="279"/>
        <source>Cannot create the folder %1 for the key file.</source>
        <translation>无法为密钥文件创建文件夹 %1。</translation>
    </message>
    <message>
        <location filename="../app/keychainsecretstore.cpp" line="286"/>
        <location filename="../app/keychainsecretstore.cpp" line="291"/>
        <source>Cannot write the key file %1: %2</source>
        <translation>无法写入密钥文件 %1：%2</translation>
    </message>
</context>
<context>
    <name>App::ScreenshotTour</name>
    <message>
        <location filename="../app/drivers/screenshottour.cpp" line="110"/>
        <source>What does the local demo engine model faithfully?</source>
        <translation>本地演示引擎如实模拟的是什么？</translation>
    </message>
    <message>
        <location filename="../app/drivers/screenshottour.cpp" line="145"/>
        <source>Why the first token matters</source>
        <translation>为什么第一个词元很重要</translation>
    </message>
    <message>
        <location filename="../app/drivers/screenshottour.cpp" line="147"/>
        <source>people who build writing tools</source>
        <translation>开发写作工具的人</translation>
    </message>
</context>
<context>
    <name>App::SingleInstance</name>
    <message>
        <location filename="../app/singleinstance.cpp" line="155"/>
        <location filename="../app/singleinstance.cpp" line="167"/>
        <source>Headstart is already running but did not answer: %1</source>
        <translation>Headstart 已在运行，但没有响应：%1</translation>
    </message>
    <message>
        <location filename="../app/singleinstance.cpp" line="168"/>
        <source>timed out</source>
        <translation>超时</translation>
    </message>
    <message>
        <location filename="../app/singleinstance.cpp" line="173"/>
        <source>Headstart is already running but did not open the files: %1</source>
        <translation>Headstart 已在运行，但没有打开这些文件：%1</translation>
    </message>
</context>
<context>
    <name>Base::DiskSpace</name>
    <message>
        <location filename="../base/diskspace.cpp" line="18"/>
        <source>The disk that holds %1 is full (%2 free).</source>
        <translation>存放 %1 的磁盘已满（剩余 %2）。</translation>
    </message>
</context>
<context>
    <name>CommandLine</name>
    <message>
        <location filename="../app/commandline.cpp" line="28"/>
        <source>Provider: local, deepseek, qwen, openai, anthropic, ollama, llamacpp, or the id or name of an endpoint added in Settings (custom at first).</source>
        <translation>服务商：local、deepseek、qwen、openai、anthropic、ollama、llamacpp，或在设置中添加的端点的 ID 或名称（起初为 custom）。</translation>
    </message>
    <message>
        <location filename="../app/commandline.cpp" line="33"/>
        <source>Open the files in a new window. Headstart has one window for now: they open in the running one.</source>
        <translation>在新窗口中打开文件。Headstart 目前只有一个窗口：文件会在正在运行的窗口中打开。</translation>
    </message>
    <message>
        <location filename="../app/commandline.cpp" line="36"/>
        <source>Latency profile of the local demo engine: hosted, hosted-long-doc, local-gpu, instant.</source>
        <translation>本地演示引擎的延迟配置：hosted、hosted-long-doc、local-gpu、instant。</translation>
    </message>
    <message>
        <location filename="../app/commandline.cpp" line="41"/>
        <source>User interface language, e.g. zh_CN (default: the one in Settings, else the system&apos;s).</source>
        <translation>界面语言，例如 zh_CN（默认：设置中选择的语言，否则为系统语言）。</translation>
    </message>
    <message>
        <location filename="../app/commandline.cpp" line="45"/>
        <source>Log debug messages to stderr and the log file.</source>
        <translation>将调试信息写入标准错误输出和日志文件。</translation>
    </message>
    <message>
        <location filename="../app/commandline.cpp" line="47"/>
        <source>Walk through the main views and save a PNG of each into this folder, then quit.</source>
        <translation>依次打开各主要界面，将每个界面的 PNG 截图保存到此文件夹，然后退出。</translation>
    </message>
    <message>
        <location filename="../app/commandline.cpp" line="61"/>
        <source>Headstart: AI writing and chat that starts the answer before you ask.</source>
        <translation>Headstart：在您提问之前就开始生成回答的 AI 写作与对话助手。</translation>
    </message>
    <message>
        <location filename="../app/commandline.cpp" line="72"/>
        <source>Markdown or text documents to open, each in its own tab.</source>
        <translation>要打开的 Markdown 或文本文档，每个文档一个标签页。</translation>
    </message>
</context>
<context>
    <name>Gui::AnswerPane</name>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="41"/>
        <source>The answer appears here.</source>
        <translation>回答将显示在这里。</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="57"/>
        <source>Answer status</source>
        <translation>回答状态</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="62"/>
        <source>Answer to</source>
        <translation>回答的操作</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="87"/>
        <source>Waiting for the first token from %1…</source>
        <translation>正在等待 %1 的第一个词元…</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="127"/>
        <source>Streaming from %1… first token after %2 ms</source>
        <translation>正在从 %1 接收… 首个词元用时 %2 毫秒</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="140"/>
        <source>Done. First token after %1 ms</source>
        <translation>完成。首个词元用时 %1 毫秒</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="143"/>
        <source> (started before you asked: it was ready)</source>
        <translation>（在您提问之前已开始：已准备好）</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="146"/>
        <source> (started %1 ms before you asked: not early enough to be ready)</source>
        <translation>（在您提问前 %1 毫秒开始：不够早，未能就绪）</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="148"/>
        <source> (started before you asked: not early enough to be ready)</source>
        <translation>（在您提问之前已开始：不够早，未能就绪）</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="154"/>
        <source>, %1 tokens/s</source>
        <translation>，每秒 %1 个词元</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="166"/>
        <source>, %1 prompt tokens (%2 from cache), and %3 more (%4 from cache) for the early start</source>
        <translation>，提示词 %1 个词元（其中 %2 个来自缓存），提前开始另用了 %3 个（其中 %4 个来自缓存）</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="170"/>
        <source>, %1 prompt tokens (%2 from cache)</source>
        <translation>，提示词 %1 个词元（其中 %2 个来自缓存）</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="174"/>
        <source>(stopped at the token limit)</source>
        <translation>（已达到词元上限）</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="176"/>
        <source>(withheld by the provider&apos;s content filter)</source>
        <translation>（已被服务商的内容过滤器拦截）</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="177"/>
        <source>%1.</source>
        <comment>ends the status sentence</comment>
        <translation>%1。</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="183"/>
        <source>From the cache: the answer this action got before on the same text. Nothing was sent; Regenerate asks anew.</source>
        <translation>来自缓存：这是此操作此前对同一文本给出的回答。未发送任何内容；“重新生成”会重新询问。</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="191"/>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <location filename="../gui/answer/answerpane.cpp" line="219"/>
        <source>Now using %1: run the action again to ask it.</source>
        <translation>现在使用的是 %1：重新运行该操作即可向它提问。</translation>
    </message>
</context>
<context>
    <name>Gui::AppSettings</name>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="77"/>
        <source>warm-up prefetch</source>
        <translation>预热</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="77"/>
        <source>&amp;Warm-up</source>
        <translation>预热(&amp;W)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="78"/>
        <source>Sends the open document once, with a one-token request, so the provider caches it and every action on it starts sooner.</source>
        <translation>用一个只生成 1 个词元的请求发送一次已打开的文档，让服务商缓存它，之后针对该文档的每个操作都会更快开始。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="83"/>
        <source>warm-up interval</source>
        <translation>预热间隔</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="84"/>
        <source>Re-warm &amp;every:</source>
        <translation>重新预热间隔(&amp;E)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="85"/>
        <source>While a document stays open, its cache is refreshed this often: provider caches expire after minutes.</source>
        <translation>文档保持打开期间，按此间隔刷新其缓存：服务商的缓存几分钟后就会过期。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="90"/>
        <source>warm-up idle limit</source>
        <translation>预热闲置上限</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="91"/>
        <source>Stop when &amp;idle for:</source>
        <translation>闲置多久后停止(&amp;I)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="92"/>
        <source>A document that has been in the background, or open without use, for this long is no longer re-warmed; it is warmed again when you come back to it.</source>
        <translation>在后台或打开但未使用达到这么久的文档不再重新预热；回到它时会再次预热。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="98"/>
        <source>hover prefetch</source>
        <translation>悬停预取</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="98"/>
        <source>&amp;Hover prefetch</source>
        <translation>悬停预取(&amp;H)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="99"/>
        <source>Resting the pointer on an action starts its answer; clicking takes it over, leaving cancels it.</source>
        <translation>指针停在某个操作上时即开始生成其回答；点击即接管该回答，移开则取消。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="104"/>
        <source>hover delay</source>
        <translation>悬停延迟</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="105"/>
        <source>Rest &amp;time before starting:</source>
        <translation>开始前的停留时间(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="106"/>
        <source>How long the pointer rests on an action before its answer starts.</source>
        <translation>指针在操作上停留多久后开始生成回答。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="109"/>
        <source>hover answer lifetime</source>
        <translation>悬停回答的有效期</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="110"/>
        <source>&amp;Keep an unused answer for:</source>
        <translation>未使用的回答保留(&amp;K)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="111"/>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="175"/>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="229"/>
        <source>An early answer nobody asked for is cancelled after this long.</source>
        <translation>无人请求的提前回答在此时间后取消。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="115"/>
        <source>debounce prefetch</source>
        <translation>防抖预取</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="116"/>
        <source>&amp;Debounce prefetch (typing pauses)</source>
        <translation>防抖预取（输入停顿时）(&amp;D)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="117"/>
        <source>A pause in typing a message that looks finished starts its answer; sending takes it over.</source>
        <translation>输入一条看起来已写完的消息时一旦停顿，即开始生成其回答；发送即接管该回答。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="122"/>
        <source>typing pause</source>
        <translation>输入停顿时长</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="122"/>
        <source>Typing &amp;pause:</source>
        <translation>输入停顿(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="123"/>
        <source>How long typing must pause before the draft is considered.</source>
        <translation>输入需停顿多久才会考虑该草稿。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="126"/>
        <source>pause after a sentence end</source>
        <translation>句末停顿</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="127"/>
        <source>Pause after a se&amp;ntence end:</source>
        <translation>句末停顿(&amp;N)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="128"/>
        <source>A draft that ends with a question mark or full stop is considered after this shorter pause: Enter usually follows within half a second.</source>
        <translation>以问号或句号结尾的草稿，只需停顿这段较短的时间就会被考虑：回车键通常在半秒内按下。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="133"/>
        <source>minimum draft length</source>
        <translation>草稿最小长度</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="134"/>
        <source>Minimum draft &amp;length:</source>
        <translation>草稿最小长度(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="135"/>
        <source>Shorter drafts are never sent early, except short follow-ups.</source>
        <translation>更短的草稿永远不会被提前发送，简短的追问除外。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="138"/>
        <source>short follow-ups</source>
        <translation>简短追问</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="139"/>
        <source>Judge short &amp;follow-ups after an answer</source>
        <translation>回答之后也判断简短的追问(&amp;F)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="140"/>
        <source>Right after an answer, a reply of a word or two (&quot;why?&quot;, &quot;shorter&quot;) can be sent early too, although it is shorter than the minimum length.</source>
        <translation>回答刚结束时，一两个词的回复（如“为什么？”“短一点”）即使短于最小长度，也可以提前发送。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="145"/>
        <source>suggested follow-ups</source>
        <translation>建议的后续问题</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="146"/>
        <source>Su&amp;ggest follow-ups after an answer</source>
        <translation>回答之后提供后续问题建议(&amp;G)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="147"/>
        <source>Offers replies you often send (and a few common ones) under an answer; the first one&apos;s answer is started in advance, a few words of it.</source>
        <translation>在回答下方提供您常发的回复（以及几条常用回复）；第一条的回答会提前开始，先取开头几个词。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="151"/>
        <source>suggested follow-up lifetime</source>
        <translation>建议回复的提前回答保留时间</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="152"/>
        <source>Keep a suggestion&apos;s &amp;early answer for:</source>
        <translation>建议的提前回答保留(&amp;E)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="153"/>
        <source>The first suggestion&apos;s early answer waits this long for you to read the answer before it, then it is dropped.</source>
        <translation>第一条建议的提前回答会等待这么久，让您读完前面的回答，之后即被丢弃。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="158"/>
        <source>draft completion</source>
        <translation>草稿补全</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="159"/>
        <source>Complete drafts as you t&amp;ype</source>
        <translation>输入时补全草稿(&amp;Y)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="160"/>
        <source>Shows in grey how a message you sent before, or a word of the conversation or document, would go on; Tab or Right accepts it, Esc dismisses it. An accepted message&apos;s answer is started at once. Nothing is sent to a provider to complete.</source>
        <translation>以灰色显示您以前发送过的消息、或对话与文档中的词语可能的后续；按 Tab 或右方向键接受，按 Esc 忽略。接受整条消息后，其回答会立即开始准备。补全不会向服务商发送任何内容。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="166"/>
        <source>completeness threshold</source>
        <translation>完整度阈值</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="167"/>
        <source>&amp;Completeness threshold:</source>
        <translation>完整度阈值(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="168"/>
        <source>A draft is sent early only when the completeness check is at least this sure (0 to 1) that you have finished it.</source>
        <translation>只有当完整度检查至少有这么大把握（0 到 1）认为你已写完时，草稿才会被提前发送。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="173"/>
        <source>debounce answer lifetime</source>
        <translation>防抖回答的有效期</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="174"/>
        <source>Keep an &amp;unused answer for:</source>
        <translation>未使用的回答保留(&amp;U)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="178"/>
        <source>similarity threshold</source>
        <translation>相似度阈值</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="179"/>
        <source>Take over when &amp;similar:</source>
        <translation>相似时接管(&amp;S)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="180"/>
        <source>0: the message sent must equal the draft. Otherwise the minimum similarity (0 to 1) at which a slightly different message still takes over the early answer.</source>
        <translation>0：发送的消息必须与草稿相同。否则为最低相似度（0 到 1），达到该值时略有不同的消息仍可接管提前生成的回答。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="185"/>
        <source>model completeness check</source>
        <translation>模型完整度检查</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="186"/>
        <source>Ask the &amp;model whether a draft is complete</source>
        <translation>询问模型(&amp;M)草稿是否完整</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="187"/>
        <source>Sends the draft to the provider to judge whether it is finished, instead of the built-in check; costs a few tokens per pause.</source>
        <translation>将草稿发送给服务商来判断是否已写完，以代替内置检查；每次停顿会消耗少量词元。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="192"/>
        <source>passage warm-up at a pause</source>
        <translation>停顿时预热段落</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="193"/>
        <source>&amp;Warm the library&apos;s passages at a pause</source>
        <translation>停顿时预热资料库段落(&amp;W)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="194"/>
        <source>In a chat about your library, the passages found for the draft are sent ahead to the provider&apos;s prompt cache at each typing pause, so the answer starts a little sooner; each pause that finds other passages pays for them again. Needs warm-up on; not done for Anthropic, whose cache would not keep them.</source>
        <translation>在关于资料库的对话中，每次输入停顿时，为草稿找到的段落会提前发送到服务商的提示缓存，使回答稍早开始；每次停顿找到不同段落都要再付一次费用。需要开启预热；Anthropic 不适用，因为它的缓存不会保留这些段落。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="202"/>
        <source>response cache</source>
        <translation>响应缓存</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="203"/>
        <source>Answer &amp;repeats from the cache</source>
        <translation>重复的问题从缓存回答(&amp;R)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="204"/>
        <source>A question or action asked again exactly as before (the same document, selection, conversation and model) gets the answer it got then, at once and without a request, marked as from the cache. Regenerate always asks anew.</source>
        <translation>与之前完全相同的问题或操作（同一文档、选区、对话和模型）会立即得到当时的回答，不发送请求，并标记为来自缓存。“重新生成”总是重新询问。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="211"/>
        <source>near-duplicate chat questions</source>
        <translation>近似的聊天问题</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="212"/>
        <source>Show the answer to a &amp;similar chat question as a draft</source>
        <translation>将相似聊天问题的回答显示为草稿(&amp;S)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="213"/>
        <source>A chat question close to one already answered in the same context shows the earlier answer at once, marked as a draft, while the live answer comes and replaces it. A question almost the same as one answered many times is answered from the cache.</source>
        <translation>与同一上下文中已回答过的问题相近的聊天问题，会立即显示之前的回答并标记为草稿，实时回答到达后将其替换。与多次回答过的问题几乎相同的问题直接从缓存回答。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="220"/>
        <source>workflow prefetch</source>
        <translation>工作流预取</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="221"/>
        <source>W&amp;orkflow prefetch</source>
        <translation>工作流预取(&amp;O)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="222"/>
        <source>Completing a step of a wizard starts the answer of the next one from the form data.</source>
        <translation>完成向导的一个步骤后，即根据表单数据开始生成下一步的回答。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="227"/>
        <source>workflow answer lifetime</source>
        <translation>工作流回答的有效期</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="228"/>
        <source>Keep an unused answer &amp;for:</source>
        <translation>未使用的回答保留(&amp;F)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="233"/>
        <source>early guess length</source>
        <translation>提前猜测的长度</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="234"/>
        <source>&amp;Length of an early guess:</source>
        <translation>提前猜测的长度(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="235"/>
        <source>An early guess keeps only this many tokens (it stops there unless you point at or choose the action while it streams), so a wrong one costs little; when you ask, they show at once while the rest is fetched. Only where the provider can continue an answer.</source>
        <translation>提前猜测只保留这么多个词元（除非在它生成时你指向或选择了该操作，否则就在此停止），猜错了花费也很少；你真正发出请求时，这些词元会立即显示，其余部分随后获取。仅适用于能够续写回答的服务商。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="242"/>
        <source>answers guessed at once</source>
        <translation>同时猜测的回答数</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="243"/>
        <source>Answers &amp;guessed at once:</source>
        <translation>同时猜测的回答数(&amp;G)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="244"/>
        <source>When a signal leaves several actions possible, this many of the likeliest are guessed.</source>
        <translation>当一个信号对应多个可能的操作时，猜测其中最可能的这么多个。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="249"/>
        <source>waste allowed per guess</source>
        <translation>每次猜测允许的浪费</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="250"/>
        <source>Let wrong guesses &amp;cost at most:</source>
        <translation>猜错的花费最多为(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="251"/>
        <source>A guess that learns from what you do (after a selection) is made only where its wrong guesses are expected to cost at most this share of what the answers it gets right cost, at the provider&apos;s prices.</source>
        <translation>会从你的操作中学习的猜测（选中文字之后）只在这种情况下进行：按服务商的价格，猜错的预期花费不超过猜对的回答所花费用的这个比例。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="258"/>
        <source>pointer trajectory prefetch</source>
        <translation>指针轨迹预取</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="259"/>
        <source>Pointer &amp;trajectory</source>
        <translation>指针轨迹(&amp;T)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="260"/>
        <source>While the pointer moves, where it is heading is predicted; an action button it will arrive on gets an early guess before the pointer is there.</source>
        <translation>指针移动时会预测它的去向；它将要到达的操作按钮会在指针到达之前得到一次提前猜测。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="265"/>
        <source>trajectory margin</source>
        <translation>轨迹边距</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="266"/>
        <source>&amp;Margin around a button:</source>
        <translation>按钮周围的边距(&amp;M)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="267"/>
        <source>A predicted end this close to a button counts as arriving on it.</source>
        <translation>预测的终点离按钮这么近时，视为到达该按钮。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="270"/>
        <source>trajectory guess lifetime</source>
        <translation>轨迹猜测的有效期</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="271"/>
        <source>Keep an unused &amp;guess for:</source>
        <translation>未使用的猜测保留(&amp;G)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="272"/>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="290"/>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="303"/>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="322"/>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="339"/>
        <source>An early guess nobody asked for is cancelled after this long.</source>
        <translation>没有被用到的提前猜测在这么长时间后取消。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="276"/>
        <source>selection prefetch</source>
        <translation>选区预取</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="277"/>
        <source>Finished &amp;selection</source>
        <translation>完成的选区(&amp;S)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="278"/>
        <source>Selecting text guesses the action you usually take on a selection (rewrite, explain or translate).</source>
        <translation>选中文本后，会猜测你通常对选区执行的操作（改写、解释或翻译）。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="283"/>
        <source>selection settle time</source>
        <translation>选区稳定时间</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="284"/>
        <source>Selection &amp;unchanged for:</source>
        <translation>选区保持不变(&amp;U)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="285"/>
        <source>A selection that stays this long is finished.</source>
        <translation>选区保持这么长时间不变即视为完成。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="288"/>
        <source>selection guess lifetime</source>
        <translation>选区猜测的有效期</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="289"/>
        <source>Keep an unused g&amp;uess for:</source>
        <translation>未使用的猜测保留(&amp;U)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="294"/>
        <source>keyboard prefetch</source>
        <translation>键盘预取</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="295"/>
        <source>&amp;Keyboard focus and shortcuts</source>
        <translation>键盘焦点和快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="296"/>
        <source>Moving the keyboard focus onto an action, or holding a shortcut&apos;s Ctrl+Alt, guesses the action that follows.</source>
        <translation>把键盘焦点移到某个操作上，或按住快捷键的 Ctrl+Alt，会猜测接下来的操作。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="301"/>
        <source>keyboard guess lifetime</source>
        <translation>键盘猜测的有效期</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="302"/>
        <source>Keep an unused gu&amp;ess for:</source>
        <translation>未使用的猜测保留(&amp;E)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="307"/>
        <source>opened-document prefetch</source>
        <translation>打开文档预取</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="308"/>
        <source>&amp;Opened document</source>
        <translation>刚打开的文档(&amp;O)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="309"/>
        <source>A document just opened and being read guesses what you usually do first (a summary, a continuation).</source>
        <translation>刚打开、正在阅读的文档会猜测你通常先做的事（摘要、续写）。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="314"/>
        <source>reading time</source>
        <translation>阅读时间</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="315"/>
        <source>Open and unedited &amp;for:</source>
        <translation>打开且未编辑(&amp;F)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="316"/>
        <source>The guess waits until the document has been open this long without an edit.</source>
        <translation>文档打开这么长时间且未被编辑后才开始猜测。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="320"/>
        <source>opened-document guess lifetime</source>
        <translation>打开文档猜测的有效期</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="321"/>
        <source>Keep an unused gue&amp;ss for:</source>
        <translation>未使用的猜测保留(&amp;S)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="326"/>
        <source>habits prefetch</source>
        <translation>习惯预取</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="326"/>
        <source>Your &amp;habits</source>
        <translation>你的习惯(&amp;H)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="327"/>
        <source>After an answer, the action you usually take next is guessed. What you usually do is counted on this computer only.</source>
        <translation>一个回答结束后，会猜测你通常接下来执行的操作。你的习惯只在这台电脑上统计。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="332"/>
        <source>habit threshold</source>
        <translation>习惯阈值</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="333"/>
        <source>Guess when at least &amp;this likely:</source>
        <translation>可能性至少达到此值时猜测(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="334"/>
        <source>How often you took that action next, of the times before.</source>
        <translation>在以往的情况中，你接下来执行该操作的比例。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="337"/>
        <source>habits guess lifetime</source>
        <translation>习惯猜测的有效期</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="338"/>
        <source>Keep an unused guess fo&amp;r:</source>
        <translation>未使用的猜测保留(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="343"/>
        <source>buffer cap</source>
        <translation>缓冲上限</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="344"/>
        <source>&amp;Buffer per early answer:</source>
        <translation>每个提前回答的缓冲(&amp;B)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="345"/>
        <source>An early answer nobody has asked for yet stops reading at this many tokens and the provider waits; nothing is dropped.</source>
        <translation>尚无人请求的提前回答在读到这么多词元后暂停读取，服务商随之等待；不会丢弃任何内容。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="350"/>
        <source>foreground lane</source>
        <translation>前台通道</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="351"/>
        <source>&amp;Foreground requests at once:</source>
        <translation>同时进行的前台请求(&amp;F)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="352"/>
        <source>Answers you asked for that may stream at the same time.</source>
        <translation>你请求的回答中可同时流式传输的数量。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="355"/>
        <source>time limit per request</source>
        <translation>单个请求的时间上限</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="356"/>
        <source>T&amp;ime limit per request:</source>
        <translation>单个请求的时间上限(&amp;I)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="357"/>
        <source>A request still not done after this long fails as a timeout, keeping the text so far: a server that only sends keep-alives cannot hold an answer forever.</source>
        <translation>请求在这段时间后仍未完成，即按超时失败，并保留目前收到的文本：只发送保活消息的服务器无法无限期地占住一个回答。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="362"/>
        <source>prefetch lane</source>
        <translation>预取通道</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="363"/>
        <source>&amp;Prefetch requests at once:</source>
        <translation>同时进行的预取请求(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="364"/>
        <source>Early answers that may stream at the same time; at most the foreground lane. An answer you ask for always takes precedence.</source>
        <translation>可同时流式传输的提前回答数量；不超过前台通道。你请求的回答始终优先。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="369"/>
        <source>prefetch queue</source>
        <translation>预取队列</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="369"/>
        <source>Prefetch &amp;queue:</source>
        <translation>预取队列(&amp;Q)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="370"/>
        <source>Early answers waiting for a slot; beyond this many they are skipped.</source>
        <translation>等待空位的提前回答；超过此数量则跳过。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="373"/>
        <source>hourly prefetch budget</source>
        <translation>每小时预取预算</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="374"/>
        <source>Hourly token b&amp;udget:</source>
        <translation>每小时词元预算(&amp;U)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="375"/>
        <source>Tokens early answers may use in any hour; 0 means unlimited.</source>
        <translation>提前回答在任意一小时内可使用的词元数；0 表示不限。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="378"/>
        <source>hourly money budget</source>
        <translation>每小时金额预算</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="379"/>
        <source>Hourly mone&amp;y budget:</source>
        <translation>每小时金额预算(&amp;Y)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="380"/>
        <source>What early answers may cost in any hour, at the provider&apos;s prices (Providers page) and in its currency; 0 means unlimited. An early answer must fit this and the token budget. A provider without prices is not limited by it.</source>
        <translation>提前回答在任意一小时内可花费的金额，按服务商的价格（见“服务商”页）以其货币计；0 表示不限。提前回答须同时在本预算和词元预算之内。没有价格的服务商不受此限制。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="387"/>
        <source>pause on battery saver and metered connections</source>
        <translation>在省电模式和按流量计费的连接下暂停</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="388"/>
        <source>Pause prefetch on battery sa&amp;ver and metered connections</source>
        <translation>在省电模式和按流量计费的连接下暂停预取(&amp;V)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="389"/>
        <source>While the battery is low or the computer is in power-saver mode, or its network connection is metered, no early answers are started; the answers you ask for still come. The status bar says when prefetch is paused and why.</source>
        <translation>电量不足、电脑处于省电模式或网络连接按流量计费时，不会提前开始任何回答；你主动请求的回答照常返回。状态栏会说明预取何时暂停以及原因。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="396"/>
        <source>fast-model routing</source>
        <translation>快速模型分流</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="397"/>
        <source>Answer small talk and simple &amp;questions with the fast model</source>
        <translation>用快速模型回答闲聊和简单问题(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="398"/>
        <source>In a chat that is not about a document or the library, greetings, thanks and short factual questions go to the provider&apos;s fast model (Providers page), which answers sooner and costs less. The answer is marked, with a button to ask the main model instead. Nothing happens where the fast model is the main model.</source>
        <translation>在不涉及文档或资料库的对话中，问候、致谢和简短的事实性问题会发给服务商的快速模型（“服务商”页面），它回答更快、费用更低。这样的回答会有标记，并附有改问主模型的按钮。快速模型与主模型相同时不做任何分流。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="405"/>
        <source>instant acknowledgement</source>
        <translation>即时回应</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="406"/>
        <source>Acknowledge at once while a reasoning model &amp;thinks</source>
        <translation>推理模型思考时先即时回应(&amp;T)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="407"/>
        <source>Where the main model thinks before it answers (deepseek-reasoner, QwQ, o-series, Claude with extended thinking) and the provider has a fast model, the fast model is asked for one line on what the question is about, shown above the answer until the answer begins. It is a small request more for every such message, counted in the prefetch budget; off by default.</source>
        <translation>主模型回答前会先思考（deepseek-reasoner、QwQ、o 系列、开启扩展思考的 Claude），且服务商有快速模型时，请快速模型用一句话说明问题涉及什么，显示在回答上方，回答开始后即消失。每条这样的消息会多一个小请求，计入预取预算；默认关闭。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="414"/>
        <source>fast opening</source>
        <translation>快速开头</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="415"/>
        <source>Let the fast model write the first &amp;words of an answer</source>
        <translation>让快速模型写出回答的开头几句(&amp;W)</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="416"/>
        <source>In a chat that is not about a document or the library, the fast model writes the first sentence of an answer meant for the main model, which then continues it. The first words come sooner, followed by a pause while the main model takes over; they are marked as the fast model&apos;s. Only where the provider can continue an answer (not Claude 4.6 and later); off by default.</source>
        <translation>在不涉及文档或资料库的对话中，由快速模型写出本应由主模型给出的回答的第一句，再由主模型接着写完。开头会更快出现，随后在主模型接手时会有一段停顿；开头会标明出自快速模型。仅在服务商支持续写回答时可用（Claude 4.6 及更高版本不支持）；默认关闭。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="424"/>
        <source>fast opening length</source>
        <translation>快速开头长度</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="425"/>
        <source>Length of the &amp;opening:</source>
        <translation>开头长度(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="426"/>
        <source>How much the fast model writes before the main model continues: longer hides more of the main model&apos;s wait, and more of the answer is the fast model&apos;s.</source>
        <translation>主模型接手前由快速模型写多少：越长越能掩盖主模型的等待时间，但回答中出自快速模型的部分也越多。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="432"/>
        <source>hit-rate alarm</source>
        <translation>命中率告警</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="433"/>
        <source>Warn when the hit rate falls &amp;below:</source>
        <translation>命中率低于此值时告警(&amp;B)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="434"/>
        <source>A strategy whose early answers are used less often than this raises an alarm.</source>
        <translation>提前回答被使用的比例低于此值的策略会触发告警。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="438"/>
        <source>attempts before alarms</source>
        <translation>告警前的最少尝试次数</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="439"/>
        <source>Minimum &amp;attempts before alarms:</source>
        <translation>告警前的最少尝试次数(&amp;A)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="440"/>
        <source>Alarms wait until a strategy has made this many attempts.</source>
        <translation>策略尝试达到此次数后才会告警。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="443"/>
        <source>extra-cost ceiling</source>
        <translation>额外成本上限</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="444"/>
        <source>Pause a strategy above e&amp;xtra cost:</source>
        <translation>额外成本高于此值时暂停策略(&amp;X)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="445"/>
        <source>What unused early answers cost, as a share of what the answers you used cost: in money where the provider has prices, in tokens where it has none. Above this the strategy pauses itself.</source>
        <translation>未使用的提前回答的开销占已使用回答开销的比例：服务商有价格时按金额计，没有价格时按词元计。超过此值时，该策略会自动暂停。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="451"/>
        <source>extra-cost resume level</source>
        <translation>额外成本恢复水平</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="452"/>
        <source>&amp;Resume a paused strategy below:</source>
        <translation>低于此值时恢复已暂停的策略(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="453"/>
        <source>A paused strategy resumes once its extra cost falls below this; at most the ceiling. The early guesses (on a selection, the pointer&apos;s way, shortcut keys held, a document opened) also keep what they add to your bill under it: over it, each one must be likelier to pay.</source>
        <translation>已暂停的策略在额外成本降到此值以下时恢复；不超过上限。提前猜测（选中文本、指针移动方向、按住快捷键、打开文档）也会把它们给账单增加的费用保持在此值以下：超过时，每次猜测都必须更有把握划算。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="461"/>
        <source>metrics refresh interval</source>
        <translation>指标刷新间隔</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="462"/>
        <source>Metrics refresh i&amp;nterval:</source>
        <translation>指标刷新间隔(&amp;N)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="463"/>
        <source>How often the metrics panel is updated.</source>
        <translation>指标面板的更新频率。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="465"/>
        <source>latency samples</source>
        <translation>延迟样本数</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="466"/>
        <source>Latency samples &amp;kept:</source>
        <translation>保留的延迟样本数(&amp;K)：</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="467"/>
        <source>Latencies kept per series for the median and 95th percentile.</source>
        <translation>每个序列为计算中位数和第 95 百分位而保留的延迟数。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="208"/>
        <source>%1 retired the model %2 on %3; Headstart uses %4, which %1 names in its place. Choose another in Settings, Providers.</source>
        <translation>%1 已于 %3 停用模型 %2；Headstart 改用 %1 指定的替代模型 %4。可在“设置 → 服务商”中另选。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="552"/>
        <source>The on/off value of %1 in the settings file was neither true nor false; using %2.</source>
        <translation>设置文件中%1的开关值既不是 true 也不是 false；改用“%2”。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="558"/>
        <source>The %1 in the settings file was not a number; using %2.</source>
        <translation>设置文件中的%1不是数字；改用 %2。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="560"/>
        <source>The %1 in the settings file was not a whole number; using %2.</source>
        <translation>设置文件中的%1不是整数；改用 %2。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="562"/>
        <source>The %1 in the settings file (%2) was outside %3 to %4; using %5.</source>
        <translation>设置文件中的%1（%2）超出了 %3 到 %4 的范围；改用 %5。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="574"/>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="583"/>
        <source>The %1 in the settings file (%2) was larger than the %3 (%4); using %5.</source>
        <translation>设置文件中的%1（%2）大于%3（%4）；改用 %5。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/settingsfile.cpp" line="110"/>
        <source>The provider &quot;%1&quot; in the settings file is unknown; using %2.</source>
        <translation>设置文件中的服务商“%1”未知；改用%2。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="185"/>
        <source>The settings file has settings for an unknown provider &quot;%1&quot;; they were ignored.</source>
        <translation>设置文件中包含未知服务商“%1”的设置；已忽略。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="197"/>
        <location filename="../workspace/settings/provideroverrides.cpp" line="239"/>
        <location filename="../workspace/settings/provideroverrides.cpp" line="255"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="220"/>
        <source>Headstart chooses the address of %1 itself; the base URL in the settings file was ignored.</source>
        <translation>%1 的地址由 Headstart 自行选择；已忽略设置文件中的基础 URL。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="226"/>
        <source>The base URL of %1 in the settings file was empty; using %2.</source>
        <translation>设置文件中 %1 的基础 URL 为空；改用 %2。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="230"/>
        <source>The base URL of %1 in the settings file (%2) is not an http:// or https:// address; using %3.</source>
        <translation>设置文件中 %1 的基础 URL（%2）不是 http:// 或 https:// 地址；改用 %3。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="243"/>
        <source>The model of %1 in the settings file (%2) is not a model name; using %3.</source>
        <translation>设置文件中 %1 的模型（%2）不是有效的模型名称；改用 %3。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="254"/>
        <source>The fast model of %1 in the settings file (%2) is not a model name; using %3.</source>
        <translation>设置文件中 %1 的快速模型（%2）不是模型名称；改用 %3。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="265"/>
        <source>not text</source>
        <translation>不是文本</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="270"/>
        <source>The extra headers of %1 in the settings file were ignored: %2</source>
        <translation>已忽略设置文件中 %1 的附加请求头：%2</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="280"/>
        <source>The concurrency limit of %1 in the settings file (%2) is not a whole number from %3 to %4; using %5.</source>
        <translation>设置文件中 %1 的并发上限（%2）不是 %3 到 %4 之间的整数；改用 %5。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="293"/>
        <source>%1 has no extended thinking; the thinking budget in the settings file was ignored.</source>
        <translation>%1 没有扩展思考功能；已忽略设置文件中的思考预算。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="298"/>
        <source>The thinking budget of %1 in the settings file (%2) is not 0 (off) or a whole number of tokens from %3 to %4; thinking stays off.</source>
        <translation>设置文件中 %1 的思考预算（%2）不是 0（关闭），也不是 %3 到 %4 之间的整数个词元；思考保持关闭。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="311"/>
        <source>%1 has no choice of cache lifetime; the setting in the settings file was ignored.</source>
        <translation>%1 没有可选的缓存时长；已忽略设置文件中的这一项。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="316"/>
        <source>The cache lifetime of %1 in the settings file (%2) is not true (an hour) or false (five minutes); it stays five minutes.</source>
        <translation>设置文件中 %1 的缓存时长（%2）既不是 true（一小时）也不是 false（五分钟）；仍为五分钟。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="327"/>
        <source>The prefetch consent for %1 in the settings file was neither true nor false; hover and debounce prefetch stay off for it.</source>
        <translation>设置文件中 %1 的预取同意项既不是 true 也不是 false；对它保持关闭悬停预取和防抖预取。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="337"/>
        <source>Whether %1 may use plain http:// was neither true nor false in the settings file; it may not.</source>
        <translation>设置文件中关于 %1 是否可以使用明文 http:// 的值既不是 true 也不是 false；因此不允许。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="350"/>
        <source>The %1 timeout of %2 in the settings file (%3) is not a whole number of seconds from %4 to %5; using %6 s.</source>
        <translation>设置文件中 %2 的%1超时（%3）不是 %4 到 %5 之间的整秒数；改用 %6 秒。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="367"/>
        <source>The %1 price of %2 in the settings file (%3) is not a price per million tokens from 0 to %4; using %5.</source>
        <translation>设置文件中 %2 的%1价格（%3）不是 0 到 %4 之间的每百万词元价格；改用 %5。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/settingsfile.cpp" line="126"/>
        <source>The user interface language &quot;%1&quot; in the settings file is not available; using the system&apos;s language.</source>
        <translation>设置文件中的界面语言“%1”不可用；改用系统语言。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/settingsfile.cpp" line="136"/>
        <source>The target language of Translate in the settings file (%1) is not a language name; Translate writes the other of English and Chinese.</source>
        <translation>设置文件中“翻译”的目标语言（%1）不是语言名称；“翻译”将写成英语和中文中的另一种。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/settingsfile.cpp" line="147"/>
        <source>The text size in the settings file (%1) is not a percentage from %2 to %3; using the desktop&apos;s size.</source>
        <translation>设置文件中的文字大小（%1）不是 %2 到 %3 之间的百分比；改用桌面的大小。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/settingsfile.cpp" line="163"/>
        <source>The colour scheme in the settings file (%1) is not one of &quot;system&quot;, &quot;light&quot; or &quot;dark&quot;; following the desktop.</source>
        <translation>设置文件中的配色方案（%1）不是“system”“light”或“dark”之一；将跟随桌面。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/settingsfile.cpp" line="173"/>
        <source>The log detail in the settings file (%1) is not one of &quot;warnings&quot;, &quot;normal&quot; or &quot;detailed&quot;; using &quot;normal&quot;.</source>
        <translation>设置文件中的日志详细程度（%1）不是“warnings”、“normal”或“detailed”之一；将使用“normal”。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/appsettings.cpp" line="23"/>
        <source>Normal</source>
        <translation>普通</translation>
    </message>
    <message>
        <location filename="../workspace/settings/appsettings.cpp" line="24"/>
        <source>Detailed (for bug reports)</source>
        <translation>详细（用于错误报告）</translation>
    </message>
    <message>
        <location filename="../workspace/settings/appsettings.cpp" line="25"/>
        <source>Warnings and errors only</source>
        <translation>仅警告和错误</translation>
    </message>
    <message>
        <location filename="../workspace/settings/appsettings.cpp" line="30"/>
        <source>As the desktop</source>
        <translation>跟随桌面</translation>
    </message>
    <message>
        <location filename="../workspace/settings/appsettings.cpp" line="31"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../workspace/settings/appsettings.cpp" line="32"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../workspace/settings/appsettings.cpp" line="38"/>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="482"/>
        <source>connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="483"/>
        <source>first byte</source>
        <translation>首字节</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="484"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="495"/>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="495"/>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="497"/>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="498"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="499"/>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="502"/>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="513"/>
        <source>unlimited</source>
        <translation>不限</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="503"/>
        <source>%1 tokens</source>
        <translation>%1 个词元</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="504"/>
        <source>%1 characters</source>
        <translation>%1 个字符</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="505"/>
        <source>%1 requests</source>
        <translation>%1 个请求</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="506"/>
        <source>%1 samples</source>
        <translation>%1 个样本</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="508"/>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <location filename="../workspace/settings/prefetchparameters.cpp" line="509"/>
        <source>%1 px</source>
        <translation>%1 像素</translation>
    </message>
    <message>
        <location filename="../workspace/settings/settingsfile.cpp" line="203"/>
        <source>The settings file %1 could not be opened; Headstart uses the default settings.</source>
        <translation>无法打开设置文件 %1；Headstart 将使用默认设置。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/settingsfile.cpp" line="215"/>
        <source>some lines</source>
        <translation>部分行</translation>
    </message>
    <message>
        <location filename="../workspace/settings/settingsfile.cpp" line="217"/>
        <source>Part of the settings file %1 could not be read (%2) and was ignored; every other value was kept. The file as it was is kept as %3.</source>
        <translation>设置文件 %1 的一部分无法读取（%2），已被忽略；其他所有值均已保留。文件原样保存为 %3。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/settingsfile.cpp" line="221"/>
        <source>Part of the settings file %1 could not be read (%2) and was ignored; every other value was kept.</source>
        <translation>设置文件 %1 的一部分无法读取（%2），已被忽略；其他所有值均已保留。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/settingsfile.cpp" line="234"/>
        <source>Which provider you chose could not be read from the settings file; Headstart uses %1 until you choose one in Settings, Providers.</source>
        <translation>无法从设置文件中读出您选择的服务商；在您于“设置 → 服务商”中重新选择之前，Headstart 使用 %1。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/settingsfile.cpp" line="297"/>
        <source>line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <location filename="../workspace/settings/settingsfile.cpp" line="297"/>
        <source>line %1 &quot;%2&quot;</source>
        <translation>第 %1 行“%2”</translation>
    </message>
    <message>
        <location filename="../workspace/settings/settingsfile.cpp" line="299"/>
        <source>more</source>
        <translation>更多</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="465"/>
        <source>%1 per million tokens</source>
        <translation>每百万词元 %1</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="471"/>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="472"/>
        <source>cache write</source>
        <translation>缓存写入</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="473"/>
        <source>cache read</source>
        <translation>缓存读取</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="474"/>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="437"/>
        <source>line %1 is not &quot;Name: value&quot;.</source>
        <translation>第 %1 行不是“名称: 值”的格式。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="440"/>
        <source>line %1 contains a control character.</source>
        <translation>第 %1 行包含控制字符。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/provideroverrides.cpp" line="445"/>
        <source>line %1 sets %2, which Headstart sets itself; API keys go in the key fields.</source>
        <translation>第 %1 行设置了 %2，该请求头由 Headstart 自行设置；API 密钥请填写在密钥栏中。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/networksettings.cpp" line="47"/>
        <source>The proxy mode in the settings file (%1) is not one of &quot;system&quot;, &quot;none&quot;, &quot;http&quot; or &quot;socks5&quot;; using the system&apos;s proxy settings.</source>
        <translation>设置文件中的代理模式（%1）不是 “system”、“none”、“http” 或 “socks5” 之一；改用系统的代理设置。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/networksettings.cpp" line="58"/>
        <source>The proxy host in the settings file is not a host name or address; it was ignored.</source>
        <translation>设置文件中的代理主机不是主机名或地址，已忽略。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/networksettings.cpp" line="68"/>
        <source>The proxy port in the settings file (%1) is not a number from 1 to 65535; it was ignored.</source>
        <translation>设置文件中的代理端口（%1）不是 1 到 65535 之间的数字，已忽略。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/networksettings.cpp" line="78"/>
        <source>The proxy user name in the settings file is too long; it was ignored.</source>
        <translation>设置文件中的代理用户名过长，已忽略。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/networksettings.cpp" line="109"/>
        <source>The system&apos;s proxy settings</source>
        <translation>系统的代理设置</translation>
    </message>
    <message>
        <location filename="../workspace/settings/networksettings.cpp" line="110"/>
        <source>No proxy</source>
        <translation>不使用代理</translation>
    </message>
    <message>
        <location filename="../workspace/settings/networksettings.cpp" line="111"/>
        <source>HTTP proxy</source>
        <translation>HTTP 代理</translation>
    </message>
    <message>
        <location filename="../workspace/settings/networksettings.cpp" line="112"/>
        <source>SOCKS5 proxy</source>
        <translation>SOCKS5 代理</translation>
    </message>
    <message>
        <location filename="../workspace/settings/librarysettings.cpp" line="38"/>
        <source>Library folders in the settings file that were not absolute paths were dropped (%1); the other folders are kept.</source>
        <translation>设置文件中不是绝对路径的资料库文件夹已被丢弃（%1）；其余文件夹保留。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/appsettings.cpp" line="87"/>
        <source>There is no provider &quot;%1&quot;; the providers are %2.</source>
        <translation>没有服务商“%1”；可用的服务商有 %2。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/assistantsettings.cpp" line="62"/>
        <source>The name of the assistant %1 in the settings file was empty or longer than %2 characters; using its default name.</source>
        <translation>设置文件中助手 %1 的名称为空或超过 %2 个字符；改用其默认名称。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/assistantsettings.cpp" line="79"/>
        <source>The instructions of the assistant %1 in the settings file were not text or longer than %2 characters; using its default instructions.</source>
        <translation>设置文件中助手 %1 的指令不是文本或超过 %2 个字符；改用其默认指令。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/assistantsettings.cpp" line="100"/>
        <source>The temperature of the assistant %1 in the settings file (%2) was not a number from 0 to 2; using its default temperature.</source>
        <translation>设置文件中助手 %1 的温度（%2）不是 0 到 2 之间的数字；改用其默认温度。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/assistantsettings.cpp" line="120"/>
        <source>The answer length of the assistant %1 in the settings file (%2) was not a whole number from %3 to %4; using its default length.</source>
        <translation>设置文件中助手 %1 的回答长度（%2）不是 %3 到 %4 之间的整数；改用其默认长度。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/assistantsettings.cpp" line="144"/>
        <source>The settings file changes a built-in assistant “%1” that does not exist; the change was dropped.</source>
        <translation>设置文件修改了一个不存在的内置助手“%1”；该修改已被丢弃。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/assistantsettings.cpp" line="192"/>
        <source>Assistants in the settings file without a valid id, repeated, or beyond the first %1 were dropped (%2); the others are kept.</source>
        <translation>设置文件中没有有效 ID、重复或超出前 %1 个的助手已被丢弃（%2 个）；其余的保留。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/learnedrefusals.cpp" line="74"/>
        <source>A remembered refusal in the settings file (entry %1) could not be read and was dropped.</source>
        <translation>设置文件中记住的一条拒绝记录（第 %1 条）无法读取，已丢弃。</translation>
    </message>
</context>
<context>
    <name>Gui::AssistantSettings</name>
    <message>
        <location filename="../workspace/settings/assistants.cpp" line="48"/>
        <source>General</source>
        <translation>通用</translation>
    </message>
    <message>
        <location filename="../workspace/settings/assistants.cpp" line="49"/>
        <source>Writing editor</source>
        <translation>写作编辑</translation>
    </message>
    <message>
        <location filename="../workspace/settings/assistants.cpp" line="50"/>
        <source>Act as an experienced writing editor. When the user shares text, improve its clarity, flow and grammar while keeping the author&apos;s voice and meaning, and name the most important changes briefly. When the user asks a question, answer it as an editor would.</source>
        <translation>请扮演一位经验丰富的写作编辑。用户提供文字时，在保留作者语气和原意的前提下改进其清晰度、流畅度和语法，并简要说明最重要的修改。用户提问时，以编辑的身份回答。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/assistants.cpp" line="54"/>
        <source>Translator</source>
        <translation>翻译</translation>
    </message>
    <message>
        <location filename="../workspace/settings/assistants.cpp" line="55"/>
        <source>Act as a professional translator. Translate the text the user sends into English when it is in another language, and into Simplified Chinese when it is in English, unless the user names another language. Keep the meaning, tone and formatting, and answer with the translation only.</source>
        <translation>请扮演一位专业译者。除非用户指定其他语言，否则将用户发送的非英文文字译成英文，将英文文字译成简体中文。保留原意、语气和格式，只回答译文。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/assistants.cpp" line="59"/>
        <source>Code reviewer</source>
        <translation>代码审查</translation>
    </message>
    <message>
        <location filename="../workspace/settings/assistants.cpp" line="60"/>
        <source>Act as a senior code reviewer. In the code the user shares, look for bugs, unclear names, missing error handling and security problems. List the findings most important first, each with a short fix, and do not rewrite the whole code unless asked.</source>
        <translation>请扮演一位资深代码审查者。在用户提供的代码中查找缺陷、含义不清的命名、缺失的错误处理和安全问题。按重要程度从高到低列出发现，每条附上简短的修改建议；除非用户要求，不要重写整段代码。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/assistants.cpp" line="64"/>
        <source>Concise</source>
        <translation>简洁</translation>
    </message>
    <message>
        <location filename="../workspace/settings/assistants.cpp" line="65"/>
        <source>Answer as briefly as you can: one sentence or a short list, with no preamble and without repeating the question.</source>
        <translation>尽可能简短地回答：一句话或一个简短的列表，不要开场白，也不要复述问题。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/assistants.cpp" line="171"/>
        <source>New assistant</source>
        <translation>新助手</translation>
    </message>
    <message>
        <location filename="../workspace/settings/assistantsettings.cpp" line="184"/>
        <source>Assistant %1</source>
        <translation>助手 %1</translation>
    </message>
</context>
<context>
    <name>Gui::AssistantsPage</name>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="29"/>
        <source>An assistant&apos;s instructions go with every message of the conversations that use it, before the conversation, and are cached with the rest of that prefix. Choose a conversation&apos;s assistant above the chat.</source>
        <translation>助手的指令随使用它的对话中的每条消息一起发送，位于对话内容之前，并与该前缀的其余部分一起被缓存。在聊天上方为对话选择助手。</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="38"/>
        <source>Assistants</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="39"/>
        <source>&amp;Assistants:</source>
        <translation>助手(&amp;A)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="42"/>
        <source>A&amp;dd</source>
        <translation>添加(&amp;D)</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="44"/>
        <source>Remo&amp;ve</source>
        <translation>移除(&amp;V)</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="46"/>
        <source>Restore &amp;Built-in</source>
        <translation>恢复内置设置(&amp;B)</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="48"/>
        <source>Undo your changes to this built-in assistant</source>
        <translation>撤销你对这个内置助手所做的更改</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="52"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="56"/>
        <source>Instructions</source>
        <translation>指令</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="58"/>
        <source>None: the chat&apos;s own instructions only</source>
        <translation>无：只用聊天自带的指令</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="61"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="65"/>
        <source>Provider default</source>
        <translation>服务商默认</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="67"/>
        <source>Lower is more predictable, higher more varied. Anthropic models take up to 1; a higher value is sent to them as 1.</source>
        <translation>越低越稳定，越高越多样。Anthropic 模型最高接受 1，更高的值按 1 发送。</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="71"/>
        <source>Maximum answer length</source>
        <translation>最大回答长度</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="74"/>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="76"/>
        <source>Default (%1 tokens)</source>
        <translation>默认（%1 个词元）</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="99"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="100"/>
        <source>&amp;Instructions:</source>
        <translation>指令(&amp;I)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="101"/>
        <source>Te&amp;mperature:</source>
        <translation>温度(&amp;M)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="102"/>
        <source>Ma&amp;ximum answer length:</source>
        <translation>最大回答长度(&amp;X)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="192"/>
        <source>General adds no instructions: the chat as Headstart has always sent it. A chat about a document shares its cached prefix with the document&apos;s actions.</source>
        <translation>“通用”不添加任何指令：聊天的发送方式与以往完全相同。关于文档的聊天与该文档的操作共用缓存的前缀。</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="195"/>
        <source>Built-in, changed by you.</source>
        <translation>内置，已被你修改。</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="195"/>
        <source>Built-in.</source>
        <translation>内置。</translation>
    </message>
    <message>
        <location filename="../gui/settings/assistantspage.cpp" line="197"/>
        <source>Your own assistant.</source>
        <translation>你自己的助手。</translation>
    </message>
</context>
<context>
    <name>Gui::Attachments</name>
    <message>
        <location filename="../workspace/conversations/attachments.cpp" line="42"/>
        <source>%1 is too large to attach (%2; a file can be at most %3). Attach a shorter part of it.</source>
        <translation>%1 太大，无法附加（%2；每个文件最多 %3）。请附加其中较短的一部分。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/attachments.cpp" line="50"/>
        <source>%1 was not found: it was moved or deleted. Attach it from where it is now.</source>
        <translation>找不到 %1：它已被移动或删除。请从它现在所在的位置附加。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/attachments.cpp" line="59"/>
        <source>%1 is not a text file (it holds binary data). Attach Markdown, plain text or source code.</source>
        <translation>%1 不是文本文件（它包含二进制数据）。请附加 Markdown、纯文本或源代码文件。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/attachments.cpp" line="64"/>
        <source>%1 is not text in UTF-8 (nor UTF-16 or GB18030). Save it as UTF-8, then attach it again.</source>
        <translation>%1 不是 UTF-8 文本（也不是 UTF-16 或 GB18030）。请将它另存为 UTF-8，然后重新附加。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/attachments.cpp" line="70"/>
        <source>%1 cannot be read. Check that you may read it (its permissions), then attach it again.</source>
        <translation>无法读取 %1。请检查你是否有读取它的权限，然后重新附加。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/attachments.cpp" line="87"/>
        <source>%1 is not a file. Attach text files: Markdown, plain text or source code.</source>
        <translation>%1 不是文件。请附加文本文件：Markdown、纯文本或源代码。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/attachments.cpp" line="100"/>
        <source>%1 is empty: there is nothing in it to attach.</source>
        <translation>%1 是空的：没有可附加的内容。</translation>
    </message>
    <message numerus="yes">
        <location filename="../workspace/conversations/attachments.cpp" line="119"/>
        <source>None of the %n files was attached.</source>
        <translation>
            <numerusform>这 %n 个文件都没有附加。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../workspace/conversations/attachments.cpp" line="128"/>
        <source>%1 is attached already.</source>
        <translation>%1 已经附加了。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/attachments.cpp" line="132"/>
        <source>With %1 the attachments would come to %2, more than the %3 one message can carry. Remove an attachment or attach a shorter file.</source>
        <translation>加上 %1，附件将达到 %2，超过了一条消息最多能带的 %3。请移除一个附件，或附加较短的文件。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/attachments.cpp" line="173"/>
        <source>Text files (%1)</source>
        <translation>文本文件（%1）</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/attachments.cpp" line="175"/>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>Gui::CacheDecisionLog</name>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="22"/>
        <source>exact</source>
        <translation>精确</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="23"/>
        <source>near-duplicate</source>
        <translation>近似</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="31"/>
        <source>served</source>
        <translation>已提供</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="32"/>
        <source>draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="33"/>
        <source>miss</source>
        <translation>未命中</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="47"/>
        <source>Response Cache Decisions</source>
        <translation>响应缓存决策</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="50"/>
        <source>Response cache decisions</source>
        <translation>响应缓存决策</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="51"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="51"/>
        <source>Request</source>
        <translation>请求</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="51"/>
        <source>Level</source>
        <translation>级别</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="51"/>
        <source>Decision</source>
        <translation>决策</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="52"/>
        <source>Nearest answers (similarity → confidence)</source>
        <translation>最接近的回答（相似度 → 置信度）</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="52"/>
        <source>Saved</source>
        <translation>节省</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="54"/>
        <source>The start of the request&apos;s fingerprint (exact) or of its context&apos;s (near-duplicate)</source>
        <translation>请求指纹（精确）或其上下文指纹（近似）的开头</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="57"/>
        <source>Confidence = similarity × 0.5 + the answer&apos;s hit rate × 0.3 + freshness × 0.2; from 0.75 an answer is served, from 0.5 shown as a draft</source>
        <translation>置信度 = 相似度 × 0.5 + 该回答的命中率 × 0.3 + 新鲜度 × 0.2；达到 0.75 直接提供回答，达到 0.5 显示为草稿</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="66"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="83"/>
        <source>There is no response cache in this run.</source>
        <translation>本次运行没有响应缓存。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="87"/>
        <source>This session&apos;s lookups, newest first: %1 shown; answers kept: %2.</source>
        <translation>本次运行的查找，最新的在前：显示 %1 次；保存的回答：%2 个。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="94"/>
        <source>#%1 %2 → %3</source>
        <translation>#%1 %2 → %3</translation>
    </message>
    <message>
        <location filename="../gui/metrics/cachedecisionlog.cpp" line="104"/>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
</context>
<context>
    <name>Gui::CacheLifetimeBox</name>
    <message>
        <location filename="../gui/settings/cachelifetimebox.cpp" line="10"/>
        <source>Keep cached prompts for an hour</source>
        <translation>缓存的提示保留一小时</translation>
    </message>
    <message>
        <location filename="../gui/settings/cachelifetimebox.cpp" line="13"/>
        <source>Anthropic keeps a cached prompt for five minutes, or for an hour. An hour suits documents you come back to after a break: the warm-up renews the cache every 54 minutes instead of every 4½. Writing an hour&apos;s entry costs 2 × the input price instead of 1.25 ×; reading it costs the same.</source>
        <translation>Anthropic 会把缓存的提示保留五分钟或一小时。一小时适合休息后还会回来继续的文档：预热每 54 分钟续期一次缓存，而不是每 4.5 分钟。写入一小时的缓存条目费用为输入价格的 2 倍，而不是 1.25 倍；读取费用不变。</translation>
    </message>
</context>
<context>
    <name>Gui::ChatContextLine</name>
    <message>
        <location filename="../gui/chat/chatcontextline.cpp" line="33"/>
        <source>The best passages of your library (up to %1) go with each message; the answer&apos;s [1], [2] open them.</source>
        <translation>资料库中最相关的段落（最多 %1 段）会随每条消息一起发送；点击回答中的 [1]、[2] 可打开它们。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatcontextline.cpp" line="46"/>
        <source>No document is open: messages go without one.</source>
        <translation>没有打开的文档：消息将不附带文档发送。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatcontextline.cpp" line="56"/>
        <source>The open document, %1 (about %2 tokens), is longer than %3 accepts (it refused about %4). Select the part you mean and use Explain Selection, or add its folder to the library and ask “About my library”.</source>
        <translation>打开的文档 %1（约 %2 个词元）超出了 %3 能接受的长度（它拒绝了约 %4 个词元）。请选中您要问的部分并使用“解释选区”，或把它所在的文件夹加入资料库，再用“关于我的资料库”提问。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatcontextline.cpp" line="63"/>
        <source>The open document, %1 (about %2 tokens), goes with each message.</source>
        <translation>打开的文档 %1（约 %2 个词元）会随每条消息一起发送。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatcontextline.cpp" line="67"/>
        <source>The open document, %1, goes with each message.</source>
        <translation>打开的文档 %1 会随每条消息一起发送。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatcontextline.cpp" line="82"/>
        <source>This conversation began about %1: &lt;a href=&quot;open&quot;&gt;open it&lt;/a&gt; to ask about it again.</source>
        <translation>此对话最初是关于 %1 的：&lt;a href=&quot;open&quot;&gt;打开它&lt;/a&gt;即可继续就它提问。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatcontextline.cpp" line="84"/>
        <source>This conversation began about %1, which is no longer there.</source>
        <translation>此对话最初是关于 %1 的，但该文件已不存在。</translation>
    </message>
</context>
<context>
    <name>Gui::ChatDock</name>
    <message>
        <location filename="../gui/chat/chattranscript.cpp" line="64"/>
        <source>Ask Again</source>
        <translation>再问一次</translation>
    </message>
    <message>
        <location filename="../gui/chat/chattranscript.cpp" line="66"/>
        <source>Ask this question again (Ctrl+Shift+R)</source>
        <translation>再问一次这个问题（Ctrl+Shift+R）</translation>
    </message>
    <message>
        <location filename="../gui/chat/chattranscript.cpp" line="71"/>
        <source>Your message</source>
        <translation>你的消息</translation>
    </message>
    <message>
        <location filename="../gui/chat/chattranscript.cpp" line="73"/>
        <location filename="../workspace/conversations/conversationexport.cpp" line="221"/>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../gui/chat/chattranscript.cpp" line="117"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../gui/chat/chattranscript.cpp" line="118"/>
        <source>Copy the answer as Markdown (Ctrl+Shift+C in the transcript)</source>
        <translation>以 Markdown 复制回答（在对话记录中按 Ctrl+Shift+C）</translation>
    </message>
    <message>
        <location filename="../gui/chat/chattranscript.cpp" line="119"/>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <location filename="../gui/chat/chattranscript.cpp" line="120"/>
        <source>Replace this answer with a new one (Ctrl+Shift+R)</source>
        <translation>用新的回答替换此回答（Ctrl+Shift+R）</translation>
    </message>
    <message>
        <location filename="../gui/chat/chattranscript.cpp" line="121"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../gui/chat/chattranscript.cpp" line="122"/>
        <source>Edit this message and send it again; the messages after it are deleted</source>
        <translation>编辑此消息并重新发送；其后的消息将被删除</translation>
    </message>
    <message>
        <location filename="../gui/chat/chattranscript.cpp" line="124"/>
        <source>Delete this message</source>
        <translation>删除此消息</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="75"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="79"/>
        <source>Usage</source>
        <translation>用量</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="159"/>
        <source>%1, while %2 thinks: %3</source>
        <translation>%1（%2 思考中）：%3</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="47"/>
        <source>A first line from the fast model while the reasoning model thinks. It is not the answer and goes when the answer begins (Settings, Prefetch, &quot;Acknowledge at once while a reasoning model thinks&quot;).</source>
        <translation>推理模型思考时快速模型先给出的一句话。它不是回答，回答开始后即消失（设置 → 预取 →“推理模型思考时先即时回应”）。</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="117"/>
        <source>%1 · started before you sent: it was ready</source>
        <translation>%1 · 在您发送之前已开始：已准备好</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="118"/>
        <source>%1 · started before you sent: not early enough to be ready</source>
        <translation>%1 · 在您发送之前已开始：不够早，未能就绪</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="193"/>
        <source>Quick answer · %1</source>
        <translation>快速回答 · %1</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="195"/>
        <source>Small talk and simple questions are answered by the provider&apos;s fast model, which answers sooner and costs less (Settings, Prefetch, Fast model).</source>
        <translation>闲聊和简单问题由服务商的快速模型回答，它回答更快、费用更低（设置 › 预取 › 快速模型）。</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="199"/>
        <source>Ask %1</source>
        <translation>改问 %1</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="202"/>
        <source>Replace this answer with one from %1, the main model</source>
        <translation>用主模型 %1 的回答替换这个回答</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="212"/>
        <source>First words · %1</source>
        <translation>开头 · %1</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="216"/>
        <source>The first sentence of this answer was written by %1, the provider&apos;s fast model, so that it began sooner; %2 wrote the rest (Settings, Prefetch, Fast model).</source>
        <translation>这条回答的第一句由服务商的快速模型 %1 写出，以便更早开始；其余部分由 %2 写出（设置 › 预取 › 快速模型）。</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="230"/>
        <source>From the cache</source>
        <translation>来自缓存</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="231"/>
        <source>This question was asked before in this same conversation and context: this is the answer it got then, and nothing was sent. Regenerate asks the model anew.</source>
        <translation>这个问题此前在相同的对话和上下文中问过：这是当时得到的回答，未发送任何内容。“重新生成”会重新询问模型。</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="236"/>
        <source>From the cache · a similar question</source>
        <translation>来自缓存 · 相似问题</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="237"/>
        <source>A question almost the same as this one was answered before in this context, and its answer held each time: it is given again, and nothing was sent. Regenerate asks the model anew.</source>
        <translation>与此几乎相同的问题此前在这个上下文中回答过，而且该回答每次都成立：因此再次给出，未发送任何内容。“重新生成”会重新询问模型。</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="243"/>
        <source>Draft from a similar question</source>
        <translation>来自相似问题的草稿</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="244"/>
        <source>The answer a similar question got before, shown while this one&apos;s answer is on its way; the live answer replaces it.</source>
        <translation>相似问题此前得到的回答，在本问题的回答到达前显示；实时回答会替换它。</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="85"/>
        <location filename="../gui/chat/chatdock.cpp" line="198"/>
        <location filename="../workspace/conversations/conversationexport.cpp" line="222"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="113"/>
        <source>First token after %1 ms</source>
        <translation>首个词元用时 %1 毫秒</translation>
    </message>
    <message>
        <location filename="../gui/chat/answerwidget.cpp" line="123"/>
        <source>This answer was started while you paused typing, before you pressed Enter.</source>
        <translation>这个回答在你停顿输入时就已开始，早于你按下 Enter。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="44"/>
        <source>Chat</source>
        <translation>聊天</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockactions.cpp" line="30"/>
        <source>Regenerate Answer</source>
        <translation>重新生成回答</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockactions.cpp" line="35"/>
        <source>Clear &amp;History…</source>
        <translation>清除历史记录(&amp;H)…</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockactions.cpp" line="37"/>
        <source>Delete every conversation and the answers remembered for repeated questions</source>
        <translation>删除所有对话以及为重复问题记住的回答</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="142"/>
        <source>Preparing an answer to this message while you pause…</source>
        <translation>趁你停顿，正在预取这条消息的回答…</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="168"/>
        <source>Notice</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="170"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="180"/>
        <location filename="../gui/chat/chatdock.cpp" line="181"/>
        <source>Conversations</source>
        <translation>对话列表</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="182"/>
        <source>Show or hide the list of conversations, with its search</source>
        <translation>显示或隐藏对话列表及其搜索框</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="189"/>
        <source>About the current document</source>
        <translation>关于当前文档</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="190"/>
        <source>Free chat</source>
        <translation>自由聊天</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="191"/>
        <source>Conversation mode</source>
        <translation>对话模式</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="192"/>
        <source>Whether the open document goes with your messages</source>
        <translation>是否随消息一起发送打开的文档</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="199"/>
        <source>Instructions and settings that go with every message of this conversation (edit them in Settings, Assistants)</source>
        <translation>随这个对话的每条消息一起发送的指令和设置（在“设置 → 助手”中编辑）</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="202"/>
        <source>A&amp;ssistant:</source>
        <translation>助手(&amp;S)：</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="212"/>
        <source>Answers come from the local demo engine, not a language model.</source>
        <translation>回答来自本地演示引擎，而不是语言模型。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="214"/>
        <source>Provider notice</source>
        <translation>服务提供方提示</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="313"/>
        <source>About my library</source>
        <translation>关于我的资料库</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="414"/>
        <source>Answer prepared in advance for this suggestion.</source>
        <translation>已为这条建议提前准备好回答。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="419"/>
        <source>Answered from the cache; nothing was sent. Regenerate (%1) asks anew.</source>
        <translation>已从缓存回答，未发送任何内容。“重新生成”（%1）会重新询问。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="423"/>
        <source>A similar question&apos;s answer, shown as a draft until this one&apos;s answer comes.</source>
        <translation>相似问题的回答，作为草稿显示，直到本问题的回答到达。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="467"/>
        <source>Completion: %1 (Tab accepts, Esc dismisses)</source>
        <translation>补全：%1（Tab 接受，Esc 忽略）</translation>
    </message>
    <message>
        <location filename="../gui/chat/chattranscript.cpp" line="173"/>
        <source>Transcript</source>
        <translation>对话记录</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="223"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="224"/>
        <source>Message (Enter sends, Shift+Enter adds a line)</source>
        <translation>消息（Enter 发送，Shift+Enter 换行）</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="236"/>
        <source>Chat status</source>
        <translation>聊天状态</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="237"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="238"/>
        <source>Send the message (Enter)</source>
        <translation>发送消息（Enter）</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="239"/>
        <source>Send message</source>
        <translation>发送消息</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="241"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="242"/>
        <source>Stop the answer (Esc)</source>
        <translation>停止回答（Esc）</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="243"/>
        <source>Stop the answer</source>
        <translation>停止回答</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="364"/>
        <location filename="../gui/chat/chatdockactions.cpp" line="45"/>
        <location filename="../gui/chat/chatdockactions.cpp" line="65"/>
        <location filename="../gui/chat/chatdockactions.cpp" line="79"/>
        <source>An answer is still coming: wait for it, or stop it first (Esc).</source>
        <translation>回答仍在生成：请等待，或先停止它（Esc）。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="366"/>
        <location filename="../gui/chat/chatdockactions.cpp" line="81"/>
        <source>Chat is not available: no provider is set up.</source>
        <translation>聊天不可用：尚未设置服务提供方。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="116"/>
        <source>Preparing the document…</source>
        <translation>正在准备文档…</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="415"/>
        <source>Answer prefetched while you paused.</source>
        <translation>回答已在你停顿时预取。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="436"/>
        <location filename="../gui/chat/chatdocktranscript.cpp" line="160"/>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="434"/>
        <source>The answer failed; your message is kept. Send again to retry.</source>
        <translation>回答失败，你的消息已保留。再次发送即可重试。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdock.cpp" line="389"/>
        <source>Not sent.</source>
        <translation>未发送。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chattranscript.cpp" line="219"/>
        <source>Show %1 earlier messages</source>
        <translation>显示更早的 %1 条消息</translation>
    </message>
    <message>
        <location filename="../gui/chat/chattranscript.cpp" line="250"/>
        <location filename="../workspace/conversations/conversationexport.cpp" line="236"/>
        <source>Incomplete: the answer was stopped or interrupted.</source>
        <translation>不完整：回答被停止或中断。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chattranscript.cpp" line="285"/>
        <source>Ask anything. In “About the current document” mode, the open document goes with your message.</source>
        <translation>尽管提问。在“关于当前文档”模式下，打开的文档会随你的消息一起发送。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockactions.cpp" line="49"/>
        <location filename="../gui/chat/chatdockactions.cpp" line="54"/>
        <source>Clear History</source>
        <translation>清除历史记录</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockactions.cpp" line="50"/>
        <source>Delete every conversation and all their messages, in every window? The answers remembered for repeated questions are forgotten too. This cannot be undone.</source>
        <translation>删除所有窗口中的全部对话及其消息吗？为重复问题记住的回答也会一并清除。此操作无法撤销。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockactions.cpp" line="63"/>
        <source>History cleared.</source>
        <translation>历史记录已清除。</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/chat/chatdockactions.cpp" line="111"/>
        <source>Answer copied to the clipboard (%n character(s))</source>
        <translation>
            <numerusform>回答已复制到剪贴板（%n 个字符）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockactions.cpp" line="123"/>
        <source>Delete Message</source>
        <translation>删除消息</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockactions.cpp" line="125"/>
        <source>Delete your message? Its answer stays. This cannot be undone.</source>
        <translation>删除您的消息？它的回答会保留。此操作无法撤销。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockactions.cpp" line="126"/>
        <source>Delete this answer? This cannot be undone.</source>
        <translation>删除此回答？此操作无法撤销。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockactions.cpp" line="128"/>
        <location filename="../gui/chat/chattranscript.cpp" line="123"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockactions.cpp" line="142"/>
        <source>Message deleted.</source>
        <translation>消息已删除。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockactions.cpp" line="170"/>
        <source>Editing an earlier message: sending it replaces it and deletes every message after it.</source>
        <translation>正在编辑较早的消息：发送后将替换它，并删除其后的所有消息。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockactions.cpp" line="175"/>
        <source>Cancel Edit</source>
        <translation>取消编辑</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/storedcitations.cpp" line="66"/>
        <source>, page %1</source>
        <translation>，第 %1 页</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/storedcitations.cpp" line="76"/>
        <source>%1, page %2. Opens the PDF in your PDF viewer; the passage is on page %2.</source>
        <translation>%1，第 %2 页。在 PDF 阅读器中打开该 PDF；段落位于第 %2 页。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/storedcitations.cpp" line="81"/>
        <source>%1 (%2). Opens the file with the passage selected.</source>
        <translation>%1（%2）。打开文件并选中该段落。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/storedcitations.cpp" line="83"/>
        <source>%1. Opens the file with the passage selected.</source>
        <translation>%1。打开文件并选中该段落。</translation>
    </message>
    <message>
        <location filename="../gui/chat/attachmentchips.cpp" line="50"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/chat/attachmentchips.cpp" line="62"/>
        <source>%1, %n line(s)</source>
        <translation>
            <numerusform>%1，%n 行</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/chat/attachmentchips.cpp" line="75"/>
        <source>Attached files</source>
        <translation>附加的文件</translation>
    </message>
    <message>
        <location filename="../gui/chat/attachmentchips.cpp" line="109"/>
        <source>Attached file %1</source>
        <translation>附加的文件 %1</translation>
    </message>
    <message>
        <location filename="../gui/chat/attachmentchips.cpp" line="126"/>
        <source>Remove %1</source>
        <translation>移除 %1</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockattachments.cpp" line="33"/>
        <source>Attachment problem</source>
        <translation>附件问题</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockattachments.cpp" line="41"/>
        <source>Attach Files…</source>
        <translation>附加文件…</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockattachments.cpp" line="44"/>
        <source>Attach text files to the message: Markdown, plain text or source code (%1). You can also drop files onto the input.</source>
        <translation>为消息附加文本文件：Markdown、纯文本或源代码（%1）。也可以把文件拖放到输入框中。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockattachments.cpp" line="56"/>
        <source>Attach files</source>
        <translation>附加文件</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockattachments.cpp" line="72"/>
        <source>The message sent is waiting for the document; attach files to the next one once it has gone.</source>
        <translation>已发送的消息正在等待文档准备好；请在它发出后再为下一条消息附加文件。</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockattachments.cpp" line="96"/>
        <source>Attach Files</source>
        <translation>附加文件</translation>
    </message>
    <message>
        <location filename="../gui/chat/chatdockattachments.cpp" line="100"/>
        <source>Attach</source>
        <translation>附加</translation>
    </message>
</context>
<context>
    <name>Gui::ChatSession</name>
    <message>
        <location filename="../workspace/chat/chatsession.cpp" line="433"/>
        <location filename="../workspace/chat/chatsession.cpp" line="444"/>
        <location filename="../workspace/chat/chatsession.cpp" line="484"/>
        <location filename="../workspace/chat/chatsession.cpp" line="488"/>
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
</context>
<context>
    <name>Gui::CodeCopyButtons</name>
    <message>
        <location filename="../gui/answer/codecopybuttons.cpp" line="25"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../gui/answer/codecopybuttons.cpp" line="85"/>
        <source>Copy this code to the clipboard</source>
        <translation>将这段代码复制到剪贴板</translation>
    </message>
    <message>
        <location filename="../gui/answer/codecopybuttons.cpp" line="86"/>
        <source>Copy code</source>
        <translation>复制代码</translation>
    </message>
    <message>
        <location filename="../gui/answer/codecopybuttons.cpp" line="115"/>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
</context>
<context>
    <name>Gui::ConsentBar</name>
    <message>
        <location filename="../gui/mainwindow/consentbar.cpp" line="21"/>
        <source>A&amp;llow early answers</source>
        <translation>允许提前回答(&amp;L)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/consentbar.cpp" line="22"/>
        <source>&amp;Not now</source>
        <translation>暂不(&amp;N)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/consentbar.cpp" line="27"/>
        <source>Early answers</source>
        <translation>提前回答</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/consentbar.cpp" line="58"/>
        <source>&lt;b&gt;Start answers before you ask, with %1?&lt;/b&gt; Headstart can send %1 what it expects you to ask about a moment before you ask: the document when the pointer rests on an action, your chat message while you pause typing%2.</source>
        <translation>&lt;b&gt;要让 %1 在你提问之前就开始回答吗？&lt;/b&gt;Headstart 可以在你提问前片刻，把它预计你会问的内容发送给 %1：指针停在某个操作上时发送文档，输入停顿时发送你的聊天消息%2。</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/consentbar.cpp" line="61"/>
        <source>, and the first words of likely answers when you select text or head for a button</source>
        <translation>，在你选中文本或把指针移向按钮时还会请求可能回答的开头几个词</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/consentbar.cpp" line="65"/>
        <source>Guesses you do not use are billed by %1 like any other request.</source>
        <translation>未用上的预测会像其他请求一样由 %1 计费。</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/consentbar.cpp" line="66"/>
        <source>Guesses you do not use cost at most %1 an hour (the budget in Settings, Prefetch).</source>
        <translation>未用上的预测每小时最多花费 %1（预算在“设置 › 预取”中）。</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/consentbar.cpp" line="69"/>
        <source>Until you allow it, only the document you open is sent early, to warm %1&apos;s cache.</source>
        <translation>在你允许之前，只有你打开的文档会被提前发送，用来预热 %1 的缓存。</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/consentbar.cpp" line="71"/>
        <source>%1 %2 %3</source>
        <comment>the consent question&apos;s three sentences</comment>
        <translation>%1%2%3</translation>
    </message>
</context>
<context>
    <name>Gui::ConversationDays</name>
    <message>
        <location filename="../gui/chat/conversationdays.cpp" line="18"/>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationdays.cpp" line="20"/>
        <source>Yesterday</source>
        <translation>昨天</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationdays.cpp" line="22"/>
        <source>Previous 7 Days</source>
        <translation>过去 7 天</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationdays.cpp" line="24"/>
        <source>Previous 30 Days</source>
        <translation>过去 30 天</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationdays.cpp" line="27"/>
        <source>MMMM yyyy</source>
        <extracomment>A month of the conversation list, as a QDate format: MMMM the month&apos;s name, yyyy the year (Chinese: yyyy年M月).</extracomment>
        <translation>yyyy年M月</translation>
    </message>
</context>
<context>
    <name>Gui::ConversationExport</name>
    <message>
        <location filename="../workspace/conversations/conversationexport.cpp" line="69"/>
        <source>This file is not a Headstart conversation. Choose a .json file exported from Headstart&apos;s conversation list.</source>
        <translation>此文件不是 Headstart 对话。请选择从 Headstart 对话列表导出的 .json 文件。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationexport.cpp" line="76"/>
        <source>Message %1 in this file is not valid (%2). Nothing was imported.</source>
        <translation>此文件中的第 %1 条消息无效（%2）。未导入任何内容。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationexport.cpp" line="134"/>
        <source>This conversation file is cut off: it ends before the conversation does. Export it again from the Headstart it came from. Nothing was imported.</source>
        <translation>此对话文件不完整：文件在对话结束之前就中断了。请在原来的 Headstart 中重新导出。未导入任何内容。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationexport.cpp" line="146"/>
        <source>This conversation was exported by a newer Headstart (format version %1; this one reads up to %2). Update Headstart to import it. Nothing was imported.</source>
        <translation>此对话由更新版本的 Headstart 导出（格式版本 %1；本版本最高可读 %2）。请更新 Headstart 后再导入。未导入任何内容。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationexport.cpp" line="172"/>
        <source>not an object</source>
        <translation>不是对象</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationexport.cpp" line="179"/>
        <source>unknown role “%1”</source>
        <translation>未知角色“%1”</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationexport.cpp" line="183"/>
        <source>no text</source>
        <translation>没有文本</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationexport.cpp" line="189"/>
        <source>unknown state “%1”</source>
        <translation>未知状态“%1”</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationexport.cpp" line="203"/>
        <source>an attachment without a name or text</source>
        <translation>有附件缺少名称或文本</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationexport.cpp" line="215"/>
        <source>About the document %1</source>
        <translation>关于文档 %1</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/attachments.cpp" line="165"/>
        <source>Attached: %1 (%2)</source>
        <translation>附件：%1（%2）</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationexport.cpp" line="228"/>
        <source>Reasoning</source>
        <translation>推理过程</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationexport.cpp" line="233"/>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationexport.cpp" line="240"/>
        <source>Sources:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationexport.cpp" line="260"/>
        <source>Could not write %1: %2. Choose another folder.</source>
        <translation>无法写入 %1：%2。请选择其他文件夹。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationexport.cpp" line="269"/>
        <source>Could not read %1: %2.</source>
        <translation>无法读取 %1：%2。</translation>
    </message>
</context>
<context>
    <name>Gui::ConversationListPanel</name>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="42"/>
        <location filename="../gui/chat/conversationlist.cpp" line="43"/>
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="48"/>
        <source>Conversations</source>
        <translation>对话列表</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="94"/>
        <source>&amp;New Conversation</source>
        <translation>新建对话(&amp;N)</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="98"/>
        <source>Start a new conversation (%1)</source>
        <translation>开始新对话（%1）</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="102"/>
        <source>&amp;Rename</source>
        <translation>重命名(&amp;R)</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="105"/>
        <source>Rename the conversation (F2)</source>
        <translation>重命名对话（F2）</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="111"/>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="114"/>
        <source>Delete the conversation (Del)</source>
        <translation>删除对话（Del）</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="117"/>
        <source>Export as &amp;Markdown…</source>
        <translation>导出为 Markdown(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="118"/>
        <source>Write the conversation to a Markdown file to read or share</source>
        <translation>将对话写入 Markdown 文件，便于阅读或分享</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="120"/>
        <source>Export as &amp;JSON…</source>
        <translation>导出为 JSON(&amp;J)…</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="121"/>
        <source>Write the conversation to a JSON file that Import reads back</source>
        <translation>将对话写入可由“导入”读回的 JSON 文件</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="123"/>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="124"/>
        <source>Add a conversation from a JSON file exported by Headstart</source>
        <translation>从 Headstart 导出的 JSON 文件添加对话</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="156"/>
        <source>Export Conversation as JSON</source>
        <translation>将对话导出为 JSON</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="156"/>
        <source>Export Conversation as Markdown</source>
        <translation>将对话导出为 Markdown</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="157"/>
        <source>JSON files (*.json)</source>
        <translation>JSON 文件 (*.json)</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="157"/>
        <source>Markdown files (*.md)</source>
        <translation>Markdown 文件 (*.md)</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="172"/>
        <source>Import Conversation</source>
        <translation>导入对话</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="173"/>
        <source>Headstart conversations (*.json);;All files (*)</source>
        <translation>Headstart 对话 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="212"/>
        <location filename="../gui/chat/conversationlist.cpp" line="251"/>
        <source>Untitled conversation</source>
        <translation>未命名对话</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="216"/>
        <source>%1 · %2 messages</source>
        <translation>%1 · %2 条消息</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="220"/>
        <source>About a document</source>
        <translation>关于一篇文档</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="220"/>
        <source>About %1</source>
        <translation>关于 %1</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="267"/>
        <source>Delete Conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="268"/>
        <source>Delete “%1” and all its messages? This cannot be undone.</source>
        <translation>删除“%1”及其所有消息？此操作无法撤销。</translation>
    </message>
    <message>
        <location filename="../gui/chat/conversationlist.cpp" line="270"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
</context>
<context>
    <name>Gui::ConversationSalvage</name>
    <message>
        <location filename="../workspace/conversations/conversationsalvage.cpp" line="68"/>
        <source>Untitled conversation</source>
        <translation>未命名对话</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationsalvage.cpp" line="70"/>
        <source>Document: %1</source>
        <translation>文档：%1</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationsalvage.cpp" line="72"/>
        <source>Last changed: %1</source>
        <translation>最后修改：%1</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationsalvage.cpp" line="75"/>
        <source>Some messages of this conversation could not be read from the damaged file.</source>
        <translation>此对话的部分消息无法从损坏的文件中读取。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationsalvage.cpp" line="105"/>
        <source>Nothing can be read from %1 any more.</source>
        <translation>已无法从 %1 读取任何内容。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationsalvage.cpp" line="177"/>
        <source>The folder %1 cannot be created.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationsalvage.cpp" line="191"/>
        <location filename="../workspace/conversations/conversationsalvage.cpp" line="211"/>
        <source>Cannot write into %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
</context>
<context>
    <name>Gui::ConversationStore</name>
    <message>
        <location filename="../workspace/conversations/conversationdatabase.cpp" line="139"/>
        <source>Conversations cannot be saved: the folder %1 cannot be created. They are kept until Headstart closes.</source>
        <translation>无法保存对话：无法创建文件夹 %1。对话会保留到 Headstart 关闭为止。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationdatabase.cpp" line="157"/>
        <source>Headstart was not closed properly last time, and the conversation file&apos;s log of recent changes was %1: what was written after the last completed answer may be lost. Everything before it is kept. The files as they were are kept in %2.</source>
        <translation>Headstart 上次没有正常关闭，对话文件的近期更改日志%1：最后一个完成的回答之后写入的内容可能已经丢失，之前的一切都已保留。原来的文件保存在 %2。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationdatabase.cpp" line="160"/>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationdatabase.cpp" line="161"/>
        <source>cut short</source>
        <translation>被截断</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationdatabase.cpp" line="162"/>
        <source>damaged</source>
        <translation>已损坏</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationdatabase.cpp" line="190"/>
        <source>it holds no conversations although it had been written; its log of recent changes is missing</source>
        <translation>它曾被写入，却不含任何对话；它的近期更改日志缺失</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationdatabase.cpp" line="203"/>
        <source>%1 was written by a newer version of Headstart and is left untouched. Conversations are kept until Headstart closes.</source>
        <translation>%1 由更新版本的 Headstart 写入，未作任何改动。对话会保留到 Headstart 关闭为止。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationdatabase.cpp" line="229"/>
        <source>Conversations cannot be saved: %1 They are kept until Headstart closes.</source>
        <translation>无法保存对话：%1 对话会保留到 Headstart 关闭为止。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationdatabase.cpp" line="230"/>
        <source>the file cannot be opened.</source>
        <translation>无法打开该文件。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationdatabase.cpp" line="236"/>
        <source>The conversation file %1 is damaged and cannot be moved aside. Conversations are kept until Headstart closes.</source>
        <translation>对话文件 %1 已损坏且无法移走。对话会保留到 Headstart 关闭为止。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationdatabase.cpp" line="242"/>
        <source>The conversation file was damaged (%1). It was moved, not deleted, to %2 and a new one was started. What can still be read from it can be exported: File, Export Damaged Conversations.</source>
        <translation>对话文件已损坏（%1）。它已被移动（而非删除）到 %2，并已新建一个对话文件。仍可读取的内容可以导出：“文件 › 导出损坏的对话”。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationdatabase.cpp" line="245"/>
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationdatabase.cpp" line="322"/>
        <source>the integrity check gave no answer</source>
        <translation>完整性检查没有返回结果</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="85"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="85"/>
        <source>unknown database error</source>
        <translation>未知的数据库错误</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="93"/>
        <source>the conversation file is damaged, so nothing more is written into it; when Headstart starts again it is moved aside and a new one started</source>
        <translation>对话文件已损坏，因此不再向其中写入任何内容；Headstart 下次启动时会将其移到一旁并新建一个</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="157"/>
        <location filename="../workspace/conversations/conversationstore.cpp" line="163"/>
        <source>Could not search the conversations</source>
        <translation>无法搜索对话</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="168"/>
        <location filename="../workspace/conversations/conversationstore.cpp" line="177"/>
        <source>Could not read the conversations</source>
        <translation>无法读取对话列表</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="187"/>
        <location filename="../workspace/conversations/conversationstore.cpp" line="190"/>
        <source>Could not read the conversation</source>
        <translation>无法读取对话</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="191"/>
        <location filename="../workspace/conversations/conversationstore.cpp" line="227"/>
        <location filename="../workspace/conversations/conversationstore.cpp" line="243"/>
        <location filename="../workspace/conversations/conversationstore.cpp" line="260"/>
        <location filename="../workspace/conversations/conversationstore.cpp" line="336"/>
        <location filename="../workspace/conversations/conversationstore.cpp" line="442"/>
        <source>The conversation no longer exists.</source>
        <translation>该对话已不存在。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="200"/>
        <location filename="../workspace/conversations/conversationstore.cpp" line="211"/>
        <source>Could not create the conversation</source>
        <translation>无法创建对话</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="219"/>
        <location filename="../workspace/conversations/conversationstore.cpp" line="225"/>
        <source>Could not rename the conversation</source>
        <translation>无法重命名对话</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="235"/>
        <location filename="../workspace/conversations/conversationstore.cpp" line="241"/>
        <source>Could not save the conversation mode</source>
        <translation>无法保存对话模式</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="426"/>
        <source>Could not delete the conversation</source>
        <translation>无法删除对话</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="451"/>
        <source>Could not clear the history</source>
        <translation>无法清除历史记录</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="272"/>
        <location filename="../workspace/conversations/conversationstore.cpp" line="277"/>
        <location filename="../workspace/conversations/conversationstore.cpp" line="304"/>
        <location filename="../workspace/conversations/conversationstore.cpp" line="309"/>
        <source>Could not read the messages</source>
        <translation>无法读取消息</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="322"/>
        <source>Could not save the message</source>
        <translation>无法保存消息</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="351"/>
        <source>Could not import the conversation</source>
        <translation>无法导入对话</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="379"/>
        <source>Could not save the answer</source>
        <translation>无法保存回答</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="392"/>
        <location filename="../workspace/conversations/conversationstore.cpp" line="420"/>
        <location filename="../workspace/conversations/conversationstore.cpp" line="488"/>
        <source>The message no longer exists.</source>
        <translation>该消息已不存在。</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="410"/>
        <source>Could not save the answer&apos;s sources</source>
        <translation>无法保存回答的来源</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="473"/>
        <source>Could not delete the message</source>
        <translation>无法删除消息</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/conversationstore.cpp" line="250"/>
        <source>Could not save the conversation&apos;s assistant</source>
        <translation>无法保存对话的助手</translation>
    </message>
</context>
<context>
    <name>Gui::Document</name>
    <message>
        <location filename="../workspace/documents/document.cpp" line="128"/>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <location filename="../workspace/documents/document.cpp" line="133"/>
        <location filename="../workspace/documents/document.cpp" line="140"/>
        <location filename="../workspace/documents/document.cpp" line="151"/>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <location filename="../workspace/documents/document.cpp" line="145"/>
        <source>%1 is not a regular file (it is a device, a pipe or a socket); Headstart opens documents saved as files.</source>
        <translation>%1 不是普通文件（而是设备、管道或套接字）；Headstart 只打开保存为文件的文档。</translation>
    </message>
    <message>
        <location filename="../workspace/documents/document.cpp" line="157"/>
        <source>%1 is larger than %2 MB; Headstart opens documents up to %2 MB.</source>
        <translation>%1 大于 %2 MB；Headstart 只打开不超过 %2 MB 的文档。</translation>
    </message>
    <message>
        <location filename="../workspace/documents/document.cpp" line="164"/>
        <source>%1 is not text in UTF-8, UTF-16 or GB18030; Headstart opens Markdown and plain-text documents.</source>
        <translation>%1 不是 UTF-8、UTF-16 或 GB18030 编码的文本；Headstart 只打开 Markdown 和纯文本文档。</translation>
    </message>
    <message>
        <location filename="../workspace/documents/document.cpp" line="170"/>
        <source>Line %1 of %2 is %3 characters long without a break; Headstart edits lines of up to %4 characters. It is probably minified or encoded data: format it with line breaks, or open a part of it.</source>
        <translation>%2 的第 %1 行有 %3 个字符且没有换行；Headstart 能编辑的一行最多 %4 个字符。它可能是压缩或编码过的数据：请先加上换行再打开，或只打开其中一部分。</translation>
    </message>
    <message>
        <location filename="../workspace/documents/document.cpp" line="227"/>
        <source>Cannot save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <location filename="../workspace/documents/document.cpp" line="293"/>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <location filename="../workspace/documents/document.cpp" line="321"/>
        <source>Untitled %1</source>
        <translation>未命名 %1</translation>
    </message>
</context>
<context>
    <name>Gui::DocumentTab</name>
    <message>
        <location filename="../gui/mainwindow/documenttab.cpp" line="13"/>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttab.cpp" line="14"/>
        <source>Write here, or open a document with Ctrl+O.</source>
        <translation>在这里写作，或按 Ctrl+O 打开文档。</translation>
    </message>
</context>
<context>
    <name>Gui::DocumentTabs</name>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="75"/>
        <source>Documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="132"/>
        <source>%1 has lines of over %2 characters without a break: they wrap anywhere at the window&apos;s edge, not between words, so that editing stays fast.</source>
        <translation>%1 中有超过 %2 个字符且没有换行的行：这些行在窗口边缘任意处折行，而不是在词与词之间，以保持编辑流畅。</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="187"/>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="203"/>
        <source>Open Document</source>
        <translation>打开文档</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="193"/>
        <source>%1 is in %2: Headstart saves it back in %2.</source>
        <translation>%1 使用 %2 编码：Headstart 会以 %2 保存它。</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="205"/>
        <source>Text documents (*.md *.markdown *.txt);;All files (*)</source>
        <translation>文本文档 (*.md *.markdown *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="222"/>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="235"/>
        <source>Save Document</source>
        <translation>保存文档</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="227"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="239"/>
        <source>Markdown (*.md);;Text (*.txt);;All files (*)</source>
        <translation>Markdown (*.md);;文本 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="264"/>
        <source>Close Document</source>
        <translation>关闭文档</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="265"/>
        <source>%1 has unsaved changes. Save them?</source>
        <translation>%1 有未保存的更改。要保存吗？</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/mainwindow/documenttabs.cpp" line="311"/>
        <source>%n documents have unsaved changes: %1. Save them?</source>
        <translation>
            <numerusform>有 %n 个文档尚未保存：%1。要保存它们吗？</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="314"/>
        <source>&amp;Discard All</source>
        <translation>全部放弃(&amp;D)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="315"/>
        <source>&amp;Save All</source>
        <translation>全部保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="420"/>
        <source>%1 (never saved)</source>
        <translation>%1（从未保存）</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="420"/>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="421"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="423"/>
        <source>Recover Documents</source>
        <translation>恢复文档</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/mainwindow/documenttabs.cpp" line="424"/>
        <source>Headstart did not close properly last time. Recover %n unsaved document(s)?</source>
        <translation>
            <numerusform>Headstart 上次没有正常关闭。要恢复 %n 个未保存的文档吗？</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/documenttabs.cpp" line="507"/>
        <source>&amp;%1 %2  (%3)</source>
        <translation>&amp;%1 %2  （%3）</translation>
    </message>
</context>
<context>
    <name>Gui::EditMenu</name>
    <message>
        <location filename="../gui/mainwindow/editmenu.cpp" line="88"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/editmenu.cpp" line="89"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/editmenu.cpp" line="91"/>
        <source>Cu&amp;t</source>
        <translation>剪切(&amp;T)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/editmenu.cpp" line="92"/>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/editmenu.cpp" line="93"/>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/editmenu.cpp" line="95"/>
        <source>Select &amp;All</source>
        <translation>全选(&amp;A)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/editmenu.cpp" line="97"/>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/editmenu.cpp" line="99"/>
        <source>Find &amp;Next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/editmenu.cpp" line="101"/>
        <source>Find Pre&amp;vious</source>
        <translation>查找上一个(&amp;V)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/editmenu.cpp" line="103"/>
        <source>R&amp;eplace…</source>
        <translation>替换(&amp;E)…</translation>
    </message>
</context>
<context>
    <name>Gui::EndpointButtons</name>
    <message>
        <location filename="../gui/settings/endpointbuttons.cpp" line="28"/>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointbuttons.cpp" line="29"/>
        <source>Add an OpenAI- or Anthropic-compatible server: vLLM, LM Studio, OpenRouter, a company gateway</source>
        <translation>添加兼容 OpenAI 或 Anthropic 的服务器：vLLM、LM Studio、OpenRouter、公司网关</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointbuttons.cpp" line="32"/>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointbuttons.cpp" line="32"/>
        <source>Rename this endpoint; its settings and keys stay with it</source>
        <translation>重命名此端点；其设置和密钥保持不变</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointbuttons.cpp" line="34"/>
        <location filename="../gui/settings/endpointbuttons.cpp" line="81"/>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointbuttons.cpp" line="34"/>
        <source>Remove this endpoint with its settings and keys</source>
        <translation>删除此端点及其设置和密钥</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointbuttons.cpp" line="74"/>
        <source>Remove Endpoint</source>
        <translation>删除端点</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointbuttons.cpp" line="75"/>
        <source>Remove &quot;%1&quot; with its base URL, model, headers and prices, and delete its keys from the keychain? Headstart then uses the local demo engine. This cannot be undone.</source>
        <translation>删除“%1”及其基础 URL、模型、请求头和价格，并从钥匙串中删除其密钥？之后 Headstart 将使用本地演示引擎。此操作无法撤销。</translation>
    </message>
</context>
<context>
    <name>Gui::EndpointDialog</name>
    <message>
        <location filename="../gui/settings/endpointdialog.cpp" line="20"/>
        <source>Add Endpoint</source>
        <translation>添加端点</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointdialog.cpp" line="20"/>
        <source>Rename Endpoint</source>
        <translation>重命名端点</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointdialog.cpp" line="24"/>
        <source>A server that speaks OpenAI&apos;s chat completions (vLLM, LM Studio, OpenRouter and most gateways) or Anthropic&apos;s messages. Its base URL, model and key are set on the Providers page once it is added.</source>
        <translation>支持 OpenAI 聊天补全接口（vLLM、LM Studio、OpenRouter 及大多数网关）或 Anthropic 消息接口的服务器。添加后，在“服务商”页设置其基础 URL、模型和密钥。</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointdialog.cpp" line="36"/>
        <source>Endpoint name</source>
        <translation>端点名称</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointdialog.cpp" line="38"/>
        <source>e.g. Company gateway</source>
        <translation>例如：公司网关</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointdialog.cpp" line="43"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointdialog.cpp" line="50"/>
        <source>Wire format</source>
        <translation>接口格式</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointdialog.cpp" line="53"/>
        <source>How requests are written: to &lt;base URL&gt;/chat/completions or to &lt;base URL&gt;/messages. It cannot be changed later.</source>
        <translation>请求的写法：发往 &lt;基础 URL&gt;/chat/completions 或 &lt;基础 URL&gt;/messages。以后无法更改。</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointdialog.cpp" line="55"/>
        <source>&amp;Format:</source>
        <translation>格式(&amp;F)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointdialog.cpp" line="69"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../gui/settings/endpointdialog.cpp" line="69"/>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
</context>
<context>
    <name>Gui::FindBar</name>
    <message>
        <location filename="../gui/mainwindow/findbar.cpp" line="21"/>
        <source>Match &amp;case</source>
        <translation>区分大小写(&amp;C)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/findbar.cpp" line="22"/>
        <source>&amp;Replace</source>
        <translation>替换(&amp;R)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/findbar.cpp" line="23"/>
        <source>Replace &amp;All</source>
        <translation>全部替换(&amp;A)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/findbar.cpp" line="29"/>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/findbar.cpp" line="30"/>
        <source>Text to find</source>
        <translation>要查找的文字</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/findbar.cpp" line="33"/>
        <source>Replace with</source>
        <translation>替换为</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/findbar.cpp" line="34"/>
        <source>Replacement text</source>
        <translation>替换后的文字</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/findbar.cpp" line="38"/>
        <source>Previous match (Shift+Enter)</source>
        <translation>上一个匹配（Shift+Enter）</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/findbar.cpp" line="39"/>
        <source>Previous match</source>
        <translation>上一个匹配</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/findbar.cpp" line="42"/>
        <source>Next match (Enter)</source>
        <translation>下一个匹配（Enter）</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/findbar.cpp" line="43"/>
        <source>Next match</source>
        <translation>下一个匹配</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/findbar.cpp" line="46"/>
        <source>Close (Esc)</source>
        <translation>关闭（Esc）</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/findbar.cpp" line="47"/>
        <source>Close the find bar</source>
        <translation>关闭查找栏</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/findbar.cpp" line="150"/>
        <source>Wrapped around</source>
        <translation>已从另一端继续查找</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/findbar.cpp" line="154"/>
        <location filename="../gui/mainwindow/findbar.cpp" line="191"/>
        <source>Not found</source>
        <translation>未找到</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/mainwindow/findbar.cpp" line="191"/>
        <source>%n replaced</source>
        <translation>
            <numerusform>已替换 %n 处</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::FollowUpChips</name>
    <message>
        <location filename="../gui/chat/followupchips.cpp" line="39"/>
        <source>Suggestions:</source>
        <translation>建议：</translation>
    </message>
    <message>
        <location filename="../gui/chat/followupchips.cpp" line="51"/>
        <source>Suggested follow-ups</source>
        <translation>建议的后续问题</translation>
    </message>
    <message>
        <location filename="../gui/chat/followupchips.cpp" line="74"/>
        <source>A suggestion: click to send “%1” (nothing is sent until you do)</source>
        <translation>建议：点击即发送“%1”（您点击之前不会发送任何内容）</translation>
    </message>
    <message>
        <location filename="../gui/chat/followupchips.cpp" line="75"/>
        <source>Send the suggestion “%1”</source>
        <translation>发送建议“%1”</translation>
    </message>
</context>
<context>
    <name>Gui::HelpDialogs</name>
    <message>
        <location filename="../gui/mainwindow/helpdialogs.cpp" line="44"/>
        <source>not available</source>
        <translation>不可用</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/helpdialogs.cpp" line="74"/>
        <source>A writing and chat assistant for language models that starts the answer before you ask.</source>
        <translation>在您提问之前就开始生成回答的大语言模型写作与对话助手。</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/helpdialogs.cpp" line="77"/>
        <source>Released under the MIT licence. Copyright © Headstart developers.</source>
        <translation>以 MIT 许可证发布。版权所有 © Headstart 开发者。</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/helpdialogs.cpp" line="79"/>
        <source>Qt %1 (built with %2) · spdlog %3 · SQLite %4</source>
        <translation>Qt %1（编译时 %2）· spdlog %3 · SQLite %4</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/helpdialogs.cpp" line="83"/>
        <source>About Headstart</source>
        <translation>关于 Headstart</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/helpdialogs.cpp" line="98"/>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/helpdialogs.cpp" line="102"/>
        <source>Search actions and keys</source>
        <translation>搜索操作和按键</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/helpdialogs.cpp" line="103"/>
        <source>Search shortcuts</source>
        <translation>搜索快捷键</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/helpdialogs.cpp" line="108"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/helpdialogs.cpp" line="109"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/helpdialogs.cpp" line="170"/>
        <source>User Guide</source>
        <translation>用户指南</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/helpdialogs.cpp" line="171"/>
        <source>The user guide is not installed.</source>
        <translation>未安装用户指南。</translation>
    </message>
</context>
<context>
    <name>Gui::LatencyChart</name>
    <message>
        <location filename="../gui/metrics/latencychart.cpp" line="48"/>
        <source>Recent perceived latencies</source>
        <translation>最近的感知延迟</translation>
    </message>
    <message>
        <location filename="../gui/metrics/latencychart.cpp" line="101"/>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <location filename="../gui/metrics/latencychart.cpp" line="102"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../gui/metrics/latencychart.cpp" line="109"/>
        <source>now</source>
        <comment>the right end of the chart&apos;s time axis</comment>
        <translation>现在</translation>
    </message>
    <message>
        <location filename="../gui/metrics/latencychart.cpp" line="111"/>
        <source>−%1 s</source>
        <comment>seconds before now, on the chart&apos;s time axis</comment>
        <translation>−%1 秒</translation>
    </message>
    <message>
        <location filename="../gui/metrics/latencychart.cpp" line="113"/>
        <source>−%1 min</source>
        <comment>minutes before now, on the chart&apos;s time axis</comment>
        <translation>−%1 分钟</translation>
    </message>
    <message>
        <location filename="../gui/metrics/latencychart.cpp" line="114"/>
        <source>−%1 h</source>
        <comment>hours before now, on the chart&apos;s time axis</comment>
        <translation>−%1 小时</translation>
    </message>
    <message>
        <location filename="../gui/metrics/latencychart.cpp" line="120"/>
        <source>No answers measured yet.</source>
        <translation>尚未测量任何回答。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/latencychart.cpp" line="126"/>
        <source>Recent answers: %1. Latest %2, median %3, slowest %4; %5 under %6.</source>
        <translation>最近的回答：%1 个。最新 %2，中位数 %3，最慢 %4；%5 个低于 %6。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/latencychart.cpp" line="134"/>
        <source>Prefetch used</source>
        <translation>已用预取</translation>
    </message>
    <message>
        <location filename="../gui/metrics/latencychart.cpp" line="135"/>
        <source>Prefetch missed</source>
        <translation>预取未命中</translation>
    </message>
    <message>
        <location filename="../gui/metrics/latencychart.cpp" line="136"/>
        <location filename="../gui/metrics/latencychart.cpp" line="138"/>
        <source>No prefetch</source>
        <translation>无预取</translation>
    </message>
    <message>
        <location filename="../gui/metrics/latencychart.cpp" line="334"/>
        <source>No answers yet</source>
        <translation>暂无回答</translation>
    </message>
    <message>
        <location filename="../gui/metrics/latencychart.cpp" line="361"/>
        <source>%1: feels instant</source>
        <translation>%1：感觉即时</translation>
    </message>
</context>
<context>
    <name>Gui::LibraryDock</name>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="44"/>
        <source>Library</source>
        <translation>资料库</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="54"/>
        <source>Indexing progress</source>
        <translation>索引进度</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="55"/>
        <source>Indexing: %v of %m files</source>
        <translation>正在索引：第 %v 个，共 %m 个文件</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="57"/>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="57"/>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="57"/>
        <source>Passages</source>
        <translation>段落</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="57"/>
        <source>Skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="58"/>
        <source>Library folders</source>
        <translation>资料库文件夹</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="60"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="60"/>
        <source>Why it was skipped</source>
        <translation>跳过原因</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="61"/>
        <source>Skipped files</source>
        <translation>已跳过的文件</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="63"/>
        <source>Edit Folders…</source>
        <translation>编辑文件夹…</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="140"/>
        <source>No folders yet. Add the folders with your notes and documents in Settings, Library; the chat can then answer from them.</source>
        <translation>还没有文件夹。请在“设置 › 资料库”中添加存放笔记和文档的文件夹；之后聊天即可根据它们作答。</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="143"/>
        <source>Opening the index…</source>
        <translation>正在打开索引…</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="145"/>
        <source>Indexed: %1, %2.</source>
        <comment>files, passages</comment>
        <translation>已索引：%1，%2。</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="146"/>
        <source>1 file</source>
        <translation>1 个文件</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="146"/>
        <source>%1 files</source>
        <translation>%1 个文件</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="147"/>
        <source>1 passage</source>
        <translation>1 段</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="147"/>
        <source>%1 passages</source>
        <translation>%1 段</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="158"/>
        <source>No files were skipped.</source>
        <translation>没有跳过任何文件。</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="159"/>
        <source>1 file was skipped:</source>
        <translation>跳过了 1 个文件：</translation>
    </message>
    <message>
        <location filename="../gui/library/librarydock.cpp" line="160"/>
        <source>%1 files were skipped:</source>
        <translation>跳过了 %1 个文件：</translation>
    </message>
</context>
<context>
    <name>Gui::LibraryPage</name>
    <message>
        <location filename="../gui/settings/librarypage.cpp" line="19"/>
        <source>Headstart indexes the Markdown, plain-text and source files in these folders, and keeps the index on this computer. View, Library shows what is indexed and what was skipped.</source>
        <translation>Headstart 会为这些文件夹中的 Markdown、纯文本和源代码文件建立索引，索引只保存在本机。“视图 › 资料库”会显示已索引和已跳过的内容。</translation>
    </message>
    <message>
        <location filename="../gui/settings/librarypage.cpp" line="28"/>
        <source>Library folders</source>
        <translation>资料库文件夹</translation>
    </message>
    <message>
        <location filename="../gui/settings/librarypage.cpp" line="30"/>
        <source>&amp;Folders:</source>
        <translation>文件夹(&amp;F)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/librarypage.cpp" line="33"/>
        <source>&amp;Add Folder…</source>
        <translation>添加文件夹(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../gui/settings/librarypage.cpp" line="35"/>
        <source>Re&amp;move</source>
        <translation>移除(&amp;M)</translation>
    </message>
    <message>
        <location filename="../gui/settings/librarypage.cpp" line="83"/>
        <source>Add a Library Folder</source>
        <translation>添加资料库文件夹</translation>
    </message>
    <message>
        <location filename="../gui/settings/librarypage.cpp" line="98"/>
        <source>%1 is in the library already.</source>
        <translation>%1 已在资料库中。</translation>
    </message>
    <message>
        <location filename="../gui/settings/librarypage.cpp" line="108"/>
        <source>%1 is inside %2, which is in the library: its files are indexed once, as part of %2.</source>
        <translation>%1 位于已在资料库中的 %2 之内：其中的文件只作为 %2 的一部分索引一次。</translation>
    </message>
</context>
<context>
    <name>Gui::LogFolder</name>
    <message>
        <location filename="../gui/mainwindow/logfolder.cpp" line="18"/>
        <source>Open Log Folder</source>
        <translation>打开日志文件夹</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/logfolder.cpp" line="19"/>
        <source>The log folder could not be opened here. It is:</source>
        <translation>无法在此打开日志文件夹。它位于：</translation>
    </message>
</context>
<context>
    <name>Gui::MainWindow</name>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="78"/>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="700"/>
        <source>Headstart</source>
        <translation>Headstart</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="261"/>
        <source>Summarize the document</source>
        <translation>总结文档</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="261"/>
        <source>&amp;Summarize</source>
        <translation>总结(&amp;S)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="281"/>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="637"/>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="263"/>
        <source>&amp;Continue Writing</source>
        <translation>续写(&amp;C)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="264"/>
        <source>Continue writing from the end of the document</source>
        <translation>从文档末尾继续写作</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="265"/>
        <source>&amp;Rewrite Selection</source>
        <translation>改写选区(&amp;R)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="266"/>
        <source>Rewrite the selected text more clearly</source>
        <translation>把选中的文字改写得更清楚</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="267"/>
        <source>&amp;Translate</source>
        <translation>翻译(&amp;T)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="268"/>
        <source>Translate the selection, or the whole document</source>
        <translation>翻译选区，或整篇文档</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="269"/>
        <source>E&amp;xplain Selection</source>
        <translation>解释选区(&amp;X)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="270"/>
        <source>Explain the selected text</source>
        <translation>解释选中的文字</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="275"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="689"/>
        <source>Stop the answer and everything started in the background (Esc)</source>
        <translation>停止回答以及后台已开始的所有请求（Esc）</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="286"/>
        <source>Re&amp;generate</source>
        <translation>重新生成(&amp;G)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="288"/>
        <source>Ask again (Ctrl+Alt+G)</source>
        <translation>再问一次（Ctrl+Alt+G）</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="291"/>
        <source>&amp;Insert Answer</source>
        <translation>插入回答(&amp;I)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="293"/>
        <source>Insert the answer at the cursor, as one undo step (Ctrl+Alt+I)</source>
        <translation>在光标处插入回答，可一步撤销（Ctrl+Alt+I）</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="296"/>
        <source>Re&amp;place Selection</source>
        <translation>替换选区(&amp;P)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="298"/>
        <source>Replace the selected text with the answer, as one undo step (Ctrl+Alt+P)</source>
        <translation>用回答替换选中的文字，可一步撤销（Ctrl+Alt+P）</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="301"/>
        <source>Cop&amp;y Answer</source>
        <translation>复制回答(&amp;Y)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="303"/>
        <source>Copy the answer to the clipboard (Ctrl+Alt+Y)</source>
        <translation>把回答复制到剪贴板（Ctrl+Alt+Y）</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="319"/>
        <source>The document is empty: write or open something first.</source>
        <translation>文档为空：请先写点内容或打开一个文档。</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="323"/>
        <source>Select the text to work on first.</source>
        <translation>请先选中要处理的文字。</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="71"/>
        <source>Preparing the document…</source>
        <translation>正在准备文档…</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="344"/>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message numerus="yes">
        <location filename="../gui/mainwindow/mainwindow.cpp" line="388"/>
        <source>Answer copied to the clipboard (%n character(s))</source>
        <translation>
            <numerusform>回答已复制到剪贴板（%n 个字符）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="478"/>
        <source>%1 is no longer there.</source>
        <translation>%1 已不存在。</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="482"/>
        <source>No application opens %1 here.</source>
        <translation>这里没有能打开 %1 的应用程序。</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="485"/>
        <source>Opened %1 in your PDF viewer: the passage is on page %2.</source>
        <translation>已在 PDF 阅读器中打开 %1：段落位于第 %2 页。</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="523"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="523"/>
        <source>Close Window</source>
        <translation>关闭窗口</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="639"/>
        <source>Preparing the document</source>
        <translation>正在准备文档</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="641"/>
        <source>Streaming</source>
        <translation>正在接收</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="643"/>
        <source>Waiting for the provider</source>
        <translation>正在等待服务商</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="690"/>
        <source>Stop what is being prepared in the background (Esc)</source>
        <translation>停止后台正在准备的内容（Esc）</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/mainwindow.cpp" line="698"/>
        <source>%1 – Headstart</source>
        <translation>%1 – Headstart</translation>
    </message>
</context>
<context>
    <name>Gui::MarkdownView</name>
    <message>
        <location filename="../gui/answer/markdownview.cpp" line="217"/>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <location filename="../gui/answer/markdownview.cpp" line="227"/>
        <location filename="../gui/answer/markdownview.cpp" line="234"/>
        <source>Reasoning</source>
        <translation>推理过程</translation>
    </message>
    <message>
        <location filename="../gui/answer/markdownview.cpp" line="228"/>
        <source>Show or hide the model&apos;s reasoning</source>
        <translation>显示或隐藏模型的推理过程</translation>
    </message>
    <message>
        <location filename="../gui/answer/markdownview.cpp" line="411"/>
        <source>Reasoning (1 word)</source>
        <translation>推理过程（1 个词）</translation>
    </message>
    <message>
        <location filename="../gui/answer/markdownview.cpp" line="412"/>
        <source>Reasoning (%1 words)</source>
        <translation>推理过程（%1 个词）</translation>
    </message>
</context>
<context>
    <name>Gui::MemorySecretStore</name>
    <message>
        <location filename="../workspace/settings/secretstore.h" line="181"/>
        <source>Memory only (keys are forgotten when Headstart quits)</source>
        <translation>仅内存（Headstart 退出后密钥即被遗忘）</translation>
    </message>
</context>
<context>
    <name>Gui::MessageUsage</name>
    <message>
        <location filename="../workspace/conversations/messageusage.cpp" line="26"/>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/messageusage.cpp" line="27"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/messageusage.cpp" line="32"/>
        <source>%1 tok/s</source>
        <translation>%1 词元/秒</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/messageusage.cpp" line="38"/>
        <source>free</source>
        <translation>免费</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/messageusage.cpp" line="77"/>
        <source>%1 in</source>
        <translation>输入 %1</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/messageusage.cpp" line="79"/>
        <source>%1 (%2 cached)</source>
        <translation>%1（%2 来自缓存）</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/messageusage.cpp" line="83"/>
        <source>%1 out</source>
        <translation>输出 %1</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/messageusage.cpp" line="96"/>
        <source>not reported</source>
        <translation>未报告</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/messageusage.cpp" line="99"/>
        <source>Input tokens: %1</source>
        <translation>输入词元：%1</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/messageusage.cpp" line="100"/>
        <source>Cached input (read from the provider&apos;s cache): %1</source>
        <translation>缓存输入（从服务商缓存读取）：%1</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/messageusage.cpp" line="102"/>
        <source>Cache write (input stored in the cache): %1</source>
        <translation>缓存写入（存入缓存的输入）：%1</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/messageusage.cpp" line="104"/>
        <source>Output tokens: %1</source>
        <translation>输出词元：%1</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/messageusage.cpp" line="107"/>
        <source>Of which reasoning: %1</source>
        <translation>其中推理：%1</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/messageusage.cpp" line="108"/>
        <source>Time to first token (provider): %1</source>
        <translation>首个词元用时（服务商）：%1</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/messageusage.cpp" line="110"/>
        <source>Output speed: %1</source>
        <translation>输出速度：%1</translation>
    </message>
    <message>
        <location filename="../workspace/conversations/messageusage.cpp" line="112"/>
        <source>Cost, as the provider bills it: %1</source>
        <translation>费用（按服务商计费）：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../workspace/conversations/messageusage.cpp" line="115"/>
        <source>First words (%n characters) by %1, the rest by %2</source>
        <translation>
            <numerusform>开头（%n 个字符）由 %1 写出，其余由 %2 写出</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gui::MetricsDock</name>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="67"/>
        <source>&amp;Reset statistics</source>
        <translation>重置统计(&amp;R)</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="87"/>
        <source>Prefetch Metrics</source>
        <translation>预取指标</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="89"/>
        <source>Clear every counter, latency and alarm</source>
        <translation>清除所有计数、延迟和警报</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="92"/>
        <source>Perceived latency, median</source>
        <translation>感知延迟，中位数</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="93"/>
        <source>Perceived latency, 95th percentile</source>
        <translation>感知延迟，第 95 百分位</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="99"/>
        <source>Alarms and paused strategies</source>
        <translation>警报与已暂停的策略</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="101"/>
        <source>Prefetch paused</source>
        <translation>预取已暂停</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="103"/>
        <source>Warm-up cache hits</source>
        <translation>预热缓存命中</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="105"/>
        <source>Draft classifier on the fast model</source>
        <translation>快速模型上的草稿判断</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="106"/>
        <source>Settings, Prefetch, &quot;Ask the model whether a draft is complete&quot;: each typing pause asks the provider&apos;s fast model whether the draft is finished. Closed early: the stream was closed as soon as the number had arrived. Heuristic: no usable number in time, or no slot or budget for the question.</source>
        <translation>设置 › 预取 › “询问模型草稿是否完整”：每次输入停顿都会询问服务商的快速模型草稿是否已写完。提前关闭：数值一到就关闭了数据流。启发式：未及时得到可用数值，或没有空闲通道或预算来提问。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="113"/>
        <source>Fast/slow routing</source>
        <translation>快慢模型分流</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="114"/>
        <source>Settings, Prefetch, Fast model: small talk and simple questions in free chat go to the provider&apos;s fast model. Perceived first-token latency per model, and how often an answer of the fast model was asked again of the main one.</source>
        <translation>设置 → 预取 → 快速模型：自由聊天中的寒暄和简单问题交给服务商的快速模型。显示每个模型的感知首字延迟，以及快速模型的回答被改问主模型的次数。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="119"/>
        <source>Instant acknowledgement</source>
        <translation>即时回应</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="120"/>
        <source>Settings, Prefetch, &quot;Acknowledge at once while a reasoning model thinks&quot;: the fast model&apos;s one line shown while the main model thinks. Shown: it came before the answer&apos;s text; late: the answer came first, or nothing usable; the times are averages from sending, and from the line to the answer.</source>
        <translation>设置 → 预取 →“推理模型思考时先即时回应”：主模型思考时显示的快速模型的一句话。已显示：它先于回答文字到达；过晚：回答先到，或没有可用内容；时间为平均值，分别从发送起和从这句话到回答。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="126"/>
        <source>Response cache</source>
        <translation>响应缓存</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="127"/>
        <source>Settings, Prefetch, Response cache: a request asked again exactly is answered from what it got before; a chat question close to one answered shows that answer as a draft. Replaced: the live answer said something else than the draft.</source>
        <translation>设置 → 预取 → 响应缓存：完全相同的请求用之前得到的回答作答；与已回答问题相近的聊天问题将该回答显示为草稿。已替换：实时回答与草稿内容不同。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="131"/>
        <source>&amp;Decision log…</source>
        <translation>决策日志(&amp;D)…</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="134"/>
        <source>Each lookup of the response cache: the nearest answers, their scores and what was decided</source>
        <translation>响应缓存的每次查找：最接近的回答、它们的得分以及所做的决策</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="143"/>
        <source>Prefetch budget</source>
        <translation>预取预算</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="144"/>
        <source>Prefetch budget used</source>
        <translation>已用预取预算</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="145"/>
        <source>Prefetch money budget</source>
        <translation>预取金额预算</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="150"/>
        <source>Prefetch strategies</source>
        <translation>预取策略</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="154"/>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="154"/>
        <source>Answers</source>
        <translation>回答数</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="154"/>
        <source>Perceived p50</source>
        <translation>感知延迟 p50</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="155"/>
        <source>Wasted</source>
        <translation>浪费</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="156"/>
        <source>Extra, tokens</source>
        <translation>额外开销（词元）</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="156"/>
        <source>Cache read</source>
        <translation>缓存读取</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="157"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="161"/>
        <source>Answers shown: for a strategy, those it had prefetched for (taken over or missed); for No prefetch, those with nothing prefetched, whichever strategy asked. Each answer is counted in one row.</source>
        <translation>显示的回答：策略行中是该策略预取过的回答（已接管或未命中）；“无预取”行中是没有任何预取的回答，无论由哪个策略发起。每个回答只计入一行。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="165"/>
        <source>From the user&apos;s action to the first token shown, median over the row&apos;s latest answers</source>
        <translation>从用户操作到显示第一个词元的时间，取该行最近回答的中位数</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="170"/>
        <source>Prefetches that could not be used when the user asked: the answer started afresh</source>
        <translation>用户请求时无法使用的预取：回答重新开始</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="171"/>
        <source>Tokens spent on prefetches nobody used</source>
        <translation>花费在未被使用的预取上的词元</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="172"/>
        <source>Prompt tokens the provider read from its cache</source>
        <translation>服务商从缓存读取的提示词元</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="175"/>
        <source>Tokens wasted on unused prefetches, per token used</source>
        <translation>每个已使用词元对应的、浪费在未使用预取上的词元</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="177"/>
        <source>Money wasted on unused prefetches, per unit spent on the answers used, at the provider&apos;s prices with cache discounts applied. Only where the provider has prices; warm-up is counted in tokens only, since its prefill is what the first answer would have paid.</source>
        <translation>每花在已使用回答上的一单位金额所对应的、浪费在未使用预取上的金额，按服务商的价格并计入缓存折扣。仅在服务商有价格时显示；预热只按词元计，因为它的预填充正是第一个回答本来就要付的。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="180"/>
        <source>Provider time to first token, median</source>
        <translation>服务商首词元时间，中位数</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="181"/>
        <source>Provider time to first token, 95th percentile</source>
        <translation>服务商首词元时间，第 95 百分位</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="212"/>
        <source>Reset statistics</source>
        <translation>重置统计</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="286"/>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="287"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="296"/>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="304"/>
        <source>Prefetch paused: %1</source>
        <translation>预取已暂停：%1</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="359"/>
        <source>Perceived p50: hit %1 · miss %2 · none %3</source>
        <translation>感知延迟 p50：命中 %1 · 未命中 %2 · 无预取 %3</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="361"/>
        <source>Perceived p95: hit %1 · miss %2 · none %3</source>
        <translation>感知延迟 p95：命中 %1 · 未命中 %2 · 无预取 %3</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="363"/>
        <source>From the user&apos;s action to the first token shown, over the latest answers: %1 taken over from a prefetch, %2 after a wrong guess, %3 with nothing prefetched.</source>
        <translation>从用户操作到显示第一个词元的时间，统计最近的回答：%1 个接管自预取，%2 个在预测错误之后，%3 个没有预取。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="375"/>
        <source>Extra, %1</source>
        <translation>额外开销（%1）</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="399"/>
        <source>Paused, alarm</source>
        <translation>已暂停，警报</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="399"/>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="401"/>
        <source>Alarm</source>
        <translation>警报</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="404"/>
        <source>Waiting for your consent</source>
        <translation>等待你的同意</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="405"/>
        <source>Off (not allowed)</source>
        <translation>关闭（未允许）</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="406"/>
        <source>Not with this provider</source>
        <translation>此服务商不适用</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="408"/>
        <source>On hold (rate limit)</source>
        <translation>暂停（请求频率受限）</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="410"/>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="426"/>
        <location filename="../gui/metrics/metricsdock.cpp" line="432"/>
        <source>none used</source>
        <translation>尚无使用</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="451"/>
        <source>Hits %1, partial hits %2, misses %3, cancelled %4, expired %5, failed %6, preempted %7, rejected %8; tokens prefetched %9, used %10, wasted %11.</source>
        <translation>命中 %1 次，部分命中 %2 次，未命中 %3 次，取消 %4 次，过期 %5 次，失败 %6 次，被抢占 %7 次，被拒绝 %8 次；预取 %9 个词元，使用 %10 个，浪费 %11 个。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="510"/>
        <source>Running now: %1 · asked for by you: %2 · started early: %3, waiting to start: %4</source>
        <translation>正在运行：%1 · 您请求的：%2 · 提前开始的：%3，等待开始：%4</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="526"/>
        <source>Fast model: answers %1, p50 %2 · main model: %3, p50 %4 · asked again %5</source>
        <translation>快速模型：%1 个回答，p50 %2 · 主模型：%3 个，p50 %4 · 改问 %5 次</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="566"/>
        <source>Response cache: exact %1, similar served %2, drafts %3 (replaced %4), misses %5 · saved %6 · answers kept %7</source>
        <translation>响应缓存：精确 %1，相似直接提供 %2，草稿 %3（被替换 %4），未命中 %5 · 节省 %6 · 保存的回答 %7</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="408"/>
        <source>On hold (%1)</source>
        <translation>暂停中（%1）</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="142"/>
        <source>Requests running now</source>
        <translation>正在运行的请求</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="154"/>
        <source>Started early</source>
        <translation>提前开始</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="155"/>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="155"/>
        <source>Late</source>
        <translation>晚到</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="155"/>
        <source>Missed</source>
        <translation>未用上</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="155"/>
        <source>Used</source>
        <translation>使用率</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="156"/>
        <source>Provider p50</source>
        <translation>服务商 p50</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="157"/>
        <source>Provider p95</source>
        <translation>服务商 p95</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="159"/>
        <source>Answers this strategy started before the user asked</source>
        <translation>此策略在用户提问之前开始的回答</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="166"/>
        <source>Started early and taken over with their first token already in: ready when the user asked</source>
        <translation>提前开始、被接管时首个词元已到：用户提问时已就绪</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="168"/>
        <source>Started early and taken over before their first token: the wait was shorter, not gone</source>
        <translation>提前开始、在首个词元到达前被接管：等待缩短了，但没有消失</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="173"/>
        <source>Of the answers started early, the share the user took over (ready or late)</source>
        <translation>提前开始的回答中被用户接管的比例（已就绪或晚到）</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="413"/>
        <source>Active (too few attempts yet: %1 of %2)</source>
        <translation>活动（尝试次数尚少：%1/%2）</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="417"/>
        <source>Active</source>
        <translation>活动</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="448"/>
        <source>Answers with nothing prefetched to take over, whichever strategy asked for them: %1; perceived p50 %2, p95 %3.</source>
        <translation>没有可接管的预取的回答（无论由哪个策略发起）：%1 个；感知延迟 p50 %2，p95 %3。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="460"/>
        <source>In money: %1 prefetched, %2 used, %3 wasted.</source>
        <translation>按金额：预取 %1，使用 %2，浪费 %3。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="489"/>
        <source>Cache-hit tokens from warm-up: %1 read, %2 written</source>
        <translation>预热带来的缓存命中词元：读取 %1 个，写入 %2 个</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="497"/>
        <source>Draft classifier (fast model): %1 asked, %2 closed early, %3 to the heuristic · %4 tokens · %5</source>
        <translation>草稿判断（快速模型）：询问 %1 次，提前关闭 %2 次，交给启发式 %3 次 · %4 个 token · %5</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="540"/>
        <source>Instant acknowledgement (fast model): %1 sent, %2 shown after %3 and %4 before the answer, %5 late, %6 cancelled or not sent · %7 tokens · %8</source>
        <translation>即时回应（快速模型）：发送 %1 次，显示 %2 次，发送后 %3 出现，早于回答 %4，过晚 %5 次，取消或未发送 %6 次 · %7 个 token · %8</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="558"/>
        <source>Response cache: off</source>
        <translation>响应缓存：关闭</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="581"/>
        <source>Budget: %1 of %2 tokens this hour (%3)</source>
        <translation>预算：本小时已用 %1 / %2 个词元（%3）</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="587"/>
        <source>Budget: %1 tokens this hour, no limit</source>
        <translation>预算：本小时已用 %1 个词元，无上限</translation>
    </message>
    <message>
        <location filename="../gui/metrics/metricsdock.cpp" line="599"/>
        <source>Money budget: %1 of %2 this hour (%3)</source>
        <translation>金额预算：本小时已用 %1 / %2（%3）</translation>
    </message>
</context>
<context>
    <name>Gui::ModelPicker</name>
    <message>
        <location filename="../gui/settings/modelpicker.cpp" line="43"/>
        <location filename="../gui/settings/modelpicker.cpp" line="145"/>
        <source>Load list</source>
        <translation>加载列表</translation>
    </message>
    <message>
        <location filename="../gui/settings/modelpicker.cpp" line="46"/>
        <source>Asks the provider which models it serves (GET /models), with the key below.</source>
        <translation>使用下方的密钥询问服务商提供哪些模型（GET /models）。</translation>
    </message>
    <message>
        <location filename="../gui/settings/modelpicker.cpp" line="91"/>
        <source>Loading the models of %1…</source>
        <translation>正在加载 %1 的模型…</translation>
    </message>
    <message>
        <location filename="../gui/settings/modelpicker.cpp" line="125"/>
        <source>The provider lists no models; type the model&apos;s name.</source>
        <translation>服务商未列出任何模型；请输入模型名称。</translation>
    </message>
    <message>
        <location filename="../gui/settings/modelpicker.cpp" line="126"/>
        <source>Models listed by the provider: %1. Open the list, or type part of a name to search it.</source>
        <translation>服务商列出的模型：%1 个。打开列表，或输入名称的一部分进行搜索。</translation>
    </message>
    <message>
        <location filename="../gui/settings/modelpicker.cpp" line="138"/>
        <source>Loading the model list was cancelled.</source>
        <translation>已取消加载模型列表。</translation>
    </message>
    <message>
        <location filename="../gui/settings/modelpicker.cpp" line="139"/>
        <source>No model list: %1 The model can still be typed.</source>
        <translation>没有模型列表：%1 仍可手动输入模型。</translation>
    </message>
    <message>
        <location filename="../gui/settings/modelpicker.cpp" line="145"/>
        <source>Cancel loading</source>
        <translation>取消加载</translation>
    </message>
</context>
<context>
    <name>Gui::NetworkPage</name>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="41"/>
        <source>How Headstart reaches the model providers. Connections to this computer (the local demo engine, Ollama or llama.cpp on localhost) never go through a proxy.</source>
        <translation>Headstart 如何连接模型服务商。连接到本机的流量（本地演示引擎、localhost 上的 Ollama 或 llama.cpp）从不经过代理。</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="47"/>
        <source>Proxy</source>
        <translation>代理</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="50"/>
        <source>Pro&amp;xy:</source>
        <translation>代理(&amp;X)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="56"/>
        <source>e.g. proxy.example.com or 10.0.0.1</source>
        <translation>例如 proxy.example.com 或 10.0.0.1</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="57"/>
        <source>Proxy host</source>
        <translation>代理主机</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="58"/>
        <source>&amp;Host:</source>
        <translation>主机(&amp;H)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="65"/>
        <source>Not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="66"/>
        <source>Proxy port</source>
        <translation>代理端口</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="67"/>
        <source>P&amp;ort:</source>
        <translation>端口(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="73"/>
        <location filename="../gui/settings/networkpage.cpp" line="138"/>
        <source>Optional</source>
        <translation>可选</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="74"/>
        <source>Proxy user name</source>
        <translation>代理用户名</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="75"/>
        <source>&amp;User name:</source>
        <translation>用户名(&amp;U)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="82"/>
        <source>Proxy password</source>
        <translation>代理密码</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="83"/>
        <source>Pass&amp;word:</source>
        <translation>密码(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="131"/>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="141"/>
        <source>Could not read the stored proxy password: %1</source>
        <translation>无法读取已保存的代理密码：%1</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="157"/>
        <source>Enter the proxy&apos;s host and port: until then, requests to providers fail.</source>
        <translation>请输入代理的主机和端口：在此之前，发往服务商的请求都会失败。</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="187"/>
        <source>Could not save the proxy password: %1</source>
        <translation>无法保存代理密码：%1</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="189"/>
        <source>Proxy password removed.</source>
        <translation>代理密码已删除。</translation>
    </message>
    <message>
        <location filename="../gui/settings/networkpage.cpp" line="189"/>
        <source>Proxy password saved.</source>
        <translation>代理密码已保存。</translation>
    </message>
</context>
<context>
    <name>Gui::NewDocumentWizard</name>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="108"/>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="112"/>
        <source>Outline</source>
        <translation>大纲</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="109"/>
        <source>The sections of the document, written from your topic. Edit them as you like: the introduction follows the outline as you leave it.</source>
        <translation>根据你的主题写出的文档章节。可随意编辑：引言将按照你最终留下的大纲来写。</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="111"/>
        <source>&amp;Outline:</source>
        <translation>大纲(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="113"/>
        <source>One section per line; indent a line to make it a point under the section above.</source>
        <translation>每行一个章节；缩进一行即可使其成为上一章节下的要点。</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="114"/>
        <source>Outline status</source>
        <translation>大纲状态</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="117"/>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="121"/>
        <source>Introduction</source>
        <translation>引言</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="118"/>
        <source>The opening of the document, written from your topic and the outline.</source>
        <translation>根据你的主题和大纲写出的文档开头。</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="120"/>
        <source>&amp;Introduction:</source>
        <translation>引言(&amp;I)：</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="122"/>
        <source>The introduction appears here; you can also write it yourself.</source>
        <translation>引言将显示在这里；你也可以自己写。</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="123"/>
        <source>Introduction status</source>
        <translation>引言状态</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="126"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="127"/>
        <source>Some titles for the document. Pick one, edit it, or type your own.</source>
        <translation>为文档提供的一些标题。选择一个、修改它，或输入你自己的标题。</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="128"/>
        <source>Title &amp;options:</source>
        <translation>标题选项(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="129"/>
        <source>Title options</source>
        <translation>标题选项</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="130"/>
        <source>One title per line.</source>
        <translation>每行一个标题。</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="131"/>
        <source>Title options status</source>
        <translation>标题选项状态</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="134"/>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="332"/>
        <source>New Document</source>
        <translation>新建文档</translation>
    </message>
    <message>
        <location filename="../gui/wizard/newdocumentwizard.cpp" line="333"/>
        <source>Discard this document? Its topic and everything written for it will be lost.</source>
        <translation>放弃这个文档吗？它的主题和为它写下的所有内容都将丢失。</translation>
    </message>
</context>
<context>
    <name>Gui::PriceEditor</name>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="47"/>
        <source>I&amp;nput:</source>
        <translation>输入(&amp;N)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="48"/>
        <source>Input price</source>
        <translation>输入价格</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="49"/>
        <source>Prompt tokens the provider neither read from its cache nor wrote to it.</source>
        <translation>既未从服务商缓存读取、也未写入其缓存的提示词元。</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="50"/>
        <source>Cache &amp;write:</source>
        <translation>缓存写入(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="51"/>
        <source>Cache write price</source>
        <translation>缓存写入价格</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="52"/>
        <source>Prompt tokens written to the provider&apos;s cache. Where writing is not billed apart, this is the input price.</source>
        <translation>写入服务商缓存的提示词元。若写入不单独计费，则与输入价格相同。</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="54"/>
        <source>Cache rea&amp;d:</source>
        <translation>缓存读取(&amp;D)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="55"/>
        <source>Cache read price</source>
        <translation>缓存读取价格</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="56"/>
        <source>Prompt tokens read from the provider&apos;s cache, usually a fraction of the input price.</source>
        <translation>从服务商缓存读取的提示词元，价格通常只是输入价格的一小部分。</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="58"/>
        <source>&amp;Output:</source>
        <translation>输出(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="59"/>
        <source>Output price</source>
        <translation>输出价格</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="60"/>
        <source>Tokens the model generated, those of a guess nobody used included.</source>
        <translation>模型生成的词元，包括无人使用的猜测所生成的词元。</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="66"/>
        <source>Prices</source>
        <translation>价格</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="68"/>
        <source>&amp;Built-in prices</source>
        <translation>内置价格(&amp;B)</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="113"/>
        <source> / M tokens</source>
        <translation> / 百万词元</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="117"/>
        <source>Built-in: %1.</source>
        <translation>内置：%1。</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="122"/>
        <source>Every price of %1 back to Headstart&apos;s built-in one.</source>
        <translation>将 %1 的所有价格恢复为 Headstart 的内置价格。</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="127"/>
        <source>The local demo engine bills nothing. It is priced as DeepSeek is by default, so that its cost figures mean something.</source>
        <translation>本地演示引擎不收费。它默认按 DeepSeek 的价格计价，使其开销数字有意义。</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="130"/>
        <source>%1 bills nothing by default, as a server on your own machine does. Enter prices if yours charges.</source>
        <translation>%1 默认不收费，就像运行在你自己电脑上的服务器一样。如果你的服务收费，请填写价格。</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="134"/>
        <source>By default, the prices %1 publishes, as of the date Headstart&apos;s documentation gives. Change them if your model or account is billed otherwise.</source>
        <translation>默认为 %1 公布的价格，以 Headstart 文档注明的日期为准。如果你的模型或账户计费方式不同，请修改。</translation>
    </message>
    <message>
        <location filename="../gui/settings/priceeditor.cpp" line="138"/>
        <source>The metrics panel&apos;s cost in money and the hourly money budget use these prices, with cache discounts applied.</source>
        <translation>指标面板中的金额开销和每小时金额预算都使用这些价格，并计入缓存折扣。</translation>
    </message>
</context>
<context>
    <name>Gui::SalvageExport</name>
    <message>
        <location filename="../gui/chat/salvageexport.cpp" line="18"/>
        <source>Export Damaged Conversations</source>
        <translation>导出损坏的对话</translation>
    </message>
    <message>
        <location filename="../gui/chat/salvageexport.cpp" line="29"/>
        <source>Export Damaged Conversations To</source>
        <translation>将损坏的对话导出到</translation>
    </message>
    <message>
        <location filename="../gui/chat/salvageexport.cpp" line="48"/>
        <source>%1 readable conversation(s) were written to %2, one Markdown file each and all of them in conversations.json.</source>
        <translation>已将 %1 个可读取的对话写入 %2：每个对话一个 Markdown 文件，全部对话另存于 conversations.json。</translation>
    </message>
</context>
<context>
    <name>Gui::SelectionLearningLine</name>
    <message>
        <location filename="../gui/metrics/selectionlearningline.cpp" line="14"/>
        <source>Summarize</source>
        <translation>总结</translation>
    </message>
    <message>
        <location filename="../gui/metrics/selectionlearningline.cpp" line="15"/>
        <source>Continue Writing</source>
        <translation>续写</translation>
    </message>
    <message>
        <location filename="../gui/metrics/selectionlearningline.cpp" line="16"/>
        <source>Rewrite</source>
        <translation>改写</translation>
    </message>
    <message>
        <location filename="../gui/metrics/selectionlearningline.cpp" line="17"/>
        <source>Translate</source>
        <translation>翻译</translation>
    </message>
    <message>
        <location filename="../gui/metrics/selectionlearningline.cpp" line="18"/>
        <source>Explain</source>
        <translation>解释</translation>
    </message>
    <message>
        <location filename="../gui/metrics/selectionlearningline.cpp" line="29"/>
        <source>What your selections are for</source>
        <translation>你选中文字是为了什么</translation>
    </message>
    <message>
        <location filename="../gui/metrics/selectionlearningline.cpp" line="33"/>
        <source>Learnt on this computer from what you do after selecting text. A guess is made only where its wrong guesses are expected to cost at most the share set in Settings, Prefetch (&quot;Let wrong guesses cost at most&quot;) of what its right ones are for; &quot;Forget what was learnt&quot; there starts again.</source>
        <translation>根据你选中文字之后的操作在本机学得。只有在猜错的预期花费不超过猜对时所花费用的一定比例（设置 → 预取 →“猜错的花费最多为”）时才会猜测；在那里点“忘掉学到的内容”即可从头开始。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/selectionlearningline.cpp" line="65"/>
        <source>Lately an action followed %1 of your selections.</source>
        <translation>最近你选中文字后有 %1 的情况执行了操作。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/selectionlearningline.cpp" line="73"/>
        <source>At the last one %1 was %2 likely, and its guess pays from %3: guessed.</source>
        <translation>上一次选中时，“%1”的可能性为 %2，猜测从 %3 起才划算：已猜测。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/selectionlearningline.cpp" line="74"/>
        <source>At the last one %1 was %2 likely, and its guess pays only from %3: not guessed for now.</source>
        <translation>上一次选中时，“%1”的可能性为 %2，而猜测要到 %3 才划算：暂不猜测。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/selectionlearningline.cpp" line="80"/>
        <source>Your pointer or shortcuts already start %1 of an answer&apos;s wait before you run an action, so a guess here saves at most the other %2.</source>
        <translation>你的指针或快捷键在你运行操作之前，已经开始了回答等待时间的 %1，所以在这里猜测最多只能节省其余的 %2。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/selectionlearningline.cpp" line="85"/>
        <source>Early guesses have lately added more to your bill than Settings allow, so each one must be likelier to pay until the bill is back within it.</source>
        <translation>近来提前猜测给账单增加的费用超过了设置允许的范围，因此在账单回到范围内之前，每次猜测都必须更有把握划算。</translation>
    </message>
    <message>
        <location filename="../gui/metrics/selectionlearningline.cpp" line="96"/>
        <source>Selections: %1</source>
        <translation>选中文字：%1</translation>
    </message>
</context>
<context>
    <name>Gui::SettingsDialog</name>
    <message>
        <location filename="../gui/settings/settingsdialogwidgets.cpp" line="17"/>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <location filename="../gui/settings/settingsdialogwidgets.cpp" line="18"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../gui/settings/settingsdialogwidgets.cpp" line="19"/>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <location filename="../gui/settings/settingsdialogwidgets.cpp" line="20"/>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <location filename="../gui/settings/settingsdialogwidgets.cpp" line="21"/>
        <source> characters</source>
        <translation> 个字符</translation>
    </message>
    <message>
        <location filename="../gui/settings/settingsdialogwidgets.cpp" line="22"/>
        <source> requests</source>
        <translation> 个请求</translation>
    </message>
    <message>
        <location filename="../gui/settings/settingsdialogwidgets.cpp" line="23"/>
        <source> samples</source>
        <translation> 个样本</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="83"/>
        <location filename="../gui/settings/settingsdialogwidgets.cpp" line="24"/>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <location filename="../gui/settings/settingsdialogwidgets.cpp" line="25"/>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="21"/>
        <source>English</source>
        <translation>英语</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="22"/>
        <source>Simplified Chinese</source>
        <translation>简体中文</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="23"/>
        <source>Traditional Chinese</source>
        <translation>繁体中文</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="24"/>
        <source>Japanese</source>
        <translation>日语</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="25"/>
        <source>Korean</source>
        <translation>韩语</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="26"/>
        <source>French</source>
        <translation>法语</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="27"/>
        <source>German</source>
        <translation>德语</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="28"/>
        <source>Spanish</source>
        <translation>西班牙语</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="29"/>
        <source>Portuguese</source>
        <translation>葡萄牙语</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="30"/>
        <source>Italian</source>
        <translation>意大利语</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="31"/>
        <source>Russian</source>
        <translation>俄语</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="32"/>
        <source>Arabic</source>
        <translation>阿拉伯语</translation>
    </message>
    <message>
        <location filename="../gui/settings/settingsdialog.cpp" line="32"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../gui/settings/settingsdialog.cpp" line="48"/>
        <source>&amp;Providers</source>
        <translation>服务商(&amp;P)</translation>
    </message>
    <message>
        <location filename="../gui/settings/settingsdialog.cpp" line="51"/>
        <source>P&amp;refetch</source>
        <translation>预取(&amp;R)</translation>
    </message>
    <message>
        <location filename="../gui/settings/settingsdialog.cpp" line="53"/>
        <source>&amp;General</source>
        <translation>常规(&amp;G)</translation>
    </message>
    <message>
        <location filename="../gui/settings/settingsdialog.cpp" line="55"/>
        <source>N&amp;etwork</source>
        <translation>网络(&amp;E)</translation>
    </message>
    <message>
        <location filename="../gui/settings/settingsdialog.cpp" line="61"/>
        <source>&amp;Library</source>
        <translation>资料库(&amp;L)</translation>
    </message>
    <message>
        <location filename="../gui/settings/settingsdialog.cpp" line="67"/>
        <source>Assis&amp;tants</source>
        <translation>助手(&amp;T)</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="55"/>
        <source>Provider in use</source>
        <translation>使用中的服务商</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="56"/>
        <source>Provider &amp;in use:</source>
        <translation>使用中的服务商(&amp;I)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="74"/>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="75"/>
        <source>Up to and including the version segment, e.g. https://api.deepseek.com/v1. Empty: the provider&apos;s default.</source>
        <translation>包含到版本段为止，例如 https://api.deepseek.com/v1。留空：使用服务商的默认值。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="77"/>
        <source>Base &amp;URL:</source>
        <translation>基础 URL(&amp;U)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="88"/>
        <source>Allow unencrypted &amp;HTTP to this address</source>
        <translation>允许以未加密的 HTTP 连接此地址(&amp;H)</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="100"/>
        <location filename="../gui/settings/providerspage.cpp" line="101"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="103"/>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="104"/>
        <location filename="../gui/settings/providerspage.cpp" line="119"/>
        <source>Fast model</source>
        <translation>快速模型</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="125"/>
        <source>F&amp;ast model:</source>
        <translation>快速模型(&amp;A)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="131"/>
        <source>Extra headers</source>
        <translation>附加请求头</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="133"/>
        <source>Name: value, one per line</source>
        <translation>名称: 值，每行一个</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="137"/>
        <source>Sent with every request, e.g. for a gateway. Stored in the settings file in plain text: put API keys in the key fields below, which keep them in the keychain.</source>
        <translation>随每个请求发送，例如供网关使用。以明文保存在设置文件中：API 密钥请填写在下方的密钥栏中，它们保存在钥匙串里。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="139"/>
        <source>E&amp;xtra headers:</source>
        <translation>附加请求头(&amp;X)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="151"/>
        <source>Concurrent requests</source>
        <translation>并发请求数</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="152"/>
        <source>How many requests the provider accepts at once; prefetches give way to your requests at this limit.</source>
        <translation>服务商同时接受的请求数；达到此上限时，预取会为你的请求让路。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="154"/>
        <source>&amp;Concurrent requests:</source>
        <translation>并发请求数(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="26"/>
        <source>API &amp;key:</source>
        <translation>API 密钥(&amp;K)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="26"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="27"/>
        <source>Stored in the system keychain, never in the settings file.</source>
        <translation>保存在系统钥匙串中，绝不写入设置文件。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="28"/>
        <source>Pre&amp;fetch key:</source>
        <translation>预取密钥(&amp;F)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="28"/>
        <source>Prefetch key</source>
        <translation>预取密钥</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="29"/>
        <source>Optional. Early answers use this key, so they never eat the main key&apos;s rate limit.</source>
        <translation>可选。提前回答使用此密钥，因此永远不会占用主密钥的速率限额。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="30"/>
        <source>M&amp;ore keys:</source>
        <translation>更多密钥(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="30"/>
        <source>More API keys</source>
        <translation>更多 API 密钥</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="31"/>
        <source>Optional. More keys of this provider, separated by commas: when it refuses a key with a rate limit (HTTP 429), the request goes again at once with the next one.</source>
        <translation>可选。此服务商的更多密钥，用逗号分隔：当它以速率限制（HTTP 429）拒绝某个密钥时，请求会立即改用下一个密钥重发。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="35"/>
        <source>&amp;Show keys</source>
        <translation>显示密钥(&amp;S)</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="53"/>
        <source>Keys are kept in:</source>
        <translation>密钥保存在：</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="180"/>
        <location filename="../gui/settings/providerspage.cpp" line="556"/>
        <source>&amp;Test connection</source>
        <translation>测试连接(&amp;T)</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="182"/>
        <source>Sends a one-token request and reports the time to the first token.</source>
        <translation>发送一个只生成 1 个词元的请求，并报告首个词元到达的时间。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="188"/>
        <source>Connection test result</source>
        <translation>连接测试结果</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="305"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="324"/>
        <source>The local demo engine runs inside Headstart and works offline. It is not a language model: it writes placeholder text with realistic timing, so every feature can be tried without a key or a network.</source>
        <translation>本地演示引擎运行在 Headstart 内部，可离线工作。它不是语言模型：它以逼真的时间节奏写出占位文本，让你无需密钥和网络即可试用所有功能。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="328"/>
        <source>Text you send goes to %1 at %2.</source>
        <translation>你发送的文本会发往 %1（%2）。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="330"/>
        <source>the base URL below</source>
        <translation>下方的基础 URL</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="333"/>
        <source>%1 runs on this computer: text stays on this machine.</source>
        <translation>%1 运行在这台计算机上：文本不会离开本机。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="293"/>
        <source>Chosen by Headstart when the engine starts</source>
        <translation>引擎启动时由 Headstart 选择</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="122"/>
        <source>A smaller, quicker model of the same provider. With Prefetch, &quot;Ask the model whether a draft is complete&quot; on, it is the model asked. A model Headstart does not know is priced as the main model.</source>
        <translation>同一服务商的更小、更快的模型。开启预取中的“询问模型草稿是否完整”后，询问的就是它。Headstart 不认识的模型按主模型计价。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="297"/>
        <source>e.g. https://example.com/v1</source>
        <translation>例如 https://example.com/v1</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="303"/>
        <source>the model&apos;s name at the provider</source>
        <translation>模型在服务商处的名称</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="93"/>
        <source>Not needed</source>
        <translation>不需要</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="96"/>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="101"/>
        <source>Not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="103"/>
        <source>Not set: prefetches use the API key</source>
        <translation>未设置：预取使用 API 密钥</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="104"/>
        <source>None: only the API key</source>
        <translation>无：只用 API 密钥</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="106"/>
        <source>Could not read the stored key: %1</source>
        <translation>无法读取已保存的密钥：%1</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="133"/>
        <source>Could not save the key: %1</source>
        <translation>无法保存密钥：%1</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="136"/>
        <source>Key removed.</source>
        <translation>密钥已删除。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="136"/>
        <source>Key saved.</source>
        <translation>密钥已保存。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="170"/>
        <source>%1. Start a keychain service, such as GNOME Keyring or KWallet, to keep keys encrypted.</source>
        <translation>%1。请启动一个钥匙串服务（例如 GNOME Keyring 或 KWallet），以加密保存密钥。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="183"/>
        <source>Key storage</source>
        <translation>密钥存储</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerkeys.cpp" line="183"/>
        <source>Warning: key storage is not encrypted</source>
        <translation>警告：密钥存储未加密</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="359"/>
        <source>Enter an address starting with http:// or https://, such as %1.</source>
        <translation>请输入以 http:// 或 https:// 开头的地址，例如 %1。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="373"/>
        <source>Not applied: %1</source>
        <translation>未应用：%1</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="397"/>
        <source>Warning: the API key and your text go to %1 unencrypted; anyone on the network between can read them.</source>
        <translation>警告：API 密钥和你的文本将以未加密方式发送到 %1；途经网络上的任何人都能读取它们。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="400"/>
        <source>Warning: %1 is plain http:// to another machine, so the API key and your text would cross the network unencrypted. Headstart sends nothing there unless you allow it below; prefer https://.</source>
        <translation>警告：%1 是指向另一台计算机的明文 http:// 地址，API 密钥和你的文本将以未加密方式在网络上传输。除非你在下方允许，否则 Headstart 不会向其发送任何内容；建议使用 https://。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="533"/>
        <source>Testing %1…</source>
        <translation>正在测试 %1…</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="542"/>
        <source>Connected. First token after %1 ms.</source>
        <translation>已连接。首个词元在 %1 毫秒后到达。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="543"/>
        <source>Connected: the provider answered after %1 ms but sent no text within one token (a model that thinks first needs more).</source>
        <translation>已连接：服务商在 %1 毫秒后作出响应，但在 1 个词元内没有发送文本（先思考的模型需要更多词元）。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="551"/>
        <source>Test cancelled.</source>
        <translation>测试已取消。</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="556"/>
        <source>Cancel &amp;test</source>
        <translation>取消测试(&amp;T)</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="65"/>
        <source>Hover, typing and the early guesses send text to the provider before you press anything: the open document when the pointer rests on or heads for an action, when you select text, hold a shortcut&apos;s keys or have just opened the document, and your draft when you pause typing. A guess that turns out wrong still costs its tokens; an early guess asks only for the first few. Warm-up sends the open document when you open it, so that the provider can cache it.</source>
        <translation>悬停、输入和提前猜测会在你按下任何键之前把文本发送给服务商：当指针停在或移向某个操作、你选中文本、按住快捷键或刚打开文档时发送已打开的文档，你停止输入时发送草稿。猜错的请求仍会消耗词元；提前猜测只请求开头的几个词元。预热会在你打开文档时发送它，以便服务商缓存。</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="90"/>
        <source>Advanced settings</source>
        <translation>高级设置</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="105"/>
        <source>Response cache</source>
        <translation>响应缓存</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="106"/>
        <source>Early guesses</source>
        <translation>提前猜测</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="110"/>
        <source>Battery and network</source>
        <translation>电池与网络</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="365"/>
        <source>Hover, typing and early-guess prefetch may send text to %1 before you press anything; the switches below decide which of them run.</source>
        <translation>悬停、输入和提前猜测预取可能会在你按下任何键之前把文本发送给 %1；下面的开关决定启用哪些。</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="368"/>
        <source>Until you allow it, hover, typing and early-guess prefetch stay off for %1, whatever the switches below say.</source>
        <translation>在你允许之前，无论下面的开关如何设置，%1 的悬停、输入和提前猜测预取都保持关闭。</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="67"/>
        <source>Automatic (the other of English and Chinese)</source>
        <translation>自动（英语与中文互译）</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="84"/>
        <source>Text size</source>
        <translation>文字大小</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="85"/>
        <source>The size of all text, in percent of the desktop&apos;s font size.</source>
        <translation>所有文字的大小，以桌面字体大小的百分比表示。</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="86"/>
        <source>Te&amp;xt size:</source>
        <translation>文字大小(&amp;X)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="98"/>
        <source>Colour scheme</source>
        <translation>配色方案</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="99"/>
        <source>Light or dark windows. &quot;As the desktop&quot; follows the desktop&apos;s light or dark style as it changes.</source>
        <translation>浅色或深色窗口。“跟随桌面”会随桌面的浅色或深色风格一起变化。</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="101"/>
        <source>Colour sc&amp;heme:</source>
        <translation>配色方案(&amp;H)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="113"/>
        <source>Log detail</source>
        <translation>日志详细程度</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="114"/>
        <source>Log &amp;detail:</source>
        <translation>日志详细程度(&amp;D)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="117"/>
        <source>The log (Help, Open Log Folder) never records your API keys, prompts, documents or answers. Detailed records more about each request and about prefetching, for a bug report.</source>
        <translation>日志（帮助 → 打开日志文件夹）从不记录您的 API 密钥、提示词、文档或回答。“详细”会记录每个请求和预取的更多信息，便于提交错误报告。</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="109"/>
        <source>Lanes, buffer and budget</source>
        <translation>通道、缓冲与预算</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="111"/>
        <source>Alarms</source>
        <translation>告警</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="112"/>
        <source>Metrics panel</source>
        <translation>指标面板</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="120"/>
        <source>Restore &amp;defaults</source>
        <translation>恢复默认值(&amp;D)</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="122"/>
        <source>Every prefetch setting back to its default; consent is kept.</source>
        <translation>将所有预取设置恢复为默认值；同意项保持不变。</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="125"/>
        <source>Forget what was &amp;learnt</source>
        <translation>忘掉学到的内容(&amp;L)</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="127"/>
        <source>What the early guesses learnt from what you do (which action follows a document opened, a selection or an answer, and how often nothing follows a selection), kept on this computer only, is forgotten; they start again from what a new user does.</source>
        <translation>忘掉提前猜测从你的操作中学到的内容（打开文档、选中文字或收到回答之后接着执行哪个操作，以及选中文字后有多少次什么也没做）；这些内容只保存在本机。之后从新用户的习惯重新开始。</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="134"/>
        <source>Forgotten</source>
        <translation>已忘掉</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="156"/>
        <source>Starting answers before you ask</source>
        <translation>在您提问之前开始回答</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="164"/>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="165"/>
        <source>Nothing is sent before you ask. Answers start when you click, press a shortcut or send.</source>
        <translation>在您提问之前不发送任何内容。回答在您点击、按下快捷键或发送时才开始。</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="166"/>
        <source>Balanced (recommended)</source>
        <translation>平衡（推荐）</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="167"/>
        <source>The open document is kept warm, and answers start while you point at an action, pause typing or select text. A strategy whose wrong guesses cost more than half of what its answers use pauses itself.</source>
        <translation>保持打开的文档处于预热状态；当您指向某个操作、停下打字或选中文本时，回答就已开始。某个策略猜错的花费超过其回答用量的一半时，它会自行暂停。</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="169"/>
        <source>Eager</source>
        <translation>积极</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="170"/>
        <source>Answers start sooner and more of them are guessed; wrong guesses may cost up to as much as the answers used, and the hourly budget is two and a half times larger.</source>
        <translation>回答开始得更早，猜测的回答也更多；猜错的花费最多可与用上的回答相当，每小时预算是默认的两倍半。</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="172"/>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="172"/>
        <source>Set under Advanced settings.</source>
        <translation>在“高级设置”中设定。</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="261"/>
        <location filename="../gui/settings/prefetchpage.cpp" line="281"/>
        <source>Unlimited</source>
        <translation>不限</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="276"/>
        <source>Exact match only</source>
        <translation>仅完全匹配</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="291"/>
        <source>From %1 to %2.</source>
        <translation>范围为 %1 到 %2。</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="356"/>
        <source>%1 runs inside Headstart: prefetch needs no consent.</source>
        <translation>%1 运行在 Headstart 内部：预取无需同意。</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="357"/>
        <source>%1 runs on this computer: prefetch needs no consent.</source>
        <translation>%1 运行在这台计算机上：预取无需同意。</translation>
    </message>
    <message>
        <location filename="../gui/settings/prefetchpage.cpp" line="361"/>
        <source>&amp;Allow early sending to %1</source>
        <translation>允许提前发送给 %1(&amp;A)</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="52"/>
        <source>User interface language</source>
        <translation>界面语言</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="53"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="56"/>
        <source>Takes effect the next time Headstart starts.</source>
        <translation>下次启动 Headstart 时生效。</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="70"/>
        <source>Translate into</source>
        <translation>翻译为</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="71"/>
        <source>Pick a language or type any other.</source>
        <translation>选择一种语言，或输入其他任意语言。</translation>
    </message>
    <message>
        <location filename="../gui/settings/generalpage.cpp" line="72"/>
        <source>&amp;Translate into:</source>
        <translation>翻译为(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="433"/>
        <source>On the command line: --provider %1</source>
        <translation>命令行中：--provider %1</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="496"/>
        <source>%1 was kept: its keys could not be removed from the keychain: %2</source>
        <translation>已保留 %1：无法从钥匙串中删除其密钥：%2</translation>
    </message>
    <message>
        <location filename="../gui/settings/providerspage.cpp" line="502"/>
        <source>%1 was removed with its keys.</source>
        <translation>已删除 %1 及其密钥。</translation>
    </message>
</context>
<context>
    <name>Gui::StreamFollower</name>
    <message>
        <location filename="../gui/answer/streamfollower.cpp" line="23"/>
        <source>rate limited</source>
        <translation>请求频率受限</translation>
    </message>
    <message>
        <location filename="../gui/answer/streamfollower.cpp" line="26"/>
        <location filename="../gui/answer/streamfollower.cpp" line="29"/>
        <source>overloaded</source>
        <translation>过载</translation>
    </message>
    <message>
        <location filename="../gui/answer/streamfollower.cpp" line="27"/>
        <source>server error, HTTP %1</source>
        <translation>服务器错误，HTTP %1</translation>
    </message>
    <message>
        <location filename="../gui/answer/streamfollower.cpp" line="33"/>
        <source>%1 is busy (%2); retrying in %3 s — attempt %4 of %5</source>
        <translation>%1 正忙（%2）；%3 秒后重试——第 %4 次，共 %5 次</translation>
    </message>
</context>
<context>
    <name>Gui::ThinkingEditor</name>
    <message>
        <location filename="../gui/settings/thinkingeditor.cpp" line="27"/>
        <source>Extended thinking</source>
        <translation>扩展思考</translation>
    </message>
    <message>
        <location filename="../gui/settings/thinkingeditor.cpp" line="29"/>
        <source>The model thinks before it answers; the thinking is shown folded above the answer. Thinking tokens are billed as output. An answer cannot be continued while it is on.</source>
        <translation>模型在回答前先思考；思考内容折叠显示在回答上方。思考词元按输出计费。开启时无法续写回答。</translation>
    </message>
    <message>
        <location filename="../gui/settings/thinkingeditor.cpp" line="37"/>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <location filename="../gui/settings/thinkingeditor.cpp" line="38"/>
        <source>Thinking budget</source>
        <translation>思考预算</translation>
    </message>
    <message>
        <location filename="../gui/settings/thinkingeditor.cpp" line="39"/>
        <source>The most tokens the model may think for, from %1 to %2. They come on top of the answer&apos;s length limit.</source>
        <translation>模型最多可用于思考的词元数，范围 %1 到 %2。它们另计在回答长度上限之外。</translation>
    </message>
</context>
<context>
    <name>Gui::TimeoutsEditor</name>
    <message>
        <location filename="../gui/settings/timeoutseditor.cpp" line="21"/>
        <source>Re&amp;ach the server within:</source>
        <translation>连接服务器限时(&amp;A)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/timeoutseditor.cpp" line="22"/>
        <source>Connect timeout</source>
        <translation>连接超时</translation>
    </message>
    <message>
        <location filename="../gui/settings/timeoutseditor.cpp" line="23"/>
        <source>How long a new connection to the provider (or the proxy) may take.</source>
        <translation>与服务商（或代理）建立新连接最多可用的时间。</translation>
    </message>
    <message>
        <location filename="../gui/settings/timeoutseditor.cpp" line="24"/>
        <source>First b&amp;yte within:</source>
        <translation>首字节限时(&amp;Y)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/timeoutseditor.cpp" line="25"/>
        <source>First byte timeout</source>
        <translation>首字节超时</translation>
    </message>
    <message>
        <location filename="../gui/settings/timeoutseditor.cpp" line="26"/>
        <source>How long the provider may read the prompt, and think, before the answer begins. A long document that is not cached yet, or a model that reasons before it writes, can take minutes.</source>
        <translation>回答开始之前，服务商读取提示词和思考最多可用的时间。尚未缓存的长文档，或先推理再作答的模型，可能需要几分钟。</translation>
    </message>
    <message>
        <location filename="../gui/settings/timeoutseditor.cpp" line="29"/>
        <source>Id&amp;le for at most:</source>
        <translation>最长空闲(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../gui/settings/timeoutseditor.cpp" line="30"/>
        <source>Idle timeout</source>
        <translation>空闲超时</translation>
    </message>
    <message>
        <location filename="../gui/settings/timeoutseditor.cpp" line="31"/>
        <source>How long the answer may pause once it flows; the text so far is kept when it fails.</source>
        <translation>回答开始输出后最多可停顿的时间；超时失败时保留已收到的文本。</translation>
    </message>
    <message>
        <location filename="../gui/settings/timeoutseditor.cpp" line="43"/>
        <source>Timeouts</source>
        <translation>超时</translation>
    </message>
    <message>
        <location filename="../gui/settings/timeoutseditor.cpp" line="53"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../gui/settings/timeoutseditor.cpp" line="70"/>
        <source>%1 Built in: %2 s; from %3 to %4 s.</source>
        <translation>%1 内置值：%2 秒；范围 %3 到 %4 秒。</translation>
    </message>
</context>
<context>
    <name>Gui::UserEndpoints</name>
    <message>
        <location filename="../workspace/settings/userendpoints.cpp" line="112"/>
        <source>The name is empty.</source>
        <translation>名称为空。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/userendpoints.cpp" line="114"/>
        <source>A name has at most %1 characters.</source>
        <translation>名称最多 %1 个字符。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/userendpoints.cpp" line="116"/>
        <source>A name cannot contain line breaks or other control characters.</source>
        <translation>名称不能包含换行或其他控制字符。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/userendpoints.cpp" line="121"/>
        <source>A built-in provider is called &quot;%1&quot;.</source>
        <translation>已有内置服务商名为“%1”。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/userendpoints.cpp" line="125"/>
        <source>Another endpoint is called &quot;%1&quot;.</source>
        <translation>已有另一个端点名为“%1”。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/userendpoints.cpp" line="153"/>
        <source>There is no endpoint &quot;%1&quot;.</source>
        <translation>没有端点“%1”。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/userendpoints.cpp" line="183"/>
        <source>OpenAI-compatible (chat completions)</source>
        <translation>兼容 OpenAI（聊天补全）</translation>
    </message>
    <message>
        <location filename="../workspace/settings/userendpoints.cpp" line="184"/>
        <source>Anthropic-compatible (messages)</source>
        <translation>兼容 Anthropic（消息）</translation>
    </message>
    <message>
        <location filename="../workspace/settings/userendpoints.cpp" line="209"/>
        <source>%1 The file as it was is kept as %2.</source>
        <translation>%1 原文件已另存为 %2。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/userendpoints.cpp" line="222"/>
        <source>The settings file has an endpoint with the id &quot;%1&quot;, which is not made of letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;; it was ignored.</source>
        <translation>设置文件中有一个 ID 为“%1”的端点，其 ID 不只由字母、数字、“.”、“_”和“-”组成；已忽略。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/userendpoints.cpp" line="228"/>
        <source>The settings file has an endpoint with the id &quot;%1&quot;, which is a built-in provider&apos;s; it was ignored.</source>
        <translation>设置文件中有一个 ID 为“%1”的端点，该 ID 属于内置服务商；已忽略。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/userendpoints.cpp" line="246"/>
        <source>The format of the endpoint &quot;%1&quot; in the settings file (%2) is neither &quot;openai&quot; nor &quot;anthropic&quot;; it is sent OpenAI-compatible requests. If it speaks Anthropic&apos;s format, remove it and add it again.</source>
        <translation>设置文件中端点“%1”的格式（%2）既不是“openai”也不是“anthropic”；将向其发送兼容 OpenAI 的请求。如果它使用 Anthropic 格式，请删除后重新添加。</translation>
    </message>
    <message>
        <location filename="../workspace/settings/userendpoints.cpp" line="249"/>
        <location filename="../workspace/settings/userendpoints.cpp" line="276"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../workspace/settings/userendpoints.cpp" line="270"/>
        <source>Endpoint %1</source>
        <translation>端点 %1</translation>
    </message>
    <message>
        <location filename="../workspace/settings/userendpoints.cpp" line="274"/>
        <source>The name of the endpoint &quot;%1&quot; in the settings file (%2) cannot be used: %3 It is called &quot;%4&quot; now.</source>
        <translation>设置文件中端点“%1”的名称（%2）无法使用：%3 现已改名为“%4”。</translation>
    </message>
</context>
<context>
    <name>Gui::WindowMenus</name>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="31"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="32"/>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="36"/>
        <source>New Win&amp;dow</source>
        <translation>新建窗口(&amp;D)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="37"/>
        <source>New from &amp;Wizard…</source>
        <translation>用向导新建(&amp;W)…</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="39"/>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="42"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="44"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="50"/>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="57"/>
        <source>Save in &amp;Encoding</source>
        <translation>保存编码(&amp;E)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="61"/>
        <source>UTF-8</source>
        <translation>UTF-8</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="62"/>
        <source>GB18030 (Chinese)</source>
        <translation>GB18030（中文）</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="63"/>
        <source>UTF-16</source>
        <translation>UTF-16</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="76"/>
        <source>%1 is saved in %2 from now on: Save writes it.</source>
        <translation>%1 今后以 %2 保存：按“保存”即写入。</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="90"/>
        <source>&amp;Close Document</source>
        <translation>关闭文档(&amp;C)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="103"/>
        <source>&amp;Export Damaged Conversations…</source>
        <translation>导出损坏的对话(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="107"/>
        <source>Se&amp;ttings…</source>
        <translation>设置(&amp;T)…</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="111"/>
        <source>C&amp;lose Window</source>
        <translation>关闭窗口(&amp;L)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="114"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="119"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="121"/>
        <source>&amp;AI</source>
        <translation>AI(&amp;A)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="130"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="135"/>
        <source>&amp;Chat</source>
        <translation>对话(&amp;C)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="140"/>
        <source>&amp;Metrics</source>
        <translation>指标(&amp;M)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="145"/>
        <source>&amp;Library</source>
        <translation>资料库(&amp;L)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="158"/>
        <source>&amp;Next Document</source>
        <translation>下一个文档(&amp;N)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="161"/>
        <source>&amp;Previous Document</source>
        <translation>上一个文档(&amp;P)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="165"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="166"/>
        <source>&amp;User Guide</source>
        <translation>用户指南(&amp;U)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="175"/>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="178"/>
        <source>Open &amp;Log Folder</source>
        <translation>打开日志文件夹(&amp;L)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="183"/>
        <source>&amp;About Headstart</source>
        <translation>关于 Headstart(&amp;A)</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowmenus.cpp" line="187"/>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
</context>
<context>
    <name>Gui::WindowStatusBar</name>
    <message>
        <location filename="../gui/mainwindow/windowstatusbar.cpp" line="39"/>
        <source>Provider: %1 · Model: %2</source>
        <translation>服务商：%1 · 模型：%2</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowstatusbar.cpp" line="42"/>
        <source>Prefetch budget: unlimited</source>
        <translation>预取预算：不限</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowstatusbar.cpp" line="44"/>
        <source>Prefetch budget left: %1 of %2 tokens this hour</source>
        <translation>本小时预取预算剩余：%1 / %2 个词元</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowstatusbar.cpp" line="59"/>
        <source>Prefetch paused: %1</source>
        <translation>预取已暂停：%1</translation>
    </message>
    <message>
        <location filename="../gui/mainwindow/windowstatusbar.cpp" line="61"/>
        <source>No early answers start until this ends; the answers you ask for still come. Settings, Prefetch, Battery and network switches this off.</source>
        <translation>在此情况结束前不会提前开始任何回答；你主动请求的回答照常返回。可在“设置 › 预取 › 电池与网络”中关闭此功能。</translation>
    </message>
</context>
<context>
    <name>Gui::WizardGenerationPage</name>
    <message>
        <location filename="../gui/wizard/wizardgenerationpage.cpp" line="25"/>
        <source>&amp;Regenerate</source>
        <translation>重新生成(&amp;R)</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardgenerationpage.cpp" line="26"/>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardgenerationpage.cpp" line="53"/>
        <source>Write this step again from the earlier steps</source>
        <translation>根据前面的步骤重新撰写这一步</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardgenerationpage.cpp" line="54"/>
        <source>Stop writing (Esc)</source>
        <translation>停止撰写（Esc）</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardgenerationpage.cpp" line="140"/>
        <source>Waiting for the first token…</source>
        <translation>正在等待第一个词元…</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardgenerationpage.cpp" line="152"/>
        <source>You can type the text yourself, or press Regenerate.</source>
        <translation>你可以自己输入文本，或点击“重新生成”。</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardgenerationpage.cpp" line="158"/>
        <source>The earlier steps changed since this text was written. Press Regenerate to write it again from them.</source>
        <translation>此文本写好之后，前面的步骤已更改。点击“重新生成”可根据它们重新撰写。</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardgenerationpage.cpp" line="173"/>
        <source>First token after %1 ms: written while you read the step before, ready at Next.</source>
        <translation>首个词元用时 %1 毫秒：在您阅读上一步时已写好，按“下一步”时已就绪。</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardgenerationpage.cpp" line="175"/>
        <source>First token after %1 ms: started while you read the step before, not ready at Next.</source>
        <translation>首个词元用时 %1 毫秒：在您阅读上一步时已开始，按“下一步”时尚未就绪。</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardgenerationpage.cpp" line="71"/>
        <source>Writing…</source>
        <translation>正在撰写…</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardgenerationpage.cpp" line="169"/>
        <source>No text arrived.</source>
        <translation>没有收到任何文本。</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardgenerationpage.cpp" line="176"/>
        <source>First token after %1 ms.</source>
        <translation>首个词元用时 %1 毫秒。</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardgenerationpage.cpp" line="181"/>
        <source>Done.</source>
        <translation>完成。</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardgenerationpage.cpp" line="183"/>
        <source>It stopped at the token limit.</source>
        <translation>已在达到词元上限时停止。</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardgenerationpage.cpp" line="185"/>
        <source>The provider&apos;s content filter withheld the rest.</source>
        <translation>其余内容已被服务商的内容过滤器拦截。</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardgenerationpage.cpp" line="195"/>
        <source>Stopped. Edit the text, or press Regenerate.</source>
        <translation>已停止。可编辑文本，或点击“重新生成”。</translation>
    </message>
</context>
<context>
    <name>Gui::WizardTitlePage</name>
    <message>
        <location filename="../gui/wizard/wizardtitlepage.cpp" line="21"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtitlepage.cpp" line="22"/>
        <source>Pick an option or type your own title</source>
        <translation>选择一个选项或输入你自己的标题</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtitlepage.cpp" line="23"/>
        <source>&amp;Title:</source>
        <translation>标题(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>Gui::WizardTopicPage</name>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="19"/>
        <source>Topic and audience</source>
        <translation>主题与读者</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="20"/>
        <source>Say what the document is about and who will read it. The outline starts as soon as you pause.</source>
        <translation>说明文档的主题以及读者是谁。你一停顿，大纲就会开始生成。</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="22"/>
        <source>What the document is about (required)</source>
        <translation>文档的主题（必填）</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="23"/>
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="24"/>
        <source>Who will read it, e.g. engineers new to the project</source>
        <translation>谁会阅读它，例如刚加入项目的工程师</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="25"/>
        <source>Audience</source>
        <translation>读者</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="27"/>
        <source>Neutral</source>
        <translation>中性</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="28"/>
        <source>Friendly</source>
        <translation>友好</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="29"/>
        <source>Formal</source>
        <translation>正式</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="30"/>
        <source>Persuasive</source>
        <translation>有说服力</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="31"/>
        <source>Playful</source>
        <translation>轻松活泼</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="32"/>
        <source>Tone</source>
        <translation>语气</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="33"/>
        <source>Short (about 500 words)</source>
        <translation>短（约 500 字）</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="34"/>
        <source>Medium (about 1,500 words)</source>
        <translation>中（约 1,500 字）</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="35"/>
        <source>Long (about 3,000 words)</source>
        <translation>长（约 3,000 字）</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="37"/>
        <source>Length</source>
        <translation>篇幅</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="41"/>
        <source>&amp;Topic:</source>
        <translation>主题(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="42"/>
        <source>&amp;Audience:</source>
        <translation>读者(&amp;A)：</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="43"/>
        <source>T&amp;one:</source>
        <translation>语气(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../gui/wizard/wizardtopicpage.cpp" line="44"/>
        <source>&amp;Length:</source>
        <translation>篇幅(&amp;L)：</translation>
    </message>
</context>
<context>
    <name>Knowledge::FileReader</name>
    <message>
        <location filename="../knowledge/filereader.cpp" line="190"/>
        <source>Not text: the file holds binary data.</source>
        <translation>不是文本：文件包含二进制数据。</translation>
    </message>
    <message>
        <location filename="../knowledge/filereader.cpp" line="192"/>
        <source>Too large: files over %1 MB are not indexed.</source>
        <translation>文件过大：超过 %1 MB 的文件不会建立索引。</translation>
    </message>
    <message>
        <location filename="../knowledge/filereader.cpp" line="195"/>
        <source>Cannot be read: check the file&apos;s permissions.</source>
        <translation>无法读取：请检查文件的权限。</translation>
    </message>
    <message>
        <location filename="../knowledge/filereader.cpp" line="197"/>
        <source>Unknown encoding: the text is not UTF-8, UTF-16 or GB18030.</source>
        <translation>未知编码：文本不是 UTF-8、UTF-16 或 GB18030。</translation>
    </message>
    <message>
        <location filename="../knowledge/filereader.cpp" line="200"/>
        <source>Deleted or replaced while it was being indexed.</source>
        <translation>建立索引期间文件被删除或替换。</translation>
    </message>
    <message>
        <location filename="../knowledge/filereader.cpp" line="202"/>
        <source>Encrypted: the PDF needs a password to be opened.</source>
        <translation>已加密：需要密码才能打开该 PDF。</translation>
    </message>
    <message>
        <location filename="../knowledge/filereader.cpp" line="205"/>
        <source>Damaged: the PDF cannot be read.</source>
        <translation>已损坏：无法读取该 PDF。</translation>
    </message>
    <message>
        <location filename="../knowledge/filereader.cpp" line="207"/>
        <source>No text: the PDF&apos;s pages are images (a scan?).</source>
        <translation>没有文字：该 PDF 的页面是图像（扫描件？）。</translation>
    </message>
</context>
<context>
    <name>Knowledge::IndexDatabase</name>
    <message>
        <location filename="../knowledge/indexdatabase.cpp" line="154"/>
        <source>The knowledge index cannot be created: the folder %1 cannot be made.</source>
        <translation>无法创建知识库索引：无法创建文件夹 %1。</translation>
    </message>
    <message>
        <location filename="../knowledge/indexdatabase.cpp" line="184"/>
        <source>The knowledge index %1 cannot be opened: %2</source>
        <translation>无法打开知识库索引 %1：%2</translation>
    </message>
    <message>
        <location filename="../knowledge/indexdatabase.cpp" line="187"/>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <location filename="../knowledge/indexdatabase.cpp" line="193"/>
        <source>The knowledge index was damaged (%1). It was replaced by a new one and your folders are being indexed again.</source>
        <translation>知识库索引已损坏（%1）。已用新的索引替换，正在重新为你的文件夹建立索引。</translation>
    </message>
    <message>
        <location filename="../knowledge/indexdatabase.cpp" line="198"/>
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <location filename="../knowledge/indexdatabase.cpp" line="205"/>
        <source>The knowledge index cannot be opened.</source>
        <translation>无法打开知识库索引。</translation>
    </message>
    <message>
        <location filename="../knowledge/indexdatabase.cpp" line="490"/>
        <source>The knowledge index cannot be searched: %1</source>
        <translation>无法搜索知识库索引：%1</translation>
    </message>
</context>
<context>
    <name>Llm::Error</name>
    <message>
        <location filename="../llm/error.cpp" line="155"/>
        <source>the provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="255"/>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="257"/>
        <source>%1 rejected the API key (HTTP %2). Check the key for %1 in Settings, Providers.</source>
        <translation>%1 拒绝了 API 密钥（HTTP %2）。请在“设置 › 服务商”中检查 %1 的密钥。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="262"/>
        <source>%1 does not know the requested model (HTTP %2). Check the model name in Settings, Providers.</source>
        <translation>%1 不认识所请求的模型（HTTP %2）。请在“设置 › 服务商”中检查模型名称。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="269"/>
        <source>%1 is limiting the request rate. Try again in %2 s.</source>
        <translation>%1 正在限制请求频率。请在 %2 秒后重试。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="271"/>
        <source>%1 is limiting the request rate. Wait a moment and try again.</source>
        <translation>%1 正在限制请求频率。请稍候再试。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="276"/>
        <source>The prompt is too long for the model at %1. Shorten the document or the selection, or choose a model with a larger context window.</source>
        <translation>提示词超出了 %1 上该模型的上下文长度。请缩短文档或选区，或选择上下文窗口更大的模型。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="282"/>
        <source>%1 rejected the request (HTTP %2).</source>
        <translation>%1 拒绝了请求（HTTP %2）。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="285"/>
        <source>%1 had a server error (HTTP %2). Try again; if it keeps failing, check the provider&apos;s status page.</source>
        <translation>%1 服务器出错（HTTP %2）。请重试；如果持续失败，请查看服务商的状态页面。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="291"/>
        <source>Cannot reach %1. Check the network connection and the provider&apos;s base URL in Settings, Providers.</source>
        <translation>无法连接 %1。请检查网络连接，以及“设置 › 服务商”中的基础 URL。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="298"/>
        <source>The secure connection to %1 failed. Check the base URL and the system clock.</source>
        <translation>与 %1 的安全连接失败。请检查基础 URL 和系统时间。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="304"/>
        <source>%1 did not answer in time. Try again; a long document, or a model that thinks before it answers, can need longer timeouts (Settings, Providers).</source>
        <translation>%1 未能及时回答。请重试；长文档或先思考再作答的模型可能需要更长的超时（设置 › 服务商）。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="310"/>
        <source>The connection to %1 broke before the answer was complete. The text so far is kept.</source>
        <translation>回答完成之前与 %1 的连接中断了。已保留目前收到的文本。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="316"/>
        <source>%1 sent a response Headstart cannot read. The text so far is kept.</source>
        <translation>%1 返回了 Headstart 无法解析的响应。已保留目前收到的文本。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="321"/>
        <source>%1 reported an error while answering. The text so far is kept.</source>
        <translation>%1 在回答过程中报告了错误。已保留目前收到的文本。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="326"/>
        <source>This request cannot be sent to %1.</source>
        <translation>无法向 %1 发送此请求。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="331"/>
        <source>The address of %1 does not look like an Anthropic Messages API (%2). Check the base URL in Settings, Providers.</source>
        <translation>%1 的地址看起来不是 Anthropic Messages API（%2）。请在“设置 › 服务商”中检查基础 URL。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="335"/>
        <source>The address of %1 does not look like an OpenAI-compatible API (%2). Check the base URL in Settings, Providers.</source>
        <translation>%1 的地址看起来不是兼容 OpenAI 的 API（%2）。请在“设置 › 服务商”中检查基础 URL。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="340"/>
        <source>The base URL of %1 is plain http:// to %2: the API key and the text would cross the network unencrypted. Use https://, or allow insecure HTTP for %1 in Settings, Providers.</source>
        <translation>%1 的基础 URL 是指向 %2 的明文 http://：API 密钥和文本将以未加密方式在网络上传输。请使用 https://，或在“设置 › 服务商”中为 %1 允许不安全的 HTTP。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="346"/>
        <source>%1 needs an API key. Add it in Settings, Providers.</source>
        <translation>%1 需要 API 密钥。请在“设置 › 服务商”中添加。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="349"/>
        <source>Cannot reach %1: the proxy %2 refused the connection — check Settings → Network.</source>
        <translation>无法连接 %1：代理 %2 拒绝了连接——请检查“设置 › 网络”。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="353"/>
        <source>Cannot reach %1: the proxy %2 cannot be reached — check Settings → Network.</source>
        <translation>无法连接 %1：无法访问代理 %2——请检查“设置 › 网络”。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="357"/>
        <source>Cannot reach %1: the proxy %2 did not accept the user name and password — check Settings → Network.</source>
        <translation>无法连接 %1：代理 %2 不接受该用户名和密码——请检查“设置 › 网络”。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="361"/>
        <source>%1 redirected the request (%2). Headstart sends the API key and the text only to the base URL&apos;s own address. Check the base URL in Settings, Providers.</source>
        <translation>%1 重定向了请求（%2）。Headstart 只会把 API 密钥和文本发送到基础 URL 本身的地址。请在“设置 › 服务商”中检查基础 URL。</translation>
    </message>
    <message>
        <location filename="../llm/error.cpp" line="368"/>
        <source>Details: %1</source>
        <translation>详情：%1</translation>
    </message>
</context>
<context>
    <name>Llm::ProviderProfile</name>
    <message>
        <location filename="../llm/providerprofile.cpp" line="117"/>
        <source>Local demo engine (offline, not a language model)</source>
        <translation>本地演示引擎（离线，并非语言模型）</translation>
    </message>
    <message>
        <location filename="../llm/providerprofile.cpp" line="202"/>
        <location filename="../workspace/settings/userendpoints.cpp" line="87"/>
        <source>Custom (OpenAI-compatible)</source>
        <translation>自定义（兼容 OpenAI）</translation>
    </message>
</context>
<context>
    <name>Llm::ProviderRequest</name>
    <message>
        <location filename="../llm/providerrequest.cpp" line="118"/>
        <source>The base URL is not set or not an http(s) URL.</source>
        <translation>基础 URL 未设置，或不是 http(s) 地址。</translation>
    </message>
    <message>
        <location filename="../llm/providerrequest.cpp" line="496"/>
        <source>The server answered with %1 instead of an event stream.</source>
        <translation>服务器返回了 %1，而不是事件流。</translation>
    </message>
</context>
<context>
    <name>Main</name>
    <message>
        <location filename="../app/main.cpp" line="76"/>
        <source>Headstart is already running; close it to take the screenshots.</source>
        <translation>Headstart 已在运行；请先关闭它再截图。</translation>
    </message>
</context>
<context>
    <name>Prefetch::Metrics</name>
    <message>
        <location filename="../prefetch/metrics.cpp" line="384"/>
        <source>Context warm-up</source>
        <translation>上下文预热</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="385"/>
        <source>Hover prefetch</source>
        <translation>悬停预取</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="386"/>
        <source>Typing prefetch</source>
        <translation>输入预取</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="387"/>
        <source>Workflow prefetch</source>
        <translation>流程预取</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="388"/>
        <source>Pointer trajectory</source>
        <translation>指针轨迹</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="389"/>
        <source>Finished selection</source>
        <translation>选定文本后</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="390"/>
        <source>Keyboard focus and shortcuts</source>
        <translation>键盘焦点与快捷键</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="391"/>
        <source>Opened document</source>
        <translation>打开文档时</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="392"/>
        <source>Your habits</source>
        <translation>你的使用习惯</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="393"/>
        <location filename="../prefetch/metrics.cpp" line="395"/>
        <source>No prefetch</source>
        <translation>无预取</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="405"/>
        <source>%1 %</source>
        <comment>a percentage</comment>
        <translation>%1%</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="423"/>
        <source>%1 alarm: hit rate %2 is below %3 after %4 attempts.</source>
        <translation>%1 告警：%4 次尝试后命中率为 %2，低于 %3。</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="442"/>
        <source>%1 paused: %2 tokens were wasted and none used yet; it resumes when extra cost is below %3.</source>
        <translation>%1 已暂停：已浪费 %2 个词元，尚未用上任何词元；额外开销低于 %3 时恢复。</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="448"/>
        <source>%1 paused: extra cost %2 is above %3; it resumes below %4.</source>
        <translation>%1 已暂停：额外成本 %2 高于 %3；低于 %4 时恢复。</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="458"/>
        <source>%1: hit rate %2 is below %3, but the alarm waits for %4 attempts (%5 so far).</source>
        <translation>%1：命中率 %2 低于 %3，但告警要等到 %4 次尝试（目前 %5 次）。</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="463"/>
        <source>%1: extra cost %2 is above %3, but the pause waits for %4 attempts (%5 so far).</source>
        <translation>%1：额外成本 %2 高于 %3，但暂停要等到 %4 次尝试（目前 %5 次）。</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="478"/>
        <source>%1: hit rate %2 is back at or above %3.</source>
        <translation>%1：命中率 %2 已回到 %3 或以上。</translation>
    </message>
    <message>
        <location filename="../prefetch/metrics.cpp" line="486"/>
        <source>%1 resumed: extra cost %2 is below %3.</source>
        <translation>%1 已恢复：额外开销 %2 低于 %3。</translation>
    </message>
</context>
<context>
    <name>Prefetch::SpeculationPlan</name>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="39"/>
        <source>Waits for your answer: may %1 receive text before you send it?</source>
        <translation>等待你的答复：是否允许在你发送之前把文本发给 %1？</translation>
    </message>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="40"/>
        <source>Not allowed for %1 (Settings, Prefetch allows it).</source>
        <translation>%1 未获允许（可在“设置 › 预取”中允许）。</translation>
    </message>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="43"/>
        <source>Switched off in Settings, Prefetch.</source>
        <translation>已在“设置 › 预取”中关闭。</translation>
    </message>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="46"/>
        <source>Not with %1: it cannot continue an answer, and a whole answer on a signal this weak costs more than it saves.</source>
        <translation>%1 不适用：它无法续写回答，而凭这么弱的信号请求完整回答，花费比节省的时间更多。</translation>
    </message>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="52"/>
        <source>Sends the open document once, so that %1 has it cached before you ask.</source>
        <translation>发送一次已打开的文档，让 %1 在你提问前就已缓存它。</translation>
    </message>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="54"/>
        <source>Asks for the first words only; the rest comes when you click.</source>
        <translation>只请求开头几个词；其余部分在你点击时再请求。</translation>
    </message>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="56"/>
        <source>Asks for the answer&apos;s beginning; the rest comes when you ask.</source>
        <translation>请求回答的开头部分；其余部分在你提问时再请求。</translation>
    </message>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="58"/>
        <source>Asks for the whole answer (%1 cannot continue one) and closes it if you do not ask.</source>
        <translation>请求完整回答（%1 无法续写回答），如果你没有提问就关闭它。</translation>
    </message>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="63"/>
        <source>Paused: %1 is limiting requests (%2 s more).</source>
        <translation>已暂停：%1 正在限制请求频率（还需 %2 秒）。</translation>
    </message>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="64"/>
        <source>Paused: %1.</source>
        <translation>已暂停：%1。</translation>
    </message>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="72"/>
        <source>Early answers: waiting for your answer</source>
        <translation>提前回答：等待你的答复</translation>
    </message>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="73"/>
        <source>Early answers: not allowed for %1</source>
        <translation>提前回答：%1 未获允许</translation>
    </message>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="75"/>
        <source>Early answers: paused, %1 is limiting requests</source>
        <translation>提前回答：已暂停，%1 正在限制请求频率</translation>
    </message>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="77"/>
        <source>Early answers: paused</source>
        <translation>提前回答：已暂停</translation>
    </message>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="79"/>
        <source>Early answers: off</source>
        <translation>提前回答：关闭</translation>
    </message>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="81"/>
        <source>Early answers: whole answers on strong signals</source>
        <translation>提前回答：仅在强信号时请求完整回答</translation>
    </message>
    <message>
        <location filename="../prefetch/speculationplan.cpp" line="83"/>
        <source>Early answers: on</source>
        <translation>提前回答：开启</translation>
    </message>
</context>
<context>
    <name>Prefetch::WarmupStrategy</name>
    <message>
        <location filename="../prefetch/strategies/warmupstrategy.cpp" line="119"/>
        <source>Warm-up is switched off.</source>
        <translation>预热已关闭。</translation>
    </message>
    <message>
        <location filename="../prefetch/strategies/warmupstrategy.cpp" line="124"/>
        <source>The document (about %1 tokens) is below the %2 tokens %3 caches.</source>
        <translation>文档（约 %1 个词元）低于 %3 缓存所需的 %2 个词元。</translation>
    </message>
    <message>
        <location filename="../prefetch/strategies/warmupstrategy.cpp" line="136"/>
        <source>Extended thinking is on: a warm-up would think at full length each time.</source>
        <translation>扩展思考已开启：每次预热都会完整思考一遍。</translation>
    </message>
    <message>
        <location filename="../prefetch/strategies/warmupstrategy.cpp" line="144"/>
        <source>Prefetch is paused.</source>
        <translation>预取已暂停。</translation>
    </message>
    <message>
        <location filename="../prefetch/strategies/warmupstrategy.cpp" line="155"/>
        <source>The prefetch budget or lane refused the warm-up.</source>
        <translation>预取预算或通道拒绝了这次预热。</translation>
    </message>
</context>
<context>
    <name>System::DesktopConditions</name>
    <message>
        <location filename="../system/desktopconditions.cpp" line="139"/>
        <source>low battery</source>
        <translation>电量不足</translation>
    </message>
    <message>
        <location filename="../system/desktopconditions.cpp" line="141"/>
        <source>on battery</source>
        <translation>使用电池</translation>
    </message>
    <message>
        <location filename="../system/desktopconditions.cpp" line="143"/>
        <source>battery saver</source>
        <translation>省电模式</translation>
    </message>
    <message>
        <location filename="../system/desktopconditions.cpp" line="145"/>
        <source>metered connection</source>
        <translation>按流量计费的连接</translation>
    </message>
</context>
</TS>
