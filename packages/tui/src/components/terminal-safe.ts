// The screen's last guard (docs/security.md "Hostile text on the terminal"): everything the app draws
// sits inside one TerminalSafe, whose lines pass through `safeLine` on their way to pi-tui, so a
// component that forgets to escape text from the model, a tool or a repository still cannot move the
// cursor, erase a line or retitle the terminal with it. pi-tui's own styling codes pass untouched.
import type { Component } from '@mariozechner/pi-tui'
import { safeLine } from '../format.ts'

export class TerminalSafe implements Component {
  readonly #inner: Component

  constructor(inner: Component) {
    this.#inner = inner
  }

  render(width: number): string[] {
    return this.#inner.render(width).map(safeLine)
  }

  invalidate(): void {
    this.#inner.invalidate()
  }
}
