#include "chattexts.h"

namespace Bench::Gen {

namespace {

// Message templates: 22 about the open document, 18 free; {slot}s are filled from the lists
// below, and a slot named like another with a 2 gets a different value from the same list.
const QList<const char *> EnglishDocumentTemplates = {
    "Summarize {part} in {count} sentences.",
    "What is the main argument of {part}?",
    "Is {part} too long for {audience}?",
    "Suggest a better title for {part}.",
    "Make {part} sound more {tone}.",
    "Which sentences in {part} could I cut?",
    "Does {part} contradict {part2}?",
    "List the key terms in {part}.",
    "How can I make {part} easier to follow?",
    "Shorten the first sentence of {part}.",
    "What evidence supports {part}?",
    "What would a reader ask about {part}?",
    "Is the tone of {part} right for {audience}?",
    "Point out any repetition in {part}.",
    "Where could {part} use an example?",
    "Explain {part} simply.",
    "Should I move {part} before {part2}?",
    "Check {part} for unclear pronouns.",
    "Draft a transition from {part} to {part2}.",
    "What is the weakest point in {part}?",
    "Turn {part} into a bulleted list.",
    "What is missing from {part}?",
};

const QList<const char *> EnglishFreeTemplates = {
    "How do I open {genre}?",
    "What is the difference between {pair}?",
    "Give me {count} synonyms for {word}.",
    "How long should {genre} be?",
    "Outline {genre} about {topic}.",
    "What tone works best for {audience}?",
    "Can I start a sentence with {starter}?",
    "Suggest a title for {genre} about {topic}.",
    "How should I end {genre}?",
    "What are common mistakes in {genre}?",
    "When do I use a semicolon?",
    "Help me say no politely to {audience}.",
    "Fix this sentence: {sentence}",
    "How formal should {genre} be?",
    "Give me a friendlier way to say {phrase}.",
    "What makes {genre} persuasive?",
    "Which is clearer, {phrase} or {phrase2}?",
    "Turn {topic} into a catchy headline.",
};

const QHash<QString, QStringList> &englishSlots()
{
    static const QHash<QString, QStringList> values{
        {QStringLiteral("part"),
         {QStringLiteral("the introduction"), QStringLiteral("the second section"), QStringLiteral("the conclusion"),
          QStringLiteral("this chapter"), QStringLiteral("the methods"), QStringLiteral("the summary"),
          QStringLiteral("the last paragraph"), QStringLiteral("the results")}},
        {QStringLiteral("count"), {QStringLiteral("two"), QStringLiteral("three"), QStringLiteral("five")}},
        {QStringLiteral("audience"),
         {QStringLiteral("new customers"), QStringLiteral("our engineers"), QStringLiteral("a general reader"),
          QStringLiteral("the board"), QStringLiteral("students"), QStringLiteral("my manager")}},
        {QStringLiteral("tone"),
         {QStringLiteral("friendly"), QStringLiteral("formal"), QStringLiteral("confident"), QStringLiteral("neutral"),
          QStringLiteral("persuasive")}},
        {QStringLiteral("genre"),
         {QStringLiteral("a cover letter"), QStringLiteral("a product update"), QStringLiteral("a blog post"),
          QStringLiteral("a short story"), QStringLiteral("a project proposal"), QStringLiteral("a thank-you email"),
          QStringLiteral("release notes")}},
        {QStringLiteral("topic"),
         {QStringLiteral("prompt caching"), QStringLiteral("remote work"), QStringLiteral("our spring release"),
          QStringLiteral("city gardens"), QStringLiteral("saving energy"), QStringLiteral("a team offsite")}},
        {QStringLiteral("pair"),
         {QStringLiteral("affect and effect"), QStringLiteral("fewer and less"), QStringLiteral("which and that"),
          QStringLiteral("imply and infer"), QStringLiteral("ensure and insure")}},
        {QStringLiteral("word"),
         {QStringLiteral("important"), QStringLiteral("quickly"), QStringLiteral("improve"), QStringLiteral("clear"),
          QStringLiteral("show")}},
        {QStringLiteral("starter"),
         {QStringLiteral("and"), QStringLiteral("but"), QStringLiteral("because"), QStringLiteral("so")}},
        {QStringLiteral("sentence"),
         {QStringLiteral("the results was better than we expected."), QStringLiteral("me and the team finished early."),
          QStringLiteral("their going to ship it next week.")}},
        {QStringLiteral("phrase"),
         {QStringLiteral("'we cannot do that'"), QStringLiteral("'please respond asap'"),
          QStringLiteral("'this is wrong'"), QStringLiteral("'you missed the deadline'")}},
    };
    return values;
}

// Assumption: everyday requests of a Chinese writer about a document and about writing, in the
// words a pinyin IME offers as candidates.
const QList<const char *> ChineseDocumentTemplates = {
    "用|{count}|句话|总结|{part}|。",
    "{part}|的|主要|观点|是|什么|？",
    "{part}|对|{audience}|来说|太长|了|吗|？",
    "给|{part}|起|一个|更好|的|标题|。",
    "把|{part}|改得|更|{tone}|一些|。",
    "{part}|里|哪些|句子|可以|删掉|？",
    "{part}|和|{part2}|有|矛盾|吗|？",
    "列出|{part}|的|关键|术语|。",
    "怎么|让|{part}|更|容易|理解|？",
    "{part}|需要|一个|例子|吗|？",
    "检查|一下|{part}|的|语法|。",
    "读者|看完|{part}|会|有|什么|问题|？",
    "把|{part}|翻译|成|英文|。",
    "{part}|的|逻辑|清楚|吗|？",
    "帮|我|把|{part}|改成|要点|列表|。",
    "{part}|缺少|什么|内容|？",
    "写|一段|从|{part}|到|{part2}|的|过渡|。",
    "{part}|的|语气|适合|{audience}|吗|？",
};

const QList<const char *> ChineseFreeTemplates = {
    "{genre}|应该|怎么|开头|？",
    "{pair}|有|什么|区别|？",
    "给|我|{count}|个|{word}|的|近义词|。",
    "{genre}|一般|写|多长|？",
    "帮|我|列|一个|关于|{topic}|的|{genre}|提纲|。",
    "写|给|{audience}|用|什么|语气|比较|好|？",
    "怎么|礼貌|地|拒绝|{audience}|？",
    "给|关于|{topic}|的|{genre}|起|个|标题|。",
    "{genre}|怎么|结尾|比较|好|？",
    "写|{genre}|常见|的|错误|有|哪些|？",
    "把|{topic}|写成|一个|吸引人|的|标题|。",
    "这|句话|通顺|吗|：|{sentence}",
};

const QHash<QString, QStringList> &chineseSlots()
{
    static const QHash<QString, QStringList> values{
        {QStringLiteral("part"),
         {QStringLiteral("引言"), QStringLiteral("第二|部分"), QStringLiteral("结论"), QStringLiteral("这|一章"),
          QStringLiteral("方法|部分"), QStringLiteral("摘要"), QStringLiteral("最后|一段"),
          QStringLiteral("结果|部分")}},
        {QStringLiteral("count"), {QStringLiteral("两"), QStringLiteral("三"), QStringLiteral("五")}},
        {QStringLiteral("audience"),
         {QStringLiteral("新|客户"), QStringLiteral("工程师"), QStringLiteral("普通|读者"), QStringLiteral("董事会"),
          QStringLiteral("学生"), QStringLiteral("我的|经理")}},
        {QStringLiteral("tone"),
         {QStringLiteral("友好"), QStringLiteral("正式"), QStringLiteral("自信"), QStringLiteral("中立"),
          QStringLiteral("有|说服力")}},
        {QStringLiteral("genre"),
         {QStringLiteral("求职信"), QStringLiteral("产品|更新"), QStringLiteral("博客|文章"),
          QStringLiteral("短篇|小说"), QStringLiteral("项目|提案"), QStringLiteral("感谢信"),
          QStringLiteral("发布|说明")}},
        {QStringLiteral("topic"),
         {QStringLiteral("提示|缓存"), QStringLiteral("远程|办公"), QStringLiteral("春季|发布"),
          QStringLiteral("城市|花园"), QStringLiteral("节约|能源"), QStringLiteral("团队|出游")}},
        {QStringLiteral("pair"),
         {QStringLiteral("“的”|和|“得”"), QStringLiteral("“再”|和|“在”"), QStringLiteral("“以后”|和|“之后”"),
          QStringLiteral("“必须”|和|“需要”")}},
        {QStringLiteral("word"),
         {QStringLiteral("重要"), QStringLiteral("快速"), QStringLiteral("改进"), QStringLiteral("清楚"),
          QStringLiteral("展示")}},
        {QStringLiteral("sentence"),
         {QStringLiteral("结果|比|我们|预期|的|好|的|多|。"), QStringLiteral("我|和|团队|提前|完成|了|。"),
          QStringLiteral("他们|下周|将|会|发布|它|。")}},
    };
    return values;
}

} // namespace

// Words a user might type first and then replace (the correction in a message).
// Assumption, as englishFollowUps(): what a writer adds on rereading a request (how long, for
// whom, in what form) and what they ask of a paragraph they bring in; written for the generator.
const QStringList RevisionPhrases = {QStringLiteral("briefly"),        QStringLiteral("in plain words"),
                                     QStringLiteral("for a newcomer"), QStringLiteral("with one example"),
                                     QStringLiteral("in more detail"), QStringLiteral("step by step"),
                                     QStringLiteral("politely"),       QStringLiteral("in two sentences")};
const QStringList PasteInstructions = {QStringLiteral("Fix the grammar in this:"),
                                       QStringLiteral("Make this more concise:"),
                                       QStringLiteral("Translate this into French:"),
                                       QStringLiteral("What is the main point here?"),
                                       QStringLiteral("Rewrite this for a general reader:"),
                                       QStringLiteral("Is the tone of this too formal?"),
                                       QStringLiteral("Check this paragraph for errors:"),
                                       QStringLiteral("Summarize this in one sentence:")};

const QStringList SecondThoughts = {QStringLiteral("section"), QStringLiteral("part"),  QStringLiteral("paragraph"),
                                    QStringLiteral("text"),    QStringLiteral("draft"), QStringLiteral("intro"),
                                    QStringLiteral("story"),   QStringLiteral("email"), QStringLiteral("version"),
                                    QStringLiteral("really"),  QStringLiteral("maybe")};

const QList<QStringList> WrongCandidates = {
    {QStringLiteral("在"), QStringLiteral("是"), QStringLiteral("和"), QStringLiteral("得"), QStringLiteral("地"),
     QStringLiteral("吧"), QStringLiteral("把"), QStringLiteral("给")},
    {QStringLiteral("部份"), QStringLiteral("主耀"), QStringLiteral("关建"), QStringLiteral("方发"),
     QStringLiteral("跟好"), QStringLiteral("题目"), QStringLiteral("内荣"), QStringLiteral("读着")},
    {QStringLiteral("有说服"), QStringLiteral("工程式"), QStringLiteral("近意词")},
};

const MessageTexts &englishMessages()
{
    static const MessageTexts texts{EnglishDocumentTemplates, EnglishFreeTemplates, englishSlots()};
    return texts;
}

const MessageTexts &chineseMessages()
{
    static const MessageTexts texts{ChineseDocumentTemplates, ChineseFreeTemplates, chineseSlots()};
    return texts;
}

QString fillTemplate(Random &rng, const char *pattern, const QHash<QString, QStringList> &slotValues)
{
    const QString text = QString::fromUtf8(pattern);
    QString out;
    QHash<QString, QString> chosen;
    qsizetype i = 0;
    while (i < text.size()) {
        const qsizetype open = text.indexOf(u'{', i);
        if (open < 0) {
            out += text.mid(i);
            break;
        }
        const qsizetype close = text.indexOf(u'}', open);
        out += text.mid(i, open - i);
        const QString slot = text.mid(open + 1, close - open - 1);
        const bool second = slot.endsWith(u'2');
        const QString base = second ? slot.chopped(1) : slot;
        QStringList options = slotValues.value(base);
        if (second)
            options.removeAll(chosen.value(base));
        const QString value = rng.pick(options);
        chosen.insert(slot, value);
        out += value;
        i = close + 1;
    }
    return out;
}

const QStringList &englishFollowUps()
{
    // Assumption: no published corpus of chat follow-ups was found; these cover the kinds of
    // reply a reader makes to an answer (asking why, for more or less, for another form or
    // language, about one part, checking, thanking), with and without their final mark.
    static const QStringList replies = {
        QStringLiteral("why?"),
        QStringLiteral("how so?"),
        QStringLiteral("really?"),
        QStringLiteral("go on"),
        QStringLiteral("and then?"),
        QStringLiteral("more examples"),
        QStringLiteral("shorter please"),
        QStringLiteral("make it shorter"),
        QStringLiteral("simpler"),
        QStringLiteral("in French"),
        QStringLiteral("as a table"),
        QStringLiteral("less formal"),
        QStringLiteral("what about cost?"),
        QStringLiteral("any sources?"),
        QStringLiteral("the second one"),
        QStringLiteral("why not?"),
        QStringLiteral("ok, thanks!"),
        QStringLiteral("which one?"),
        QStringLiteral("too long"),
        QStringLiteral("for kids?"),
        QStringLiteral("one more"),
        QStringLiteral("give an example"),
        QStringLiteral("explain step 2"),
        QStringLiteral("bullet points"),
        QStringLiteral("is that true?"),
        QStringLiteral("expand on that"),
        QStringLiteral("a title?"),
        QStringLiteral("tl;dr"),
        QStringLiteral("sure, do it"),
        QStringLiteral("compare them"),
    };
    return replies;
}

} // namespace Bench::Gen
