// A terminal for a non-UTF-8 locale (issue 16 item 6): everything written is folded to ASCII before it
// reaches the terminal, so pi-tui's own borders, markdown tables, bullets and the user's text never
// arrive as bytes the terminal shows as mojibake. Box drawing and common punctuation get their ASCII
// look-alikes; any other character becomes `?` — twice for a wide one, so columns still line up with
// what pi-tui measured. Escape sequences are ASCII already and pass through unchanged.
import type { Terminal } from '@mariozechner/pi-tui'
import { visibleWidth } from '@mariozechner/pi-tui'

const FOLDS: Readonly<Record<string, string>> = Object.freeze({
  '─': '-',
  '━': '-',
  '│': '|',
  '┃': '|',
  '┌': '+',
  '┐': '+',
  '└': '+',
  '┘': '+',
  '├': '+',
  '┤': '+',
  '┬': '+',
  '┴': '+',
  '┼': '+',
  '╭': '+',
  '╮': '+',
  '╯': '+',
  '╰': '+',
  '•': '*',
  '·': '.',
  '…': '.',
  '→': '>',
  '←': '<',
  '↑': '^',
  '↓': 'v',
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '–': '-',
  '—': '-',
  '\u00a0': ' ',
})

/** The ASCII text for `text`, keeping each character's column width. */
export function foldToAscii(text: string): string {
  // Fast path: most frames are ASCII already.
  if (!/[^\x00-\x7f]/.test(text)) return text
  let out = ''
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) out += ch
    else out += FOLDS[ch] ?? '?'.repeat(Math.max(0, visibleWidth(ch)))
  }
  return out
}

/** Wraps a terminal so that every write is folded to ASCII. */
export function asciiTerminal(inner: Terminal): Terminal {
  const folded: Partial<Terminal> = {
    write: (data: string) => inner.write(foldToAscii(data)),
    setTitle: (title: string) => inner.setTitle(foldToAscii(title)),
  }
  return new Proxy(inner, {
    get(target, key) {
      if (Object.hasOwn(folded, key)) return folded[key as keyof Terminal]
      const value = Reflect.get(target, key)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
