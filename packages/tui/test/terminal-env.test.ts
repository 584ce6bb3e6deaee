// Terminals people use (issue 16 item 6): NO_COLOR and TERM=dumb turn colour off, a locale that is not
// UTF-8 gets ASCII — glyphs chosen by the theme, and every frame folded so no byte arrives as mojibake.
import type { Terminal } from '@mariozechner/pi-tui'
import { describe, expect, test } from 'vitest'
import { asciiTerminal, foldToAscii } from '../src/ascii-terminal.ts'
import { isUtf8Locale, wantsColor } from '../src/theme.ts'

describe('colour', () => {
  test('NO_COLOR set non-empty, or TERM=dumb, turns colour off; an empty NO_COLOR does not', () => {
    expect(wantsColor({})).toBe(true)
    expect(wantsColor({ TERM: 'xterm-256color' })).toBe(true)
    expect(wantsColor({ NO_COLOR: '1' })).toBe(false)
    expect(wantsColor({ NO_COLOR: '' })).toBe(true)
    expect(wantsColor({ TERM: 'dumb' })).toBe(false)
  })
})

describe('locale', () => {
  test('the first of LC_ALL, LC_CTYPE, LANG that is set decides; none set is ASCII', () => {
    expect(isUtf8Locale({ LANG: 'en_US.UTF-8' })).toBe(true)
    expect(isUtf8Locale({ LANG: 'C.utf8' })).toBe(true)
    expect(isUtf8Locale({ LANG: 'C' })).toBe(false)
    expect(isUtf8Locale({ LC_ALL: 'POSIX', LANG: 'en_US.UTF-8' })).toBe(false)
    expect(isUtf8Locale({ LC_CTYPE: 'de_DE.UTF-8', LANG: 'C' })).toBe(true)
    expect(isUtf8Locale({})).toBe(false)
  })

  test('folding keeps ASCII and escape codes, maps box drawing, and keeps column widths', () => {
    expect(foldToAscii('\x1b[31mplain\x1b[0m')).toBe('\x1b[31mplain\x1b[0m')
    expect(foldToAscii('┌─┐ • → ✓')).toBe('+-+ * > ?')
    // a wide character takes two columns: two question marks keep what follows in its place
    expect(foldToAscii('日本 ok')).toBe('???? ok')
    expect(foldToAscii('café')).toBe('caf?')
  })

  test('an ASCII terminal folds every write and passes the rest through', () => {
    const written: string[] = []
    const inner = {
      write: (d: string) => written.push(d),
      setTitle: (t: string) => written.push(`title:${t}`),
      columns: 61,
      rows: 20,
    } as unknown as Terminal
    const t = asciiTerminal(inner)
    t.write('── done ✓')
    t.setTitle('tack — ws')
    expect(written).toEqual(['-- done ?', 'title:tack - ws'])
    expect(t.columns).toBe(61)
  })
})
