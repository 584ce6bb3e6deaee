// Text from files tack did not write (a cloned repository's config keys, paths) goes to the user's
// terminal inside messages; a control character there would be obeyed by the terminal — an escape
// sequence in a YAML key could retitle the window or write the clipboard. Every message built from such
// text passes through `printable`, which shows control characters as `\xNN` instead of sending them.

/**
 * `text` with control characters (U+0000 to U+001F and U+007F to U+009F, but newline and tab) shown as
 * `\xNN`, and the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) as
 * `\uNNNN`: those reorder what follows on screen, so a skill's description could read other than it is
 * (the TUI escapes the same set, packages/tui/src/format.ts).
 */
export function printable(text: string): string {
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0)
    return code > 0xff ? `\\u${code.toString(16)}` : `\\x${code.toString(16).padStart(2, '0')}`
  })
}

/**
 * `io` whose `out` and `err` pass every line through `printable`: for a plain-text report built from
 * files tack did not write (doctor, hooks, mods, sessions and trust lists). Not for `--json` output
 * (its escapes would break the JSON) nor for data a person pipes on (an export, the model's answer).
 */
export function printableIO<T extends { out(text: string): void; err(text: string): void }>(io: T): T {
  return {
    ...io,
    out: (text: string) => io.out(printable(text)),
    err: (text: string) => io.err(printable(text)),
  }
}
