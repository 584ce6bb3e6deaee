// How the screen is styled and which glyphs it draws, decided once from the environment (80-cli.md §5,
// issue 16 item 6): `NO_COLOR` (any non-empty value, no-color.org) or `TERM=dumb` turns every colour and
// text attribute off; a locale that is not UTF-8 (`LANG=C`, `LC_ALL=POSIX`, …) draws ASCII glyphs, and
// ascii-terminal.ts folds whatever else is not ASCII. Colours are the 16 basic ones, which every
// 256-colour and true-colour terminal maps to its own palette, so a theme the user picked still applies.

export type Style = (text: string) => string

export interface Glyphs {
  readonly pending: string
  readonly running: string
  readonly done: string
  readonly failed: string
  readonly todoPending: string
  readonly todoActive: string
  readonly todoDone: string
  readonly separator: string
  readonly rule: string
  readonly prompt: string
  /** The highlighted row of a list (the resume picker). */
  readonly pointer: string
  /** The arrow keys in hints (`↑/↓`, ASCII `Up/Down`). */
  readonly upDown: string
  /** Before the ghost suggestion, which ↑ recalls. */
  readonly recall: string
}

export interface Theme {
  readonly color: boolean
  readonly unicode: boolean
  readonly glyphs: Glyphs
  readonly accent: Style
  readonly dim: Style
  readonly bold: Style
  readonly italic: Style
  readonly added: Style
  readonly removed: Style
  readonly warning: Style
  readonly error: Style
  readonly success: Style
  readonly user: Style
}

const UNICODE_GLYPHS: Glyphs = Object.freeze({
  pending: '○',
  running: '●',
  done: '✓',
  failed: '✗',
  todoPending: '☐',
  todoActive: '▶',
  todoDone: '☑',
  separator: '·',
  rule: '─',
  prompt: '›',
  pointer: '→',
  upDown: '↑/↓',
  recall: '↑',
})

const ASCII_GLYPHS: Glyphs = Object.freeze({
  pending: 'o',
  running: '*',
  done: '+',
  failed: 'x',
  todoPending: '[ ]',
  todoActive: '[>]',
  todoDone: '[x]',
  separator: '|',
  rule: '-',
  prompt: '>',
  pointer: '>',
  upDown: 'Up/Down',
  recall: 'Up:',
})

const sgr =
  (open: number, close: number): Style =>
  (text) =>
    `\x1b[${open}m${text}\x1b[${close}m`
const plain: Style = (text) => text

export interface ThemeEnv {
  readonly HOME?: string
  readonly NO_COLOR?: string
  readonly TERM?: string
  readonly LANG?: string
  readonly LC_ALL?: string
  readonly LC_CTYPE?: string
}

/** Whether the terminal gets colours: not with NO_COLOR set non-empty, nor on a dumb terminal. */
export function wantsColor(env: ThemeEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  return env.TERM !== 'dumb'
}

/**
 * Whether the locale is UTF-8. The first of LC_ALL, LC_CTYPE, LANG that is set decides, as in libc;
 * none set means the C locale, which is ASCII — a terminal that could show more still shows ASCII well.
 */
export function isUtf8Locale(env: ThemeEnv): boolean {
  const locale = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((v) => v !== undefined && v !== '')
  return locale !== undefined && /utf-?8/i.test(locale)
}

export function createTheme(opts: { color: boolean; unicode: boolean }): Theme {
  const c = (open: number, close: number) => (opts.color ? sgr(open, close) : plain)
  return Object.freeze({
    color: opts.color,
    unicode: opts.unicode,
    glyphs: opts.unicode ? UNICODE_GLYPHS : ASCII_GLYPHS,
    accent: c(36, 39),
    dim: c(90, 39),
    bold: c(1, 22),
    italic: c(3, 23),
    added: c(32, 39),
    removed: c(31, 39),
    warning: c(33, 39),
    error: c(31, 39),
    success: c(32, 39),
    user: c(1, 22),
  })
}

export function themeFromEnv(env: ThemeEnv): Theme {
  return createTheme({ color: wantsColor(env), unicode: isUtf8Locale(env) })
}
