// pi-tui's Markdown styled with tack's theme: with NO_COLOR every style is the identity, and the
// markdown still reads by its structure (indents, bullets, the code block's border).
import type { MarkdownTheme } from '@mariozechner/pi-tui'
import type { Theme } from '../theme.ts'

export function markdownTheme(theme: Theme): MarkdownTheme {
  return {
    heading: (s) => theme.bold(theme.accent(s)),
    link: theme.accent,
    linkUrl: theme.dim,
    code: theme.accent,
    codeBlock: (s) => s,
    codeBlockBorder: theme.dim,
    quote: theme.italic,
    quoteBorder: theme.dim,
    hr: theme.dim,
    listBullet: theme.accent,
    bold: theme.bold,
    italic: theme.italic,
    strikethrough: (s) => s,
    underline: (s) => s,
  }
}
