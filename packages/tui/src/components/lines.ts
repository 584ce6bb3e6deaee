// A component drawn by a function of the width, for parts whose state lives elsewhere (the view model,
// the activity): the status line, the todo panel, the activity line.
import type { Component } from '@mariozechner/pi-tui'

export class Lines implements Component {
  readonly #draw: (width: number) => string[]

  constructor(draw: (width: number) => string[]) {
    this.#draw = draw
  }

  render(width: number): string[] {
    return this.#draw(width)
  }

  invalidate(): void {}
}
