// Helpers for reading what components draw: the text without escape codes, whether any colour code is
// in it, and the widest line as a terminal measures it.
import { visibleWidth } from '@mariozechner/pi-tui'
import { createTheme } from '../src/theme.ts'

export const colour = createTheme({ color: true, unicode: true })
export const plain = createTheme({ color: false, unicode: true })
export const ascii = createTheme({ color: false, unicode: false })

export function strip(text: string): string {
  return text.replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '').replace(/\x1b_[^\x07\x1b]*(\x07|\x1b\\)/g, '')
}

/** Any SGR sequence that sets a colour or a text attribute (bold, dim, italic) — not a reset. */
export function hasStyle(text: string): boolean {
  for (const m of text.matchAll(/\x1b\[([0-9;]*)m/g)) {
    const codes = m[1].split(';').filter((c) => c !== '' && c !== '0')
    if (codes.some((c) => !['22', '23', '39', '49'].includes(c))) return true
  }
  return false
}

export function widest(lines: readonly string[]): number {
  return Math.max(0, ...lines.map((l) => visibleWidth(l)))
}
