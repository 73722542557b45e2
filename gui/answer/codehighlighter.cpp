#include "gui/answer/codehighlighter.h"

#include <QSet>
#include <QTextBlock>
#include <QTextDocument>

namespace Gui {

namespace {

// Block states carried from one code line to the next.
enum State { Normal = 0, InBlockComment = 1, InTripleDouble = 2, InTripleSingle = 3 };

struct Language {
    QSet<QString> keywords;
    bool slashComments = false; // "//" and "/* */"
    bool hashComments = false;  // "#" to the end of the line
    bool tripleQuotes = false;  // Python's """ and '''
    bool singleQuotes = true;   // '…' is a string (JSON: no)
    bool backticks = false;     // `…` is a string (JS template, shell command)
    bool preprocessor = false;  // a line starting with "#" is a directive (C, C++)
};

QSet<QString> words(const char *list)
{
    QSet<QString> out;
    for (const QString &w : QString::fromLatin1(list).split(u' ', Qt::SkipEmptyParts))
        out.insert(w);
    return out;
}

const Language &cLike()
{
    static const Language
        l{words("alignas alignof auto bool break case catch char char8_t char16_t char32_t class const consteval "
                "constexpr constinit const_cast continue co_await co_return co_yield decltype default delete do "
                "double dynamic_cast else enum explicit export extern false float for friend goto if inline int "
                "long mutable namespace new noexcept nullptr operator override private protected public register "
                "reinterpret_cast return short signed sizeof static static_assert static_cast struct switch "
                "template this thread_local throw true try typedef typeid typename union unsigned using virtual "
                "void volatile wchar_t while final concept requires size_t NULL"),
          true,
          false,
          false,
          true,
          false,
          true};
    return l;
}

const Language &python()
{
    static const Language l{words("False None True and as assert async await break class continue def del elif "
                                  "else except finally for from global if import in is lambda nonlocal not or "
                                  "pass raise return try while with yield match case self print"),
                            false,
                            true,
                            true,
                            true,
                            false,
                            false};
    return l;
}

const Language &javaScript()
{
    static const Language
        l{words("abstract any as async await boolean break case catch class const constructor continue debugger "
                "declare default delete do else enum export extends false finally for from function get if "
                "implements import in instanceof interface keyof let namespace never new null number of package "
                "private protected public readonly return set static string super switch symbol this throw true "
                "try type typeof undefined unknown var void while with yield"),
          true,
          false,
          false,
          true,
          true,
          false};
    return l;
}

const Language &json()
{
    static const Language l{words("true false null"), false, false, false, false, false, false};
    return l;
}

const Language &shell()
{
    static const Language l{words("if then else elif fi case esac for while until do done in function select "
                                  "return exit export local readonly declare set unset shift source alias echo "
                                  "cd test time"),
                            false,
                            true,
                            false,
                            true,
                            true,
                            false};
    return l;
}

// Strings, numbers and the two common comment styles: better than nothing for any language.
const Language &generic()
{
    static const Language l{{}, true, true, false, true, false, false};
    return l;
}

const Language &languageOf(const QString &info)
{
    // The info string's first word, as in "```python title=x".
    const QString name = info.section(u' ', 0, 0, QString::SectionSkipEmpty).toLower();
    static const QSet<QString> c = words("c cpp c++ cxx cc h hpp hxx objc objective-c java csharp cs c# go rust rs "
                                         "kotlin swift qml glsl cuda");
    static const QSet<QString> py = words("python py python3 py3 ipython");
    static const QSet<QString> js = words("javascript js jsx typescript ts tsx mjs cjs node");
    static const QSet<QString> js0n = words("json jsonc json5 geojson");
    static const QSet<QString> sh = words("sh bash shell zsh ksh console shellsession terminal");
    if (c.contains(name))
        return cLike();
    if (py.contains(name))
        return python();
    if (js.contains(name))
        return javaScript();
    if (js0n.contains(name))
        return json();
    if (sh.contains(name))
        return shell();
    return generic();
}

bool isIdentifierStart(QChar c)
{
    return c.isLetter() || c == u'_' || c == u'$';
}

bool isIdentifierPart(QChar c)
{
    return c.isLetterOrNumber() || c == u'_' || c == u'$';
}

// A hue that stays readable on the palette's background: its lightness follows the background,
// like errorColor() does.
QColor tone(const QPalette &palette, float hue)
{
    const bool dark = palette.color(QPalette::Base).lightnessF() < 0.5;
    return QColor::fromHslF(hue, 0.6f, dark ? 0.7f : 0.35f);
}

} // namespace

bool isCodeBlock(const QTextBlockFormat &format)
{
    return format.nonBreakableLines() || format.hasProperty(QTextFormat::BlockCodeFence);
}

QString codeBlockText(const QTextBlock &first)
{
    const QString language = first.blockFormat().stringProperty(QTextFormat::BlockCodeLanguage);
    QStringList lines;
    for (QTextBlock b = first; b.isValid() && isCodeBlock(b.blockFormat())
                               && b.blockFormat().stringProperty(QTextFormat::BlockCodeLanguage) == language;
         b = b.next()) {
        QString text = b.text();
        text.replace(QChar::LineSeparator, u'\n');
        text.replace(QChar::ParagraphSeparator, u'\n');
        lines << text;
    }
    return lines.join(u'\n');
}

CodeHighlighter::CodeHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document)
{
    setPalette(QPalette());
}

void CodeHighlighter::setPalette(const QPalette &palette)
{
    m_keyword = {};
    m_keyword.setForeground(palette.color(QPalette::Link));
    m_keyword.setFontWeight(QFont::Bold);
    m_string = {};
    m_string.setForeground(tone(palette, 0.33f)); // green
    m_comment = {};
    m_comment.setForeground(palette.color(QPalette::PlaceholderText));
    m_comment.setFontItalic(true);
    m_number = {};
    m_number.setForeground(tone(palette, 0.08f)); // orange
    rehighlight();
}

QTextCharFormat CodeHighlighter::format(Kind kind) const
{
    switch (kind) {
    case Kind::Keyword: return m_keyword;
    case Kind::String: return m_string;
    case Kind::Comment: return m_comment;
    case Kind::Number: return m_number;
    }
    return {};
}

void CodeHighlighter::highlightBlock(const QString &text)
{
    const QTextBlock block = currentBlock();
    if (!isCodeBlock(block.blockFormat())) {
        setCurrentBlockState(Normal);
        return;
    }
    const Language &lang = languageOf(block.blockFormat().stringProperty(QTextFormat::BlockCodeLanguage));
    const qsizetype n = text.size();
    qsizetype i = 0;
    int state = qMax(0, previousBlockState());

    // Continues a construct the previous line left open; returns where it ends (n: still open).
    const auto closeOpen = [&](const QString &closer, const QTextCharFormat &format) {
        const qsizetype end = text.indexOf(closer, i);
        const qsizetype stop = end < 0 ? n : end + closer.size();
        setFormat(int(i), int(stop - i), format);
        i = stop;
        state = end < 0 ? state : Normal;
    };
    if (state == InBlockComment)
        closeOpen(QStringLiteral("*/"), m_comment);
    else if (state == InTripleDouble)
        closeOpen(QStringLiteral("\"\"\""), m_string);
    else if (state == InTripleSingle)
        closeOpen(QStringLiteral("'''"), m_string);

    if (lang.preprocessor && state == Normal && text.trimmed().startsWith(u'#')) {
        // "#include", "# define": the directive word; what follows is highlighted as code.
        const qsizetype start = text.indexOf(u'#');
        qsizetype end = start + 1;
        while (end < n && text[end].isSpace())
            ++end;
        while (end < n && isIdentifierPart(text[end]))
            ++end;
        setFormat(int(start), int(end - start), m_keyword);
        i = qMax(i, end);
    }

    while (state == Normal && i < n) {
        const QChar c = text[i];
        const QStringView rest = QStringView(text).mid(i);
        if (lang.slashComments && rest.startsWith(u"//")) {
            setFormat(int(i), int(n - i), m_comment);
            break;
        }
        if (lang.hashComments && c == u'#' && (i == 0 || text[i - 1].isSpace())) {
            setFormat(int(i), int(n - i), m_comment);
            break;
        }
        if (lang.slashComments && rest.startsWith(u"/*")) {
            state = InBlockComment;
            const qsizetype from = i;
            i += 2;
            closeOpen(QStringLiteral("*/"), m_comment);
            setFormat(int(from), int(i - from), m_comment);
            continue;
        }
        if (lang.tripleQuotes && (rest.startsWith(u"\"\"\"") || rest.startsWith(u"'''"))) {
            const bool dbl = c == u'"';
            state = dbl ? InTripleDouble : InTripleSingle;
            const qsizetype from = i;
            i += 3;
            closeOpen(dbl ? QStringLiteral("\"\"\"") : QStringLiteral("'''"), m_string);
            setFormat(int(from), int(i - from), m_string);
            continue;
        }
        if (c == u'"' || (c == u'\'' && lang.singleQuotes) || (c == u'`' && lang.backticks)) {
            qsizetype end = i + 1;
            while (end < n && text[end] != c)
                end += text[end] == u'\\' ? 2 : 1;
            end = qMin(n, end + 1);
            setFormat(int(i), int(end - i), m_string);
            i = end;
            continue;
        }
        if (c.isDigit() && (i == 0 || !isIdentifierPart(text[i - 1]))) {
            qsizetype end = i + 1;
            while (end < n
                   && (text[end].isLetterOrNumber() || text[end] == u'.' || text[end] == u'\'' || text[end] == u'_'))
                ++end;
            setFormat(int(i), int(end - i), m_number);
            i = end;
            continue;
        }
        if (isIdentifierStart(c)) {
            qsizetype end = i + 1;
            while (end < n && isIdentifierPart(text[end]))
                ++end;
            if (lang.keywords.contains(text.mid(i, end - i)))
                setFormat(int(i), int(end - i), m_keyword);
            i = end;
            continue;
        }
        ++i;
    }
    setCurrentBlockState(state);
}

} // namespace Gui
