// Renders the visible rows of a headless xterm to an SVG: one background rectangle per run of cells with
// a non-default background, one <text> per run of cells with the same foreground and weight. Used by
// `scripts/screenshots.ts`, so README screenshots are what the pty capture holds, colours included.
import type { HeadlessTerminal } from './terminal.ts'

export interface SvgTheme {
  readonly background: string
  readonly foreground: string
  /** The 16 ANSI colours (0–7 normal, 8–15 bright). */
  readonly ansi: readonly string[]
}

/** A dark theme close to common terminal defaults. */
export const DARK_THEME: SvgTheme = {
  background: '#1e1e2e',
  foreground: '#d4d4d4',
  ansi: [
    '#1e1e1e',
    '#e06c75',
    '#98c379',
    '#e5c07b',
    '#61afef',
    '#c678dd',
    '#56b6c2',
    '#d4d4d4',
    '#5c6370',
    '#ff7b86',
    '#b5e890',
    '#ffd787',
    '#82c4ff',
    '#e19ef5',
    '#7fd7e0',
    '#ffffff',
  ],
}

const FONT_SIZE = 14
const CELL_W = 8.4
const CELL_H = 18
const PAD = 12

interface CellStyle {
  readonly fg: string
  readonly bg: string | undefined
  readonly bold: boolean
  readonly italic: boolean
  readonly underline: boolean
  readonly dim: boolean
}

export interface SvgOptions {
  readonly theme?: SvgTheme
  /** Visible rows to draw, `[from, to)`; default all. Negative numbers count from the bottom. */
  readonly rows?: readonly [number, number]
  /** What the picture shows, for readers who cannot see it (the SVG's <title>). */
  readonly title?: string
}

export function screenToSvg(terminal: HeadlessTerminal, options: SvgOptions = {}): string {
  const theme = options.theme ?? DARK_THEME
  const buffer = terminal.buffer.active
  const at = (n: number) => (n < 0 ? terminal.rows + n : n)
  const [first, last] = options.rows ? [at(options.rows[0]), at(options.rows[1])] : [0, terminal.rows]
  const top = buffer.viewportY + first
  const rowCount = Math.max(0, last - first)
  const width = terminal.cols * CELL_W + 2 * PAD
  const height = rowCount * CELL_H + 2 * PAD
  const rects: string[] = []
  const texts: string[] = []
  const cell = buffer.getNullCell()
  for (let row = 0; row < rowCount; row++) {
    const line = buffer.getLine(top + row)
    if (!line) continue
    let run: { x: number; cols: number; text: string; style: CellStyle } | undefined
    const flush = () => {
      if (!run) return
      const x = PAD + run.x * CELL_W
      const y = PAD + row * CELL_H
      if (run.style.bg) {
        rects.push(
          `<rect x="${fmt(x)}" y="${y}" width="${fmt(run.cols * CELL_W)}" height="${CELL_H}" fill="${run.style.bg}"/>`,
        )
      }
      // trailing blanks draw nothing (a background, if any, is the rectangle above)
      const text = run.text.trimEnd()
      if (text) texts.push(textElement(x, y, text, run.style))
      run = undefined
    }
    for (let x = 0; x < terminal.cols; x++) {
      line.getCell(x, cell)
      const w = cell.getWidth()
      if (w === 0) continue // the second half of a wide character
      const style = styleOf(cell, theme)
      const chars = cell.getChars() || ' '
      if (run && sameStyle(run.style, style) && w === 1) {
        run.text += chars
        run.cols += w
      } else {
        flush()
        run = { x, cols: w, text: chars, style }
        // Wide characters get their own run so the next cell starts at its exact column.
        if (w > 1) flush()
      }
    }
    flush()
  }
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${fmt(width)}" height="${height}" viewBox="0 0 ${fmt(width)} ${height}">`,
    ...(options.title ? [`<title>${escapeXml(options.title)}</title>`] : []),
    `<rect width="100%" height="100%" rx="6" fill="${theme.background}"/>`,
    `<g font-family="ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace" font-size="${FONT_SIZE}" xml:space="preserve">`,
    ...rects,
    ...texts,
    '</g>',
    '</svg>',
    '',
  ].join('\n')
}

type Cell = ReturnType<HeadlessTerminal['buffer']['active']['getNullCell']>

function styleOf(cell: Cell, theme: SvgTheme): CellStyle {
  // Bold text in one of the 8 normal colours is drawn bright, as xterm.js and most terminals do.
  const boldBright = cell.isBold() !== 0 && cell.isFgPalette() && cell.getFgColor() < 8 ? 8 : 0
  let fg = cell.isFgDefault()
    ? theme.foreground
    : colour(cell.getFgColor() + boldBright, cell.isFgRGB(), theme)
  let bg = cell.isBgDefault() ? undefined : colour(cell.getBgColor(), cell.isBgRGB(), theme)
  if (cell.isInverse()) [fg, bg] = [bg ?? theme.background, fg]
  return {
    fg,
    bg,
    bold: cell.isBold() !== 0,
    italic: cell.isItalic() !== 0,
    underline: cell.isUnderline() !== 0,
    dim: cell.isDim() !== 0,
  }
}

function sameStyle(a: CellStyle, b: CellStyle): boolean {
  return (
    a.fg === b.fg &&
    a.bg === b.bg &&
    a.bold === b.bold &&
    a.italic === b.italic &&
    a.underline === b.underline &&
    a.dim === b.dim
  )
}

function textElement(x: number, y: number, text: string, style: CellStyle): string {
  const attrs = [`x="${fmt(x)}"`, `y="${fmt(y + CELL_H * 0.75)}"`, `fill="${style.fg}"`]
  if (style.bold) attrs.push('font-weight="bold"')
  if (style.italic) attrs.push('font-style="italic"')
  if (style.underline) attrs.push('text-decoration="underline"')
  if (style.dim) attrs.push('opacity="0.6"')
  return `<text ${attrs.join(' ')}>${escapeXml(text)}</text>`
}

/** An xterm colour number (a palette index, or 0xRRGGBB when `rgb`) as CSS. */
export function colour(value: number, rgb: boolean, theme: SvgTheme): string {
  if (rgb) return hex(value)
  if (value < 16) return theme.ansi[value]
  if (value < 232) {
    // the 6×6×6 cube
    const i = value - 16
    const level = (n: number) => (n === 0 ? 0 : 55 + n * 40)
    return hex((level(Math.floor(i / 36)) << 16) | (level(Math.floor(i / 6) % 6) << 8) | level(i % 6))
  }
  const grey = 8 + (value - 232) * 10
  return hex((grey << 16) | (grey << 8) | grey)
}

function hex(n: number): string {
  return `#${n.toString(16).padStart(6, '0')}`
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1)
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
