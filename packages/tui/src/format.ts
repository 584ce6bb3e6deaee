// Small number formats the cards and the status line share.

/** `0.4s`, `12.3s`, `2m 05s`. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(Math.max(0, ms) / 1000).toFixed(1)}s`
  const minutes = Math.floor(ms / 60_000)
  const seconds = Math.floor((ms % 60_000) / 1000)
  return `${minutes}m ${String(seconds).padStart(2, '0')}s`
}

/** `950`, `12.3k`, `1.2M`. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n)
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`
  return `${(n / 1_000_000).toFixed(1)}M`
}

/** `$0.0042`, `$1.27`: four decimals under a cent so a cheap session does not read as free. */
export function formatCost(usd: number): string {
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`
}

/**
 * What a terminal obeys rather than draws: U+0000–U+001F but newline, DEL, and U+0080–U+009F; and the
 * bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which reorder what
 * follows them on screen so text can read other than it is ("Trojan Source").
 */
const CONTROLS = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g
const hex = (c: string) => {
  const code = c.charCodeAt(0)
  return code > 0xff ? `\\u${code.toString(16)}` : `\\x${code.toString(16).padStart(2, '0')}`
}

/**
 * Text the model, a tool, a hook or a repository chose, made safe to draw (docs/security.md "Hostile text
 * on the terminal"): every control character written out as `\xNN` — so `ESC[2K` + `\r` cannot erase the
 * line it is on and `ESC]0;…BEL` cannot retitle the window — and shown, so the person sees that the text
 * carried one. Newlines stay (the layout breaks lines there), `\r\n` reads as a newline, a tab as two spaces.
 */
export function escapeControls(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/\t/g, '  ').replace(CONTROLS, hex)
}

/** `value` with every string in it (array items, object values) passed through `escapeControls`. */
export function escapeDeep<T>(value: T): T {
  if (typeof value === 'string') return escapeControls(value) as T
  if (Array.isArray(value)) return value.map(escapeDeep) as T
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, v] of Object.entries(value)) out[key] = escapeDeep(v)
    return out as T
  }
  return value
}

/**
 * A command's output made safe to draw: its colour and cursor sequences removed — a program's own
 * colours are noise in a card, not a trick — tabs as two spaces, and any control character left
 * written out as `\xNN`.
 */
export function printable(text: string): string {
  return escapeControls(
    text.replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '').replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, ''),
  )
}

/** The sequences tack's own drawing puts in a line: colours (SGR), OSC 8 links and pi-tui's cursor mark. */
const OWN_SEQUENCE = /^\x1b(?:\[[0-9;:]*m|\]8;[^\x07\x1b]*(?:\x07|\x1b\\)|_pi:c\x07)/

/**
 * A drawn line with every control character that is not part of tack's own styling written out: the
 * last guard, for the whole screen, against text a component forgot to pass through `escapeControls`
 * (a cursor move, a line erase, a title change). It cannot tell a hostile colour code from the theme's:
 * that is why text is escaped where it enters the screen too.
 */
export function safeLine(line: string): string {
  if (!/[\x00-\x1f\x7f-\x9f]/.test(line)) return line
  let out = ''
  let i = 0
  while (i < line.length) {
    const c = line[i] as string
    const code = c.charCodeAt(0)
    if (code === 0x1b) {
      const own = OWN_SEQUENCE.exec(line.slice(i))
      if (own) {
        out += own[0]
        i += own[0].length
        continue
      }
    }
    out += code < 0x20 || (code >= 0x7f && code <= 0x9f) ? hex(c) : c
    i++
  }
  return out
}
