#pragma once

#include <QStringList>

#include <memory>

namespace LocalProvider {

// Deterministic "answers" made of the prompt's own words: a first-order Markov chain over the
// words (or, for Chinese, the characters) of the prompt, walked by a seeded generator. Not a
// language model; it only has to look like text, be reproducible and differ between prompts.
class TextGenerator
{
public:
    struct Answer {
        QStringList tokens;
        bool truncated = false; // cut by max_tokens rather than ending at a sentence end
    };

    // `corpus` supplies the words; `lastUserText` decides between English and Chinese output.
    TextGenerator(QStringView corpus, QStringView lastUserText);
    ~TextGenerator();
    TextGenerator(const TextGenerator &) = delete;
    TextGenerator &operator=(const TextGenerator &) = delete;

    // 60-300 tokens ending at a sentence end, or the first `maxTokens` of them (0: no limit).
    // A smaller maxTokens yields a prefix of the same answer.
    Answer generate(quint64 seed, int maxTokens) const;
    bool isChinese() const { return m_chinese; }

private:
    struct Chain;
    Answer generateWords(quint64 seed, int maxTokens) const;
    Answer generateHan(quint64 seed, int maxTokens) const;

    std::unique_ptr<Chain> m_chain;
    bool m_chinese = false;
};

} // namespace LocalProvider
